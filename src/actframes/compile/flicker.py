"""The flicker fold: A -> B -> A folds into one A frame with B as an interruption."""

from __future__ import annotations

from collections.abc import Sequence

from .pieces import Piece


def fold_flickers(
    pieces: Sequence[Piece], flicker_ms: int, owners: list[Piece] | None = None
) -> list[Piece]:
    """Fold short detours on one stream.

    B folds when no session gap sits around it and the time away from A — from B's first
    row to A's first row again — is at most ``flicker_ms``. B keeps its own time and
    input as an interruption; A's active time does not grow by B's. Folds chain:
    A, B, A, C, A is one A frame with two interruptions.

    ``owners``, when given, receives for each of ``pieces`` the piece that holds its rows
    in the end: itself, or the frame its rows were folded into.
    """
    out: list[Piece] = []
    mark = owners.append if owners is not None else None
    for p in pieces:
        if len(out) >= 2:
            a, b = out[-2], out[-1]
            if (
                a.key == p.key
                and not a.rows[-1].gap_after
                and not b.rows[-1].gap_after
                and p.start_ms - b.start_ms <= flicker_ms
            ):
                out.pop()
                a.interruptions.append(b)
                a.interruptions.extend(b.interruptions)
                b.interruptions = []
                a.rows.extend(p.rows)
                a.interruptions.extend(p.interruptions)
                if mark is not None:
                    mark(a)
                continue
        out.append(p)
        if mark is not None:
            mark(p)
    return out
