"""Write simulated days into real files, shaped as the stores the sources read:

- ``write_native``: the native store, through ``actframes.capture.store``;
- ``write_screenpipe``: a SQLite database in screenpipe's shape (frames, ui_events,
  elements) as its per-window capture and input recorder write it (SPEC.md §1.2a);
- ``write_aw_export`` (in ``aw_export``): an ActivityWatch bucket export (JSON).

Every writer refuses to overwrite an existing file: callers decide what to delete.
Everything written is derived from the records alone (no clock, no randomness), so the
same days give byte-identical files.
"""

from __future__ import annotations

import sqlite3
import zlib
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..capture.store import open_store, write_afk, write_events, write_snapshots
from ..model import CLICK, COPY, KEY, PASTE, SCROLL, Snapshot
from ..window import zone
from .generator import SimDay

Days = SimDay | Sequence[SimDay]

# ---------------------------------------------------------------------------- timestamps

TS_STYLES = ("iso_z_micro", "iso_z", "space", "offset")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def format_ts(ts_ms: int, style: str = "iso_z_micro", tz: str = "UTC") -> str:
    """Epoch ms as stored text.

    iso_z_micro ``2026-03-10T08:14:03.123000+00:00`` (what the reference recorder writes),
    iso_z ``2026-03-10T08:14:03.123Z``, space ``2026-03-10 08:14:03.123`` (UTC, no offset),
    offset ``2026-03-10T09:14:03.123+01:00`` (local time in ``tz`` with its offset).
    """
    # timedelta arithmetic keeps whole milliseconds exact (no float seconds).
    dt = _EPOCH + timedelta(milliseconds=ts_ms)
    if style == "iso_z_micro":
        return dt.isoformat(timespec="microseconds")
    if style == "iso_z":
        return dt.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"
    if style == "space":
        return dt.replace(tzinfo=None).isoformat(sep=" ", timespec="milliseconds")
    if style == "offset":
        return dt.astimezone(zone(tz)).isoformat(timespec="milliseconds")
    raise ValueError(f"unknown ts_style {style!r}; one of {', '.join(TS_STYLES)}")


# ---------------------------------------------------------------------------- native


def write_native(path: str | Path, days: Days) -> Path:
    """The native store (schema and writer functions of ``actframes.capture.store``)."""
    p = new_file(path)
    conn = open_store(p)
    try:
        for day in as_list(days):
            write_snapshots(conn, day.snapshots)
            write_events(conn, day.events)
            write_afk(conn, day.afk)
    finally:
        conn.close()
    return p


# ---------------------------------------------------------------------------- screenpipe

SCREENPIPE_SCHEMA = """
CREATE TABLE frames (
    id INTEGER PRIMARY KEY, video_chunk_id INTEGER, offset_index INTEGER,
    timestamp TEXT NOT NULL, name TEXT, browser_url TEXT, app_name TEXT, window_name TEXT,
    focused BOOLEAN, device_name TEXT
);
CREATE INDEX idx_frames_timestamp ON frames (timestamp);
CREATE TABLE ui_events (
    id INTEGER PRIMARY KEY, timestamp TEXT NOT NULL, session_id TEXT, relative_ms INTEGER,
    event_type TEXT NOT NULL, x INTEGER, y INTEGER, delta_x INTEGER, delta_y INTEGER,
    button INTEGER, click_count INTEGER, key_code INTEGER, modifiers INTEGER,
    text_content TEXT, text_length INTEGER, app_name TEXT, app_pid INTEGER,
    window_title TEXT, browser_url TEXT, element_role TEXT, element_name TEXT,
    element_value TEXT, element_description TEXT, element_automation_id TEXT,
    element_bounds TEXT, frame_id INTEGER
);
CREATE INDEX idx_ui_events_timestamp ON ui_events (timestamp);
CREATE TABLE elements (
    id INTEGER PRIMARY KEY, frame_id INTEGER, source TEXT, role TEXT, text TEXT,
    parent_id INTEGER, depth INTEGER, left_bound REAL, top_bound REAL, width_bound REAL,
    height_bound REAL, confidence REAL, sort_order INTEGER
);
CREATE INDEX idx_elements_frame_id ON elements (frame_id);
"""

