"""ActivityWatch's events as records: buckets, events with a usable time, and what each
bucket type (window, web tab, AFK) makes of an event. Shared by every reader of an
ActivityWatch store (export JSON, aw-server-rust's and aw-server's SQLite, the REST API).

Row ids: an event's ``id`` when it has one (always, in sqlite). A JSON export without ids
numbers the window events 1..n after sorting them by (timestamp, duration, app, title,
bucket), so ids do not depend on file order; events without an id among events with ids
are numbered after the largest id. A repeated id rejects every copy but the first in that
order.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from ...model import Rejected
from ...text import clean_name

KIND = "activitywatch"
WINDOW_TYPE = "currentwindow"
AFK_TYPE = "afkstatus"
WEB_TYPE = "web.tab.current"

# ---------------------------------------------------------------------------------------
# Records shared by both readers


@dataclass(frozen=True, slots=True)
class Bucket:
    bid: str
    type: str
    hostname: str


@dataclass(frozen=True, slots=True)
class Event:
    """One event with a usable time, before its bucket's meaning is applied."""

    bucket: str
    row: str  # id, or position in the file, for Rejected.row
    event_id: int | None
    start_ms: int
    dur_ms: int
    data: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class WindowRow:
    bucket: str
    row: str
    event_id: int | None
    start_ms: int
    dur_ms: int
    app: str
    title: str
    device: str
    data_key: str  # the event's whole data, canonical: flood compares data whole


@dataclass(frozen=True, slots=True)
class WebEvent:
    start_ms: int
    end_ms: int
    url: str
    audible: bool
    data_key: str
    bucket: str
    hostname: str


@dataclass(frozen=True, slots=True)
class AfkEvent:
    start_ms: int
    end_ms: int
    afk: bool
    hostname: str


# ---------------------------------------------------------------------------------------
# Bucket meanings


def window_row(e: Event, bucket: Bucket) -> WindowRow | Rejected:
    app = clean_name(e.data.get("app"))
    if not app:
        return Rejected(e.bucket, e.row, "empty app", e.start_ms)
    title = clean_name(e.data.get("title"))
    return WindowRow(
        e.bucket,
        e.row,
        e.event_id,
        e.start_ms,
        e.dur_ms,
        app,
        title,
        bucket.hostname,
        _data_key(e.data),
    )


def _data_key(data: Mapping[str, object]) -> str:
    """The data as one comparable string: upstream's flood merges only equal data."""
    return json.dumps(data, sort_keys=True, default=str, ensure_ascii=False)


def web_event(e: Event, bucket: Bucket) -> WebEvent | Rejected:
    url = clean_name(e.data.get("url"))
    if not url:
        return Rejected(e.bucket, e.row, "empty url", e.start_ms)
    return WebEvent(
        e.start_ms,
        e.start_ms + e.dur_ms,
        url,
        e.data.get("audible") is True,
        _data_key(e.data),
        bucket.bid,
        bucket.hostname,
    )


def afk_event(e: Event, bucket: Bucket) -> AfkEvent | Rejected:
    status = e.data.get("status")
    if status not in ("afk", "not-afk"):
        return Rejected(e.bucket, e.row, "bad afk status", e.start_ms)
    return AfkEvent(e.start_ms, e.start_ms + e.dur_ms, status == "afk", bucket.hostname)


def assign_ids(rows: list[WindowRow]) -> tuple[list[tuple[int, WindowRow]], list[Rejected]]:
    """Row ids that do not depend on file order; repeats of an id are rejected."""
    ordered = sorted(rows, key=_row_order)
    next_id = max((r.event_id for r in rows if r.event_id is not None), default=0) + 1
    seen: set[int] = set()
    kept: list[tuple[int, WindowRow]] = []
    rejected: list[Rejected] = []
    for row in ordered:
        rid = row.event_id
        if rid is None:
            rid, next_id = next_id, next_id + 1
        if rid in seen:
            rejected.append(Rejected(row.bucket, row.row, "duplicate id", row.start_ms))
            continue
        seen.add(rid)
        kept.append((rid, row))
    return kept, rejected


def _row_order(r: WindowRow) -> tuple[int, int, str, str, str, str, int]:
    return (
        r.start_ms,
        r.dur_ms,
        r.app,
        r.title,
        r.data_key,
        r.bucket,
        -1 if r.event_id is None else r.event_id,
    )
