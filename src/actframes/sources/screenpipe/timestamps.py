"""Timestamps of a screenpipe-style store in SQL: which rows a window reads, and their
instants parsed by SQLite.

Timestamps are ISO-8601 text in any shape and any UTC offset (up to ±23:59), so the text
of a row in a window's read span ``[a, b)`` has a local date-time within a day of it. The
read is a set of ranges of the ``timestamp`` index (screenpipe creates
``idx_frames_timestamp`` and ``idx_ui_events_timestamp``; the reader never creates one):
the whole dates between, and on the first and last date, for the usual separators ``T``
and space, only the hours a day's offset can reach. Within them most rows are kept or
dropped by their text (``Span.keeps_sql``); the others are parsed by SQLite's own date
parser into integer milliseconds in C, and those it cannot parse by ``timeparse`` in
Python, kept when they fall in ``[a, b)``.

Rows whose text does not start with a real date (no date shape, a date such as
2026-02-30, before 2000-01-02, from 2099-12-31, not text) belong to no date's range: they
are found by a skip scan of the index (one seek per stored date) and read for every
window, so each document reports them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ...model import Capture, Rejected
from ...timeparse import MAX_TS_MS, MIN_TS_MS
from .._rows import parse_ts

# UTC offsets reach ±23:59 (timeparse accepts any hour below 24): a row's local date-time
# lies within this much of its instant.
OFFSET_REACH = timedelta(hours=24)
# Date-prefix bounds just inside the plausible range: anything outside is read as odd.
RANGE_LO, RANGE_HI = "2000-01-02", "2099-12-31"
DATE_SHAPE = "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'"
# SQLite keeps instants as integer milliseconds of the Julian day; this recovers them
# exactly (sub-millisecond digits are rounded to the nearest millisecond, as in Python).
_JD_MS = "CAST(round((julianday(timestamp) - 2440587.5) * 86400000.0) AS INTEGER)"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# A UTC timestamp in screenpipe's shape ('T' at the 11th character, then 'Z' or '+00:00'
# at the end), whose text orders as its instant does; tested with GLOB: one C call per
# row where substr() makes a string per test (the suffixes contain no 'T').
UTC_SHAPE = "(timestamp GLOB '??????????T*+00:00' OR timestamp GLOB '??????????T*Z')"


def _local(ms: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=ms)


def after_prefix(prefix: str) -> str:
    """The least string above every string that starts with ``prefix``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def text_ranges(a: int, b: int) -> list[tuple[str, str]]:
    """Disjoint ``[lo, hi)`` ranges of timestamp text that hold every plausible row whose
    instant may lie in ``[a, b)`` (ms), in index order, within [RANGE_LO, RANGE_HI).

    Whole dates from the day after the first reachable date to the day before the last;
    on those two edge dates, ``T``- and space-separated text only from (to) the hour the
    offsets reach, and text with any other separator whole."""
    first, last = _local(a) - OFFSET_REACH, _local(b) + OFFSET_REACH
    d0, d1 = first.date(), last.date()
    e0, e1 = d0.isoformat(), d1.isoformat()
    h0 = f"{first.hour:02d}"
    # The hour after the last one that can hold a row of the span: up to 24 (a whole date).
    h1 = f"{last.hour + (1 if (last.minute, last.second, last.microsecond) > (0, 0, 0) else 0):02d}"
    ranges = [
        (e0, e0 + " "),
        (e0 + " " + h0, e0 + "!"),
        (e0 + "!", e0 + "T"),
        (e0 + "T" + h0, e0 + "U"),
        (e0 + "U", after_prefix(e0)),
    ]
    # Each whole date between as its own range: only date-shaped text lies in it.
    day = d0 + timedelta(days=1)
    while day < d1:
        ranges.append((day.isoformat(), after_prefix(day.isoformat())))
        day += timedelta(days=1)
    ranges += [
        (e1, e1 + " "),
        (e1 + " ", e1 + " " + h1),
        (e1 + "!", e1 + "T"),
        (e1 + "T", e1 + "T" + h1),
        (e1 + "U", after_prefix(e1)),
    ]
    out = []
    for lo, hi in ranges:
        lo, hi = max(lo, RANGE_LO), min(hi, RANGE_HI)
        if lo < hi:
            out.append((lo, hi))
    return out


