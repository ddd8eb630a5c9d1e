"""Invariants of compilation, held with hypothesis over arbitrary captures."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.ranges import expand
from actframes.emit.json_out import to_json
from actframes.model import INPUT_KINDS, Capture, InputEvent, Snapshot, Span
from actframes.window import Window

from .caps import T0, cap, compile_

APPS = ["Code", "Slack", "Google Chrome", "Terminal"]
URLS = [None, "https://github.com/psf/requests/pull/1", "https://mail.google.com/mail/u/0/"]
WIN = Window(T0 - 600_000, T0 + 4 * 3_600_000, "Europe/Berlin")


@st.composite
def captures(draw: st.DrawFn) -> Capture:
    n = draw(st.integers(min_value=0, max_value=60))
    snaps: list[Snapshot] = []
    t = T0 - draw(st.integers(min_value=0, max_value=900_000))
    for rid in range(1, n + 1):
        # Mostly short gaps, some over the dwell cap, a few over the session gap.
        t += draw(st.sampled_from([0, 500, 3_000, 15_000, 25_000, 95_000, 301_000, 1_200_000]))
        snaps.append(
            Snapshot(
                rid,
                t,
                draw(st.sampled_from(APPS)),
                f"title {draw(st.integers(0, 3))}",
                draw(st.sampled_from(URLS)),
                draw(st.sampled_from(["", "", "", "right"])),
            )
        )
    lo, hi = T0 - 900_000, (t if snaps else T0) + 60_000
    m = draw(st.integers(min_value=0, max_value=40))
    events = [
        InputEvent(
            eid,
            draw(st.integers(min_value=lo, max_value=hi)),
            draw(st.sampled_from(INPUT_KINDS)),
            draw(st.sampled_from([None, *APPS])),
            draw(st.sampled_from([None, None, "", "right"])),
            draw(st.integers(min_value=1, max_value=3)),
        )
        for eid in range(1, m + 1)
    ]
    afk = []
    if draw(st.booleans()):
        a = draw(st.integers(min_value=lo, max_value=hi))
        afk.append(Span(a, a + draw(st.integers(min_value=1_000, max_value=900_000))))
    return cap(snaps, events, afk, has_afk=bool(afk))


def _pieces(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for f in doc["frames"]:
        yield f
        yield from f["interruptions"]


@settings(max_examples=150, deadline=None)
@given(captures(), st.randoms(use_true_random=False))
def test_same_bytes_for_any_order_of_rows_and_events(c: Capture, rnd: random.Random) -> None:
    shuffled = Capture(
        c.kind,
        list(c.snapshots),
        list(c.events),
        list(c.afk),
        [],
        has_input=c.has_input,
        has_afk=c.has_afk,
    )
    rnd.shuffle(shuffled.snapshots)
    rnd.shuffle(shuffled.events)
    rnd.shuffle(shuffled.afk)
    assert to_json(compile_(shuffled, WIN)) == to_json(compile_(c, WIN))


@settings(max_examples=150, deadline=None)
@given(captures())
def test_every_second_counts_once(c: Capture) -> None:
    doc = compile_(c, WIN)
    pieces_total = sum(p["active_s"] for p in _pieces(doc))
    ledger_total = sum(e["active_s"] for e in doc["ledger"])
    assert ledger_total == doc["coverage"]["active_s"] == pieces_total
    per_key: dict[tuple[str, str | None], int] = {}
    for p in _pieces(doc):
        k = (p["app"], p.get("site"))
        per_key[k] = per_key.get(k, 0) + p["active_s"]
    assert per_key == {(e["app"], e.get("site")): e["active_s"] for e in doc["ledger"]}


@settings(max_examples=150, deadline=None)
@given(captures())
def test_every_input_event_counted_exactly_once(c: Capture) -> None:
    doc = compile_(c, WIN)
    in_window = [e for e in c.events if WIN.start_ms <= e.ts_ms < WIN.end_ms]
    seen: list[int] = []
    totals = {"keys": 0, "clicks": 0, "scrolls": 0, "copies": 0, "pastes": 0}
    for p in _pieces(doc):
        seen += expand(p["evidence"]["events"])
        for k in totals:
            totals[k] += p["input"][k]
    un = doc["coverage"]["unattributed_input"]
    seen += expand(un["evidence"])
    for k in totals:
        totals[k] += un[k]
    assert sorted(seen) == sorted(e.event_id for e in in_window)
    assert doc["coverage"]["input_events"] == len(in_window)
    names = {
        "key": "keys",
        "click": "clicks",
        "scroll": "scrolls",
        "copy": "copies",
        "paste": "pastes",
    }
    expected = {k: 0 for k in totals}
    for e in in_window:
        expected[names[e.kind]] += e.count
    assert totals == expected


@settings(max_examples=150, deadline=None)
@given(captures())
def test_every_row_in_exactly_one_piece(c: Capture) -> None:
    doc = compile_(c, WIN)
    seen = [rid for p in _pieces(doc) for rid in expand(p["evidence"]["rows"])]
    assert len(seen) == len(set(seen)) == doc["coverage"]["rows"]
    for p in _pieces(doc):
        assert p["active_s"] >= 0


@settings(max_examples=60, deadline=None)
@given(captures(), st.integers(min_value=1, max_value=40))
def test_filtering_discloses_and_never_changes_the_ledger(c: Capture, minutes: int) -> None:
    full = compile_(c, WIN)
    cut = compile_(c, WIN, min_active_s=minutes * 10)
    assert cut["ledger"] == full["ledger"] and cut["coverage"] == full["coverage"]
    assert len(cut["frames"]) + cut["omitted"]["frames"] == len(full["frames"])
    shown = sum(f["active_s"] for f in cut["frames"])
    assert shown + cut["omitted"]["active_s"] == sum(f["active_s"] for f in full["frames"])


@contextmanager
def machine_tz(name: str) -> Iterator[None]:
    old = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()


@settings(max_examples=30, deadline=None)
@given(captures())
def test_output_does_not_depend_on_the_machine_zone(c: Capture) -> None:
    with machine_tz("UTC"):
        a = to_json(compile_(c, WIN))
    with machine_tz("Pacific/Kiritimati"):
        b = to_json(compile_(c, WIN))
    with machine_tz("America/St_Johns"):
        d = to_json(compile_(c, WIN))
    assert a == b == d


@settings(max_examples=200, deadline=None)
@given(captures())
def test_segment_attribution_agrees_with_the_event_by_event_rule(c: Capture) -> None:
    from actframes.compile import attribute as attr
    from actframes.compile.constants import Rules
    from actframes.compile.flicker import fold_flickers
    from actframes.compile.pieces import claim_rows
    from actframes.compile.place import AwayClock, place_stream, streams
    from actframes.compile.sessionize import sessionize
    from actframes.model import group_events

    one = [s._replace(device="") for s in c.snapshots]
    events = [e._replace(device=None) for e in c.events]

    def run(by_event: bool) -> tuple[list[tuple[str, list[int], dict[str, int]]], list[int], int]:
        by_stream, rows_by = {}, {}
        for d, stream in streams(one).items():
            rows = place_stream(stream, WIN.start_ms, WIN.end_ms, AwayClock([]), Rules())
            by_stream[d] = fold_flickers(sessionize(rows), 20_000)
            claim_rows(by_stream[d])
            rows_by[d] = rows
        holds = {d: attr._Holds(r) for d, r in rows_by.items()}
        if by_event:
            un = attr._attribute_any(holds, events, WIN.start_ms, WIN.end_ms)
        else:
            segs = attr.segments(rows_by.get("", []))
            un = attr._attribute_segments(segs, group_events(events), WIN.start_ms, WIN.end_ms)
        pieces = [q for ps in by_stream.values() for f in ps for q in [f, *f.interruptions]]
        got = [(p.id, sorted(p.event_ids), p.input) for p in pieces]
        return got, sorted(un.event_ids), un.in_window

    assert run(True) == run(False)
