"""Anonymous click resolution: hit-testing a click's point against an element tree.

A click with coordinates but no element name is tested against the element tree of the
same device and window nearest in time within ``TREE_WINDOW_MS``:

- ``exact``: the smallest element whose box holds the point. Boxes are half-open:
  an element at (x, y) of size (w, h) holds x <= px < x + w and y <= py < y + h, so
  its left and top edges are inside, its right and bottom edges are not.
- ``near``: no box holds the point, but one lies within the tolerance ring: at most
  ``tol_x`` pixels away horizontally and ``tol_y`` vertically, where the ring is
  ``NEAR_PX`` pixels on a ``REF_SCREEN`` screen scaled to the capture's own screen, x
  and y separately (a 3840-wide screen gets a ring twice as wide). The closest such
  element wins (by the larger of the two scaled distances), then the smallest.
- ``unresolved``: nothing holds the point or lies in the ring, no tree is near enough
  in time, or the capture has no screen size for the device (``near`` then cannot be
  measured, and only ``exact`` is tried). Unresolved clicks keep no target: they are
  never relabelled with the window title.

Confidence: ``high`` for exact within ``CLOSE_MS`` of the tree; ``medium`` for exact
further away or near within ``CLOSE_MS``; ``low`` for near further away and for every
unresolved click.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..model import Action, Element, ScreenSize

TREE_WINDOW_MS = 5_000  # an element tree this far from the click (either side) may be used
CLOSE_MS = 1_000  # within this, the tree is taken to show the screen the click saw
NEAR_PX = 8  # the tolerance ring, in pixels of a REF_SCREEN screen
REF_SCREEN = ScreenSize(1920, 1080)

EXACT, NEAR, UNRESOLVED, RECORDED = "exact", "near", "unresolved", "recorded"
HIGH, MEDIUM, LOW = "high", "medium", "low"


class Resolution(NamedTuple):
    method: str  # recorded | exact | near | unresolved
    confidence: str  # high | medium | low
    element: Element | None = None
    dt_ms: int | None = None  # |click - tree| when a tree was used


def tolerance(screen: ScreenSize) -> tuple[int, int]:
    """The ring's half-widths in the capture's pixels (ceil, so never below one pixel)."""
    tx = -(-NEAR_PX * screen.w // REF_SCREEN.w)
    ty = -(-NEAR_PX * screen.h // REF_SCREEN.h)
    return max(tx, 1), max(ty, 1)


def contains(e: Element, px: int, py: int) -> bool:
    return e.x <= px < e.x + e.w and e.y <= py < e.y + e.h


def distance(e: Element, px: int, py: int) -> tuple[int, int]:
    """Pixels from the point to the box, per axis (0 on an axis the box spans)."""
    dx = max(e.x - px, 0, px - (e.x + e.w - 1))
    dy = max(e.y - py, 0, py - (e.y + e.h - 1))
    return dx, dy


def nearest_tree(
    elements: Sequence[Element], ts_ms: int, device: str | None, window: str | None
) -> list[Element]:
    """The elements of the tree of the same device and window closest in time to
    ``ts_ms`` within ``TREE_WINDOW_MS`` (ties: the earlier tree, then the lower id)."""
    best: tuple[int, int, int] | None = None
    for e in elements:
        if e.device != device or (window is not None and e.window != window):
            continue
        dt = abs(e.ts_ms - ts_ms)
        if dt > TREE_WINDOW_MS:
            continue
        key = (dt, e.ts_ms, e.tree)
        if best is None or key < best:
            best = key
    if best is None:
        return []
    return [e for e in elements if e.tree == best[2] and e.device == device]


def hit_test(
    tree: Sequence[Element], px: int, py: int, screen: ScreenSize | None
) -> tuple[str, Element | None]:
    """(exact | near | unresolved, element) for a point against one tree."""
    usable = [e for e in tree if e.w > 0 and e.h > 0]
    inside = [e for e in usable if contains(e, px, py)]
    if inside:
        return EXACT, min(inside, key=lambda e: (e.w * e.h, e.y, e.x, e.role, e.name))
    if screen is None:
        return UNRESOLVED, None
    tx, ty = tolerance(screen)
    ring: list[tuple[int, int, int, int, str, str, Element]] = []
    for e in usable:
        dx, dy = distance(e, px, py)
        if dx <= tx and dy <= ty:
            # max(dx/tx, dy/ty) compared exactly, as a fraction over tx*ty
            scaled = max(dx * ty, dy * tx)
            ring.append((scaled, e.w * e.h, e.y, e.x, e.role, e.name, e))
    if not ring:
        return UNRESOLVED, None
    return NEAR, min(ring, key=lambda r: r[:6])[6]


def confidence(method: str, dt_ms: int) -> str:
    if method == EXACT:
        return HIGH if dt_ms <= CLOSE_MS else MEDIUM
    if method == NEAR:
        return MEDIUM if dt_ms <= CLOSE_MS else LOW
    return LOW


def resolve_click(
    action: Action, elements: Sequence[Element], screens: Mapping[str, ScreenSize]
) -> Resolution:
    """How sure we are of a click's target, and which element it was."""
    if action.element_name or action.name_withheld:
        return Resolution(RECORDED, HIGH)
    if action.x is None or action.y is None:
        return Resolution(UNRESOLVED, LOW)
    tree = nearest_tree(elements, action.ts_ms, action.device, action.title)
    if not tree:
        return Resolution(UNRESOLVED, LOW)
    dt = abs(tree[0].ts_ms - action.ts_ms)
    screen = screens.get(action.device or "")
    method, element = hit_test(tree, action.x, action.y, screen)
    if element is None:
        return Resolution(UNRESOLVED, LOW, None, dt)
    return Resolution(method, confidence(method, dt), element, dt)


def resolve_all(
    actions: Sequence[Action], elements: Sequence[Element], screens: Mapping[str, ScreenSize]
) -> tuple[list[Action], dict[int, Resolution]]:
    """Clicks given their resolved target (role and name), and each click's resolution."""
    out: list[Action] = []
    how: dict[int, Resolution] = {}
    for a in actions:
        if a.kind != "click":
            out.append(a)
            continue
        r = resolve_click(a, elements, screens)
        how[a.event_id] = r
        if r.element is not None and not a.element_name:
            a = a._replace(element_role=r.element.role, element_name=r.element.name)
        out.append(a)
    return out, how
