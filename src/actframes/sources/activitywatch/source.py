"""ActivityWatch readers: the bucket export JSON and aw-server-rust's ``sqlite.db``.

ActivityWatch is an *interval* source: every window event carries the span the watcher
observed (a 1 s poll merged by heartbeats), so each Snapshot gets ``dur_ms``. Zero-duration
events are kept: they are real focus switches too short to see a second poll.

Buckets used (by ``type``), grouped by host (the bucket's ``hostname``):

- ``currentwindow`` (required): window events. ``device`` = the host.
- ``afkstatus``: the host's AFK events.
- ``web.tab.current``: the host's browser tabs (buckets of an ``unknown`` host serve a host
  that has none of its own, as the web UI does).

Active time follows ActivityWatch's own rules, host by host (``rules``): window events
flooded, cut to the host's flooded not-AFK periods (joined by audible browser time unless
``audible_active`` is off), a browser window's time split by the URLs of the web events
overlapping it. A host without an AFK bucket has its window time credited as recorded,
and the document says so in ``blind_spots``. Each credited piece is one Snapshot with
its span as ``dur_ms``; the capture's away spans are recorded AFK time in which no host
was credited, so they never cut a piece again.

Row ids: an event's ``id`` when it has one (always, in sqlite). A JSON export without ids
numbers the window events 1..n after sorting them by (timestamp, duration, app, title,
bucket), so ids do not depend on file order; events without an id among events with ids
are numbered after the largest id. A repeated id rejects every copy but the first in that
order. Rows that cannot be used (empty app, bad timestamp or duration, out of range)
become ``Rejected`` entries; rows without a usable time are reported by every read.

Here: the two readers, export JSON parsing and SQL. The records and their meaning are in
``records``, the rules that make a Capture of them in ``capture``.
"""

from __future__ import annotations

import json
import sqlite3
from bisect import bisect_left
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import TypeGuard

from ...errors import SourceError
from ...model import Capture, Rejected
from ...text import clean_name
from ...timeparse import MAX_TS_MS, MIN_TS_MS, TimestampError, check_range, parse_iso_ms
from .._rows import naive_note, without_offset
from ..base import READ_MARGIN_MS, Source, connect_ro, quote_ident, reading, table_columns, tables
from .capture import apply_rules, capture_of, events_capture, keep_usable, reaches
from .records import (
    AFK_TYPE,
    KIND,
    WEB_TYPE,
    WINDOW_TYPE,
    AfkEvent,
    Bucket,
    Event,
    WebEvent,
    WindowRow,
    afk_event,
    assign_ids,
    web_event,
    window_row,
)

_NS_PER_MS = 1_000_000
# SQL ranges are widened by this much, then the exact test is redone in milliseconds, so a
# nanosecond row that rounds across a bound is selected exactly as the JSON reader would.
_SQL_SLACK_MS = 1_000
_SQL_BUCKET_COLUMNS = {"id", "name", "type", "hostname"}
_SQL_EVENT_COLUMNS = {"id", "bucketrow", "starttime", "endtime", "data"}


# ---------------------------------------------------------------------------------------
# Readers


