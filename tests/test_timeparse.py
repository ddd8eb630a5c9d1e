"""parse_iso_ms: every ISO-8601 shape stores write, to the same integer UTC milliseconds."""

from __future__ import annotations

from calendar import timegm

import pytest

from actframes.timeparse import (
    MAX_TS_MS,
    MIN_TS_MS,
    TimestampError,
    check_range,
    parse_iso_ms,
)


def utc(y: int, mo: int, d: int, h: int = 0, mi: int = 0, s: int = 0, milli: int = 0) -> int:
    """Expected values, computed independently of the code under test."""
    return timegm((y, mo, d, h, mi, s, 0, 0, 0)) * 1000 + milli


BASE = utc(2026, 3, 10, 9, 14, 3)  # 2026-03-10T09:14:03Z
HOUR = 3_600_000
MINUTE = 60_000


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # offsets: Z, +00:00, none (UTC), positive, negative, half-hour, without a colon
        ("2026-03-10T09:14:03Z", BASE),
        ("2026-03-10T09:14:03z", BASE),
        ("2026-03-10T09:14:03+00:00", BASE),
        ("2026-03-10T09:14:03-00:00", BASE),
        ("2026-03-10T09:14:03", BASE),
        ("2026-03-10 09:14:03", BASE),
        ("2026-03-10 09:14:03Z", BASE),
        ("2026-03-10T14:44:03+05:30", BASE),
        ("2026-03-10T14:44:03+0530", BASE),
        ("2026-03-10T14:14:03+05", BASE),
        ("2026-03-10T01:14:03-08:00", BASE),
        ("2026-03-10T01:14:03-0800", BASE),
        ("2026-03-10T23:14:03+14:00", BASE),
        ("2026-03-09T21:14:03-12:00", BASE),
        ("2026-03-10T01:14:03.000-08:00", BASE),
        # "UTC" suffix, with or without a space
        ("2026-03-10 09:14:03 UTC", BASE),
        ("2026-03-10T09:14:03UTC", BASE),
        ("2026-03-10 09:14:03.250 UTC", BASE + 250),
        # fractions: 1..9 digits, dot or comma
        ("2026-03-10T09:14:03.5Z", BASE + 500),
        ("2026-03-10T09:14:03.25Z", BASE + 250),
        ("2026-03-10T09:14:03.123Z", BASE + 123),
        ("2026-03-10T09:14:03.1234Z", BASE + 123),
        ("2026-03-10T09:14:03.123456Z", BASE + 123),
        ("2026-03-10T09:14:03.1234567Z", BASE + 123),
        ("2026-03-10T09:14:03.123456789Z", BASE + 123),
        ("2026-03-10T09:14:03.000000001+00:00", BASE),
        ("2026-03-10 09:14:03.123456789", BASE + 123),
        ("2026-03-10T14:44:03.987354321+05:30", BASE + 987),
        ("2026-03-10T09:14:03,5Z", BASE + 500),
        ("2026-03-10T09:14:03,123456789Z", BASE + 123),
        ("2026-03-10T09:14:03,25+00:00", BASE + 250),
        # beyond milliseconds: rounded to the nearest ms, half up (as SQLite does),
        # the same on the fast path and the regex path
        ("2026-03-10T09:14:03.1235Z", BASE + 124),
        ("2026-03-10T09:14:03.12349999Z", BASE + 123),
        ("2026-03-10T09:14:03.123999Z", BASE + 124),
        ("2026-03-10 09:14:03.1235 UTC", BASE + 124),
        ("2026-03-10T09:14:03,1235Z", BASE + 124),
        ("2026-03-10T09:14:03.9995Z", BASE + 1000),
        ("2026-03-10T09:14:03.999999999Z", BASE + 1000),
        ("2026-03-10 09:14:03.999999999 UTC", BASE + 1000),
        ("2026-03-10T14:44:03.987654321+0530", BASE + 988),
        # no seconds
        ("2026-03-10T09:14Z", BASE - 3_000),
        ("2026-03-10 09:14", BASE - 3_000),
        # whitespace around
        (" 2026-03-10T09:14:03Z ", BASE),
        # calendar edges: leap days, year ends, crossing the date line via offsets
        ("2024-02-29T12:00:00Z", utc(2024, 2, 29, 12)),
        ("2000-02-29T00:00:00Z", utc(2000, 2, 29)),
        ("2028-02-29T23:59:59.999Z", utc(2028, 2, 29, 23, 59, 59, 999)),
        ("2026-12-31T23:59:59Z", utc(2026, 12, 31, 23, 59, 59)),
        ("2027-01-01T00:30:00+01:00", utc(2026, 12, 31, 23, 30)),
        ("2026-03-10T23:30:00-05:00", utc(2026, 3, 11, 4, 30)),
        ("2026-03-11T01:00:00+05:00", utc(2026, 3, 10, 20)),
        ("1970-01-01T00:00:00Z", 0),
        # a leap second is folded onto :59
        ("2016-12-31T23:59:60Z", utc(2016, 12, 31, 23, 59, 59)),
        ("2016-12-31T23:59:60.500Z", utc(2016, 12, 31, 23, 59, 59, 500)),
    ],
)
def test_parse_iso_ms(text: str, expected: int) -> None:
    assert parse_iso_ms(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "garbage",
        "yesterday at noon",
        "2026-03-10",  # a bare date is not a timestamp
        "2026-03-10T",
        "2026-03-10T9:14:03Z",
        "2026-02-30T10:00:00Z",  # Feb 30
        "2026-02-29T10:00:00Z",  # not a leap year
        "2100-02-29T10:00:00Z",  # century, not a leap year
        "2026-04-31T10:00:00Z",
        "2026-13-01T10:00:00Z",
        "2026-00-10T10:00:00Z",
        "2026-03-00T10:00:00Z",
        "2026-03-10T24:00:00Z",  # hour 24
        "2026-03-10T23:60:00Z",
        "2026-03-10T23:59:61Z",
        "2026-03-10T09:14:03+24:00",
        "2026-03-10T09:14:03+05:60",  # offset minutes beyond 59
        "2026-03-10T09:14:03+05:99",
        "2026-03-10T09:14:03-08:75",
        "2026-03-10T09:14:03 PST",
        "2026-03-10T09:14:03Z trailing",
        "10/03/2026 09:14:03",
        "0000-01-01T00:00:00Z",  # year 0 does not exist
        "0000-01-01 00:00:00 UTC",
        "0000-02-29T00:00:00+0100",
        "1773134043",
    ],
)
def test_parse_iso_ms_rejects(text: str) -> None:
    with pytest.raises(TimestampError):
        parse_iso_ms(text)


