"""Reader for screenpipe databases (``frames``, ``ocr_text``, ``ui_events``), every schema
since mid-2024, and the reference recorder's databases, which share the shape.

Columns are discovered with ``PRAGMA table_info`` (``schema``); ``frames(id,
timestamp)`` and an ``app_name`` in ``frames`` or ``ocr_text`` are required. The app is
taken per row from ``frames``, else from the frame's ``ocr_text`` rows; only focused rows
earn time, and the rows of every monitor form one stream (``frames``; SPEC.md
§1.2 and §1.2a give the facts, with the upstream files they come from). Input counts come
from ``ui_events`` (``input``).

A read of ``[start, end)`` returns the rows whose instant lies within ``READ_MARGIN_MS``
of it, as every reader does (the look-behind credits time into the window, the
look-ahead tells the last row its successor), and the rows no date holds (reported in
every window). Which index ranges hold them, and how SQLite parses their instants, is in
``timestamps``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import SourceError
from ...model import Capture
from .._rows import NO_OFFSET_SQL, naive_note
from ..base import READ_MARGIN_MS, Source, connect_ro, data_version, fetch, idle_work, read_failed
from .frames import frames_query, read_frames
from .input import CLIPBOARD_OPS, EVENT_KINDS, Background, clipboard_op, events_query, read_events
from .parallel_parts import readers
from .schema import detect, schema_notes
from .storage import storage_notes
from .timestamps import Span, date_bounds, middle_text

__all__ = ["CLIPBOARD_OPS", "EVENT_KINDS", "ScreenpipeSource", "clipboard_op", "date_bounds"]

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from ...model import ScreenText
    from .fingerprint import RowsFingerprint
    from .tail import Settle, SettledMark, TailReads


class ScreenpipeSource(Source):
    kind = "screenpipe"
    SPLIT_ROWS = 60_000  # events from which a read queries them in two halves at once
    # The fingerprint reads (and hashes) the window's raw rows: cheaper than parsing them,
    # not free. A resident process, which knows from its change token that something
    # changed, reads and digests instead (resident.py).
    fingerprint_reads_rows = True

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = connect_ro(path)
        try:
            # Sorts (for GROUP BY) in memory: a day's frames outgrow the page cache a sort
            # may use, and would be spilled to a temporary file.
            self._conn.execute("PRAGMA temp_store = MEMORY")
            self._schema = detect(self._conn, path)
            self._storage_notes = storage_notes(self._conn)
        except BaseException:  # a refused store is not left open
            self._conn.close()
            raise
        # The connections of the reading threads, opened on the first read.
        self._bg_conns: list[sqlite3.Connection] = []
        self._rows_fingerprint: RowsFingerprint | None = None
        self._tails: TailReads | None = None  # made on the first tail read

    def close(self) -> None:
        if self._tails is not None:
            self._tails.close()
        self._conn.close()
        for conn in self._bg_conns:
            conn.close()

    def _bg_conn(self, i: int) -> sqlite3.Connection:
        """The ``i``-th reading thread's connection, kept across reads (opening one
        parses the schema); a thread may use it, one at a time."""
        while len(self._bg_conns) <= i:
            conn = connect_ro(self.path, check_same_thread=False)
            try:
                conn.execute("PRAGMA temp_store = MEMORY")
                # Each reads its part's pages once: a small page cache (512 KiB, not the
                # 2 MiB default) keeps a third connection's memory small, at no cost.
                conn.execute("PRAGMA cache_size = -512")
            except BaseException:  # not left open
                conn.close()
                raise
            self._bg_conns.append(conn)
        return self._bg_conns[i]

    def _events_parts(self, span: Span) -> list[Span]:
        """The span's events in two halves of about equal time (``Span.split`` halfway
        between the first and last stored timestamps of its ranges), each read in a
        thread of its own, when they are many (their ids, ascending with time in
        screenpipe's tables, span ``SPLIT_ROWS`` or more); else the whole span. Two
        queries at once pay off only then: on two cores each runs slower beside the
        other, which costs more than it saves on an ordinary day. Where the first row
        has the higher id (written late), the gap tells nothing: one piece, the same rows
        (the cut is by timestamp text, so either way each row is read once)."""
        if not self._schema.events_indexed or not span.ranges:
            return [span]
        ends = fetch(
            self._conn,
            "SELECT f.timestamp, f.id, l.timestamp, l.id FROM"
            " (SELECT timestamp, id FROM ui_events WHERE timestamp >= ?"
            " ORDER BY timestamp LIMIT 1) AS f,"
            " (SELECT timestamp, id FROM ui_events WHERE timestamp < ?"
            " ORDER BY timestamp DESC LIMIT 1) AS l",
            (span.ranges[0][0], span.ranges[-1][1]),
        )
        if not ends:
            return [span]
        first, first_id, last, last_id = ends[0]
        if not (type(first_id) is int and type(last_id) is int):
            return [span]
        if last_id - first_id < self.SPLIT_ROWS:
            return [span]
        cut = middle_text(first, last)
        halves = span.split(cut) if cut is not None else None
        return list(halves) if halves is not None else [span]

    def commits_seen(self) -> int | None:
        """Changes whenever another connection commits (``base.data_version``), also
        while the events are read on the other connections: the document cache stores
        a fingerprint only if no commit landed between it and the read (``cache.py``)."""
        return data_version(self._conn)

    def fingerprint(self, start_ms: int, end_ms: int) -> str | None:
        """What identifies every value a read of the window would parse: a hash of its
        raw rows, joined in SQLite (``fingerprint``). None if it cannot be
        made (the read then reports why)."""
        span = Span(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
        try:
            return self._noted(self._rows().window(span))
        except sqlite3.DatabaseError:
            return None

    def _noted(self, fingerprint: str | None) -> str | None:
        """The fingerprint, marked when the store's notes are not the rows' alone: a
        migrated store read without pyarrow gives another document than with it."""
        if fingerprint is None or not self._storage_notes:
            return fingerprint
        return fingerprint + ":unread-payloads"

    def fingerprints(self, windows: list[tuple[int, int]]) -> list[str | None]:
        """``[fingerprint(a, b) for a, b in windows]``, the same strings, made at once on
        this connection and another reading thread's (``parallel_parts.readers``): every
        date part once, whichever connection is free (``RowsFingerprint.windows``). All
        None when a commit landed meanwhile or the store cannot be read."""
        spans = [Span(a - READ_MARGIN_MS, b + READ_MARGIN_MS) for a, b in windows]
        try:
            if self._tails is not None:
                self._tails.drain()  # a mark may still be using the other connection
            extra = readers(len(spans)) - 1
            found = self._rows().windows(spans, [self._bg_conn(i) for i in range(extra)])
            return [self._noted(f) for f in found]
        except (sqlite3.DatabaseError, SourceError):
            return [None] * len(spans)

    def settled_mark(self, start_ms: int, end_ms: int, cut_ms: int) -> SettledMark | None:
        """What identifies the raw rows a read of the window holds before ``cut_ms``
        (``settled.settled``), with whether all of them have UTC timestamps:
        equal marks mean rows were only inserted since, none before the cut, so only the
        tail need be read (``tail.py``)."""
        span = Span(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
        try:
            return self._tail_reads().mark(span, cut_ms)
        except sqlite3.DatabaseError:
            return None

    def settled_read(
        self, start_ms: int, end_ms: int, cut_ms: int, mark: object, next_cut_ms: int
    ) -> tuple[Capture, Settle] | None:
        """``read(cut_ms, end_ms)``, and (``Settle``) the mark at ``next_cut_ms`` when the
        window's rows before ``cut_ms`` still have ``mark``, else None: both from one
        state of the store (``tail``). None when the store cannot tell."""
        span = Span(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
        tail = Span(cut_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
        try:
            return self._tail_reads().read(span, tail, cut_ms, mark, next_cut_ms)
        except sqlite3.DatabaseError:
            return None

    def _tail_reads(self) -> TailReads:
        if self._tails is None:
            # Loaded only here: it imports concurrent.futures (and so logging and an
            # exit hook), ~6 ms that a one-shot ``actframes day`` never needs.
            from .tail import TailReads

            self._tails = TailReads(self._conn, self._bg_conn, self._schema, self._read)
        return self._tails

    def _rows(self) -> RowsFingerprint:
        if self._rows_fingerprint is None:
            from .fingerprint import RowsFingerprint  # (only a cached read asks)

            self._rows_fingerprint = RowsFingerprint(self._conn, self._schema)
        return self._rows_fingerprint

    def screen_text(
        self,
        start_ms: int,
        end_ms: int,
        after: Mapping[str, int] | None = None,
        *,
        problems: list[str] | None = None,
    ) -> list[ScreenText]:
        """The words on screen of the frames in ``[start_ms, end_ms)`` (SPEC.md §1.2e):
        OCR text, accessibility text and accessibility elements, in (time, kind, row id)
        order; ``after`` maps a kind to the largest row id already indexed (only larger
        ids of that kind are read). [] for a store without screen text (before mid-2024,
        the reference recorder's). A payload file that cannot be read raises a
        ``SourceError``, or, given ``problems``, is named there and its rows left out."""
        out: list[ScreenText] = []
        for batch in self.screen_text_batches(start_ms, end_ms, after, problems=problems):
            out.extend(batch)
        return out

    def screen_text_batches(
        self,
        start_ms: int,
        end_ms: int,
        after: Mapping[str, int] | None = None,
        *,
        problems: list[str] | None = None,
    ) -> Iterator[list[ScreenText]]:
        """``screen_text`` in batches of a few hundred frames, in order: one snapshot of
        the store, on a connection of its own, closed when the batches end."""
        from .screen_text import read_screen_text

        conn = connect_ro(self.path)
        try:
            schema = detect(conn, self.path)
            yield from read_screen_text(conn, schema, start_ms, end_ms, after, problems)
        except sqlite3.DatabaseError as exc:
            raise read_failed(self.path, exc) from exc
        finally:
            conn.close()

    def screen_text_stamp(self, start_ms: int, end_ms: int) -> list[object] | None:
        """A cheap stamp of the window's screen text (``screen_stamp.py``): equal, the
        text rows are as they were. None: the store cannot say (hybrid-parquet)."""
        from .screen_stamp import screen_text_stamp

        try:
            return screen_text_stamp(self._conn, self._schema, start_ms, end_ms)
        except sqlite3.DatabaseError:
            return None

    def screen_text_sources(self) -> dict[str, str]:
        """The table whose row ids each kind of screen text carries in this store (e.g.
        ``{"ocr": "ocr_text", "accessibility": "frames", "element": "elements"}``): when
        a kind's table changes (screenpipe moved OCR text onto ``frames`` in June 2026),
        its ids start over and ``after`` values of the old table mean nothing."""
        from .screen_text import text_sources

        try:
            return text_sources(self._conn, self._schema)
        except sqlite3.DatabaseError as exc:
            raise read_failed(self.path, exc) from exc

    def read(self, start_ms: int, end_ms: int) -> Capture:
        return self._read(Span(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS))

    def _read(self, span: Span, in_background: bool = True) -> Capture:
        """The rows of ``span``; the events' query in another thread (on its own
        connection) unless ``in_background`` is false (a short read, or one that must
        see the main connection's transaction)."""
        if in_background and self._tails is not None:
            self._tails.drain()  # a mark may still be using the other connection
        s = self._schema
        cap = Capture(kind=self.kind, has_input=bool(s.ecols), has_urls="browser_url" in s.fcols)
        cap.notes.extend(schema_notes(s))
        cap.notes.extend(self._storage_notes)
        try:
            # The frames first, then the events' query in another thread (or two, one
            # per half of a day of many events), each on a connection of its own, while
            # Python here makes the snapshots: SQLite works with the interpreter's lock
            # released (each connection is used by one thread at a time). A read that
            # must see the main connection's transaction runs every query there.
            groups, naive = None, None
            if s.frame_ids_ok:
                rows = fetch(self._conn, frames_query(s, span))
                groups = [g[:7] for g in rows]
                naive = sum(g[7] for g in rows)  # rows without a UTC offset, per group
            eq = [events_query(s, part) for part in self._events_parts(span)] if s.ecols else []
            event_groups = None
            if in_background:
                conns = [self._bg_conn(i) for i in range(len(eq))]
                jobs = [Background(c, q, ()) for c, q in zip(conns, eq, strict=True)]
                try:
                    read_frames(self._conn, s, cap, span, groups)
                    if jobs:
                        idle_work()
                finally:
                    # Every thread is waited for, also when one failed (or the frames did).
                    for job in jobs:
                        job.wait()
                if eq:
                    event_groups = [g for job in jobs for g in job.result()]
            else:
                read_frames(self._conn, s, cap, span, groups)
                if eq:
                    event_groups = [g for q in eq for g in fetch(self._conn, q)]
            if event_groups is not None:
                read_events(self._conn, s, cap, span, event_groups)
            if naive is None:
                where = span.rows("frames", s.frames_indexed)
                naive = fetch(self._conn, f"SELECT count(*) FROM {where} AND {NO_OFFSET_SQL}")[0][0]
            if naive:
                cap.notes.append(naive_note(naive))
        except sqlite3.DatabaseError as exc:
            raise read_failed(self.path, exc) from exc
        return cap
