"""Frames: consecutive rows of one stream with the same (app, site) key."""

from __future__ import annotations

from collections.abc import Sequence

from .pieces import Piece, Row


def sessionize(rows: Sequence[Row]) -> list[Piece]:
    """Split one stream into pieces at every key change and every session gap."""
    pieces: list[Piece] = []
    cur: list[Row] = []
    last: Row | None = None
    for r in rows:
        # Keys are shared tuples (see place_stream), so identity is the common test.
        if last is not None and (last.gap_after or (r.key is not last.key and r.key != last.key)):
            pieces.append(Piece(cur))
            cur = []
        cur.append(r)
        last = r
    if cur:
        pieces.append(Piece(cur))
    return pieces
