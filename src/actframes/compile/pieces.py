"""Internal working records of the compiler: rows placed in the window, and pieces
(frames and interruptions) built from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from ..model import Snapshot

_CREDIT = attrgetter("credit_ms")


@dataclass(slots=True)
class Row:
    """A snapshot placed in the window, with the time it holds and the time it earns."""

    snap: Snapshot
    site: str | None
    start_ms: int  # the row's time, clipped to the window start
    end_ms: int  # the end of the time it holds (dwell or observed span), clipped
    credit_ms: int  # credited active time: held time inside the window and not away
    gap_after: bool  # a session gap follows this row on its stream
    key: tuple[str, str | None]  # (app, site), the context key
    owner: Piece | None = None  # the frame or interruption that holds this row


@dataclass(slots=True)
class Piece:
    """A frame, or an interruption folded into one."""

    rows: list[Row]
    interruptions: list[Piece] = field(default_factory=list)
    input: dict[str, int] = field(default_factory=dict)
    event_ids: list[int] = field(default_factory=list)
    active_s: int = 0  # assigned by the ledger's apportionment

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
