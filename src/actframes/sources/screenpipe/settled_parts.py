"""The early parts of a screenpipe-style store's settled mark (``settled``), kept
between calls while the store's WAL shows that none of their rows changed (issue #20).

A part (the rows of one half, from the read's start to the cut's hour, or of the cut's
hour) is the digest SQL writes of its jobs' rows (``fingerprint``); made again
each call, it costs most of a tail call. Kept here with, per table it reads,
``count(*)``, ``min(rowid)`` and ``max(rowid)`` of the rows the job hashes
(``settled_stats``), the tables' schema rows, and the table b-tree pages that
hold the rowid range ``[min, max]`` at the state it was made in (``sqlite_pages.btree``: the
leaves and their cells' overflow pages, each with a digest of its bytes, and each interior
page's routing of the range), with that state's WAL generation and frame (``sqlite_pages.wal``).
A later call in a read transaction pinned to a state of the same generation serves the
kept bytes when the row counts and schema rows are the same (one statement for all the
call's kept parts), no leaf or overflow page of the range was written by a frame since,
and every interior page written since still routes the range as it did: then the cells
with keys in the range are the very cells they were, so all the part's rows are still
its rows, and as many rows say no other entered, so SQL would write the same text. In
another generation (the WAL restarted: the frames between are gone) every page of the
range is read again instead: the same bytes and routing serve.
Anything else (no pin, a page that does not parse, auto-vacuum, a table WITHOUT ROWID or
with a column named like the rowid, a restart of the WAL before the raw reads end) makes
the part by SQL, as without this module, and keeps it anew.
"""

from __future__ import annotations

import hashlib
import sqlite3
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..base import fetch
from ..sqlite_pages.btree import KeyRangePages, db_header, key_range_pages, routing
from ..sqlite_pages.wal import Pin, WalFrames, read_pin
from .fingerprint import PartKey, RowsFingerprint
from .settled_stats import counts, stats

Ranges = list[tuple[str, str]]
Make = Callable[[RowsFingerprint], bytes]
# Given a part's key, its ranges and how SQL makes it: how this call makes it.
EarlyParts = Callable[[PartKey, Ranges, Make], Make]

KEEP = 8  # parts kept per store: two halves at a cut, a few cuts of a day
_ODD = (OSError, ValueError, IndexError, struct.error)  # a raw read that went wrong


class _Walk(NamedTuple):
    """The pages of one table's rowid range at the state a part was made or served in."""

    lo: int
    hi: int
    pages: KeyRangePages
    # The leaves and overflow pages, each with the digest of its bytes: within a WAL
    # generation any write to one is a change; across a restart, other bytes are.
    held: dict[int, bytes]


class _Kept(NamedTuple):
    part: bytes
    stats: tuple[object, ...]
    generation: bytes
    frame: int
    usable: int
    walks: tuple[_Walk, ...]


