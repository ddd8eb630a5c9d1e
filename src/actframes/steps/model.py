"""Richer input records for steps: an action with its target, elements, screen sizes.

Times are integer milliseconds since the Unix epoch (UTC); coordinates are integer
screen pixels. ``text`` is only ever filled when the operator opted in to typed text.
"""

from __future__ import annotations

from typing import NamedTuple

# Action kinds (the counted input kinds of ``model.INPUT_KINDS`` plus ``text``: a typed
# field value some stores record as one event).
CLICK = "click"
KEY = "key"
TEXT = "text"
COPY = "copy"
CUT = "cut"  # counted as a copy (it fills the clipboard); a step of its own
PASTE = "paste"
SCROLL = "scroll"
NAVIGATE = "navigate"
ACTION_KINDS: tuple[str, ...] = (CLICK, KEY, TEXT, COPY, CUT, PASTE, SCROLL, NAVIGATE)


class Action(NamedTuple):
    """One input event with everything a step may need to say about it."""

    event_id: int
    ts_ms: int
    kind: str
    app: str | None = None
    title: str | None = None  # the window title the store recorded with the event
    url: str | None = None
    device: str | None = None
    x: int | None = None
    y: int | None = None
    element_role: str | None = None
    element_name: str | None = None
    text: str | None = None  # only when the operator opted in
    count: int = 1  # type: ignore[assignment]  # a field, shadowing tuple.count on purpose


class Element(NamedTuple):
    """One accessibility element of a window at one observation (an element tree is all
    elements sharing ``tree``: a snapshot id or a frame id)."""

    tree: int
    ts_ms: int
    device: str | None
    window: str | None  # the window title (or app) the tree belongs to
    role: str
    name: str
    x: int
    y: int
    w: int
    h: int


class ScreenSize(NamedTuple):
    """A device's screen in pixels, as the capture recorded it."""

    w: int
    h: int
