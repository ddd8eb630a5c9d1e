"""Dwell: a row earns min(gap to the next row, 90 s) when the gap is at most 300 s."""

from __future__ import annotations

import pytest

from actframes.model import Span

from .caps import DAY, at, cap, compile_, seq, snap


@pytest.mark.parametrize(
    ("gap_s", "credited_s"),
    [(1, 1), (30, 30), (90, 90), (91, 90), (200, 90), (300, 90), (301, 0), (3600, 0)],
)
def test_dwell_is_capped_and_zero_over_the_session_gap(gap_s: int, credited_s: int) -> None:
    doc = compile_(cap(seq(("Code", gap_s), ("Code", 0))))
    assert doc["coverage"]["active_s"] == credited_s


def test_last_row_of_a_stream_earns_nothing() -> None:
    doc = compile_(cap(seq(("Code", 10))))
    assert doc["coverage"]["active_s"] == 0
    assert doc["frames"][0]["wall_s"] == 0


def test_session_gap_closes_the_frame_and_is_listed() -> None:
    doc = compile_(cap(seq(("Code", 60), ("Code", 400), ("Code", 30), ("Code", 0))))
    assert [f["evidence"]["rows"] for f in doc["frames"]] == ["1-2", "3-4"]
    assert doc["coverage"]["gaps"] == [
        {"start": "2026-03-10T08:01:00+00:00", "end": "2026-03-10T08:07:40+00:00", "s": 400}
    ]
    assert doc["frames"][0]["end"] == "2026-03-10T08:01:00+00:00"


def test_frame_end_is_last_row_plus_its_dwell() -> None:
    doc = compile_(cap(seq(("Code", 20), ("Code", 200), ("Slack", 0))))
    f = doc["frames"][0]
    assert f["start"] == "2026-03-10T08:00:00+00:00"
    assert f["end"] == "2026-03-10T08:01:50+00:00"  # 20 s + min(200, 90)
    assert f["active_s"] == 110
    assert f["wall_s"] == 110


def test_away_time_is_not_credited() -> None:
    afk = [Span(at(30), at(50))]
    doc = compile_(cap(seq(("Code", 60), ("Code", 0)), afk=afk, has_afk=True))
    assert doc["coverage"]["active_s"] == 40
    assert doc["coverage"]["away"] == []  # listed only from 5 minutes


def test_credit_is_cut_at_the_window_edges() -> None:
    rows = [snap(1, -30, "Code"), snap(2, 30, "Code"), snap(3, 60, "Code")]
    from actframes.window import Window

    win = Window(at(0), at(45), "UTC")
    doc = compile_(cap(rows), win)
    # Row 1 reaches 30 s into the window; row 2 earns 15 s before the window ends.
    assert doc["coverage"]["active_s"] == 45
    assert doc["frames"][0]["start"] == "2026-03-10T08:00:00+00:00"
    assert doc["frames"][0]["evidence"]["rows"] == "1-2"


def test_rows_sharing_a_timestamp_are_ordered_by_row_id() -> None:
    rows = [snap(2, 0, "Slack"), snap(1, 0, "Code"), snap(3, 10, "Slack")]
    doc = compile_(cap(rows))
    assert [f["app"] for f in doc["frames"]] == ["Code", "Slack"]
    assert doc["frames"][0]["active_s"] == 0


def test_interval_source_credits_observed_span_without_cap() -> None:
    rows = [
        snap(1, 0, "Code", dur=600),
        snap(2, 600, "Firefox", "https://github.com/a/b", dur=100),
        snap(3, 650, "Code", dur=30),  # overlaps the previous span: cut there
    ]
    afk = [Span(at(100), at(400))]
    doc = compile_(cap(rows, afk=afk, has_afk=True, interval=True))
    ledger = {(e["app"], e.get("site")): e["active_s"] for e in doc["ledger"]}
    assert ledger == {("Code", None): 300 + 30, ("Firefox", "github.com"): 50}
    assert doc["coverage"]["away"] == [
        {"start": "2026-03-10T08:01:40+00:00", "end": "2026-03-10T08:06:40+00:00", "s": 300}
    ]
    assert "observed focus span" in doc["blind_spots"][0]


def test_empty_window_compiles_to_an_empty_document() -> None:
    doc = compile_(cap([]))
    assert doc["frames"] == [] and doc["ledger"] == []
    assert doc["coverage"]["first"] is None and doc["coverage"]["active_s"] == 0
    assert doc["window"] == {
        "day": "2026-03-10",
        "start": "2026-03-10T00:00:00+00:00",
        "end": "2026-03-11T00:00:00+00:00",
        "tz": "UTC",
    }
    assert DAY.end_ms - DAY.start_ms == 86_400_000
