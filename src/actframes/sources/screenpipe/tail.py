"""A screenpipe-style store's tail reads (``tail.py``): the settled mark of the rows before
a cut, and the read of the rows from it on, taken from one state of the store.

The mark hashes every row before the cut (``settled``), which costs most of a
tail call; the read is short. They run at once, the mark on the reading threads'
connections (its two halves at once on two, where ``parallel_parts.readers`` allows) and
the read on the main one, whose read transactions are shown to hold the same state: the
other connections open theirs between two looks at the main connection's ``PRAGMA
data_version`` (the second look from within the main one's transaction), and equal
versions mean nothing was committed in between. Otherwise all of it runs one after the
other on the main connection.
Either way a write between them can never pair a new read with an old mark. The caller
gets the read at once and the mark's verdict when it asks (``settle``): it may compile
meanwhile, and must drop what it made when the verdict is None.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import NamedTuple

from ...model import Capture
from ..base import data_version
from ..sqlite_pages.wal import Pin, read_pin
from .fingerprint import RowsFingerprint
from .parallel_parts import nothing, readers
from .schema import Schema
from .settled import settled, settled_in_utc
from .settled_parts import EarlyParts, SettledParts
from .timestamps import Span, text_at


class SettledMark(NamedTuple):
    """The digest of the rows before a cut, and whether every one of them has a UTC
    timestamp in screenpipe's shape (``settled.settled_in_utc``)."""

    digest: str
    in_utc: bool


# The mark at the next cut once the mark at the cut held; None when it did not.
Settle = Callable[[], SettledMark | None]


class TailReads:
    """Marks and tail reads of one store. ``read(span, in_background)`` is the source's
    read of a span; ``other(i)`` its ``i``-th other connection (usable from another
    thread)."""

    def __init__(
        self,
        main: sqlite3.Connection,
        other: Callable[[int], sqlite3.Connection],
        schema: Schema,
        read: Callable[[Span, bool], Capture],
    ) -> None:
        self._main, self._other, self._schema, self._read = main, other, schema, read
        self._rows = RowsFingerprint(main, schema)
        self._rows2: RowsFingerprint | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._pending: Future[SettledMark | None] | None = None
        # The early parts of the marks, kept while the WAL shows their rows unchanged.
        self._parts = SettledParts.of(main)
        # The parts' counters (served, made) when the previous ``read`` began; None when a
        # full mark came since (its parts were made, not served).
        self._since: tuple[int, int] | None = None
        self.inline = 0  # verdicts made on the main connection as the kept parts were served

    def mark(self, span: Span, cut_ms: int) -> SettledMark | None:
        """The mark of the rows of ``span`` before ``cut_ms``, in one read transaction."""
        self.drain()
        self._since = None
        before = self._pin()
        self._main.execute("BEGIN")
        try:
            data_version(self._main)  # the transaction's state, fixed from here on
            return _mark(self._rows, span, cut_ms, self._early(before))
        finally:
            self._main.rollback()  # it only read

    def read(
        self, span: Span, tail: Span, cut_ms: int, mark: object, next_cut_ms: int
    ) -> tuple[Capture, Settle] | None:
        """The read of ``tail`` (from ``cut_ms``), and its verdict: the mark at
        ``next_cut_ms`` when the rows of ``span`` before ``cut_ms`` still have ``mark``.
        When every row the mark covers has a UTC timestamp, the read starts at the text
        of its first instant rather than a day of UTC offsets before it: the rows between
        are such rows, which a read drops by their text (``Span.keeps_sql``)."""
        if not isinstance(mark, SettledMark):
            return None
        self.drain()
        if mark.in_utc and not (tail.a % 1000 or tail.b % 1000):
            start = text_at(tail.a - 1000)
            tail.ranges = [(max(lo, start), hi) for lo, hi in tail.ranges if hi > start]
        before = self._pin()
        if self._served_before(before):
            # The kept halves will most likely be served again: the mark is then a few
            # ms of SQLite on this connection, less than what a second thread costs while
            # this one runs Python (it waits for the interpreter's lock after each
            # statement). Should they need SQL after all, they are made here, as below.
            self.inline += 1
            self._main.execute("BEGIN")
            data_version(self._main)  # the transaction's state, fixed from here on
            return self._one_connection(span, tail, cut_ms, mark, next_cut_ms, before)
        others = [self._other(i) for i in range(readers(2))]
        if not _same_state(self._main, others):  # a commit between: all on this connection
            return self._one_connection(span, tail, cut_ms, mark, next_cut_ms, before)
        try:
            early = self._early(before)
            if self._rows2 is None:
                self._rows2 = RowsFingerprint(others[0], self._schema)
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="actframes-mark")
            started = threading.Event()
            self._pending = self._pool.submit(
                _verdict_then_end,
                self._rows2,
                others,
                span,
                cut_ms,
                mark,
                next_cut_ms,
                started,
                early,
            )
            # Waiting here hands the interpreter's lock to the mark's thread (and its
            # helper's) at once: left to ask for it while this thread reads and compiles,
            # each would wait out a switch interval (5 ms) before its first statement.
            # This thread loses nothing: it waits for the mark, the longer of the two, at
            # ``settle`` anyway.
            started.wait()
            return self._read(tail, False), self.drain
        finally:
            self._main.rollback()

    def _one_connection(
        self,
        span: Span,
        tail: Span,
        cut_ms: int,
        mark: SettledMark,
        next_cut_ms: int,
        before: Pin | None,
    ) -> tuple[Capture, Settle] | None:
        """``read``'s work, all on the main connection, in the read transaction it is in
        (which this ends): the verdict, then the read when the verdict holds."""
        try:
            early = self._early(before)
            verdict = _verdict(self._rows, span, cut_ms, mark, next_cut_ms, [], early)
            return None if verdict is None else (self._read(tail, False), lambda: verdict)
        finally:
            self._main.rollback()

    def _served_before(self, pin: Pin | None) -> bool:
        """Whether the previous ``read``'s verdict served its early parts, none made by
        SQL, and the WAL is still of the generation they were served in: then, unless an
        early row changed, this verdict serves them too. Notes this call's start."""
        parts, since = self._parts, self._since
        self._since = None if parts is None else (parts.served, parts.made)
        return (
            parts is not None
            and since is not None
            and pin is not None
            and parts.served > since[0]
            and parts.made == since[1]
            and parts.generation == pin.salts
        )

    def drain(self) -> SettledMark | None:
        """The verdict of the mark in flight (None without one), once it is done: the
        second connection is free again."""
        pending, self._pending = self._pending, None
        return None if pending is None else pending.result()

    def close(self) -> None:
        self.drain()
        if self._pool is not None:
            self._pool.shutdown()
        if self._parts is not None:
            self._parts.close()

    @property
    def parts(self) -> SettledParts | None:
        """The kept early parts (their counters tell how often they were served)."""
        return self._parts

    def _pin(self) -> Pin | None:
        return None if self._parts is None else read_pin(self._parts.db)

    def _early(self, before: Pin | None) -> EarlyParts | None:
        """How the early parts are made in the read transactions just begun: from the
        kept ones when the WAL-index header read ``before`` they began is the one read
        now (no commit between: their state is the header's), else by SQL."""
        if self._parts is None or before is None or self._pin() != before:
            return None
        return self._parts.at(before)


