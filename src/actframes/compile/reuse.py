"""Per-piece parts of the document kept between compiles of one growing window.

A resident cache compiles today again at every call while a recorder appends; the rows
before the cut are the very same records each time (``sources/splice.py``), so most
frames are the same. Each frame's object (and each piece's references) is kept under a
key of everything it is made of — its first and last row, their times, the number, ids
and credited time of its rows, its seconds, input and event ids, and its interruptions'
— and used again when the key recurs. A ``Reuse`` belongs to one chain of spliced
captures of one window and is dropped with it: within the chain, the rows between a
piece's first and last row are the same rows.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from operator import attrgetter
from typing import Any, TypeVar

from .pieces import Piece

_ROW_ID = attrgetter("snap.row_id")
T = TypeVar("T")


class Reuse:
    """Frame objects and piece references of the latest compile, by content key."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, Any] = {}
        self._used: dict[Hashable, Any] = {}
        self.hits = 0

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        found: T | None = self._kept.get(key)
        if found is None:
            found = make()
        else:
            self.hits += 1
        self._used[key] = found
        return found

    def done(self) -> None:
        """After a compile: keep only what it used, so the kept parts never pile up."""
        self._kept, self._used = self._used, {}


def rows_key(p: Piece) -> Hashable:
    first, last = p.rows[0], p.rows[-1]
    return (
        first.snap,
        first.start_ms,
        last.snap,
        last.end_ms,
        len(p.rows),
        sum(map(_ROW_ID, p.rows)),
        p.credit_ms,
    )


def piece_key(p: Piece) -> Hashable:
    return (
        rows_key(p),
        p.active_s,
        tuple(sorted(p.input.items())),
        tuple(p.event_ids),
        tuple(piece_key(i) for i in p.interruptions),
    )
