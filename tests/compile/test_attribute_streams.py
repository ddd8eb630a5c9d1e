"""With several streams, attribution per segment (each column against the merged segments
of its scope) agrees with the rule applied event by event."""

from __future__ import annotations

from hypothesis import given, settings

from actframes.compile import attribute as attr
from actframes.compile.constants import Rules
from actframes.compile.flicker import fold_flickers
from actframes.compile.pieces import Piece, claim_rows, held_runs
from actframes.compile.place import AwayClock, place_stream, streams
from actframes.compile.sessionize import sessionize
from actframes.model import Capture, group_events

from .test_properties import WIN, captures


@settings(max_examples=300, deadline=None)
@given(captures())
def test_segments_of_several_streams_agree_with_the_event_by_event_rule(c: Capture) -> None:
    def run(by_event: bool) -> tuple[list[tuple[str, list[int], dict[str, int]]], list[int], int]:
        by_stream, rows_by = {}, {}
        for d, stream in streams(c.snapshots).items():
            rows = place_stream(stream, WIN.start_ms, WIN.end_ms, AwayClock([]), Rules())
            if not rows:
                continue
            by_stream[d] = fold_flickers(sessionize(rows), 20_000)
            claim_rows(by_stream[d])
            rows_by[d] = rows
        if by_event:
            holds = {d: attr._Holds(r) for d, r in rows_by.items()}
            un = attr._attribute_any(holds, c.events, WIN.start_ms, WIN.end_ms)
        else:
            un = attr.attribute(rows_by, group_events(list(c.events)), WIN.start_ms, WIN.end_ms)
        pieces = [q for ps in by_stream.values() for f in ps for q in [f, *f.interruptions]]
        got = [(p.id, sorted(p.event_ids), p.input) for p in pieces]
        return got, sorted(un.event_ids), un.in_window

    assert run(True) == run(False)


@settings(max_examples=300, deadline=None)
@given(captures())
def test_runs_from_the_fold_give_the_segments_the_rows_owners_give(c: Capture) -> None:
    for stream in streams(c.snapshots).values():
        rows = place_stream(stream, WIN.start_ms, WIN.end_ms, AwayClock([]), Rules())
        sessions = sessionize(rows)
        sizes = [len(p.rows) for p in sessions]
        owners: list[Piece] = []
        pieces = fold_flickers(sessions, 20_000, owners)
        claim_rows(pieces)
        assert attr.segments(rows, held_runs(sizes, owners)) == attr.segments(rows)
