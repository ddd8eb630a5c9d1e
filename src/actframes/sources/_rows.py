"""Turning raw stored values into records, with row problems as values, not exceptions."""

from __future__ import annotations

from typing import Any, TypeVar

from ..fast import recache
from ..model import Rejected
from ..text import clean_name, clip_title
from ..timeparse import MAX_TS_MS, MIN_TS_MS, TimestampError, check_range, parse_iso_ms

T = TypeVar("T", bound=tuple[Any, ...])


def parse_ts(value: object, table: str, row: object) -> int | Rejected:
    """A stored timestamp (ISO text) as UTC ms, or the reason it cannot be used."""
    if not isinstance(value, str):
        return Rejected(table, str(row), "timestamp missing or not text")
    try:
        ts = parse_iso_ms(value)
        check_range(ts)
    except TimestampError as exc:
        return Rejected(table, str(row), _reason(exc))
    return ts


# A stored ISO timestamp (a column named ``timestamp``) that ends in no UTC offset: not
# Z / z / UTC, nor +hh:mm, +hhmm or +hh. Such rows are read as UTC, and the document says so.
NO_OFFSET_SQL = (
    "NOT (timestamp LIKE '%Z' OR timestamp LIKE '%UTC'"
    " OR substr(timestamp, -6, 1) IN ('+', '-') OR substr(timestamp, -5, 1) IN ('+', '-')"
    " OR substr(timestamp, -3, 1) IN ('+', '-'))"
)
_OFFSET = recache.compile(r"(?:[Zz]|UTC|[+-]\d\d(?::?\d\d)?)\s*\Z")


def naive_note(count: int) -> str:
    """The blind spot of ``count`` timestamps read as UTC for want of an offset."""
    return f"{count} stored timestamp(s) carry no UTC offset: they were read as UTC"


def without_offset(value: object) -> bool:
    """Whether a stored timestamp is ISO text with no UTC offset (read as UTC)."""
    return isinstance(value, str) and len(value) >= 16 and _OFFSET.search(value) is None


def check_ms(value: object, table: str, row: object) -> int | Rejected:
    """A stored integer-millisecond timestamp, or the reason it cannot be used."""
    if isinstance(value, float) and MIN_TS_MS <= value < MAX_TS_MS:
        # Placeable, so reported on its own day, but not an integer millisecond.
        return Rejected(table, str(row), "timestamp missing or not an integer", int(value))
    if not isinstance(value, int) or isinstance(value, bool):
        return Rejected(table, str(row), "timestamp missing or not an integer")
    try:
        check_range(value)
    except TimestampError as exc:
        return Rejected(table, str(row), _reason(exc))
    return value


class Names:
    """Cleans app names and titles once per distinct stored value: a day repeats a few
    hundred values over thousands of rows."""

    def __init__(self) -> None:
        self._apps: dict[object, str] = {}
        self._titles: dict[object, str] = {}

    def app(self, raw: object) -> str:
        got = self._apps.get(raw)
        if got is None:
            got = self._apps[raw] = clean_name(raw)
        return got

    def title(self, raw: object) -> str:
        got = self._titles.get(raw)
        if got is None:
            got = self._titles[raw] = clip_title(clean_name(raw))
        return got


def _reason(exc: TimestampError) -> str:
    # Reasons are grouped in the document, so they must not carry the row's own value.
    msg = str(exc)
    return msg.split(":", 1)[0] if ": " in msg else msg


def first_of_each_id(records: list[T], table: str) -> tuple[list[T], list[Rejected]]:
    """Keep one record per id — the least by its fields, so the choice never depends on
    the order rows sit in the file — and reject the others as duplicates."""
    ids = [r[0] for r in records]
    if len(set(ids)) == len(ids):
        return records, []
    best: dict[object, T] = {}
    for r in records:
        cur = best.get(r[0])
        if cur is None or _order_key(r) < _order_key(cur):
            best[r[0]] = r
    kept = [r for r in records if best[r[0]] is r]
    dropped = [
        Rejected(table, str(r[0]), "duplicate id", r[1]) for r in records if best[r[0]] is not r
    ]
    return kept, dropped


def _order_key(record: tuple[Any, ...]) -> tuple[str, ...]:
    return tuple("" if v is None else f"{type(v).__name__}:{v}" for v in record[1:])
