"""What a day's routine steps read from a screenpipe-style store, identified without
reading it: the fingerprint ``resident_routines`` keeps a day's steps by.

A day's steps (``routines/step_streams.read_steps``) read three things:

- the day's capture, ``READ_MARGIN_MS`` either side (``ScreenpipeSource.read``): the rows
  its read keeps by instant, and the rows no date holds (``RowsFingerprint.kept``);
- its actions (``screenpipe_actions``): ``ui_events`` of the day, every column that
  reader uses — of ``text_content`` only its type and length (typed text is never hashed;
  a NUL hides the characters after it from ``length()``, so a row holding one gives a
  fingerprint that never repeats and its day is always read);
- its element trees: ``elements`` of the frames within 5 s of the day, with the frame's
  time and window.

Actions and trees are hashed over the capture's rows (a superset: the margins are wider),
so a row of another day changes only that day's fingerprint unless it lies within the
margins. Each value is written exactly (text in hex, the rest by ``quote()``). The
tables' definitions are in the capture's part. None where the store cannot be read or
changed while it was being fingerprinted.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from ..errors import SourceError
from ..fast.fasthash import sha256
from .base import READ_MARGIN_MS, connect_ro, fetch, table_columns, tables
from .screenpipe_fingerprint import RowsFingerprint
from .screenpipe_schema import Schema, detect
from .screenpipe_time import Span

STEPS_VERSION = "sp-steps-1"

_EVENT_COLS = (
    "event_type",
    "app_name",
    "window_title",
    "browser_url",
    "x",
    "y",
    "element_role",
    "element_name",
    "text_length",
    "click_count",
    "modifiers",
)
_TEXT_LEN = (
    "typeof(text_content) || ',' || iif(instr(CAST(text_content AS BLOB), X'00'),"
    " 'nul:' || random(), quote(length(text_content)))"
)
_SEP = " || ',' || "
_ELEMENT_COLS = ("role", "text", "left_bound", "top_bound", "width_bound", "height_bound")


def fingerprints(path: Path, spans: Sequence[tuple[int, int]]) -> list[str | None]:
    """For each [start_ms, end_ms) of ``spans``: the fingerprint of its steps' reads."""
    try:
        conn = connect_ro(path)
    except (sqlite3.DatabaseError, SourceError):
        return [None] * len(spans)
    try:
        conn.execute("PRAGMA temp_store = MEMORY")
        s = detect(conn, path)
        rows = RowsFingerprint(conn, s)
        parts = _Parts(conn, s)
        return [_fingerprint(conn, rows, parts, a, b) for a, b in spans]
    except (sqlite3.DatabaseError, SourceError):
        return [None] * len(spans)
    finally:
        conn.close()


def _fingerprint(
    conn: sqlite3.Connection, rows: RowsFingerprint, parts: _Parts, start_ms: int, end_ms: int
) -> str | None:
    version = fetch(conn, "PRAGMA data_version", ())
    span = Span(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
    capture = rows.kept(span)
    if capture is None:
        return None
    h = sha256(f"{STEPS_VERSION}:{capture}".encode())
    h.update(parts.events(span))
    h.update(parts.elements(span))
    if fetch(conn, "PRAGMA data_version", ()) != version:
        return None
    return f"{STEPS_VERSION}:{h.hexdigest()}"


class _Parts:
    """The queries of the actions' and trees' columns, for the columns the store has."""

    def __init__(self, conn: sqlite3.Connection, s: Schema) -> None:
        self._conn, self._s = conn, s
        present = tables(conn)
        self._events: str | None = None
        if "ui_events" in present:
            ecols = table_columns(conn, "ui_events")
            cols = [_exact(c if c in ecols else "NULL") for c in ("id", "timestamp", *_EVENT_COLS)]
            text = _TEXT_LEN if "text_content" in ecols else "NULL"
            self._events = _SEP.join([*cols, text])
        self._elements: str | None = None
        if "elements" in present:
            el = table_columns(conn, "elements")
            if {"frame_id", "role", "left_bound", "top_bound", "width_bound", "height_bound"} <= el:
                win = "f.window_name" if "window_name" in s.fcols else "NULL"
                cols = ["e.frame_id", "f.timestamp", win]
                cols += [f"e.{c}" if c in el else "NULL" for c in _ELEMENT_COLS]
                self._elements = _SEP.join(_exact(c) for c in cols)

    def events(self, span: Span) -> bytes:
        if self._events is None:
            return b"events:none"
        where = span.rows("ui_events", self._s.events_indexed)
        return self._joined("events", f"SELECT {self._events} AS r FROM {where}")

    def elements(self, span: Span) -> bytes:
        if self._elements is None:
            return b"elements:none"
        frames = f"SELECT frames.id FROM {span.rows('frames', self._s.frames_indexed)}"
        return self._joined(
            "elements",
            f"SELECT {self._elements} AS r FROM elements e JOIN frames f ON f.id = e.frame_id"
            f" WHERE e.frame_id IN ({frames})",
        )

    def _joined(self, label: str, rows_sql: str) -> bytes:
        n, text = fetch(
            self._conn, f"SELECT count(*), CAST(group_concat(r, ';') AS BLOB) FROM ({rows_sql})"
        )[0]
        return f"{label}:{n}:".encode() + (text if isinstance(text, bytes) else b"")


def _exact(col: str) -> str:
    """A value written so that no other value reads the same: text as its bytes in hex
    (``quote()`` stops at a NUL), the rest by ``quote()`` (exact reals, blobs in hex)."""
    return f"(CASE typeof({col}) WHEN 'text' THEN 't' || hex({col}) ELSE quote({col}) END)"