def in_ranges(table: str, ranges: list[tuple[str, str]], indexed: bool = True) -> str:
    """``FROM`` clause and condition for the rows of ``table`` in ``ranges``: a small table
    of the ranges drives one search of the timestamp index per range. Without an index, a
    few ranges are tested in one scan; many (a window of many days) are joined as they
    are, and SQLite indexes the table for the statement in memory. The bounds are
    date-and-hour strings made here, never stored text."""
    if not ranges:
        return f"{table} WHERE 0"
    if not indexed and len(ranges) <= _OR_MAX:
        tests = " OR ".join(
            f"({table}.timestamp >= '{lo}' AND {table}.timestamp < '{hi}')" for lo, hi in ranges
        )
        return f"{table} WHERE ({tests})"
    # A VALUES list, not a UNION ALL: a window of years has more ranges than SQLite lets
    # one compound SELECT hold (500).
    rows = ", ".join(f"('{lo}', '{hi}')" for lo, hi in ranges)
    return (
        f"(SELECT column1 AS r_lo, column2 AS r_hi FROM (VALUES {rows})) AS r"
        f" CROSS JOIN {table} WHERE {table}.timestamp >= r.r_lo AND {table}.timestamp < r.r_hi"
    )


_OR_MAX = 40  # ranges tested with OR in one scan (a chain of ORs nests one level each)


class Span:
    """What one read covers: its index ranges, the instant expression, and the span
    ``[a, b)`` of instants it keeps."""

    def __init__(self, a: int, b: int) -> None:
        self.ranges, self.ms, self.a, self.b = text_ranges(a, b), ms_expr(), a, b

    def rows(self, table: str, indexed: bool = True) -> str:
        """``FROM ... WHERE ...`` for the rows of ``table`` in the span (and those SQLite
        could not parse, for Python to place)."""
        return f"{in_ranges(table, self.ranges, indexed)} AND {self.keeps_sql()}"

    def keeps_sql(self) -> str:
        """Whether a row is in the span. The ranges hold about three days of rows for a
        day's span (offsets reach a day), so most rows are decided by their text alone:
        a UTC timestamp in screenpipe's shape (``T``, then ``Z`` or ``+00:00`` at the
        end) orders as its instant does. Only rows within a second of either end (where
        rounding of sub-millisecond digits might cross it) and rows of other shapes are
        parsed, and rows SQLite cannot parse are kept for Python to place."""
        a, b = self.a, self.b
        if a % 1000 or b % 1000:
            return f"coalesce({self.ms} BETWEEN {a} AND {b - 1}, 1)"
        utc = UTC_SHAPE
        lo_out, lo_in = text_at(a - 1000), text_at(a + 1000)
        hi_in, hi_out = text_at(b - 1000), text_at(b + 1000)
        # The common row (inside, by its text) is decided by two comparisons first.
        return (
            f"(CASE WHEN timestamp >= '{lo_in}' AND timestamp < '{hi_in}' AND {utc} THEN 1"
            f" WHEN (timestamp < '{lo_out}' OR timestamp >= '{hi_out}') AND {utc} THEN 0"
            f" ELSE coalesce({self.ms} BETWEEN {a} AND {b - 1}, 1) END)"
        )

    def keeps(self, ts: int) -> bool:
        return self.a <= ts < self.b

    def split(self, cut: str) -> tuple[Span, Span] | None:
        """The span as two parts: the rows whose timestamp text sorts below ``cut``, and
        the others. The ranges are cut, not the span of instants, so each row of the
        span is read by exactly one part (two threads may then read it at once). None
        when ``cut`` leaves either part without a range."""
        low = [(lo, min(hi, cut)) for lo, hi in self.ranges if lo < cut]
        high = [(max(lo, cut), hi) for lo, hi in self.ranges if hi > cut]
        return (self._with(low), self._with(high)) if low and high else None

    def _with(self, ranges: list[tuple[str, str]]) -> Span:
        part = Span.__new__(Span)
        part.ranges, part.ms, part.a, part.b = ranges, self.ms, self.a, self.b
        return part


def middle_text(first: object, last: object) -> str | None:
    """Timestamp text halfway in time between two stored timestamps (their date and time
    of day; offsets are left aside: it only cuts a read in two, and any cut reads every
    row once), or None when either is not ISO text or nothing lies between."""
    if not (isinstance(first, str) and isinstance(last, str)):
        return None
    try:
        lo, hi = datetime.fromisoformat(first[:19]), datetime.fromisoformat(last[:19])
        cut = (lo + (hi - lo) / 2).strftime("%Y-%m-%dT%H:%M:%S")
    except (ValueError, TypeError, OverflowError):  # not ISO; one with an offset, one not
        return None
    return cut if first < cut <= last else None


def text_at(ms: int) -> str:
    """An instant as UTC text in screenpipe's shape, to the second."""
    return _local(ms).strftime("%Y-%m-%dT%H:%M:%S")