class AWExportSource(Source):
    """An ActivityWatch bucket export (``aw-buckets-export.json`` or a single bucket)."""

    kind = KIND

    def __init__(self, path: Path, *, audible_active: bool = True) -> None:
        self.path = path
        buckets = _export_buckets(_load_json(path), path)
        types = {b.type for b, _ in buckets}
        if WINDOW_TYPE not in types:
            raise SourceError(f"{path}: no window bucket (type {WINDOW_TYPE!r})")
        self._has_afk = AFK_TYPE in types
        self._has_web = WEB_TYPE in types
        # Everything is parsed once: one process reads many windows from the same file.
        self._rejected: list[Rejected] = []
        windows: list[WindowRow] = []
        webs: list[WebEvent] = []
        afk: list[AfkEvent] = []
        self._afk_hosts = {b.hostname for b, _ in buckets if b.type == AFK_TYPE}
        for bucket, raw in buckets:
            events = keep_usable(
                (json_event(bucket.bid, i, ev) for i, ev in enumerate(raw)), self._rejected
            )
            if bucket.type == WINDOW_TYPE:
                windows += keep_usable((window_row(e, bucket) for e in events), self._rejected)
            elif bucket.type == WEB_TYPE:
                webs += keep_usable((web_event(e, bucket) for e in events), self._rejected)
            elif bucket.type == AFK_TYPE:
                afk += keep_usable((afk_event(e, bucket) for e in events), self._rejected)
        rows, dups = assign_ids(windows)
        self._rejected += dups
        # Timestamps without a UTC offset are read as UTC (as aw-core parses them): said.
        self._naive = sum(
            1
            for bucket, raw in buckets
            if bucket.type == WINDOW_TYPE
            for ev in raw
            if isinstance(ev, dict) and without_offset(ev.get("timestamp"))
        )
        # The rules depend only on the events, not on the read window: applied once.
        self._snapshots, self._away, self._notes = apply_rules(
            rows, webs, afk, self._afk_hosts, audible_active
        )
        self._starts = [s.ts_ms for s in self._snapshots]
        self._max_dur = max((s.dur_ms or 0 for s in self._snapshots), default=0)

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
        # Sorted by start: a row starting before lo - (longest duration) cannot reach lo.
        first = bisect_left(self._starts, lo - self._max_dur)
        last = bisect_left(self._starts, hi)
        cap = capture_of(
            [s for s in self._snapshots[first:last] if reaches(s, lo)],
            [a for a in self._away if _touches(a.start_ms, a.end_ms, lo, hi)],
            self._rejected,
            lo,
            hi,
            has_afk=self._has_afk,
            has_urls=self._has_web,
            notes=self._notes,
        )
        if self._naive:
            cap.notes.append(naive_note(self._naive))
        return cap

    def close(self) -> None:
        """Nothing is held open: the file was read once, by the constructor."""


class AWSqliteSource(Source):
    """aw-server-rust's ``sqlite.db``, opened read-only."""

    kind = KIND

    def __init__(self, path: Path, *, audible_active: bool = True) -> None:
        self.path = path
        self._audible = audible_active
        self._longest: dict[int, int] = {}
        self._conn = connect_ro(path)
        try:
            _check_schema(self._conn, path)
            self._buckets = _sql_buckets(self._conn)
            self._bucketrow = _bucketrow_term(self._conn)
            if not self._of_type(WINDOW_TYPE):
                raise SourceError(f"{path}: no window bucket (type {WINDOW_TYPE!r})")
        except BaseException:
            self._conn.close()
            raise

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
        with reading(self.path):  # a damaged page or a lock: one line naming the file
            # window buckets first, then web, then AFK: the order rejected rows are reported in
            buckets = [
                (bucket, self._events(bucket.bid, rowid, lo, hi))
                for kind in (WINDOW_TYPE, WEB_TYPE, AFK_TYPE)
                for bucket, rowid in self._of_type(kind)
            ]
        return events_capture(buckets, lo, hi, audible_active=self._audible)

    def close(self) -> None:
        self._conn.close()

    def category_settings(self) -> object | None:
        """The web UI's categories as the server keeps them (``key_value``, key
        ``settings.classes``, compact JSON), None when it keeps none or they are not JSON."""
        with reading(self.path):
            if "key_value" not in tables(self._conn):
                return None
            row = self._conn.execute(
                "SELECT value FROM key_value WHERE key = 'settings.classes'"
            ).fetchone()
        if row is None or not isinstance(row[0], str):
            return None
        try:
            data: object = json.loads(row[0])
        except (ValueError, RecursionError):
            return None
        return data

    def _of_type(self, type_: str) -> list[tuple[Bucket, int]]:
        return [(b, rowid) for b, rowid in self._buckets if b.type == type_]

    def _events(self, bid: str, rowid: int, lo: int, hi: int) -> list[Event | Rejected]:
        # Widened by _SQL_SLACK_MS; callers redo the exact test in ms. The lower bound on
        # starttime (no event is longer than the bucket's longest) turns the read into an
        # index range scan instead of a scan of all history before the window.
        lo_ns, hi_ns = (lo - _SQL_SLACK_MS) * _NS_PER_MS, (hi + _SQL_SLACK_MS) * _NS_PER_MS
        # Then the rows no window selects (a start that is NULL, text, a blob or outside
        # 2000-2100: SQLite orders text and blobs above every number), read by every read
        # so that each reports them, as the export reader does; three index ranges.
        rows = f"SELECT id, starttime, endtime, data FROM events WHERE {self._bucketrow} = ? AND"
        first, end = MIN_TS_MS * _NS_PER_MS, MAX_TS_MS * _NS_PER_MS
        cur = self._conn.execute(
            f"{rows} starttime >= ? AND starttime < ? AND endtime >= ?"
            f" UNION ALL {rows} starttime IS NULL UNION ALL {rows} starttime < ?"
            f" UNION ALL {rows} starttime >= ?",
            (rowid, lo_ns - self._longest_ns(rowid), hi_ns, lo_ns, rowid, rowid, first, rowid, end),
        )
        return [_sql_event(bid, row) for row in cur]

    def _longest_ns(self, rowid: int) -> int:
        """The bucket's longest event, found once per source (one pass over the bucket)."""
        if rowid not in self._longest:
            (value,) = self._conn.execute(
                "SELECT max(endtime - starttime) FROM events WHERE bucketrow = ?", (rowid,)
            ).fetchone()
            # No usable event is longer than the whole timestamp range; a damaged row's
            # span (±1e308, 2**63 ns: SQLite's subtraction overflows to a float) is cut
            # to it, so the bound stays an SQLite integer.
            longest = _HORIZON_NS
            if isinstance(value, int) or (isinstance(value, float) and value == value):
                longest = int(min(_HORIZON_NS, value))
            self._longest[rowid] = max(0, longest) if value is not None else 0
        return self._longest[rowid]


