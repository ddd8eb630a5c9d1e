"""Windows: local calendar days in IANA zones (23/24/25 h), explicit spans, local times."""

from __future__ import annotations

import itertools
from calendar import timegm

import pytest

from actframes.errors import UsageError
from actframes.window import (
    Window,
    WindowError,
    day_window,
    hours_window,
    local_day_of,
    parse_day,
    parse_local,
    span_window,
    zone,
)

HOUR = 3_600_000


def utc(y: int, mo: int, d: int, h: int = 0, mi: int = 0, s: int = 0) -> int:
    return timegm((y, mo, d, h, mi, s, 0, 0, 0)) * 1000


@pytest.mark.parametrize(
    ("day", "tz", "start", "hours"),
    [
        ("2026-03-10", "UTC", utc(2026, 3, 10), 24),
        ("2026-03-10", "Europe/Berlin", utc(2026, 3, 9, 23), 24),
        ("2026-03-10", "Asia/Kolkata", utc(2026, 3, 9, 18, 30), 24),
        ("2026-03-10", "Pacific/Kiritimati", utc(2026, 3, 9, 10), 24),
        ("2026-03-10", "Pacific/Pago_Pago", utc(2026, 3, 10, 11), 24),
        # Europe: spring forward (23 h) and fall back (25 h)
        ("2026-03-29", "Europe/Berlin", utc(2026, 3, 28, 23), 23),
        ("2026-10-25", "Europe/Berlin", utc(2026, 10, 24, 22), 25),
        ("2026-03-29", "Europe/London", utc(2026, 3, 29), 23),
        ("2026-10-25", "Europe/London", utc(2026, 10, 24, 23), 25),
        # the days around them are ordinary
        ("2026-03-28", "Europe/Berlin", utc(2026, 3, 27, 23), 24),
        ("2026-03-30", "Europe/Berlin", utc(2026, 3, 29, 22), 24),
        # United States: second Sunday of March, first Sunday of November
        ("2026-03-08", "America/New_York", utc(2026, 3, 8, 5), 23),
        ("2026-11-01", "America/New_York", utc(2026, 11, 1, 4), 25),
        ("2026-03-08", "America/Los_Angeles", utc(2026, 3, 8, 8), 23),
        ("2026-11-01", "America/Los_Angeles", utc(2026, 11, 1, 7), 25),
        ("2026-03-08", "America/Phoenix", utc(2026, 3, 8, 7), 24),  # no DST
        # Southern hemisphere: DST ends in April, starts in October
        ("2026-04-05", "Australia/Sydney", utc(2026, 4, 4, 13), 25),
        ("2026-10-04", "Australia/Sydney", utc(2026, 10, 3, 14), 23),
    ],
)
def test_day_window(day: str, tz: str, start: int, hours: int) -> None:
    w = day_window(day, tz)
    assert w == Window(start, start + hours * HOUR, tz, day)


def test_half_hour_dst_shift() -> None:
    # Lord Howe Island moves its clocks by 30 minutes.
    w = day_window("2026-04-05", "Australia/Lord_Howe")
    assert w.end_ms - w.start_ms == 24 * HOUR + HOUR // 2


def test_consecutive_days_tile_time() -> None:
    days = [f"2026-10-{d:02d}" for d in range(20, 31)]
    windows = [day_window(d, "Europe/Berlin") for d in days]
    for a, b in itertools.pairwise(windows):
        assert a.end_ms == b.start_ms


@pytest.mark.parametrize(
    "tz",
    ["Mars/Olympus_Mons", "", "Europe/berlin_", "../etc/passwd", "/etc/localtime", "UTC+5", " "],
)
def test_bad_zone(tz: str) -> None:
    with pytest.raises(WindowError) as info:
        day_window("2026-03-10", tz)
    assert isinstance(info.value, UsageError)
    assert info.value.exit_code == 2
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "day",
    [
        "2026-13-45",
        "2026-02-30",
        "2026-02-29",
        "2026-00-01",
        "2026-04-31",
        "26-03-10",
        "2026-3-10",
        "2026/03/10",
        "20260310",
        "2026-03-10T00:00",
        "today",
        "",
        " 2026-03-10",
    ],
)
def test_bad_day(day: str) -> None:
    with pytest.raises(WindowError) as info:
        day_window(day, "UTC")
    assert isinstance(info.value, UsageError)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("day", "tz"),
    [
        ("9999-12-31", "UTC"),  # the next midnight is past the calendar
        ("9999-12-31", "America/New_York"),
        ("0001-01-01", "Europe/Berlin"),  # local midnight is before year 1 in UTC
    ],
)
def test_day_at_the_end_of_the_calendar(day: str, tz: str) -> None:
    with pytest.raises(WindowError):
        day_window(day, tz)