def ms_expr() -> str:
    """Milliseconds for rows SQLite may parse (strict shape), else NULL. Every range of
    ``text_ranges`` holds one real date's text, so julianday() never meets a date that
    it would roll over (2026-02-30 into March): those are odd rows, parsed in Python."""
    valid = "substr(timestamp, 11, 1) IN ('T', ' ') AND substr(timestamp, 12, 2) < '24'"
    # The usual row ('T', hour 00-23) is recognised by one GLOB, which implies ``valid``;
    # only the others pay for its substr() tests.
    usual = "timestamp GLOB '??????????T[01][0-9]*' OR timestamp GLOB '??????????T2[0-3]*'"
    return f"(CASE WHEN {usual} THEN {_JD_MS} WHEN {valid} THEN {_JD_MS} END)"


def odd_rows_sql(table: str, cols: str, where: str = "", indexed: bool = True) -> str:
    """Rows no window's ranges hold: NULL, below RANGE_LO (numbers too: SQLite orders them
    before text), from RANGE_HI on (blobs too), and text in between that is not a real
    date's (no date shape, or a date such as 2026-02-30), found by a skip scan of the
    index — from each stored date prefix to the next (one seek each), and from each
    value without a date shape to the one after it. Without an index: one scan."""
    # A modifier makes date() normalize (2026-02-30 becomes 2026-03-02); alone it would not.
    real = "date(substr({0}, 1, 10), '+0 days') IS substr({0}, 1, 10)"
    if not indexed:
        odd = (
            f"timestamp IS NULL OR timestamp < '{RANGE_LO}' OR timestamp >= '{RANGE_HI}'"
            f" OR timestamp NOT GLOB {DATE_SHAPE} OR NOT {real.format('timestamp')}"
        )
        return f"SELECT {cols} FROM {table} WHERE ({odd}){where}"
    after = "substr({0}, 1, 9) || char(unicode(substr({0}, 10, 1)) + 1)"
    nxt = (
        f"CASE WHEN w.ts GLOB {DATE_SHAPE}"
        f" THEN (SELECT min(timestamp) FROM {table} WHERE timestamp >= {after.format('w.ts')})"
        f" ELSE (SELECT min(timestamp) FROM {table} WHERE timestamp > w.ts) END"
    )
    walk = (
        "WITH RECURSIVE w(ts) AS ("
        f"SELECT (SELECT min(timestamp) FROM {table} WHERE timestamp >= '{RANGE_LO}')"
        f" UNION ALL SELECT {nxt} FROM w"
        f" WHERE w.ts IS NOT NULL AND w.ts < '{RANGE_HI}'),"
        f" seen(ts) AS (SELECT ts FROM w WHERE ts IS NOT NULL AND ts < '{RANGE_HI}')"
    )
    parts = [
        f"SELECT {cols} FROM {table} WHERE timestamp IS NULL{where}",
        f"SELECT {cols} FROM {table} WHERE timestamp < '{RANGE_LO}'{where}",
        f"SELECT {cols} FROM {table} WHERE timestamp >= '{RANGE_HI}'{where}",
        f"SELECT {cols} FROM {table} WHERE timestamp IN"
        f" (SELECT ts FROM seen WHERE ts NOT GLOB {DATE_SHAPE}){where}",
        f"SELECT {cols} FROM (SELECT substr(ts, 1, 10) AS p FROM seen"
        f" WHERE ts GLOB {DATE_SHAPE} AND NOT {real.format('ts')}) AS u CROSS JOIN {table}"
        f" WHERE {table}.timestamp >= u.p AND {table}.timestamp < {after.format('u.p')}{where}",
    ]
    return walk + " " + " UNION ALL ".join(parts)


def instant(rid: object, ts_sql: object, ts_raw: object, table: str, cap: Capture) -> int | None:
    """The row's instant, or None after recording why it cannot be used."""
    if not isinstance(rid, int):
        cap.rejected.append(Rejected(table, str(rid), "id missing or not an integer"))
        return None
    if isinstance(ts_sql, int) and MIN_TS_MS <= ts_sql < MAX_TS_MS:
        return ts_sql
    ts = parse_ts(ts_raw, table, rid)
    if isinstance(ts, Rejected):
        cap.rejected.append(ts)
        return None
    return ts


def instant_or_text(ms: str) -> str:
    """The instant when SQLite parsed it, else the stored timestamp, in one column. Rows
    of the ranges always hold text there: an integer or a blob never compares between
    two text bounds (SQLite orders numbers < text < blobs), and NULL never does."""
    return f"coalesce({ms}, timestamp)"


def split(ts: object) -> tuple[object, object]:
    """(instant, stored text) of an instant_or_text value."""
    return (ts, None) if type(ts) is int else (None, ts)


def date_bounds(start_ms: int, end_ms: int) -> tuple[str, str]:
    """Date-prefix bounds that contain every timestamp text of the span in any offset."""
    first = (_local(start_ms) - OFFSET_REACH).date()
    last = (_local(end_ms) + OFFSET_REACH + timedelta(days=1)).date()
    return first.isoformat(), last.isoformat()