def _touches(start: int, end: int, lo: int, hi: int) -> bool:
    """The overlap test both readers use: a superset of [lo, hi) overlap (ends at lo count)."""
    return start < hi and end >= lo


# ---------------------------------------------------------------------------------------
# JSON export parsing


def _load_json(path: Path) -> object:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    try:
        # Decimals, not floats: durations are rounded to integer ms exactly, half up.
        return json.loads(data, parse_float=Decimal, parse_constant=Decimal)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise SourceError(f"{path}: not JSON ({exc.msg}, {where})") from exc
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path}: not JSON (not UTF-8 text)") from exc
    except RecursionError as exc:
        raise SourceError(f"{path}: not JSON we can read (nested too deeply)") from exc


def _export_buckets(doc: object, path: Path) -> list[tuple[Bucket, list[object]]]:
    buckets = doc.get("buckets") if isinstance(doc, dict) else None
    if not isinstance(buckets, dict):
        raise SourceError(f'{path}: not an ActivityWatch export (no "buckets" object)')
    out: list[tuple[Bucket, list[object]]] = []
    for bid in sorted(buckets, key=str):
        meta = buckets[bid]
        if not isinstance(meta, dict):
            raise SourceError(f"{path}: bucket {bid!r} is not an object")
        events = meta.get("events") or []
        if not isinstance(events, list):
            raise SourceError(f"{path}: bucket {bid!r} has no event list")
        bucket = Bucket(str(bid), clean_name(meta.get("type")), clean_name(meta.get("hostname")))
        out.append((bucket, events))
    return out


def json_event(bid: str, index: int, ev: object) -> Event | Rejected:
    if not isinstance(ev, dict):
        return Rejected(bid, f"[{index}]", "event is not an object")
    raw_id = ev.get("id")
    if raw_id is not None and not _is_int(raw_id):
        return Rejected(bid, f"[{index}]", "bad id")
    event_id = raw_id if isinstance(raw_id, int) else None
    row = str(event_id) if event_id is not None else f"[{index}]"
    stamp = ev.get("timestamp")
    if not isinstance(stamp, str):
        return Rejected(bid, row, "bad timestamp: missing or not a string")
    try:
        start_ms = parse_iso_ms(stamp)
        check_range(start_ms)
    except TimestampError as exc:
        return Rejected(bid, row, f"bad timestamp: {exc}")
    dur_ms = _duration_ms(ev.get("duration"))
    if dur_ms is None:
        return Rejected(bid, row, "bad duration: not a finite number", start_ms)
    if dur_ms < 0:
        return Rejected(bid, row, "negative duration", start_ms)
    if start_ms + dur_ms >= MAX_TS_MS:
        return Rejected(bid, row, _ENDS_TOO_LATE, start_ms)
    data = ev.get("data")
    if not isinstance(data, dict):
        return Rejected(bid, row, "data is not an object", start_ms)
    return Event(bid, row, event_id, start_ms, dur_ms, data)


