"""ActivityWatch's rules (sources/activitywatch/rules.py): properties that hold for any
events. The numbers themselves are checked against a real aw-server in tests/awserver."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.sources.activitywatch.rules import (
    Ev,
    HostInput,
    flood,
    host_pieces,
    period_intersect,
    period_union,
)

DATA = st.sampled_from(["a", "b", "c"])
EVENT = st.tuples(st.integers(0, 120_000), st.integers(0, 30_000), DATA)
EVENTS = st.lists(EVENT, max_size=25)
Raw = tuple[int, int, str]


def evs(raw: list[tuple[int, int, str]]) -> list[Ev]:
    return [Ev(s, d, data, (s, d, data), (d, data)) for s, d, data in raw]


def spans(events: list[Ev]) -> list[tuple[int, int, object]]:
    return [(e.start, e.end, e.data) for e in events]


@settings(max_examples=200, deadline=None)
@given(EVENTS, st.randoms(use_true_random=False))
def test_flood_depends_on_the_events_not_their_order(raw, rnd) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(raw)
    rnd.shuffle(shuffled)
    assert spans(flood(evs(raw))) == spans(flood(evs(shuffled)))


@settings(max_examples=200, deadline=None)
@given(EVENTS)
def test_flood_gives_sorted_non_overlapping_events(raw: list[tuple[int, int, str]]) -> None:
    out = flood(evs(raw))
    assert all(e.dur > 0 for e in out)
    for a, b in pairwise(out):
        assert a.end <= b.start
    # Flooding only fills: time covered by the input stays covered.
    covered = period_union(out)
    for s, d, _ in raw:
        if d > 0:
            assert any(c.start <= s and s + d <= c.end for c in covered) or any(
                c.start < s + d and s < c.end for c in covered
            )


@settings(max_examples=200, deadline=None)
@given(EVENTS, EVENTS)
def test_intersection_lies_in_both(raw: list[Raw], filt: list[Raw]) -> None:
    a, f = flood(evs(raw)), period_union(evs(filt))
    for piece in period_intersect(a, f):
        assert any(e.start <= piece.start and piece.end <= e.end for e in a)
        assert any(x.start <= piece.start and piece.end <= x.end for x in f)


@settings(max_examples=150, deadline=None)
@given(EVENTS, st.lists(st.tuples(st.integers(0, 120_000), st.integers(1, 60_000), st.booleans())))
def test_host_pieces_lie_in_not_afk_time(raw: list[Raw], afk: list[tuple[int, int, bool]]) -> None:
    afk_evs = [Ev(s, d, "afk" if away else "not-afk", None, (d, away)) for s, d, away in afk]
    host = HostInput(evs(raw), afk_evs, {}, lambda ref: "app")
    pieces, not_afk = host_pieces(host)
    for p in pieces:
        assert any(n.start <= p.start and p.end <= n.end for n in not_afk)
    for a, b in pairwise(pieces):
        assert a.end <= b.start
    # Without an AFK bucket the flooded window time is credited whole.
    alone, none = host_pieces(HostInput(evs(raw), None, {}, lambda ref: "app"))
    assert none == []
    assert sum(p.end - p.start for p in alone) == sum(e.dur for e in flood(evs(raw)))
