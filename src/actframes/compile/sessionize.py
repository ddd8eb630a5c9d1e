"""Frames: consecutive rows of one stream with the same (app, site) key."""

from __future__ import annotations

from collections.abc import Sequence

from .pieces import Piece, Row


def sessionize(rows: Sequence[Row]) -> list[Piece]:
    """Split one stream into pieces at every key change and every session gap."""
    pieces: list[Piece] = []
    cur: list[Row] = []
    for r in rows:
        if cur and (r.key != cur[-1].key or cur[-1].gap_after):
            pieces.append(Piece(cur))
            cur = []
        cur.append(r)
    if cur:
        pieces.append(Piece(cur))
    return pieces