class SettledParts:
    """The kept early parts of one store's settled marks and the WAL frames followed."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self._wal = WalFrames(db)
        self._lock = threading.Lock()
        self._kept: OrderedDict[PartKey, _Kept] = OrderedDict()
        self._followed: Pin | None = None
        self.served = 0  # halves served from here, not SQL (tests read how often)
        self.made = 0  # halves made by SQL
        self.hours = [0, 0]  # the cut's hour's rows: how often served, made

    @classmethod
    def of(cls, conn: sqlite3.Connection) -> SettledParts | None:
        """The parts of the file ``conn`` reads as its main database; None for a database
        held in memory or a temporary one."""
        for _, name, file in fetch(conn, "PRAGMA database_list", ()):
            if name == "main" and file:
                return cls(Path(str(file)))
        return None

    def at(self, pin: Pin | None) -> EarlyParts | None:
        """How the early parts are made in read transactions of the state ``pin`` names
        (the caller saw the same pin before and after they began); None without a pin or
        a WAL that can be followed to it: SQL then makes them, as it does without this."""
        if pin is None:
            return None
        with self._lock:
            if pin != self._followed:
                self._wal.follow(pin)
                self._followed = pin
            if self._wal.generation != pin.salts:
                return None

        call = _Call(pin)

        def early(key: PartKey, ranges: Ranges, make: Make) -> Make:
            with call.lock:
                call.parts[key] = ranges
            return lambda rows: self._part(call, key, ranges, make, rows)

        return early

    @property
    def generation(self) -> bytes | None:
        """The salts of the WAL generation followed (None: none)."""
        return self._wal.generation

    def close(self) -> None:
        self._wal.close()

    # ------------------------------------------------------------------ internals

    def _part(
        self, call: _Call, key: PartKey, ranges: Ranges, make: Make, rows: RowsFingerprint
    ) -> bytes:
        pin = call.pin
        served = self._served_at_once(call, key, rows)
        if served is not None:
            return served
        try:
            found = stats(rows, ranges)
        except sqlite3.OperationalError:  # an SQLite without pragma functions: SQL only
            return make(rows)
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and kept.stats == found:
            try:
                if kept.generation == pin.salts:
                    same = self._unchanged(kept, pin)
                else:  # the WAL restarted since: the pages' bytes tell
                    same = self._same_pages(kept, pin)
            except _ODD:
                same = False
            if same:
                return self._serve(key, kept, pin)
        part = make(rows)
        try:
            walked = self._walk(found, pin)
        except _ODD:
            walked = None
        with self._lock:
            self._count(key, made=True)
            if walked is not None:
                usable, walks = walked
                self._kept[key] = _Kept(part, found, pin.salts, pin.max_frame, usable, walks)
                self._kept.move_to_end(key)
                while len(self._kept) > KEEP:
                    self._kept.popitem(last=False)
            else:
                self._kept.pop(key, None)
        return part

    def _served_at_once(self, call: _Call, key: PartKey, rows: RowsFingerprint) -> bytes | None:
        """The kept bytes of part ``key`` when the check of this call's kept parts of the
        WAL generation followed, made once for all of them, says it stands; else None.

        One statement counts the rows of each such part (``counts``): no rowid decoded, and
        no minimum or maximum needed. A part stands when its pages were not written since
        (``_unchanged``) and its count is the kept one: its kept rows all lie in its rowid
        range, whose cells are the very cells they were, so they are all still its rows
        (for the OCR rows: its frames, proved so first, are; so are their pending ones);
        as many rows as then means no other row entered."""
        with call.lock:
            if key not in call.standing:
                todo = [k for k in call.parts if k not in call.standing]
                with self._lock:
                    kept = {k: self._kept.get(k) for k in todo}
                held = {
                    k: v
                    for k, v in kept.items()
                    if v is not None and v.generation == call.pin.salts
                }
                call.standing.update(dict.fromkeys(todo, False))
                if held:
                    call.standing.update(self._standing(call, held, rows))
            if not call.standing[key]:
                return None
        with self._lock:
            kept_now = self._kept.get(key)
        return None if kept_now is None else self._serve(key, kept_now, call.pin)

    def _standing(
        self, call: _Call, held: dict[PartKey, _Kept], rows: RowsFingerprint
    ) -> dict[PartKey, bool]:
        keys = list(held)
        try:
            now = counts(rows, [call.parts[k] for k in keys])
        except sqlite3.OperationalError:  # an SQLite without pragma functions
            return {}
        found = {}
        for k, count in zip(keys, now, strict=True):
            kept = held[k]
            was = tuple((*t[:3],) if isinstance(t, tuple) else t for t in kept.stats)
            try:
                found[k] = was == count and self._unchanged(kept, call.pin, still=False)
            except _ODD:
                found[k] = False
        # Whether the raw reads were of the pin's generation: asked once for all parts.
        if any(found.values()) and not self._still(call.pin):
            return {}
        return found

    def _serve(self, key: PartKey, kept: _Kept, pin: Pin) -> bytes:
        """The kept part, now known to stand at ``pin``: followed from there on."""
        with self._lock:
            frame = (
                max(kept.frame, pin.max_frame) if kept.generation == pin.salts else pin.max_frame
            )
            self._kept[key] = kept._replace(generation=pin.salts, frame=frame)
            self._kept.move_to_end(key)
            self._count(key, made=False)
        return kept.part

    def _count(self, key: PartKey, made: bool) -> None:
        if key[0] == "settled":
            self.made += made
            self.served += not made
        else:
            self.hours[made] += 1

    def _unchanged(self, kept: _Kept, pin: Pin, still: bool = True) -> bool:
        """Whether no frame after the kept one up to ``pin`` wrote a leaf or overflow page
        of a kept range, or changed how an interior page routes one; read while the
        caller's read transaction of ``pin`` is open. ``still=False``: the caller asks
        once, for several parts, whether the WAL is still of ``pin``'s generation."""
        written = {pgno for _, pgno in self._wal.written(kept.frame, pin.max_frame)}
        if not written:
            return True
        if 1 in written and self._usable(pin) != kept.usable:
            return False
        for walk in kept.walks:
            if not written.isdisjoint(walk.held):
                return False
            if not self._routes_hold(walk, written.intersection(walk.pages.routes), kept, pin):
                return False
        return not still or self._still(pin)

    def _same_pages(self, kept: _Kept, pin: Pin) -> bool:
        """Whether every leaf and overflow page of the kept ranges holds the bytes it held
        and every interior page routes its range as it did, read at ``pin`` (the frames
        written since the kept state are of a generation no longer readable)."""
        if self._usable(pin) != kept.usable:
            return False
        for walk in kept.walks:
            if not self._routes_hold(walk, set(walk.pages.routes), kept, pin):
                return False
            for pgno, digest in walk.held.items():
                if _digest(self._wal.page(pgno, pin.max_frame)) != digest:
                    return False
        return self._still(pin)

    def _routes_hold(self, walk: _Walk, pgnos: set[int], kept: _Kept, pin: Pin) -> bool:
        """Whether each of the interior pages ``pgnos`` of ``walk`` routes its range at
        ``pin`` as it did when walked."""
        for pgno in pgnos:
            page = self._wal.page(pgno, pin.max_frame)
            if routing(page, pgno, walk.lo, walk.hi, usable=kept.usable) != walk.pages.routes[pgno]:
                return False
        return True

    def _walk(self, stats: tuple[object, ...], pin: Pin) -> tuple[int, tuple[_Walk, ...]] | None:
        """The usable page size and each table's walk of its rowid range at ``pin``; None
        when the tables or the file do not allow an incremental mark."""
        *tables, _schema = stats
        usable = self._usable(pin)
        if usable is None:
            return None
        walks = []
        seen: dict[int, bytes] = {}  # the pages the walks read, to digest the held ones

        def read(pgno: int) -> bytes:
            seen[pgno] = page = self._wal.page(pgno, pin.max_frame)
            return page

        for table in tables:
            if not isinstance(table, tuple):
                return None
            root, odd, n, lo, hi = table
            if odd or not isinstance(root, int) or not isinstance(n, int):
                return None  # WITHOUT ROWID, a column named like the rowid, no table
            if not n:
                continue
            if not (isinstance(lo, int) and isinstance(hi, int)):
                return None

            pages = key_range_pages(read, root, lo, hi, usable, page_count=pin.pages)
            if pages is None:
                return None
            held = {p: _digest(seen[p]) for p in pages.leaves | pages.overflow}
            walks.append(_Walk(lo, hi, pages, held))
        return (usable, tuple(walks)) if self._still(pin) else None

    def _usable(self, pin: Pin) -> int | None:
        """The usable page size from page 1 at ``pin``; None with auto-vacuum (pages move
        without their parents' routing telling) or a header that does not parse."""
        header = db_header(self._wal.page(1, pin.max_frame))
        if header is None or header.auto_vacuum or header.page_size != pin.page_size:
            return None
        return header.usable

    def _still(self, pin: Pin) -> bool:
        """Whether the WAL is still of ``pin``'s generation: a restart (new salts in the
        WAL-index before any frame is overwritten) would have made raw reads of frames
        unsafe. A header caught mid-write is read again, twice at most."""
        for _ in range(3):
            now = read_pin(self.db)
            if now is not None:
                return now.salts == pin.salts
        return False


class _Call:
    """One call's early parts (the halves of its marks) and, once checked at once, which
    kept ones stand at its pin."""

    def __init__(self, pin: Pin) -> None:
        self.pin = pin
        self.lock = threading.Lock()
        self.parts: dict[PartKey, Ranges] = {}
        self.standing: dict[PartKey, bool] = {}


def _digest(page: bytes) -> bytes:
    return hashlib.sha256(page).digest()
