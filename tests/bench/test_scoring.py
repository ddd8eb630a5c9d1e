"""Scoring rules: tolerances, yes/no, absent facts, times, frames, away periods, parsing."""

from __future__ import annotations

from typing import Any

import pytest

from actframes.bench.questions import Question
from actframes.bench.scoring import (
    parse_clock,
    parse_int,
    parse_minutes,
    parse_spans,
    score,
)


def q(kind: str, value: Any, accept: list[Any] | None = None) -> Question:
    return Question("d/q01", "2026-03-10", "UTC", kind, "?", str(value), value, accept or [])


@pytest.mark.parametrize(
    ("answer", "correct"),
    [(100, True), (110, True), (90, True), (110.5, False), (89.4, False), ("1h40m", True),
     ("100 minutes", True), ("1:40", True), ("6000 seconds", True), (None, False)],
)  # fmt: skip
def test_minutes_within_ten_percent(answer: Any, correct: bool) -> None:
    s = score(q("app_minutes", 100.0), answer)
    assert s.correct is correct
    if answer is not None:
        assert s.rel_error is not None
    else:
        assert not s.answered and s.rel_error is None


def test_magnitude_error_is_relative() -> None:
    assert score(q("site_minutes", 40.0), 50).rel_error == pytest.approx(0.25)
    assert score(q("site_minutes", 40.0), "unknown").rel_error is None


def test_counts() -> None:
    assert score(q("distinct_apps", 7), 7).correct
    assert score(q("distinct_apps", 7), "7 apps").correct
    assert not score(q("distinct_apps", 7), 8).correct
    assert score(q("keys_in_app", 1000), "1,090").correct
    assert not score(q("keys_in_app", 1000), 1101).correct


def test_names_ignore_case_quotes_and_accept_ties() -> None:
    top = q("top_app", "Google Chrome", accept=["Code"])
    assert score(top, ' "google  chrome" ').correct
    assert score(top, "code").correct
    assert not score(top, "Slack").correct
    assert not score(q("compare_apps", "Code"), 3).correct


def test_yes_no_and_absent_facts() -> None:
    assert score(q("app_used", "yes"), "Yes, briefly.").correct
    assert not score(q("site_visited", "yes"), "no").correct
    probe = q("absent_app", "no")
    s = score(probe, "yes")
    assert not s.correct and s.hallucinated is True
    s = score(probe, "No.")
    assert s.correct and s.hallucinated is False
    s = score(probe, "unknown")  # not answering is wrong, but not a hallucination
    assert not s.correct and not s.answered and s.hallucinated is False
    assert score(q("absent_site", "no"), False).correct


@pytest.mark.parametrize(
    ("answer", "correct"),
    [("09:05", True), ("9:00", True), ("08:55", True), ("08:54", False), ("09:06", False),
     ("9:03 am", True), (543.0, True), ("about nine", False)],
)  # fmt: skip
def test_times_within_five_minutes(answer: Any, correct: bool) -> None:
    assert score(q("first_activity", 540.0), answer).correct is correct


def test_longest_frame_needs_app_and_start() -> None:
    frame = q(
        "longest_frame", {"app": "zoom.us", "start": 852.0}, [{"app": "Code", "start": 600.0}]
    )
    assert score(frame, "zoom.us @ 14:15").correct
    assert score(frame, "Code (github) @ 10:03").correct  # a tie within tolerance
    assert score(frame, {"app": "ZOOM.US", "start": "14:12"}).correct
    assert not score(frame, "zoom.us @ 14:20").correct
    assert not score(frame, "Slack @ 14:12").correct
    assert not score(frame, "zoom.us").correct


def test_away_periods_match_count_and_edges() -> None:
    away = q("away_periods", [[721.0, 764.0], [923.0, 963.0]])
    assert score(away, "12:01-12:44, 15:23–16:03").correct
    assert score(away, ["12:04-12:40", "15:20-16:07"]).correct
    assert score(away, [[721, 764], [923, 963]]).correct
    assert not score(away, "12:01-12:44").correct  # one missing
    assert not score(away, "12:01-12:50, 15:23-16:03").correct  # an end 6 minutes off
    none = q("away_periods", [])
    assert score(none, "none").correct
    assert score(none, []).correct
    assert not score(none, "12:00-12:40").correct


def test_parsers() -> None:
    assert parse_minutes("2 h 5 min") == 125
    assert parse_minutes("about 12.5 minutes") == 12.5
    assert parse_int("4 812 keys") == 4812
    assert parse_int(True) is None
    assert parse_clock("2:45 pm") == 14 * 60 + 45
    assert parse_clock("12:10 am") == 10
    assert parse_clock("00:30 (+1d)") == 1440 + 30
    assert parse_clock("25:00") is None
    assert parse_spans("none") == []
    assert parse_spans("10:00-10:45") == [[600.0, 645.0]]
    assert parse_spans("10:00") is None
