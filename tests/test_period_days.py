"""A window cut into the local days it touches (``periods.split_days``), and when a
window is asked as a period (``periods.spans_days``): whole days as the days' own
windows, partial edges, both DST changes of Berlin, days from 04:00."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest

from actframes.periods import spans_days, split_days
from actframes.window import DayStart, Window, day_window, resolve

from .builders import ms

BERLIN = "Europe/Berlin"
NOW = ms("2026-11-23T00:30:00+01:00")


@pytest.fixture()
def day_start() -> Iterator[None]:
    DayStart.minutes = 4 * 60
    try:
        yield
    finally:
        DayStart.minutes = 0


def _w(start: str, end: str, tz: str = BERLIN) -> Window:
    return Window(ms(start), ms(end), tz)


def test_a_day_window_is_one_piece() -> None:
    day = day_window("2026-11-25", BERLIN)
    assert split_days(day) == [("2026-11-25", day)]
    assert not spans_days(day)


def test_whole_days_are_the_days_own_windows() -> None:
    window = resolve(tz=BERLIN, now_ms=NOW, since="2026-11-23", until="2026-11-25")
    pieces = split_days(window)
    assert pieces == [
        (d, day_window(d, BERLIN)) for d in ("2026-11-23", "2026-11-24", "2026-11-25")
    ]
    assert all(w.day == d for d, w in pieces)


@pytest.mark.parametrize(
    ("start", "end", "want"),
    [
        (  # partial first and last days; the middle day whole
            "2026-11-23T15:00:00+01:00",
            "2026-11-25T09:30:00+01:00",
            [
                ("2026-11-23", "2026-11-23T15:00:00+01:00", "2026-11-24T00:00:00+01:00", False),
                ("2026-11-24", "2026-11-24T00:00:00+01:00", "2026-11-25T00:00:00+01:00", True),
                ("2026-11-25", "2026-11-25T00:00:00+01:00", "2026-11-25T09:30:00+01:00", False),
            ],
        ),
        (  # ends at midnight: no empty piece of the next day
            "2026-11-23T15:00:00+01:00",
            "2026-11-25T00:00:00+01:00",
            [
                ("2026-11-23", "2026-11-23T15:00:00+01:00", "2026-11-24T00:00:00+01:00", False),
                ("2026-11-24", "2026-11-24T00:00:00+01:00", "2026-11-25T00:00:00+01:00", True),
            ],
        ),
        (  # across the 25-hour day: its piece is the whole of it
            "2026-10-24T12:00:00+02:00",
            "2026-10-26T06:00:00+01:00",
            [
                ("2026-10-24", "2026-10-24T12:00:00+02:00", "2026-10-25T00:00:00+02:00", False),
                ("2026-10-25", "2026-10-25T00:00:00+02:00", "2026-10-26T00:00:00+01:00", True),
                ("2026-10-26", "2026-10-26T00:00:00+01:00", "2026-10-26T06:00:00+01:00", False),
            ],
        ),
        (  # across the 23-hour day
            "2026-03-28T23:00:00+01:00",
            "2026-03-30T00:00:00+02:00",
            [
                ("2026-03-28", "2026-03-28T23:00:00+01:00", "2026-03-29T00:00:00+01:00", False),
                ("2026-03-29", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", True),
            ],
        ),
    ],
)
def test_split_days(start: str, end: str, want: list[tuple[str, str, str, bool]]) -> None:
    pieces = split_days(_w(start, end))
    assert [(d, w.start_ms, w.end_ms, w.day is not None) for d, w in pieces] == [
        (d, ms(s), ms(e), whole) for d, s, e, whole in want
    ]
    for d, w in pieces:
        assert w.tz == BERLIN and w.day in (None, d)
        if w.day is not None:
            assert w == day_window(d, BERLIN)
    assert pieces[0][1].start_ms == ms(start) and pieces[-1][1].end_ms == ms(end)
    assert all(a[1].end_ms == b[1].start_ms for a, b in pairwise(pieces))


def test_split_days_at_the_day_start(day_start: None) -> None:
    pieces = split_days(_w("2026-10-24T02:00:00+02:00", "2026-10-26T05:00:00+01:00"))
    assert [(d, w.start_ms, w.end_ms, w.day) for d, w in pieces] == [
        ("2026-10-23", ms("2026-10-24T02:00:00+02:00"), ms("2026-10-24T04:00:00+02:00"), None),
        (
            "2026-10-24",
            ms("2026-10-24T04:00:00+02:00"),
            ms("2026-10-25T04:00:00+01:00"),
            "2026-10-24",
        ),
        (
            "2026-10-25",
            ms("2026-10-25T04:00:00+01:00"),
            ms("2026-10-26T04:00:00+01:00"),
            "2026-10-25",
        ),
        ("2026-10-26", ms("2026-10-26T04:00:00+01:00"), ms("2026-10-26T05:00:00+01:00"), None),
    ]
    # the 2026-10-24 of a 04:00 day holds the repeated hour: 25 hours
    assert pieces[1][1].end_ms - pieces[1][1].start_ms == 25 * 3_600_000


@pytest.mark.parametrize(
    ("start", "end", "tz", "want"),
    [
        ("2026-11-23T12:00:00+01:00", "2026-11-24T12:00:00+01:00", BERLIN, False),  # 24 h
        ("2026-11-23T12:00:00+01:00", "2026-11-24T12:00:01+01:00", BERLIN, True),
        ("2026-11-23T00:00:00+01:00", "2026-11-25T00:00:00+01:00", BERLIN, True),  # 2 days
        ("2026-11-23T22:00:00+01:00", "2026-11-24T02:00:00+01:00", BERLIN, False),  # a night
        # the 25-hour day asked by times is one local day, not a period
        ("2026-10-25T00:00:00+02:00", "2026-10-26T00:00:00+01:00", BERLIN, False),
        ("2026-10-25T00:00:00+02:00", "2026-10-26T00:00:01+01:00", BERLIN, True),
        ("2026-11-23T00:00:00Z", "2026-11-24T06:00:00Z", "UTC", True),
    ],
)
def test_spans_days(start: str, end: str, tz: str, want: bool) -> None:
    assert spans_days(_w(start, end, tz)) is want
    assert not spans_days(day_window("2026-10-25", BERLIN))
