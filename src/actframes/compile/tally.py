"""Credited time by a label of each row (its project, its category): the seconds of
every label, rounded as the ledger rounds so they add up to the day exactly, with the
input, frames and rows behind each; and each piece's own label, the one that holds most
of its credited time."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..fast.records import Record
from .ledger import largest_remainder_s
from .pieces import Piece, Row

# A row's label: a project's key, a category's name; None for none (unassigned).
Label = str | None


class Share(Record):
    """One label's part of the window."""

    __slots__ = _fields = ("label", "active_ms", "active_s", "keys", "clicks", "frames", "rows")

    label: Label
    active_ms: int
    active_s: int
    keys: int
    clicks: int
    frames: list[str]  # ids of the frames whose own or folded time holds it, in frame order
    rows: list[int]  # the credited rows' ids

    def __init__(self, label: Label) -> None:
        self.label = label
        self.active_ms = self.active_s = self.keys = self.clicks = 0
        self.frames = []
        self.rows = []


def _order(label: Label) -> tuple[bool, str]:
    return (label is None, label or "")


def tally(
    frames: Sequence[Piece], label_of: Callable[[Row], Label]
) -> tuple[list[Share], dict[int, Label]]:
    """Every label's share (ordered by label, None last) and each piece's label, by
    ``id(piece)``, for the frames and their interruptions. A piece's input goes to its
    own label: input is counted per piece, not per row."""
    shares: dict[Label, Share] = {}
    own: dict[int, Label] = {}
    for f in frames:
        fid = f.id
        for p in (f, *f.interruptions):
            by: dict[Label, int] = {}
            for r in p.rows:
                ms = r.credit_ms
                if ms <= 0:
                    continue
                label = label_of(r)
                by[label] = by.get(label, 0) + ms
                s = shares.get(label)
                if s is None:
                    s = shares[label] = Share(label)
                s.active_ms += ms
                s.rows.append(r.snap.row_id)
                if not s.frames or s.frames[-1] != fid:
                    s.frames.append(fid)
            # (a piece without credited time, input only: its first row's label)
            main = min(by, key=lambda k: (-by[k], _order(k))) if by else label_of(p.rows[0])
            own[id(p)] = main
            keys, clicks = p.input.get("keys", 0), p.input.get("clicks", 0)
            if keys or clicks:
                s = shares.get(main)
                if s is None:
                    s = shares[main] = Share(main)
                s.keys += keys
                s.clicks += clicks
    ordered = sorted(shares.values(), key=lambda s: _order(s.label))
    for s, secs in zip(ordered, largest_remainder_s([s.active_ms for s in ordered]), strict=True):
        s.active_s = secs
    return ordered, own
