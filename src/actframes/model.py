"""The normalized records every source yields and the compiler consumes.

All times are integer milliseconds since the Unix epoch (UTC); no floats anywhere.
Records are named tuples: immutable, and several times cheaper to build than frozen
dataclasses, which matters at tens of thousands of rows a day.
"""

from __future__ import annotations

from typing import NamedTuple

from .fast.records import Record

# Input kinds the compiler counts. Anything else a store records (mouse moves,
# focus events, typed text) is not an input count.
KEY = "key"
CLICK = "click"
SCROLL = "scroll"
COPY = "copy"
PASTE = "paste"
INPUT_KINDS: tuple[str, ...] = (KEY, CLICK, SCROLL, COPY, PASTE)

# Action kinds (the counted input kinds plus the ones steps need: ``text``, a typed field
# value some stores record as one event; ``cut``; ``navigate``).
TEXT = "text"
CUT = "cut"  # counted as a copy (it fills the clipboard); a step of its own
NAVIGATE = "navigate"
ACTION_KINDS: tuple[str, ...] = (CLICK, KEY, TEXT, COPY, CUT, PASTE, SCROLL, NAVIGATE)


class Snapshot(NamedTuple):
    """One observation of the focused window.

    Point sources (screenpipe-style, native) leave ``dur_ms`` as None: the compiler
    infers the time that follows from the gap to the next row (dwell). Interval
    sources (ActivityWatch) set it to the span the watcher observed.
    """

    row_id: int
    ts_ms: int
    app: str
    title: str = ""
    url: str | None = None
    device: str = ""
    dur_ms: int | None = None


class InputEvent(NamedTuple):
    """One counted input action (a key press, a click ...), never its content."""

    event_id: int
    ts_ms: int
    kind: str
    app: str | None = None
    device: str | None = None
    count: int = 1  # type: ignore[assignment]  # a field, shadowing tuple.count on purpose


class Span(NamedTuple):
    """A half-open time span [start_ms, end_ms)."""

    start_ms: int
    end_ms: int


class Rejected(NamedTuple):
    """A row the reader could not use, and why. Reported, never fatal."""

    table: str
    row: str
    reason: str
    ts_ms: int | None = None


class EventColumn(Record):
    """Counted input events sharing (kind, app, device), in time order, as parallel
    lists. Readers of large stores deliver events this way: a day holds tens of
    thousands of them, and the compiler then works per span, not per event."""

    _fields = ("kind", "app", "device", "ts", "ids", "counts")  # not the text
    __slots__ = (*_fields, "text")

    kind: str
    app: str | None
    device: str | None
    ts: list[int]  # ascending
    ids: list[int]
    counts: list[int] | None  # None when every event counts once
    # (ids, instants) exactly as ",".join(map(str, ...)) of the lists gives them, when the
    # reader has that text already (SQL's group_concat): the digest then need not make it.
    text: tuple[str, str] | None

    def __init__(
        self,
        kind: str,
        app: str | None,
        device: str | None,
        ts: list[int],
        ids: list[int],
        counts: list[int] | None = None,
        text: tuple[str, str] | None = None,
    ) -> None:
        self.kind = kind
        self.app = app
        self.device = device
        self.ts = ts
        self.ids = ids
        self.counts = counts
        self.text = text

    def __len__(self) -> int:
        return len(self.ts)

    def events(self) -> list[InputEvent]:
        counts = self.counts or [1] * len(self.ts)
        return [
            InputEvent(i, t, self.kind, self.app, self.device, n)
            for i, t, n in zip(self.ids, self.ts, counts, strict=True)
        ]


def group_events(events: list[InputEvent]) -> list[EventColumn]:
    """Events as columns, one per (kind, app, device), each sorted by (time, id)."""
    groups: dict[tuple[str, str | None, str | None], list[InputEvent]] = {}
    for e in events:
        groups.setdefault((e.kind, e.app, e.device), []).append(e)
    columns = []
    for (kind, app, device), evs in groups.items():
        evs.sort(key=lambda e: (e.ts_ms, e.event_id))
        counts = [e.count for e in evs]
        columns.append(
            EventColumn(
                kind,
                app,
                device,
                [e.ts_ms for e in evs],
                [e.event_id for e in evs],
                None if all(n == 1 for n in counts) else counts,
            )
        )
    return columns