_HORIZON_NS = (MAX_TS_MS - MIN_TS_MS) * 1_000_000
# An event that would run past the timestamp horizon (a duration of 1e308 s) is as
# impossible as one that starts there.
_ENDS_TOO_LATE = "bad duration: ends after 2099"


def _is_int(value: object) -> TypeGuard[int]:
    # bool is an int subclass, but `true` is not a number of seconds or an id.
    return isinstance(value, int) and not isinstance(value, bool)


def _duration_ms(value: object) -> int | None:
    """Seconds (a JSON number) to integer milliseconds, rounded half up; None if not a number."""
    if _is_int(value):
        return value * 1000
    if isinstance(value, Decimal) and value.is_finite():
        return int((value * 1000).to_integral_value(rounding=ROUND_HALF_UP))
    return None


# ---------------------------------------------------------------------------------------
# aw-server-rust sqlite parsing


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    missing = {"buckets", "events"} - tables(conn)
    if missing:
        names = ", ".join(sorted(missing))
        raise SourceError(f"{path}: not an aw-server-rust database (no table {names})")
    for table, needed in (("buckets", _SQL_BUCKET_COLUMNS), ("events", _SQL_EVENT_COLUMNS)):
        lacking = needed - table_columns(conn, table)
        if lacking:
            cols = ", ".join(sorted(lacking))
            raise SourceError(f"{path}: table {table} lacks column(s) {cols}")


def _bucketrow_term(conn: sqlite3.Connection) -> str:
    """How to name events.bucketrow so SQLite seeks on the start time.

    aw-server-rust v4 files index bucketrow and starttime separately; without statistics
    SQLite picks the bucketrow index and scans the whole bucket for every read. A unary
    ``+`` hides that index so the starttime range is used. Newer files (v5+) have a
    (bucketrow, starttime, ...) index, which the plain column uses best.
    """
    leading: set[tuple[str, ...]] = set()
    for index in conn.execute("PRAGMA index_list(events)").fetchall():
        info = conn.execute(f"PRAGMA index_info({quote_ident(str(index[1]))})").fetchall()
        leading.add(tuple(str(r[2]) for r in info[:2]))
    if ("bucketrow", "starttime") in leading:
        return "bucketrow"
    if any(cols[:1] == ("starttime",) for cols in leading):
        return "+bucketrow"
    return "bucketrow"


def _sql_buckets(conn: sqlite3.Connection) -> list[tuple[Bucket, int]]:
    # In aw-server-rust, buckets.name is the bucket id clients use; buckets.id is the
    # integer row events point at (events.bucketrow).
    rows = conn.execute("SELECT id, name, type, hostname FROM buckets ORDER BY name, id")
    return [
        (Bucket(clean_name(name), clean_name(type_), clean_name(host)), int(rowid))
        for rowid, name, type_, host in rows
    ]


def _sql_event(bid: str, row: tuple[object, ...]) -> Event | Rejected:
    event_id, start_ns, end_ns, data_text = row
    label = str(event_id)
    if not _is_int(start_ns) or not _is_int(end_ns):
        return Rejected(bid, label, "bad timestamp: starttime/endtime not integer ns")
    # Nearest millisecond, half up, as the JSON reader rounds sub-millisecond digits.
    start_ms = (start_ns + _NS_PER_MS // 2) // _NS_PER_MS
    try:
        check_range(start_ms)
    except TimestampError as exc:
        return Rejected(bid, label, f"bad timestamp: {exc}")
    if end_ns < start_ns:
        return Rejected(bid, label, "negative duration", start_ms)
    data = json_object(data_text)
    if data is None:
        return Rejected(bid, label, "data is not a JSON object", start_ms)
    dur_ms = (end_ns - start_ns + _NS_PER_MS // 2) // _NS_PER_MS  # half up
    if start_ms + dur_ms >= MAX_TS_MS:
        return Rejected(bid, label, _ENDS_TOO_LATE, start_ms)
    return Event(bid, label, event_id if _is_int(event_id) else None, start_ms, dur_ms, data)


def json_object(text: object) -> dict[str, object] | None:
    if not isinstance(text, str | bytes):
        return None
    try:
        value = json.loads(text, parse_float=Decimal, parse_constant=Decimal)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