def _same_state(main: sqlite3.Connection, others: list[sqlite3.Connection]) -> bool:
    """Opens a read transaction on ``others``, then on ``main``: True when all of them
    hold one state of the store (no commit between two looks at ``main``'s data
    version, the second from within its transaction); else only ``main``'s is left
    open. Both ways, the caller ends ``main``'s."""
    before = data_version(main)
    begun: list[sqlite3.Connection] = []
    try:
        for conn in others:
            conn.execute("BEGIN")
            begun.append(conn)
            data_version(conn)  # this connection's state, fixed from here on
        main.execute("BEGIN")
    except BaseException:
        for conn in begun:
            conn.rollback()
        raise
    if before is not None and data_version(main) == before:
        return True
    for conn in begun:
        conn.rollback()
    return False


def _mark(
    rows: RowsFingerprint, span: Span, cut_ms: int, early: EarlyParts | None = None
) -> SettledMark | None:
    digest = settled(rows, span, cut_ms, early=early)
    return None if digest is None else SettledMark(digest, settled_in_utc(rows, span, cut_ms))


def _verdict(
    rows: RowsFingerprint,
    span: Span,
    cut_ms: int,
    mark: SettledMark,
    next_cut_ms: int,
    helpers: list[sqlite3.Connection],
    early: EarlyParts | None = None,
    ready: Callable[[], None] = nothing,
) -> SettledMark | None:
    """The mark at ``next_cut_ms`` if the mark at ``cut_ms`` is still ``mark``, made on
    ``rows``' connection and ``helpers`` (in the same state of the store); ``ready`` is
    called once the first mark's threads have started; ``early`` as ``settled``'s."""
    if settled(rows, span, cut_ms, helpers, ready, early) != mark.digest:
        return None
    if next_cut_ms == cut_ms:
        return mark
    digest = settled(rows, span, next_cut_ms, helpers, early=early)
    if digest is None:
        return None
    # The rows the mark covers are as they were (their timestamps too): of the rows the
    # next mark covers, only those between the two cuts may lack a UTC timestamp.
    in_utc = mark.in_utc and settled_in_utc(rows, span, next_cut_ms, since_ms=cut_ms)
    return SettledMark(digest, in_utc)


def _verdict_then_end(
    rows: RowsFingerprint,
    conns: list[sqlite3.Connection],
    span: Span,
    cut_ms: int,
    mark: SettledMark,
    next_cut_ms: int,
    started: threading.Event,
    early: EarlyParts | None,
) -> SettledMark | None:
    """In the pool's thread, within the read transactions of ``conns`` (``rows``' first,
    then its helpers'), which it ends. ``started`` is set once the helpers' threads
    have started too (or the mark failed): the caller, waiting, leaves them the
    interpreter's lock to start with."""
    try:
        return _verdict(rows, span, cut_ms, mark, next_cut_ms, conns[1:], early, started.set)
    except sqlite3.DatabaseError:
        return None
    finally:
        started.set()
        for conn in conns:
            conn.rollback()
