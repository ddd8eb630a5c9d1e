"""The ledger: per (app, site), every credited millisecond exactly once; and the
apportionment of each ledger entry's whole seconds among its frames and interruptions."""

from __future__ import annotations

from collections.abc import Sequence

from ..records import FrozenRecord
from .pieces import Piece


class LedgerEntry(FrozenRecord):
    """One (app, site): its exact and rounded active time, keys and clicks."""

    __slots__ = _fields = ("app", "site", "active_ms", "active_s", "keys", "clicks")

    app: str
    site: str | None
    active_ms: int
    active_s: int
    keys: int
    clicks: int

    def __init__(
        self, app: str, site: str | None, active_ms: int, active_s: int, keys: int, clicks: int
    ) -> None:
        init = object.__setattr__
        init(self, "app", app)
        init(self, "site", site)
        init(self, "active_ms", active_ms)
        init(self, "active_s", active_s)
        init(self, "keys", keys)
        init(self, "clicks", clicks)


def round_half_up_s(ms: int) -> int:
    return (ms + 500) // 1000


def build_ledger(pieces: Sequence[Piece]) -> list[LedgerEntry]:
    """Ledger over every frame and interruption, before any filtering.

    Each entry's seconds are its exact millisecond sum rounded half up once. Those
    seconds are then shared among the entry's pieces by largest remainder (ties: earlier
    piece first), so the pieces' seconds add up to the entry exactly and each piece is
    within a second of its exact time.
    """
    groups: dict[tuple[str, str | None], list[Piece]] = {}
    for p in pieces:
        groups.setdefault(p.key, []).append(p)
    ledger: list[LedgerEntry] = []
    for (app, site), group in groups.items():
        ms = sum(p.credit_ms for p in group)
        secs = round_half_up_s(ms)
        _apportion(group, secs)
        keys = sum(p.input.get("keys", 0) for p in group)
        clicks = sum(p.input.get("clicks", 0) for p in group)
        ledger.append(LedgerEntry(app, site, ms, secs, keys, clicks))
    ledger.sort(key=lambda e: (-e.active_s, e.app, e.site or ""))
    return ledger


def _apportion(group: Sequence[Piece], total_s: int) -> None:
    credits = [p.credit_ms for p in group]
    floors = [c // 1000 for c in credits]
    extra = total_s - sum(floors)
    order = sorted(
        range(len(group)),
        key=lambda i: (-(credits[i] % 1000), group[i].start_ms, group[i].rows[0].snap.row_id),
    )
    bonus = set(order[:extra])
    for i, p in enumerate(group):
        p.active_s = floors[i] + (1 if i in bonus else 0)
