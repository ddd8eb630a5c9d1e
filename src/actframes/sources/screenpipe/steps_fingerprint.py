"""What a day's routine steps read from a screenpipe-style store, identified without
reading it: the fingerprint ``resident_routines`` keeps a day's steps by.

A day's steps (``routines/step_streams.read_steps``) read two things:

- the day's capture, ``READ_MARGIN_MS`` either side (``ScreenpipeSource.read``): the rows
  its read keeps by instant, and the rows no date holds (``RowsFingerprint.kept``);
- its actions (``actions``): ``ui_events`` of the day. The capture's part
  holds their type, modifiers, counts, app and the length of ``text_content``; the
  columns only actions read (window, URL, point, element and its bounds) and the text's
  type are added here over the same rows. Typed text is never hashed: a NUL hides the
  characters after it from ``length()``, so a day with one in a typed text has no
  fingerprint (always read).

``elements`` is not read for steps (its bounds are fractions of a screen the store does
not size: ``actions``), so it is not hashed either.

Actions are hashed over the capture's rows (a superset: its margins are wider),
so a row changes the fingerprint of the day it lies in (or whose margins it lies in),
and no other. Each value is written exactly (``exact_rows``). The tables' definitions are in
the capture's part. None where the store cannot be read or changed while it was being
fingerprinted.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from ...errors import SourceError
from ...fast.fasthash import sha256
from ..base import READ_MARGIN_MS, connect_ro, fetch, table_columns, tables
from ..exact_rows import json_row
from . import payloads
from .fingerprint import RowsFingerprint
from .parallel_parts import made_at_once, readers
from .payloads import archives
from .schema import Schema, detect
from .timestamps import Span

# 2: clicks are no longer hit-tested against ``elements``, and ``element_bounds`` is read.
# 3: the names of elements whose role may hold a field's contents are blanked.
# 4: a click whose element's name is blanked stays recorded (``Action.name_withheld``).
STEPS_VERSION = "sp-steps-4"

# The columns of ``ui_events`` the actions read beyond those of the capture's part
# (``RowsFingerprint``: id, time, type, modifiers, text length, text_length, clicks, app).
_EVENT_COLS = (
    "window_title", "browser_url", "x", "y", "element_role", "element_name", "element_bounds",
)  # fmt: skip


def fingerprints(path: Path, spans: Sequence[tuple[int, int]]) -> list[str | None]:
    """For each [start_ms, end_ms) of ``spans``: the fingerprint of its steps' reads. The
    days are shared between ``parallel_parts.readers`` read-only connections, a thread
    each (``parallel_parts``): each day's fingerprint is taken, and checked against
    commits, on one connection, as it would be alone."""
    n = readers(len(spans))
    conns: list[sqlite3.Connection] = []
    try:
        for _ in range(n):
            conns.append(connect_ro(path, check_same_thread=False))
        workers = [_worker(conn, path) for conn in conns]
        todo: dict[int, Callable[[_Worker], str | None]] = {
            i: partial(_fingerprint, start_ms=a, end_ms=b) for i, (a, b) in enumerate(spans)
        }
        made = made_at_once(todo, workers)
        return [made[i] for i in range(len(spans))]
    except (sqlite3.DatabaseError, SourceError):
        return [None] * len(spans)
    finally:
        for conn in conns:
            conn.close()


_Worker = tuple[sqlite3.Connection, RowsFingerprint, "_Parts"]


def _worker(conn: sqlite3.Connection, path: Path) -> _Worker:
    conn.execute("PRAGMA temp_store = MEMORY")
    s = detect(conn, path)
    return conn, RowsFingerprint(conn, s), _Parts(conn, s)


def _fingerprint(worker: _Worker, start_ms: int, end_ms: int) -> str | None:
    """The fingerprint of the steps' reads of the span, on the worker's connection."""
    conn, rows, parts = worker
    version = fetch(conn, "PRAGMA data_version", ())
    span = Span(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
    capture = rows.kept(span)
    if capture is None:
        return None
    events = parts.events(span)
    if events is None:
        return None
    h = sha256(f"{STEPS_VERSION}:{capture}".encode())
    h.update(events)
    if archives(parts.s.ecols):  # archived rows' titles and text come from Parquet files
        h.update(b"payloads read" if payloads.parquet_available() else b"payloads unread")
    if fetch(conn, "PRAGMA data_version", ()) != version:
        return None
    return f"{STEPS_VERSION}:{h.hexdigest()}"


class _Parts:
    """The query of the actions' columns, for the columns the store has."""

    def __init__(self, conn: sqlite3.Connection, s: Schema) -> None:
        self._conn = conn
        self.s = s
        present = tables(conn)
        self._events: str | None = None
        self._nul = "0"
        if "ui_events" in present:
            ecols = table_columns(conn, "ui_events")
            cols = ["id", *(c if c in ecols else "NULL" for c in _EVENT_COLS)]
            if "text_content" in ecols:
                # Its type: a blob of the same length counts otherwise (text_length).
                cols.append("typeof(text_content)")
                self._nul = "instr(CAST(text_content AS BLOB), X'00')"
            self._events = json_row(cols)

    def events(self, span: Span) -> bytes | None:
        """None when a typed text holds a NUL: ``length()`` stops there, so the capture's
        part cannot tell its length (the day is then always read)."""
        if self._events is None:
            return b"events:none"
        where = span.rows("ui_events", self.s.events_indexed)
        n, text, nul = fetch(
            self._conn,
            f"SELECT count(*), CAST(group_concat(r, ';') AS BLOB), max(nul)"
            f" FROM (SELECT {self._events} AS r, {self._nul} AS nul FROM {where})",
        )[0]
        if nul:
            return None
        return b"events:%d:" % n + (text if isinstance(text, bytes) else b"")
