"""Rows and per-piece parts of the document kept between compiles of one growing window.

A resident cache compiles today again at every call while a recorder appends; the rows
before the cut are the very same records each time (``sources/splice.py``), so most
frames are the same. Rows are placed once (``placed``): the rows of the shared prefix are
the previous compile's very objects, and a row placed again is a new one. A piece's rows
are therefore named by identity — the ids of its first and last row objects and their
number (``rows_key``) — for when the last is a kept row, every row before it in its
stream is a kept row too, and pieces are made of the stream's rows alone (the rules are
part of what ``placed`` compares). Each kept part holds the piece it was made for, so
the rows its key names stay alive and their ids theirs. Each frame's object (and each
piece's references) is kept under a key of that and its seconds, input, number of event
ids and its interruptions' keys, and used again when the key recurs and the ids are the
same (``same_ids``); ``viewed`` (made of every piece's references) is kept while they
are all the same. The passes over every row that need not look at the shared rows again
continue from the previous compile: the rows' columns (``columns``), their safety
(``safe``), their streams (``streams``) and a stream's sessions (``sessions``). A
``Reuse`` belongs to one chain of spliced captures of one window and is dropped with it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Sequence
from operator import attrgetter
from typing import Any, TypeVar

from ..model import Capture, Snapshot
from .pieces import Piece, Row
from .place import one_in_order
from .provenance import DigestMemo, shared_prefix

_ROW_TIME_ID = attrgetter("snap.ts_ms", "snap.row_id")
T = TypeVar("T")


class Reuse:
    """Placed rows, frame objects and piece references of the latest compile."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, Any] = {}
        self._used: dict[Hashable, Any] = {}
        self._streams: dict[str, tuple[Hashable, list[Snapshot], list[Row]]] = {}
        self._rows_kept: dict[str, int] = {}  # per stream: its first rows kept by ``placed``
        self._ends: dict[str, list[int]] = {}  # per stream: where its sessions end
        self.hits = 0
        self.rows_reused = 0
        self.whole_hits = 0  # parts made of every piece (``once``) used again
        self._once: dict[str, tuple[Hashable, Any]] = {}
        self.digest = DigestMemo()  # the capture digest's encoded rows (``provenance.py``)
        self._snaps: list[Snapshot] = []  # the rows ``columns`` was given last (a reader's
        # list: nothing appends to it after the read; a splice makes a new one)
        self._columns: list[tuple[Any, ...]] = []  # ... and their fields as columns
        self._shared_rows = 0  # how many first rows this compile shares with the previous
        self._all_safe = False  # the previous compile's rows needed no repair nor note
        self._one_stream: str | None = None  # ... were one device's, in order: its name

    def columns(self, snaps: list[Snapshot]) -> list[tuple[Any, ...]]:
        """``list(zip(*snaps))``: the rows' fields as columns, the previous compile's
        used again for the rows it shares with this one (the same objects, in the same
        places: the rows before the cut) and only the rest transposed."""
        m = shared_prefix(self._snaps, snaps)
        if not m:
            columns = list(zip(*snaps, strict=True))
        else:
            rest = list(zip(*snaps[m:], strict=True)) or [()] * len(self._columns)
            columns = [old[:m] + new for old, new in zip(self._columns, rest, strict=True)]
        self._snaps, self._columns, self._shared_rows = snaps, columns, m
        return columns

    def streams(
        self,
        snaps: list[Snapshot],
        columns: list[tuple[Any, ...]],
        group: Callable[..., dict[str, list[Snapshot]]],
    ) -> tuple[dict[str, list[Snapshot]], bool]:
        """``group(snaps, columns)`` (``place.streams``, after ``columns``), told that the
        rows shared with the previous compile are one device's, in order, when they were;
        with whether the rows are one stream in their own order (``place.one_in_order``)."""
        # (Rows made safe are other rows than those ``columns`` was given: nothing known.)
        given = snaps is self._snaps
        m, device = self._shared_rows, self._one_stream
        known = (device, m) if given and device is not None and m else None
        found = group(snaps, columns, known)
        same = one_in_order(found, snaps)
        self._one_stream = next(iter(found)) if given and same else None
        return found, same

    def safe(
        self,
        cap: Capture,
        columns: list[tuple[Any, ...]],
        make_safe: Callable[[Capture, list[tuple[Any, ...]]], tuple[Capture, bool]],
    ) -> tuple[Capture, bool]:
        """``make_safe(cap, columns)`` (``safe_capture``, after ``columns``): each value is
        made safe on its own, so where the previous compile's rows needed neither a
        repair nor a note, only the values of the rows past the shared ones are looked
        at."""
        m = self._shared_rows if self._all_safe else 0
        got = make_safe(cap, [c[m:] for c in columns] if m else columns)
        self._all_safe = got[0] is cap and not got[1]
        return got

    def placed(
        self,
        device: str,
        stream: list[Snapshot],
        context: Hashable,
        place: Callable[[Sequence[Snapshot]], list[Row]],
    ) -> list[Row]:
        """``place(stream)``, with the rows of the previous compile's stream kept where
        its snapshots are the same: a row's placement depends on its snapshot and the
        next one's time, so every row but the last of the shared prefix is the same
        (``context``: the window, rules and away spans, which must be the same too)."""
        old = self._streams.get(device)
        rows: list[Row] | None = None
        self._rows_kept[device] = 0
        if old is not None and old[0] == context:
            _, before, old_rows = old
            m = shared_prefix(before, stream)
            if m > 1:
                s = stream[m - 1]
                r = bisect_left(old_rows, (s[1], s[0]), key=_ROW_TIME_ID)
                rows = old_rows[:r] + place(stream[m - 1 :])
                self.rows_reused += r
                self._rows_kept[device] = r
        if rows is None:
            rows = place(stream)
        self._streams[device] = (context, stream, rows)
        return rows

    def sessions(
        self, device: str, rows: list[Row], split: Callable[[list[Row]], list[Piece]]
    ) -> list[Piece]:
        """``split(rows)`` (``sessionize``, of the rows ``placed`` gave), with the previous
        compile's sessions kept up to the last row it kept: whether a session ends after
        a row is told by that row and the next one alone (a gap after it, another key),
        so where both are kept rows, the session ends where it did."""
        kept = self._rows_kept.get(device, 0)
        pieces: list[Piece] = []
        ends: list[int] = []
        begin = 0
        for end in self._ends.get(device, []) if kept else []:
            if end >= kept:  # (the row after it is not a kept one)
                break
            pieces.append(Piece(rows[begin:end]))
            ends.append(end)
            begin = end
        for p in split(rows[begin:]):
            pieces.append(p)
            begin += len(p.rows)
            ends.append(begin)
        self._ends[device] = ends
        return pieces

    def get(
        self,
        key: Hashable,
        make: Callable[[], T],
        piece: Piece,
        same: Callable[[Piece], bool] | None = None,
    ) -> T:
        """``make()``, or what the previous compile made under an equal ``key`` (of
        ``piece``: kept with it, see the module's docstring) for a piece ``same`` accepts
        (what the key leaves out: ``same_ids``)."""
        old: tuple[T, Piece] | None = self._kept.get(key)
        if old is None or (same is not None and not same(old[1])):
            found = make()
        else:
            found = old[0]
            self.hits += 1
        self._used[key] = (found, piece)
        return found

    def once(self, name: str, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, or the value the previous compile made under ``name`` when its
        ``key`` is equal: one value per name (a part of the whole day, e.g. ``viewed``)."""
        old = self._once.get(name)
        if old is not None and old[0] == key:
            self.whole_hits += 1
            found: T = old[1]
            return found
        made = make()
        self._once[name] = (key, made)
        return made

    def done(self) -> None:
        """After a compile: keep only what it used, so the kept parts never pile up."""
        self._kept, self._used = self._used, {}


def rows_key(p: Piece) -> tuple[int, int, int]:
    """What names a piece's rows within a chain, while its rows live (a few look-ups, not
    a pass over them)."""
    rows = p.rows
    return (id(rows[0]), id(rows[-1]), len(rows))


def piece_key(p: Piece) -> Hashable:
    """What a frame is made of (its rows by ``rows_key``; its event ids: ``same_ids``)."""
    return (
        rows_key(p),
        p.active_s,
        tuple(sorted(p.input.items())),
        len(p.event_ids),  # the ids themselves: ``same_ids``
        tuple(map(piece_key, p.interruptions)),
    )


def same_ids(p: Piece, old: Piece) -> bool:
    """Whether ``p`` and its interruptions hold the event ids ``old`` and its did, in
    order (pieces of equal ``piece_key``): lists compared in C, where a key would make
    and hash a tuple of a day's ids."""
    return p.event_ids == old.event_ids and all(map(same_ids, p.interruptions, old.interruptions))