# Frames per video chunk, as a recorder rolls its video file over.
FRAMES_PER_CHUNK = 60
# One frame in this many gets an accessibility tree (a few elements).
ELEMENTS_EVERY = 20
# One key event in this many is a shortcut (a ``key`` row); the rest are typing bursts.
SHORTCUT_EVERY = 16
_MOD_CMD = 8  # the packed "command" modifier bit of a shortcut's key row
# Look-up rows (a click's element, written after it) take ids from here up, clear of the
# simulated events' own ids: the click's id above this base, so unique across days too.
LOOKUP_ID_BASE = 1 << 40


def write_screenpipe(path: str | Path, days: Days, *, ts_style: str = "iso_z_micro") -> Path:
    """A database in screenpipe's shape; timestamps are UTC text in ``ts_style`` (TS_STYLES;
    the default is the shape screenpipe stores).

    As screenpipe writes it: one ``frames`` row per capture of each monitor, ``focused``
    only on the screen with focus (the day's first device; another monitor's topmost
    window is on screen, not focused); ``ui_events`` with typing as ``text`` rows without
    app (the burst's characters; its text a placeholder of that length), one key in
    SHORTCUT_EVERY a ``key`` row, each click followed by its look-up row
    (``click_count`` 0), copies as ``clipboard`` rows without app and pastes with it, the
    operation in ``modifiers``."""
    format_ts(0, ts_style)  # reject an unknown style before creating the file
    p = new_file(path)
    conn = sqlite3.connect(p)
    try:
        conn.executescript(SCREENPIPE_SCHEMA)
        chunks = _Chunks()
        with conn:
            for day in as_list(days):
                _insert_day(conn, day, ts_style, chunks)
    finally:
        conn.close()
    return p


def _insert_day(conn: sqlite3.Connection, day: SimDay, style: str, chunks: _Chunks) -> None:
    conn.executemany(
        "INSERT INTO frames VALUES (?,?,?,?,?,?,?,?,?,?)",
        (_frame_row(s, day, style, chunks) for s in day.snapshots),
    )
    conn.executemany(
        f"INSERT INTO ui_events VALUES ({','.join('?' * 26)})",
        _event_rows(day, style),
    )
    conn.executemany(
        "INSERT INTO elements (frame_id, source, role, text, parent_id, depth, left_bound,"
        " top_bound, width_bound, height_bound, confidence, sort_order)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        _element_rows(day.snapshots),
    )