@pytest.mark.parametrize(
    "text", ["2026-03-10T09:14:03", "2026-03-10 09:14:03.5", "2026-03-10T09:14"]
)
def test_naive_can_be_refused(text: str) -> None:
    with pytest.raises(TimestampError):
        parse_iso_ms(text, naive_is_utc=False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-03-10T09:14:03Z", BASE),
        ("2026-03-10T14:44:03+0530", BASE),
        ("2026-03-10 09:14:03 UTC", BASE),
    ],
)
def test_offsets_accepted_when_naive_is_refused(text: str, expected: int) -> None:
    assert parse_iso_ms(text, naive_is_utc=False) == expected


def test_timestamp_error_is_a_value_error_and_one_line() -> None:
    with pytest.raises(ValueError) as info:
        parse_iso_ms("x" * 10_000)
    msg = str(info.value)
    assert "\n" not in msg
    assert len(msg) < 100  # the offending value is shortened


@pytest.mark.parametrize(
    ("ts", "ok"),
    [
        (MIN_TS_MS, True),
        (MIN_TS_MS - 1, False),
        (utc(2000, 1, 1), True),
        (utc(1999, 12, 31, 23, 59, 59, 999), False),
        (utc(1900, 1, 1), False),
        (0, False),
        (-1, False),
        (BASE, True),
        (MAX_TS_MS - 1, True),
        (utc(2099, 12, 31, 23, 59, 59, 999), True),
        (MAX_TS_MS, False),
        (utc(2100, 1, 1), False),
        (utc(2200, 1, 1), False),
    ],
)
def test_check_range(ts: int, ok: bool) -> None:
    if ok:
        check_range(ts)
    else:
        with pytest.raises(TimestampError):
            check_range(ts)


def test_range_constants() -> None:
    assert utc(2000, 1, 1) == MIN_TS_MS
    assert utc(2100, 1, 1) == MAX_TS_MS


@pytest.mark.parametrize(
    "text", ["1900-01-01T00:00:00Z", "2200-01-01T00:00:00Z", "1999-12-31T23:59:59Z"]
)
def test_out_of_range_parses_but_fails_the_range_check(text: str) -> None:
    ts = parse_iso_ms(text)
    with pytest.raises(TimestampError):
        check_range(ts)


def test_same_instant_in_every_shape() -> None:
    shapes = [
        "2026-03-10T09:14:03.250Z",
        "2026-03-10 09:14:03.250+00:00",
        "2026-03-10T14:44:03.250+05:30",
        "2026-03-10T01:14:03.250-08:00",
        "2026-03-10T01:14:03,250-0800",
        "2026-03-10T09:14:03.250499999",
        "2026-03-10 09:14:03.25 UTC",
    ]
    assert {parse_iso_ms(s) for s in shapes} == {BASE + 250}
    assert HOUR == 60 * MINUTE