@pytest.mark.parametrize(
    ("start", "end", "tz"),
    [
        ("0001-01-01T00:00", "0001-01-02T00:00", "Europe/Berlin"),
        ("9999-12-31T00:00", "9999-12-31T23:59", "Pacific/Pago_Pago"),
    ],
)
def test_span_at_the_end_of_the_calendar(start: str, end: str, tz: str) -> None:
    with pytest.raises(WindowError):
        span_window(start, end, tz)


def test_leap_day_is_a_day() -> None:
    w = day_window("2028-02-29", "UTC")
    assert w.end_ms - w.start_ms == 24 * HOUR
    assert parse_day("2028-02-29").isoformat() == "2028-02-29"


def test_zone_lookup() -> None:
    assert str(zone("Europe/Berlin")) == "Europe/Berlin"
    with pytest.raises(WindowError):
        zone("No/Such_Zone")


@pytest.mark.parametrize(
    ("text", "tz", "expected"),
    [
        # a date: local midnight
        ("2026-03-10", "Europe/Berlin", utc(2026, 3, 9, 23)),
        ("2026-03-10", "UTC", utc(2026, 3, 10)),
        # local date-times without an offset are in the zone
        ("2026-03-10T09:00", "Europe/Berlin", utc(2026, 3, 10, 8)),
        ("2026-03-10T09:00:30", "Europe/Berlin", utc(2026, 3, 10, 8, 0, 30)),
        ("2026-03-10 09:00", "Asia/Kolkata", utc(2026, 3, 10, 3, 30)),
        ("2026-07-10T09:00", "Europe/Berlin", utc(2026, 7, 10, 7)),  # summer time
        ("2026-03-10T09:00", "America/New_York", utc(2026, 3, 10, 13)),
        # an explicit offset wins over the zone
        ("2026-03-10T09:00+01:00", "America/New_York", utc(2026, 3, 10, 8)),
        ("2026-03-10T09:00:00+0530", "UTC", utc(2026, 3, 10, 3, 30)),
        ("2026-03-10T09:00:00-08:00", "Europe/Berlin", utc(2026, 3, 10, 17)),
        ("2026-03-10T09:00Z", "Asia/Tokyo", utc(2026, 3, 10, 9)),
        (" 2026-03-10T09:00 ", "UTC", utc(2026, 3, 10, 9)),
    ],
)
def test_parse_local(text: str, tz: str, expected: int) -> None:
    assert parse_local(text, tz) == expected


@pytest.mark.parametrize(
    "text",
    ["", "noon", "2026-13-45", "2026-02-30T10:00", "2026-03-10T25:00", "2026-03-10T09:00+25:00"],
)
def test_parse_local_rejects(text: str) -> None:
    with pytest.raises(WindowError):
        parse_local(text, "UTC")


def test_parse_local_bad_zone() -> None:
    with pytest.raises(WindowError):
        parse_local("2026-03-10T09:00", "Nowhere/Land")


def test_span_window() -> None:
    w = span_window("2026-03-10T09:00", "2026-03-10T11:30", "Europe/Berlin")
    assert w == Window(utc(2026, 3, 10, 8), utc(2026, 3, 10, 10, 30), "Europe/Berlin", None)
    # mixed: a date and a time with an offset
    w = span_window("2026-03-10", "2026-03-11T00:00:00+01:00", "Europe/Berlin")
    assert (w.start_ms, w.end_ms) == (utc(2026, 3, 9, 23), utc(2026, 3, 10, 23))


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("2026-03-10T11:00", "2026-03-10T09:00"),  # reversed
        ("2026-03-10T09:00", "2026-03-10T09:00"),  # empty
        ("2026-03-10T09:00+00:00", "2026-03-10T09:30+01:00"),  # ends 30 min before it starts
        ("2026-03-11", "2026-03-10"),
    ],
)
def test_span_window_ordering(start: str, end: str) -> None:
    with pytest.raises(WindowError):
        span_window(start, end, "UTC")


def test_hours_window() -> None:
    now = utc(2026, 3, 10, 12)
    assert hours_window(2, now, "UTC") == Window(now - 2 * HOUR, now, "UTC")
    assert hours_window(0.5, now, "UTC").start_ms == now - HOUR // 2
    for bad in (0, -1, 24 * 31 + 1):
        with pytest.raises(WindowError):
            hours_window(bad, now, "UTC")
    with pytest.raises(WindowError):
        hours_window(2, now, "Bad/Zone")


@pytest.mark.parametrize(
    ("ts", "tz", "day"),
    [
        (utc(2026, 3, 10, 23, 30), "UTC", "2026-03-10"),
        (utc(2026, 3, 10, 23, 30), "Europe/Berlin", "2026-03-11"),
        (utc(2026, 3, 10, 3), "America/New_York", "2026-03-09"),
    ],
)
def test_local_day_of(ts: int, tz: str, day: str) -> None:
    assert local_day_of(ts, tz) == day
