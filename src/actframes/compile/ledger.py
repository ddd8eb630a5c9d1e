"""The ledger: per (app, site), every credited millisecond exactly once; and the
apportionment of each ledger entry's whole seconds among its frames and interruptions."""

from __future__ import annotations

from collections.abc import Sequence

from ..fast.records import FrozenRecord
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

    Seconds are rounded once, over the whole ledger: the total is the exact millisecond
    sum of every key rounded half up, and it is shared among the keys by largest
    remainder (ties: app, then site, absent first), so each entry is its exact time's
    floor or ceiling — within a second of it — and the entries add up to the total.
    Each entry's seconds are then shared among its pieces the same way (ties: earlier
    piece first), so the pieces' seconds add up to the entry exactly.
    """
    groups: dict[tuple[str, str | None], list[Piece]] = {}
    for p in pieces:
        groups.setdefault(p.key, []).append(p)
    keys = sorted(groups, key=lambda k: (k[0], k[1] is not None, k[1] or ""))
    # Each piece's credit summed once (over its rows), for the entry and its share.
    credits = {k: [p.credit_ms for p in group] for k, group in groups.items()}
    exact = [sum(credits[k]) for k in keys]
    seconds = largest_remainder_s(exact)
    ledger: list[LedgerEntry] = []
    for (app, site), ms, secs in zip(keys, exact, seconds, strict=True):
        group = groups[(app, site)]
        _apportion(group, credits[(app, site)], secs)
        n_keys = sum(p.input.get("keys", 0) for p in group)
        clicks = sum(p.input.get("clicks", 0) for p in group)
        ledger.append(LedgerEntry(app, site, ms, secs, n_keys, clicks))
    ledger.sort(key=lambda e: (-e.active_s, e.app, e.site or ""))
    return ledger


def largest_remainder_s(exact_ms: Sequence[int]) -> list[int]:
    """Whole seconds for each of ``exact_ms`` that add up to their sum rounded half up:
    each gets its floor, and the seconds left go to the largest remainders (ties: the
    earlier in the given order)."""
    floors = [ms // 1000 for ms in exact_ms]
    extra = round_half_up_s(sum(exact_ms)) - sum(floors)
    order = sorted(range(len(exact_ms)), key=lambda i: (-(exact_ms[i] % 1000), i))
    for i in order[:extra]:
        floors[i] += 1
    return floors


def host_ledgers(pieces: Sequence[Piece]) -> list[tuple[str, list[tuple[str, str | None, int]]]]:
    """Per host (the pieces' device), in host order: (app, site, seconds) sorted as the
    ledger is. Each entry is its exact milliseconds rounded half up once, so a host's
    entries can differ from the whole ledger's by rounding; the pieces are not touched."""
    groups: dict[str, dict[tuple[str, str | None], int]] = {}
    for p in pieces:
        by_key = groups.setdefault(p.device, {})
        by_key[p.key] = by_key.get(p.key, 0) + p.credit_ms
    out = []
    for host, by_key in sorted(groups.items()):
        entries = [(app, site, round_half_up_s(ms)) for (app, site), ms in by_key.items()]
        entries.sort(key=lambda e: (-e[2], e[0], e[1] or ""))
        out.append((host, entries))
    return out


def _apportion(group: Sequence[Piece], credits: list[int], total_s: int) -> None:
    floors = [c // 1000 for c in credits]
    extra = total_s - sum(floors)
    if extra == 0 or extra >= len(group):  # none or all get a second more: no order needed
        plus = 1 if extra else 0
        for p, f in zip(group, floors, strict=True):
            p.active_s = f + plus
        return
    order = sorted(
        range(len(group)),
        key=lambda i: (-(credits[i] % 1000), group[i].start_ms, group[i].rows[0].snap.row_id),
    )
    bonus = set(order[:extra])
    for i, p in enumerate(group):
        p.active_s = floors[i] + (1 if i in bonus else 0)
