"""Internal working records of the compiler: rows placed in the window, and pieces
(frames and interruptions) built from them."""

from __future__ import annotations

from operator import attrgetter

from ..fast.records import Record
from ..model import Snapshot

_CREDIT = attrgetter("credit_ms")


class Row(Record):
    """A snapshot placed in the window, with the time it holds and the time it earns."""

    __slots__ = _fields = (
        "snap",
        "site",
        "start_ms",
        "end_ms",
        "credit_ms",
        "gap_after",
        "key",
        "owner",
    )

    snap: Snapshot
    site: str | None
    start_ms: int  # the row's time, clipped to the window start
    end_ms: int  # the end of the time it holds (dwell or observed span), clipped
    credit_ms: int  # credited active time: held time inside the window and not away
    gap_after: bool  # a session gap follows this row on its stream
    key: tuple[str, str | None]  # (app, site), the context key
    owner: Piece | None  # the frame or interruption that holds it, for attribution only

    def __init__(
        self,
        snap: Snapshot,
        site: str | None,
        start_ms: int,
        end_ms: int,
        credit_ms: int,
        gap_after: bool,
        key: tuple[str, str | None],
        owner: Piece | None = None,
    ) -> None:
        self.snap = snap
        self.site = site
        self.start_ms = start_ms
        self.end_ms = end_ms
        self.credit_ms = credit_ms
        self.gap_after = gap_after
        self.key = key
        self.owner = owner


class Piece(Record):
    """A frame, or an interruption folded into one."""

    __slots__ = _fields = ("rows", "interruptions", "input", "event_ids", "active_s")

    rows: list[Row]
    interruptions: list[Piece]
    input: dict[str, int]
    event_ids: list[int]
    active_s: int  # assigned by the ledger's apportionment

    def __init__(
        self,
        rows: list[Row],
        interruptions: list[Piece] | None = None,
        input: dict[str, int] | None = None,
        event_ids: list[int] | None = None,
        active_s: int = 0,
    ) -> None:
        self.rows = rows
        self.interruptions = [] if interruptions is None else interruptions
        self.input = {} if input is None else input
        self.event_ids = [] if event_ids is None else event_ids
        self.active_s = active_s

    @property
    def key(self) -> tuple[str, str | None]:
        return self.rows[0].key

    @property
    def app(self) -> str:
        return self.rows[0].snap.app

    @property
    def site(self) -> str | None:
        return self.rows[0].site

    @property
    def device(self) -> str:
        return self.rows[0].snap.device

    @property
    def start_ms(self) -> int:
        return self.rows[0].start_ms

    @property
    def end_ms(self) -> int:
        return self.rows[-1].end_ms

    @property
    def credit_ms(self) -> int:
        return sum(map(_CREDIT, self.rows))  # summed in C: a day has tens of thousands of rows

    @property
    def id(self) -> str:
        # Row ids are unique within a store, so the first row names the frame whatever
        # window or filter was asked.
        return f"F{self.rows[0].snap.row_id}"


def claim_rows(pieces: list[Piece]) -> None:
    """Mark every row with the frame or interruption that holds it."""
    for f in pieces:
        for r in f.rows:
            r.owner = f
        for i in f.interruptions:
            for r in i.rows:
                r.owner = i


# One stream's rows as runs of consecutive rows held by one piece: (end index, piece).
Runs = list[tuple[int, Piece]]


def held_runs(sizes: list[int], owners: list[Piece]) -> Runs:
    """The runs of a stream cut into sessions of ``sizes`` rows, in order, whose rows
    ``owners`` hold in the end (``fold_flickers``): what attribution needs, without
    marking every row with its piece."""
    runs: Runs = []
    end = 0
    for n, owner in zip(sizes, owners, strict=True):
        end += n
        if runs and runs[-1][1] is owner:  # (a fold never leaves two such runs side by side)
            runs[-1] = (end, owner)
        else:
            runs.append((end, owner))
    return runs
