"""Clock.iso: instants as ISO-8601 in the window's zone, whole seconds (floored), across
DST changes, before the epoch and far from it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.document import Clock

ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"]


def by_calendar(ms: int, tz: str) -> str:
    """The instant from the calendar: the epoch plus the milliseconds, in the zone."""
    dt = (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)).astimezone(ZoneInfo(tz))
    return dt.isoformat(timespec="seconds")


@settings(max_examples=300, deadline=None)
@given(
    ms=st.integers(min_value=-(10**12), max_value=4 * 10**12),
    tz=st.sampled_from(ZONES),
)
def test_iso_matches_the_calendar(ms: int, tz: str) -> None:
    assert Clock(tz).iso(ms) == by_calendar(ms, tz)


def test_iso_examples() -> None:
    berlin = Clock("Europe/Berlin")
    # 2026-03-29 01:00 UTC Berlin springs forward: 02:59:59+01:00 is followed by 03:00+02:00.
    spring = 1_774_746_000_000
    assert berlin.iso(spring - 1) == "2026-03-29T01:59:59+01:00"
    assert berlin.iso(spring) == "2026-03-29T03:00:00+02:00"
    # The hour Berlin repeats in autumn shows its two offsets.
    autumn = 1_792_890_000_000  # 2026-10-25 01:00 UTC
    assert berlin.iso(autumn - 1) == "2026-10-25T02:59:59+02:00"
    assert berlin.iso(autumn) == "2026-10-25T02:00:00+01:00"
    # Before the epoch, a fraction of a second floors to the earlier second.
    assert Clock("UTC").iso(-1) == "1969-12-31T23:59:59+00:00"
    assert Clock("UTC").iso(1_500) == "1970-01-01T00:00:01+00:00"
