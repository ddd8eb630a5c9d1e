"""Parse stored timestamps into integer UTC milliseconds.

Stores write ISO-8601 in many shapes: ``Z`` or ``+00:00`` or another offset, ``T`` or
a space between date and time, no fraction or up to nanoseconds. Strings are never
compared as strings: every row is parsed to an instant first.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .fast import recache

# Rows dated outside this range are rejected as implausible: the compiler never reads
# the clock, so "a timestamp in the future" is one past this fixed horizon.
MIN_TS_MS = 946_684_800_000  # 2000-01-01T00:00:00Z
MAX_TS_MS = 4_102_444_800_000  # 2100-01-01T00:00:00Z

_ISO = recache.compile(
    r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
    r"\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?\Z"
)


_BAD_OFFSET_MINUTES = recache.compile(r"[+-]\d{2}:?[6-9]\d\Z")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)


class TimestampError(ValueError):
    """A timestamp that cannot be placed in time."""


def parse_iso_ms(text: str, *, naive_is_utc: bool = True) -> int:
    """Parse an ISO-8601 timestamp to UTC epoch milliseconds.

    A timestamp without an offset is taken as UTC (what screenpipe-style stores write).
    Fractions beyond milliseconds are rounded to the nearest millisecond, half up, as
    SQLite's own date functions do (a screenpipe reader parses most rows there).
    """
    # Fast path: the C parser handles the usual shapes; the regex below handles the rest
    # (offsets without a colon, "UTC", a comma before the fraction, leap seconds).
    try:
        dt = datetime.fromisoformat(text)
    except (ValueError, TypeError):
        pass
    else:
        if dt.tzinfo is None:
            if not naive_is_utc:
                raise TimestampError(f"timestamp has no UTC offset: {text[:40]!r}")
            dt = dt.replace(tzinfo=UTC)
        # A bare date is not a timestamp; offset minutes over 59 are refused below.
        if len(text) >= 16 and not _BAD_OFFSET_MINUTES.search(text):
            return ((dt - _EPOCH) // _US + 500) // 1000
    m = _ISO.match(text.strip())
    if m is None:
        raise TimestampError(f"not an ISO-8601 timestamp: {text[:40]!r}")
    year, month, day, hour, minute = (int(m.group(i)) for i in range(1, 6))
    second = int(m.group(6) or 0)
    frac = m.group(7) or ""
    millis = int((frac + "000")[:3]) + (1 if frac[3:4] >= "5" else 0)
    if year < 1 or not (1 <= month <= 12 and 1 <= day <= _days_in_month(year, month)):
        raise TimestampError(f"no such date: {text[:40]!r}")
    if hour > 23 or minute > 59 or second > 60:
        raise TimestampError(f"no such time: {text[:40]!r}")
    second = min(second, 59)  # a leap second is folded onto :59
    offset_min = 0
    tz = m.group(8)
    if tz and tz not in ("Z", "z", "UTC"):
        sign = -1 if tz[0] == "-" else 1
        digits = tz[1:].replace(":", "")
        oh = int(digits[:2])
        om = int(digits[2:4] or 0)
        if oh > 23 or om > 59:
            raise TimestampError(f"bad UTC offset: {text[:40]!r}")
        offset_min = sign * (oh * 60 + om)
    elif not tz and not naive_is_utc:
        raise TimestampError(f"timestamp has no UTC offset: {text[:40]!r}")
    from calendar import timegm  # only here, off the common path: ~3 ms to import

    secs = timegm((year, month, day, hour, minute, second, 0, 0, 0)) - offset_min * 60
    return secs * 1000 + millis


def check_range(ts_ms: int) -> None:
    if ts_ms < MIN_TS_MS or ts_ms >= MAX_TS_MS:
        raise TimestampError("timestamp out of range (before 2000 or after 2099)")


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31
