"""Periods (``periods.py``, SPEC.md §5a): which days a week, a month, a range or a word
names, and the period before one (a window cut into days: test_period_days.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.errors import UsageError
from actframes.periods import (
    MAX_PERIOD_DAYS,
    Span,
    days_span,
    month_span,
    parse_span,
    previous,
    week_span,
)
from actframes.window import DayStart, WindowError

from .builders import ms

BERLIN = "Europe/Berlin"
# Monday 2026-11-23, 00:30 in Berlin: still Sunday the 22nd in UTC.
NOW = ms("2026-11-23T00:30:00+01:00")


def _days(s: Span) -> tuple[str, str, str, str]:
    return (s.since, s.until, s.kind, s.label)


@pytest.fixture()
def day_start() -> Iterator[None]:
    DayStart.minutes = 4 * 60
    try:
        yield
    finally:
        DayStart.minutes = 0


# --------------------------------------------------------------------------- weeks


@pytest.mark.parametrize(
    ("text", "tz", "want"),
    [
        ("2026-11-25", BERLIN, ("2026-11-23", "2026-11-29", "week", "2026-W48")),
        ("2026-11-23", BERLIN, ("2026-11-23", "2026-11-29", "week", "2026-W48")),  # a Monday
        ("2026-11-29", BERLIN, ("2026-11-23", "2026-11-29", "week", "2026-W48")),  # a Sunday
        ("2026-11-30", BERLIN, ("2026-11-30", "2026-12-06", "week", "2026-W49")),
        ("2026-W48", BERLIN, ("2026-11-23", "2026-11-29", "week", "2026-W48")),
        ("2026-W01", BERLIN, ("2025-12-29", "2026-01-04", "week", "2026-W01")),
        ("2026-W53", BERLIN, ("2026-12-28", "2027-01-03", "week", "2026-W53")),
        ("2027-01-01", BERLIN, ("2026-12-28", "2027-01-03", "week", "2026-W53")),
        ("2020-W53", BERLIN, ("2020-12-28", "2021-01-03", "week", "2020-W53")),
        ("2021-01-03", BERLIN, ("2020-12-28", "2021-01-03", "week", "2020-W53")),
        ("2024-12-31", BERLIN, ("2024-12-30", "2025-01-05", "week", "2025-W01")),
        ("2025-W01", BERLIN, ("2024-12-30", "2025-01-05", "week", "2025-W01")),
        ("2024-02-29", BERLIN, ("2024-02-26", "2024-03-03", "week", "2024-W09")),
        ("0001-01-01", BERLIN, ("0001-01-01", "0001-01-07", "week", "0001-W01")),
        # the words, at NOW: Monday in Berlin, still Sunday in UTC
        ("today", BERLIN, ("2026-11-23", "2026-11-29", "week", "2026-W48")),
        ("TODAY", BERLIN, ("2026-11-23", "2026-11-29", "week", "2026-W48")),
        ("yesterday", BERLIN, ("2026-11-16", "2026-11-22", "week", "2026-W47")),
        (None, BERLIN, ("2026-11-23", "2026-11-29", "week", "2026-W48")),
        ("today", "UTC", ("2026-11-16", "2026-11-22", "week", "2026-W47")),
        (None, "UTC", ("2026-11-16", "2026-11-22", "week", "2026-W47")),
    ],
)
def test_week_span(text: str | None, tz: str, want: tuple[str, str, str, str]) -> None:
    span = week_span(text, tz, NOW)
    assert _days(span) == want
    assert len(span.days()) == 7 and span.days()[0] == want[0] and span.days()[-1] == want[1]


def test_a_day_start_moves_today_back_before_it(day_start: None) -> None:
    # 00:30 on Monday is still Sunday's night when days begin at 04:00.
    assert _days(week_span(None, BERLIN, NOW))[3] == "2026-W47"
    assert _days(month_span(None, BERLIN, ms("2026-12-01T03:59:00+01:00")))[3] == "2026-11"


BAD_WEEKS = [
    "2025-W53",  # 2025 has 52 ISO weeks
    "2026-W00",
    "2026-W99",
    "2026-W54",
    "0000-W10",
    "2026-W4",
    "W48",
    "2026-13-01",
    "2026-02-30",
    "next week",
    "",
    "9999-W52",  # its Sunday would be in the year 10000
    "9999-12-31",
]


@pytest.mark.parametrize("text", ["2026-w48", " 2026-W48 ", "2026-11-25"])
def test_a_week_is_read_as_people_type_it(text: str) -> None:
    assert week_span(text, BERLIN, NOW).label == "2026-W48"


@pytest.mark.parametrize("text", BAD_WEEKS)
def test_bad_weeks_are_one_line_usage_errors(text: str) -> None:
    if text == "":  # (no text is today, as --week alone: only a word that is not one fails)
        assert week_span(text, BERLIN, NOW).label == "2026-W48"
        return
    with pytest.raises(WindowError) as err:
        week_span(text, BERLIN, NOW)
    assert isinstance(err.value, UsageError) and "\n" not in str(err.value)


# --------------------------------------------------------------------------- months


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("2024-02", ("2024-02-01", "2024-02-29", "month", "2024-02")),
        ("2023-02", ("2023-02-01", "2023-02-28", "month", "2023-02")),
        ("2000-02", ("2000-02-01", "2000-02-29", "month", "2000-02")),
        ("1900-02", ("1900-02-01", "1900-02-28", "month", "1900-02")),
        ("2026-12", ("2026-12-01", "2026-12-31", "month", "2026-12")),
        ("2026-01", ("2026-01-01", "2026-01-31", "month", "2026-01")),
        ("2026-04", ("2026-04-01", "2026-04-30", "month", "2026-04")),
        ("2026-12-15", ("2026-12-01", "2026-12-31", "month", "2026-12")),
        ("2024-02-29", ("2024-02-01", "2024-02-29", "month", "2024-02")),
        ("9999-12", ("9999-12-01", "9999-12-31", "month", "9999-12")),
        ("0001-01", ("0001-01-01", "0001-01-31", "month", "0001-01")),
        ("today", ("2026-11-01", "2026-11-30", "month", "2026-11")),
        ("yesterday", ("2026-11-01", "2026-11-30", "month", "2026-11")),
        (None, ("2026-11-01", "2026-11-30", "month", "2026-11")),
    ],
)
def test_month_span(text: str | None, want: tuple[str, str, str, str]) -> None:
    span = month_span(text, BERLIN, NOW)
    assert _days(span) == want
    assert span.days()[0] == want[0] and span.days()[-1] == want[1]


def test_the_month_of_today_depends_on_the_zone() -> None:
    new_year = ms("2027-01-01T00:30:00+01:00")  # still 2026 in UTC
    assert month_span(None, BERLIN, new_year).label == "2027-01"
    assert month_span(None, "UTC", new_year).label == "2026-12"


@pytest.mark.parametrize(
    "text", ["2026-13", "2026-00", "0000-05", "2026-1", "26-11", "2026/11", "2026-11-31", "Nov"]
)
def test_bad_months(text: str) -> None:
    with pytest.raises(WindowError) as err:
        month_span(text, BERLIN, NOW)
    assert "\n" not in str(err.value)


# --------------------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    ("since", "until", "n"),
    [
        ("2026-11-23", "2026-11-23", 1),
        ("2026-11-23", "2026-11-29", 7),
        ("2026-02-01", "2026-03-01", 29),
        ("2026-01-01", "2026-04-02", MAX_PERIOD_DAYS),  # the most: 92 days
        ("2024-12-31", "2025-01-01", 2),
    ],
)
def test_days_span(since: str, until: str, n: int) -> None:
    span = days_span(since, until)
    days = span.days()
    assert (span.since, span.until, span.kind, len(days)) == (since, until, "days", n)
    assert days[0] == since and days[-1] == until and len(set(days)) == n
    assert span.label == (since if n == 1 else f"{since}..{until}")


@pytest.mark.parametrize(
    ("since", "until", "message"),
    [
        ("2026-01-01", "2026-04-03", "93 days asked"),
        ("2026-01-01", "2026-12-31", "365 days asked"),
        ("2026-11-29", "2026-11-23", "--until 2026-11-23 is before --since 2026-11-29"),
        ("2026-02-30", "2026-03-01", "no such date"),
        ("2026-11-23", "later", "not a date"),
    ],
)
def test_days_span_limits(since: str, until: str, message: str) -> None:
    with pytest.raises(WindowError, match=message):
        days_span(since, until)
    assert len(days_span("2026-11-23", "2026-11-25", most=3).days()) == 3
    with pytest.raises(WindowError, match="at most 2 at once"):
        days_span("2026-11-23", "2026-11-25", most=2)


# --------------------------------------------------------------------------- words

W48 = ("2026-11-23", "2026-11-29", "week", "2026-W48")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("2026-W48", W48),
        (" 2026-W48 ", W48),
        ("2026-11", ("2026-11-01", "2026-11-30", "month", "2026-11")),
        ("2026-11-01..2026-11-03", ("2026-11-01", "2026-11-03", "days", "2026-11-01..2026-11-03")),
        (
            " 2026-11-01 .. 2026-11-03 ",
            ("2026-11-01", "2026-11-03", "days", "2026-11-01..2026-11-03"),
        ),
        ("2026-11-05..2026-11-05", ("2026-11-05", "2026-11-05", "days", "2026-11-05")),
        ("yesterday..today", ("2026-11-22", "2026-11-23", "days", "2026-11-22..2026-11-23")),
        ("2026-11-05", ("2026-11-05", "2026-11-05", "days", "2026-11-05")),
        ("today", ("2026-11-23", "2026-11-23", "days", "2026-11-23")),
        ("Yesterday", ("2026-11-22", "2026-11-22", "days", "2026-11-22")),
        ("this-week", W48),
        ("This-Week", W48),
        ("last-week", ("2026-11-16", "2026-11-22", "week", "2026-W47")),
        ("this-month", ("2026-11-01", "2026-11-30", "month", "2026-11")),
        ("LAST-MONTH", ("2026-10-01", "2026-10-31", "month", "2026-10")),
    ],
)
def test_parse_span(text: str, want: tuple[str, str, str, str]) -> None:
    assert _days(parse_span(text, BERLIN, NOW)) == want


@pytest.mark.parametrize(
    ("before", "want"),
    [
        (
            Span("2026-11-23", "2026-11-29", "week", "2026-W48"),
            ("2026-11-16", "2026-11-22", "week", "2026-W47"),
        ),
        (week_span("2026-W01", "UTC", 0), ("2025-12-22", "2025-12-28", "week", "2025-W52")),
        (week_span("2021-W01", "UTC", 0), ("2020-12-28", "2021-01-03", "week", "2020-W53")),
        (month_span("2024-03", "UTC", 0), ("2024-02-01", "2024-02-29", "month", "2024-02")),
        (month_span("2026-01", "UTC", 0), ("2025-12-01", "2025-12-31", "month", "2025-12")),
        (month_span("2026-03-31", "UTC", 0), ("2026-02-01", "2026-02-28", "month", "2026-02")),
        (
            days_span("2026-11-01", "2026-11-03"),
            ("2026-10-29", "2026-10-31", "days", "2026-10-29..2026-10-31"),
        ),
        (days_span("2026-03-01", "2026-03-01"), ("2026-02-28", "2026-02-28", "days", "2026-02-28")),
        (
            days_span("2026-01-01", "2026-04-02"),
            ("2025-10-01", "2025-12-31", "days", "2025-10-01..2025-12-31"),
        ),
    ],
)
def test_previous(before: Span, want: tuple[str, str, str, str]) -> None:
    assert _days(previous(before)) == want
    assert _days(parse_span("previous", BERLIN, NOW, before)) == want
    assert _days(parse_span(" Previous ", BERLIN, NOW, before)) == want
    if before.kind != "month":  # as many days, ending the day before
        assert len(previous(before).days()) == len(before.days())
        assert Span(previous(before).until, before.since).days()[1:] == [before.since]


@pytest.mark.parametrize(
    "before",
    [
        week_span("0001-W01", "UTC", 0),
        month_span("0001-01", "UTC", 0),
        Span("0001-01-01", "0001-01-02"),
    ],
)
def test_nothing_comes_before_the_first_days(before: Span) -> None:
    with pytest.raises(WindowError, match="no period before"):
        previous(before)


HOSTILE = [
    "",
    "   ",
    "previous",  # with nothing to come before
    "2026-W48; rm -rf /",
    "2026-W48\n2026-W49",
    "2026-11-01..",
    "..2026-11-01",
    "2026-11-01...2026-11-02",
    "2026-11-05..2026-11-01",
    "2026-01-01..2026-12-31",
    "2026-02-30",
    "2026-W99",
    "2026-13",
    "9999-W52",
    "../../etc/passwd",
    "\x00",
    "\u202e2026-W48",
    "next-week",
    "x" * 5000,
    "2026-11-01..\n..2026-11-02",
    "${HOME}",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_words_are_one_line_usage_errors(text: str) -> None:
    with pytest.raises(WindowError) as err:
        parse_span(text, BERLIN, NOW)
    message = str(err.value)
    assert isinstance(err.value, UsageError) and message and "\n" not in message


def test_span_days_and_labels() -> None:
    assert Span("2026-12-30", "2027-01-02").days() == [
        "2026-12-30",
        "2026-12-31",
        "2027-01-01",
        "2027-01-02",
    ]
    assert Span("2026-12-30", "2027-01-02").label == "2026-12-30..2027-01-02"
    assert Span("2026-12-30", "2026-12-30").label == "2026-12-30"
    assert Span("2026-12-30", "2026-12-31", "week", "X").label == "X"


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 24)))
def test_a_label_names_its_period_again(d: date) -> None:
    day = d.isoformat()
    for span in (week_span(day, "UTC", 0), month_span(day, "UTC", 0)):
        assert span.since <= day <= span.until
        assert parse_span(span.label, BERLIN, NOW) == span
        if span.since > "0001-01-01":
            before = previous(span)
            assert before.kind == span.kind
            assert date.fromisoformat(before.until) + timedelta(days=1) == date.fromisoformat(
                span.since
            )
    week = week_span(day, "UTC", 0)
    assert date.fromisoformat(week.since).weekday() == 0 and len(week.days()) == 7
    assert week.label == "{:04d}-W{:02d}".format(*d.isocalendar()[:2])
