"""Clicks and accessibility trees written into a screenpipe fixture (``Store``) the way
each of screenpipe's recorders writes them, in our words (SPEC.md §1.2b has the sources):

- ``elements`` bounds: the tree walker divides an element's screen rectangle by a
  reference rectangle — the monitor the capture loop records (macOS since 2026-03-02 in
  points, Windows since 2026-03-04 in pixels, the monitor nearest the window) or the
  focused window (Linux; macOS before 2026-03-02). macOS and Linux drop a box whose left or
  top lies beyond -0.1 or 1.1 and clamp the rest into 0–1; Windows drops only a box wholly
  off the monitor and clamps nothing. The reference itself is stored nowhere.
- ``ui_events`` clicks: macOS writes the pointer in global points (cut to an integer),
  then, if the accessibility hit finds an element and the pointer is below the menu bar
  (y >= 30), a look-up row (``click_count = 0``) naming it, without bounds. Windows writes
  the click with the element that had keyboard focus, and a look-up row with the element
  at the point; both with ``element_bounds`` JSON in screen pixels. Linux writes the sum
  of the mouse's relative moves since the recorder started, and no element.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from .screenpipe_versions import Store


class Rect(NamedTuple):
    """A rectangle in screen units (points on macOS, pixels on Windows and Linux)."""

    x: float
    y: float
    w: float
    h: float


class Node(NamedTuple):
    role: str
    text: str  # a field's contents for editable roles, as the walkers store it
    depth: int
    rect: Rect | None


def fraction(rect: Rect, ref: Rect, clamp: bool) -> tuple[float, float, float, float] | None:
    """An element's bounds as the tree walker writes them (None: not written)."""
    left, top = (rect.x - ref.x) / ref.w, (rect.y - ref.y) / ref.h
    width, height = rect.w / ref.w, rect.h / ref.h
    if not clamp:  # Windows: only a box wholly off the monitor is dropped
        if left + width < 0 or top + height < 0 or left > 1 or top > 1:
            return None
        return left, top, width, height
    if left < -0.1 or top < -0.1 or width <= 0 or height <= 0 or left > 1.1 or top > 1.1:
        return None
    return (
        min(max(left, 0.0), 1.0),
        min(max(top, 0.0), 1.0),
        min(width, 1.0 - max(left, 0.0)),
        min(height, 1.0 - max(top, 0.0)),
    )


def write_tree(store: Store, frame_id: int, nodes: list[Node], ref: Rect, clamp: bool) -> None:
    """One frame's accessibility elements, depth-first, parents by depth."""
    parents: dict[int, int] = {}
    for order, n in enumerate(nodes):
        box = fraction(n.rect, ref, clamp) if n.rect is not None else None
        left, top, width, height = box if box is not None else (None, None, None, None)
        parents[n.depth] = store._insert(
            "elements",
            {
                "frame_id": frame_id,
                "source": "accessibility",
                "role": n.role,
                "text": n.text or None,
                "parent_id": parents.get(n.depth - 1) if n.depth else None,
                "depth": n.depth,
                "left_bound": left,
                "top_bound": top,
                "width_bound": width,
                "height_bound": height,
                "confidence": None,
                "sort_order": order,
            },
        )


def _bounds(rect: Rect | None) -> str | None:
    if rect is None:
        return None
    return json.dumps({"x": rect.x, "y": rect.y, "width": rect.w, "height": rect.h})


def click_macos(
    store: Store,
    ts: int,
    x: float,
    y: float,
    app: str,
    hit: tuple[str, str] | None,
    value: str | None = None,
) -> int:
    """The click row (points, cut to integers), then the look-up row ~40 ms later when
    the hit at the point found ``hit`` (role, name; a field's contents in ``value``) and
    the point is below the menu bar."""
    base = {"button": 0, "modifiers": 0, "app_name": app, "window_title": "w"}
    cid = store.event(ts, "click", x=int(x), y=int(y), click_count=1, **base)
    if hit is not None and y >= 30:
        role, name = hit
        store.event(
            ts + 40,
            "click",
            x=int(x),
            y=int(y),
            click_count=0,
            element_role=role,
            element_name=name,
            element_value=value,
            **base,
        )
    return cid


def click_windows(
    store: Store,
    ts: int,
    x: int,
    y: int,
    app: str,
    focused: tuple[str, str, Rect | None] | None,
    at_point: tuple[str, str, Rect | None] | None,
    value: str | None = None,
) -> int:
    """The click row with the keyboard-focused element (role, name, pixel rect), then the
    look-up row, same time and point, with the element UI Automation found there (a
    field's contents in ``value``)."""
    base = {"x": x, "y": y, "button": 0, "modifiers": 0, "app_name": app, "window_title": "w"}
    own: dict[str, object] = {}
    if focused is not None:
        own = {
            "element_role": focused[0],
            "element_name": focused[1],
            "element_bounds": _bounds(focused[2]),
        }
    cid = store.event(ts, "click", click_count=1, **base, **own)
    if at_point is not None:
        store.event(
            ts,
            "click",
            click_count=0,
            element_role=at_point[0],
            element_name=at_point[1],
            element_bounds=_bounds(at_point[2]),
            element_value=value,
            **{**base, "app_name": None, "window_title": None},
        )
    return cid


def click_linux(store: Store, ts: int, moved_x: int, moved_y: int, app: str) -> int:
    """The click row: the sum of relative moves since the recorder started, no element."""
    base = {"button": 0, "click_count": 1, "modifiers": 0, "app_name": app, "window_title": "w"}
    return store.event(ts, "click", x=moved_x, y=moved_y, **base)