class _Chunks:
    """Video chunk ids and frame offsets, per device, unique across the file."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.chunk: dict[str, int] = {}
        self.next_id = 1

    def place(self, device: str) -> tuple[int, int]:
        n = self.count.get(device, 0)
        if n % FRAMES_PER_CHUNK == 0:
            self.chunk[device] = self.next_id
            self.next_id += 1
        self.count[device] = n + 1
        return self.chunk[device], n % FRAMES_PER_CHUNK


def _frame_row(s: Snapshot, day: SimDay, style: str, chunks: _Chunks) -> tuple[object, ...]:
    chunk, offset = chunks.place(s.device)
    name = f"data/{s.device or 'monitor'}_{chunk:06d}.mp4"
    ts = format_ts(s.ts_ms, style, day.tz)
    focused = 1 if s.device == day.devices[0] else 0
    url = s.url if focused else None  # screenpipe asks the browser only when focused
    return (s.row_id, chunk, offset, ts, name, url, s.app, s.title, focused, s.device)


def _event_rows(day: SimDay, style: str) -> Iterator[tuple[object, ...]]:
    """ui_events rows (26 columns, in the table's order); each event is tied to the frame
    shown on its device at that time."""
    frames = _FrameIndex(day.snapshots)
    session = f"sim-{day.day}"
    t0 = day.events[0].ts_ms if day.events else 0
    for e in day.events:
        frame = frames.at(e.device or "", e.ts_ms)
        title = frame.title if frame else None
        url = frame.url if frame and frame.device == day.devices[0] else None
        ts = format_ts(e.ts_ms, style, day.tz)
        rel = e.ts_ms - t0
        fid = frame.row_id if frame else None
        x, y = (e.event_id * 7919) % 1920, (e.event_id * 104729) % 1080
        blank: list[object] = [None] * 26
        row = blank[:]
        row[0:5] = [e.event_id, ts, session, rel, None]
        row[15:19] = [e.app, _pid(e.app), title, url]
        row[25] = fid
        if e.kind == KEY and e.event_id % SHORTCUT_EVERY:
            n = max(e.count, 1)  # a typing burst: no app, written after the pause
            row[4], row[13], row[14] = "text", "x" * n, n
            row[15:19] = [None, None, None, None]
        elif e.kind == KEY:
            row[4], row[11], row[12] = "key", (e.event_id * 31) % 50, _MOD_CMD
        elif e.kind == CLICK:
            row[4], row[5:12] = "click", [x, y, None, None, 0, 1, None]
            row[12] = 0
            yield tuple(row)
            look = blank[:]  # the element under the pointer, looked up a moment later
            lookup_id = LOOKUP_ID_BASE + e.event_id
            look[0:4] = [lookup_id, format_ts(e.ts_ms + 30, style, day.tz), session, rel + 30]
            look[4] = "click"
            look[5:13] = [x, y, None, None, 0, 0, None, 0]
            look[15:21] = [e.app, _pid(e.app), title, url, "AXButton", "OK"]
            yield tuple(look)
            continue
        elif e.kind == SCROLL:
            row[4], row[5:9] = "scroll", [x, y, 0, -3 if e.event_id % 5 else 3]
        elif e.kind == COPY:  # from another thread, without app
            row[4], row[12] = "clipboard", ord("c")
            row[15:19] = [None, None, None, None]
        elif e.kind == PASTE:
            row[4], row[12] = "clipboard", ord("v")
        else:
            continue
        yield tuple(row)


def _pid(app: str | None) -> int | None:
    # A stable, plausible process id per app name (crc32 is not salted per process).
    return None if app is None else 300 + zlib.crc32(app.encode()) % 90_000


class _FrameIndex:
    """The latest snapshot at or before a time, per device."""

    def __init__(self, snapshots: list[Snapshot]) -> None:
        self.rows: dict[str, list[Snapshot]] = {}
        for s in snapshots:
            self.rows.setdefault(s.device, []).append(s)
        self.times = {d: [s.ts_ms for s in rows] for d, rows in self.rows.items()}

    def at(self, device: str, ts_ms: int) -> Snapshot | None:
        rows = self.rows.get(device)
        if not rows:
            return None
        i = bisect_right(self.times[device], ts_ms)
        return rows[i - 1] if i else None


def _element_rows(snapshots: list[Snapshot]) -> Iterator[tuple[object, ...]]:
    """A small accessibility tree (window, label, button) on some frames, as screenpipe's
    tree walker writes it: bounds as fractions (0–1) of the monitor, no confidence.

    Parents are referenced by id, so ids are assigned here in insertion order.
    """
    next_id = 1
    for s in snapshots:
        if s.row_id % ELEMENTS_EVERY:
            continue
        root = next_id
        # A 1920x1080 window filling the monitor: a label at (12, 8) 240x20 and a close
        # button at (1880, 8) 24x24, in pixels, written divided by the monitor's size.
        yield (s.row_id, "accessibility", "AXWindow", s.title, None, 0,
               0.0, 0.0, 1.0, 1.0, None, 0)  # fmt: skip
        yield (s.row_id, "accessibility", "AXStaticText", s.app, root, 1,
               0.00625, 0.0074074, 0.125, 0.0185185, None, 1)  # fmt: skip
        yield (s.row_id, "accessibility", "AXButton", "Close", root, 1,
               0.9791667, 0.0074074, 0.0125, 0.0222222, None, 2)  # fmt: skip
        next_id += 3


# ---------------------------------------------------------------------------- helpers


def as_list(days: Days) -> list[SimDay]:
    return [days] if isinstance(days, SimDay) else list(days)


def new_file(path: str | Path) -> Path:
    p = Path(path)
    if p.exists():
        raise FileExistsError(f"{p}: already exists; refusing to overwrite")
    p.parent.mkdir(parents=True, exist_ok=True)
    return p