class Capture(Record):
    """What one source yielded for a time range: rows, events, away periods."""

    _fields = (
        "kind",
        "snapshots",
        "events",
        "afk",
        "rejected",
        "has_input",
        "has_afk",
        "has_urls",
        "interval",
        "event_columns",
        "notes",
    )
    # (what a reader vouches for, and where its notes came from: not compared)
    __slots__ = (*_fields, "distinct_ids", "row_notes")

    kind: str
    snapshots: list[Snapshot]
    events: list[InputEvent]
    afk: list[Span]
    rejected: list[Rejected]
    # True when the store records input events at all (so zero counts are measured).
    has_input: bool
    # True when the store records AFK periods (so away time is observed, not inferred).
    has_afk: bool
    # True when browser rows can carry URLs in this store.
    has_urls: bool
    # True for interval sources (observed spans, no dwell inference).
    interval: bool
    # Events a reader delivered already grouped; they count beside ``events``.
    event_columns: list[EventColumn]
    # What the reader could not see or had to estimate in this store (shown as blind
    # spots): a column or table the store's version lacks, counts estimated.
    notes: list[str]
    # The reader vouches that no two events (one by one or in columns) share an id: its
    # store's key, or it kept one event per id. The compiler then need not look for
    # repeats in each frame's evidence; a capture made any other way says False.
    distinct_ids: bool
    # Of ``notes``, those that rows gave (not the store's version): each with the instant
    # of its earliest such row. A read from a cut on (``splice``) keeps such a note when
    # that row lies before the cut, where rows are unchanged; the other notes belong to
    # every read of the store and must agree.
    row_notes: dict[str, int]

    def __init__(
        self,
        kind: str,
        snapshots: list[Snapshot] | None = None,
        events: list[InputEvent] | None = None,
        afk: list[Span] | None = None,
        rejected: list[Rejected] | None = None,
        has_input: bool = False,
        has_afk: bool = False,
        has_urls: bool = True,
        interval: bool = False,
        event_columns: list[EventColumn] | None = None,
        notes: list[str] | None = None,
    ) -> None:
        self.kind = kind
        self.snapshots = [] if snapshots is None else snapshots
        self.events = [] if events is None else events
        self.afk = [] if afk is None else afk
        self.rejected = [] if rejected is None else rejected
        self.has_input = has_input
        self.has_afk = has_afk
        self.has_urls = has_urls
        self.interval = interval
        self.event_columns = [] if event_columns is None else event_columns
        self.notes = [] if notes is None else notes
        self.distinct_ids = False
        self.row_notes = {}

    def all_columns(self) -> list[EventColumn]:
        return self.event_columns + group_events(self.events)

    def all_events(self) -> list[InputEvent]:
        """Every event one by one, in (time, id) order — for tests and small captures."""
        out = list(self.events) + [e for c in self.event_columns for e in c.events()]
        out.sort(key=lambda e: (e.ts_ms, e.event_id))
        return out


# Richer input records for steps: an action with its target, elements, screen sizes.
# Coordinates are integer screen pixels; ``text`` is only ever filled when the operator
# opted in to typed text.


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
    # The store named the element, but its name may be a field's contents and the operator
    # did not opt in (form_roles): the click is still recorded, its name not shown.
    name_withheld: bool = False


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


# Kinds of screen text (``ScreenText.kind``): where a store keeps the words of a capture.
OCR = "ocr"  # text read from the pixels (screenpipe's ocr_text, frames.full_text from OCR)
ACCESSIBILITY = "accessibility"  # the accessibility tree's text of the window
ELEMENT = "element"  # one accessibility element's text (screenpipe's elements)
SCREEN_TEXT_KINDS: tuple[str, ...] = (OCR, ACCESSIBILITY, ELEMENT)


class ScreenText(NamedTuple):
    """The words on screen at one capture, as a store keeps them (#37: searched, never
    compiled into a document). ``row_id`` names the row that holds the text (in the
    table its ``kind`` comes from); ``capture_id`` the capture row (a snapshot's
    ``row_id``) it belongs to, or None; ``role`` an element's role (its text is then
    withheld when ``form_roles`` says the role holds what the user typed)."""

    row_id: int
    ts_ms: int
    kind: str
    text: str
    capture_id: int | None = None
    app: str = ""
    focused: bool = True
    role: str = ""
