"""Turning raw stored values into records, with row problems as values, not exceptions."""

from __future__ import annotations

from ..model import Rejected
from ..text import clean_name, clip_title
from ..timeparse import TimestampError, check_range, parse_iso_ms


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


def check_ms(value: object, table: str, row: object) -> int | Rejected:
    """A stored integer-millisecond timestamp, or the reason it cannot be used."""
    if not isinstance(value, int) or isinstance(value, bool):
        return Rejected(table, str(row), "timestamp missing or not an integer")
    try:
        check_range(value)
    except TimestampError as exc:
        return Rejected(table, str(row), _reason(exc))
    return value


def app_and_title(app: object, title: object) -> tuple[str, str]:
    return clean_name(app), clip_title(clean_name(title))


def _reason(exc: TimestampError) -> str:
    # Reasons are grouped in the document, so they must not carry the row's own value.
    msg = str(exc)
    return msg.split(":", 1)[0] if ": " in msg else msg
