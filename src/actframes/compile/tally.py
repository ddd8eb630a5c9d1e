"""Credited time by a label of each row (its project, its category): the seconds of
every label, rounded as the ledger rounds so they add up to the day exactly, with the
input, frames and rows behind each; and each piece's own label, the one that holds most
of its credited time.

A label depends on a row's app, site, title and URL; a piece's rows share its app and
site. So each piece's credit is added up per distinct (title, URL) once
(``piece_credits``), and labels are asked per distinct pair, not per row: a day has tens
of thousands of rows and a few hundred distinct titles."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress, groupby
from operator import attrgetter, itemgetter

from ..fast.records import Record
from .ledger import largest_remainder_s
from .pieces import Piece

_SNAP, _CREDIT = attrgetter("snap"), attrgetter("credit_ms")
_TITLE_URL = itemgetter(3, 4)  # Snapshot's (title, url)
_FIRST, _SECOND = itemgetter(0), itemgetter(1)  # (and a Snapshot's row id)

# A row's label: a project's key, a category's name; None for none (unassigned).
Label = str | None
# A row's (title, URL): what tells its label within its piece.
Key = tuple[str, str | None]
# Per piece (by ``id``): its credited milliseconds per (title, URL), in first-row order,
# and its credited rows' ids.
Credits = dict[int, tuple[dict[Key, int], list[int]]]


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


def pieces_of(frames: Sequence[Piece]) -> list[tuple[str, Piece]]:
    """Every frame and its interruptions, each with its frame's id."""
    return [(f.id, p) for f in frames for p in (f, *f.interruptions)]


def piece_credits(pieces: Sequence[tuple[str, Piece]]) -> Credits:
    # A piece's rows come in long runs of one (title, URL) — hundreds of rows, a few
    # runs — so runs are summed in C (groupby, sum, compress), not row by row.
    out: Credits = {}
    for _, p in pieces:
        snaps = list(map(_SNAP, p.rows))
        ms = list(map(_CREDIT, p.rows))
        acc: dict[Key, int] = {}
        for k, run in groupby(zip(map(_TITLE_URL, snaps), ms, strict=True), key=_FIRST):
            got = sum(map(_SECOND, run))
            if got > 0:
                acc[k] = acc.get(k, 0) + got
        # (credit is never negative: a row is credited when its credit is not 0)
        out[id(p)] = (acc, list(compress(map(_FIRST, snaps), ms)))
    return out


def tally(
    pieces: Sequence[tuple[str, Piece]],
    credits: Credits,
    label_of: Callable[[Piece, Key], Label],
) -> tuple[list[Share], dict[int, Label]]:
    """Every label's share (ordered by label, None last) and each piece's label, by
    ``id(piece)``. A piece's input goes to its own label: input is counted per piece, not
    per row."""
    shares: dict[Label, Share] = {}
    own: dict[int, Label] = {}

    def share(label: Label) -> Share:
        s = shares.get(label)
        if s is None:
            s = shares[label] = Share(label)
        return s

    for fid, p in pieces:
        acc, ids = credits[id(p)]
        by: dict[Label, int] = {}
        labels: dict[Key, Label] = {}
        for k, ms in acc.items():
            label = labels[k] = label_of(p, k)
            by[label] = by.get(label, 0) + ms
        if by:
            main = min(by, key=lambda x: (-by[x], _order(x)))
            if len(by) == 1:
                share(main).rows += ids
            else:
                for r in p.rows:
                    if r.credit_ms > 0:
                        share(labels[(r.snap[3], r.snap[4])]).rows.append(r.snap[0])
            for label, ms in by.items():
                s = share(label)
                s.active_ms += ms
                if not s.frames or s.frames[-1] != fid:
                    s.frames.append(fid)
        else:  # a piece without credited time, input only: its first row's label
            first = p.rows[0].snap
            main = label_of(p, (first[3], first[4]))
        own[id(p)] = main
        keys, clicks = p.input.get("keys", 0), p.input.get("clicks", 0)
        if keys or clicks:
            s = share(main)
            s.keys += keys
            s.clicks += clicks
    ordered = sorted(shares.values(), key=lambda s: _order(s.label))
    for s, secs in zip(ordered, largest_remainder_s([s.active_ms for s in ordered]), strict=True):
        s.active_s = secs
    return ordered, own
