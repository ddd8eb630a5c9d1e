"""A screenpipe click's target, from the rows screenpipe writes for it (SPEC.md §1.2b).

What each recorder stores for a click (``ui_events``):

- macOS: the click row holds the pointer in global screen points and no element; a
  background accessibility hit at the same point writes a look-up row (``click`` with
  ``click_count = 0``) naming the element under the pointer, without bounds.
- Windows (since 2026-02-17): the click row carries the element that had keyboard
  focus, not necessarily the one clicked; the look-up row names the element UI Automation finds at
  the point. Both give ``element_bounds`` as JSON in screen pixels, the space of the
  click's own ``x``/``y``.
- Linux: no element and no look-up row, and ``x``/``y`` are the sum of the mouse's relative
  moves since the recorder started, not a screen position.

So a click takes the element of the first unused look-up row at its point within
``LOOKUP_MS`` after it; failing that, the element of its own row, unless that element's
bounds (same space as the point) do not hold the point — then it was not the element
clicked and the click keeps no target. The ``elements`` table cannot decide anything
here: its bounds are fractions of a monitor or window whose place and size the store
does not record.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Sequence
from typing import NamedTuple

from ...model import Action

# A look-up row names the click at the same point at most this long after it.
LOOKUP_MS = 2_000


class Lookup(NamedTuple):
    """A look-up row: when, its id, its point and the element it names."""

    ts_ms: int
    row_id: int
    x: int | None
    y: int | None
    role: str | None
    name: str | None
    name_withheld: bool = False


class Box(NamedTuple):
    x: float
    y: float
    w: float
    h: float


def parse_bounds(raw: object) -> Box | None:
    """``element_bounds`` (``{"x","y","width","height"}``, numbers) as a box, or None when
    absent or not in that shape (then the store cannot tell, and nothing is checked)."""
    if not isinstance(raw, str | bytes) or not raw:
        return None
    try:
        got = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(got, dict):
        return None
    vals = [got.get(k) for k in ("x", "y", "width", "height")]
    nums = [v for v in vals if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(nums) != 4 or any(v != v or v in (float("inf"), float("-inf")) for v in nums):
        return None
    return Box(*(float(v) for v in nums))


def holds(box: Box, x: int, y: int) -> bool:
    """Half-open, as UI Automation's rectangles are: left and top edges in."""
    return box.x <= x < box.x + box.w and box.y <= y < box.y + box.h


def own_target(
    role: str | None, name: str | None, bounds: Box | None, x: int | None, y: int | None
) -> tuple[str | None, str | None]:
    """The click row's own element, or none when its bounds say it lies elsewhere."""
    if bounds is None or x is None or y is None or holds(bounds, x, y):
        return role, name
    return None, None


def name_clicks(actions: list[Action], lookups: Sequence[Lookup]) -> list[Action]:
    """Each click (in (time, id) order) takes the element of the first unused look-up row
    at its point within LOOKUP_MS after it; the look-up's element replaces the one the
    click row carried (on Windows that one is only the focused element)."""
    if not lookups:
        return actions
    rows = sorted(lookups, key=lambda r: (r.ts_ms, r.row_id))
    times = [r.ts_ms for r in rows]
    used: set[int] = set()
    out = []
    for a in actions:
        if a.kind == "click" and a.x is not None and a.y is not None:
            for k in range(bisect_left(times, a.ts_ms), len(rows)):
                r = rows[k]
                if r.ts_ms > a.ts_ms + LOOKUP_MS:
                    break
                if r.row_id in used or (r.x, r.y) != (a.x, a.y):
                    continue
                used.add(r.row_id)
                if r.role is not None or r.name is not None or r.name_withheld:
                    a = a._replace(
                        element_role=r.role, element_name=r.name, name_withheld=r.name_withheld
                    )
                break
        out.append(a)
    return out
