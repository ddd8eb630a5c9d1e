"""ActivityWatch readers: the bucket export JSON and aw-server-rust's ``sqlite.db``.

ActivityWatch is an *interval* source: every window event carries the span the watcher
observed (a 1 s poll merged by heartbeats), so each Snapshot gets ``dur_ms``. Zero-duration
events are kept: they are real focus switches too short to see a second poll.

Buckets used (by ``type``), grouped by host (the bucket's ``hostname``):

- ``currentwindow`` (required): window events. ``device`` = the host.
- ``afkstatus``: the host's AFK events.
- ``web.tab.current``: the host's browser tabs (buckets of an ``unknown`` host serve a host
  that has none of its own, as the web UI does).

Active time follows ActivityWatch's own rules, host by host (``aw_rules``): window events
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
"""

from __future__ import annotations

import json
import sqlite3
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import TypeGuard, TypeVar, cast

from ..errors import SourceError
from ..model import Capture, Rejected, Snapshot, Span
from ..text import clean_name, clip_title
from ..timeparse import MAX_TS_MS, MIN_TS_MS, TimestampError, check_range, parse_iso_ms
from ._rows import naive_note, without_offset
from .aw_rules import Ev, HostInput, host_pieces
from .base import READ_MARGIN_MS, Source, connect_ro, quote_ident, table_columns, tables

KIND = "activitywatch"
WINDOW_TYPE = "currentwindow"
AFK_TYPE = "afkstatus"
WEB_TYPE = "web.tab.current"

# Hostnames that say "this watcher does not know its machine" (aw-watcher-web).
_NO_HOST = ("", "unknown")

_NS_PER_MS = 1_000_000
# SQL ranges are widened by this much, then the exact test is redone in milliseconds, so a
# nanosecond row that rounds across a bound is selected exactly as the JSON reader would.
_SQL_SLACK_MS = 1_000
_SQL_BUCKET_COLUMNS = {"id", "name", "type", "hostname"}
_SQL_EVENT_COLUMNS = {"id", "bucketrow", "starttime", "endtime", "data"}

_T = TypeVar("_T")


# ---------------------------------------------------------------------------------------
# Records shared by both readers


@dataclass(frozen=True, slots=True)
class _Bucket:
    bid: str
    type: str
    hostname: str


@dataclass(frozen=True, slots=True)
class _Event:
    """One event with a usable time, before its bucket's meaning is applied."""

    bucket: str
    row: str  # id, or position in the file, for Rejected.row
    event_id: int | None
    start_ms: int
    dur_ms: int
    data: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class _WindowRow:
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
class _WebEvent:
    start_ms: int
    end_ms: int
    url: str
    audible: bool
    data_key: str
    bucket: str
    hostname: str


@dataclass(frozen=True, slots=True)
class _AfkEvent:
    start_ms: int
    end_ms: int
    afk: bool
    hostname: str


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
        windows: list[_WindowRow] = []
        webs: list[_WebEvent] = []
        afk: list[_AfkEvent] = []
        self._afk_hosts = {b.hostname for b, _ in buckets if b.type == AFK_TYPE}
        for bucket, raw in buckets:
            events = _keep(
                (_json_event(bucket.bid, i, ev) for i, ev in enumerate(raw)), self._rejected
            )
            if bucket.type == WINDOW_TYPE:
                windows += _keep((_window_row(e, bucket) for e in events), self._rejected)
            elif bucket.type == WEB_TYPE:
                webs += _keep((_web_event(e, bucket) for e in events), self._rejected)
            elif bucket.type == AFK_TYPE:
                afk += _keep((_afk_event(e, bucket) for e in events), self._rejected)
        rows, dups = _assign_ids(windows)
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
        self._snapshots, self._away, self._notes = _apply_rules(
            rows, webs, afk, self._afk_hosts, audible_active
        )
        self._starts = [s.ts_ms for s in self._snapshots]
        self._max_dur = max((s.dur_ms or 0 for s in self._snapshots), default=0)

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
        # Sorted by start: a row starting before lo - (longest duration) cannot reach lo.
        first = bisect_left(self._starts, lo - self._max_dur)
        last = bisect_left(self._starts, hi)
        cap = _capture(
            [s for s in self._snapshots[first:last] if _reaches(s, lo)],
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
        rejected: list[Rejected] = []
        windows: list[_WindowRow] = []
        for bucket, rowid in self._of_type(WINDOW_TYPE):
            events = _keep(self._events(bucket.bid, rowid, lo, hi), rejected)
            windows += _keep((_window_row(e, bucket) for e in events), rejected)
        rows, dups = _assign_ids(windows)
        webs: list[_WebEvent] = []
        for bucket, rowid in self._of_type(WEB_TYPE):
            events = _keep(self._events(bucket.bid, rowid, lo, hi), rejected)
            webs += _keep((_web_event(e, bucket) for e in events), rejected)
        afk: list[_AfkEvent] = []
        for bucket, rowid in self._of_type(AFK_TYPE):
            events = _keep(self._events(bucket.bid, rowid, lo, hi), rejected)
            afk += _keep((_afk_event(e, bucket) for e in events), rejected)
        afk_hosts = {b.hostname for b, _ in self._of_type(AFK_TYPE)}
        snaps, away, notes = _apply_rules(rows, webs, afk, afk_hosts, self._audible)
        return _capture(
            [s for s in snaps if s.ts_ms < hi and _reaches(s, lo)],
            away,
            rejected + dups,
            lo,
            hi,
            has_afk=bool(self._of_type(AFK_TYPE)),
            has_urls=bool(self._of_type(WEB_TYPE)),
            notes=notes,
        )

    def close(self) -> None:
        self._conn.close()

    def _of_type(self, type_: str) -> list[tuple[_Bucket, int]]:
        return [(b, rowid) for b, rowid in self._buckets if b.type == type_]

    def _events(self, bid: str, rowid: int, lo: int, hi: int) -> list[_Event | Rejected]:
        # Widened by _SQL_SLACK_MS; callers redo the exact test in ms. The lower bound on
        # starttime (no event is longer than the bucket's longest) turns the read into an
        # index range scan instead of a scan of all history before the window.
        lo_ns, hi_ns = (lo - _SQL_SLACK_MS) * _NS_PER_MS, (hi + _SQL_SLACK_MS) * _NS_PER_MS
        cur = self._conn.execute(
            "SELECT id, starttime, endtime, data FROM events"
            f" WHERE {self._bucketrow} = ? AND starttime >= ? AND starttime < ? AND endtime >= ?",
            (rowid, lo_ns - self._longest_ns(rowid), hi_ns, lo_ns),
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


def events_capture(
    buckets: list[tuple[_Bucket, list[_Event | Rejected]]],
    lo: int,
    hi: int,
    *,
    audible_active: bool,
) -> Capture:
    """The capture of [lo, hi) from every bucket's events (read for that range, or more):
    what the other readers of ActivityWatch stores share (aw-server's own SQLite file, a
    running server's REST API)."""
    rejected: list[Rejected] = []
    windows: list[_WindowRow] = []
    webs: list[_WebEvent] = []
    afk: list[_AfkEvent] = []
    for bucket, raw in buckets:
        events = _keep(raw, rejected)
        if bucket.type == WINDOW_TYPE:
            windows += _keep((_window_row(e, bucket) for e in events), rejected)
        elif bucket.type == WEB_TYPE:
            webs += _keep((_web_event(e, bucket) for e in events), rejected)
        elif bucket.type == AFK_TYPE:
            afk += _keep((_afk_event(e, bucket) for e in events), rejected)
    rows, dups = _assign_ids(windows)
    afk_hosts = {b.hostname for b, _ in buckets if b.type == AFK_TYPE}
    snaps, away, notes = _apply_rules(rows, webs, afk, afk_hosts, audible_active)
    return _capture(
        [s for s in snaps if s.ts_ms < hi and _reaches(s, lo)],
        away,
        rejected + dups,
        lo,
        hi,
        has_afk=bool(afk_hosts),
        has_urls=any(b.type == WEB_TYPE for b, _ in buckets),
        notes=notes,
    )


def _capture(
    snapshots: list[Snapshot],
    away: list[Span],
    rejected: list[Rejected],
    lo: int,
    hi: int,
    *,
    has_afk: bool,
    has_urls: bool,
    notes: list[str],
) -> Capture:
    shown = [r for r in rejected if r.ts_ms is None or lo <= r.ts_ms < hi]
    return Capture(
        kind=KIND,
        snapshots=snapshots,
        afk=[Span(s, e) for s, e in _intersect([(a.start_ms, a.end_ms) for a in away], [(lo, hi)])],
        notes=list(notes),  # the capture's own list: a reader may append to it
        rejected=sorted(set(shown), key=_rejected_key),
        has_input=False,  # ActivityWatch records no key or click counts
        has_afk=has_afk,
        has_urls=has_urls,
    )


def _rejected_key(r: Rejected) -> tuple[str, int, str, str]:
    return (r.table, r.ts_ms if r.ts_ms is not None else -1, r.row, r.reason)


def _keep(items: Iterable[_T | Rejected | None], rejected: list[Rejected]) -> list[_T]:
    """The usable items; rejections are collected into ``rejected``, Nones dropped."""
    out: list[_T] = []
    for item in items:
        if isinstance(item, Rejected):
            rejected.append(item)
        elif item is not None:
            out.append(item)
    return out


def _reaches(s: Snapshot, lo: int) -> bool:
    return s.ts_ms + (s.dur_ms or 0) >= lo


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


def _export_buckets(doc: object, path: Path) -> list[tuple[_Bucket, list[object]]]:
    buckets = doc.get("buckets") if isinstance(doc, dict) else None
    if not isinstance(buckets, dict):
        raise SourceError(f'{path}: not an ActivityWatch export (no "buckets" object)')
    out: list[tuple[_Bucket, list[object]]] = []
    for bid in sorted(buckets, key=str):
        meta = buckets[bid]
        if not isinstance(meta, dict):
            raise SourceError(f"{path}: bucket {bid!r} is not an object")
        events = meta.get("events") or []
        if not isinstance(events, list):
            raise SourceError(f"{path}: bucket {bid!r} has no event list")
        bucket = _Bucket(str(bid), clean_name(meta.get("type")), clean_name(meta.get("hostname")))
        out.append((bucket, events))
    return out


def _json_event(bid: str, index: int, ev: object) -> _Event | Rejected:
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
    return _Event(bid, row, event_id, start_ms, dur_ms, data)


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


def _sql_buckets(conn: sqlite3.Connection) -> list[tuple[_Bucket, int]]:
    # In aw-server-rust, buckets.name is the bucket id clients use; buckets.id is the
    # integer row events point at (events.bucketrow).
    rows = conn.execute("SELECT id, name, type, hostname FROM buckets ORDER BY name, id")
    return [
        (_Bucket(clean_name(name), clean_name(type_), clean_name(host)), int(rowid))
        for rowid, name, type_, host in rows
    ]


def _sql_event(bid: str, row: tuple[object, ...]) -> _Event | Rejected:
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
    data = _json_object(data_text)
    if data is None:
        return Rejected(bid, label, "data is not a JSON object", start_ms)
    dur_ms = (end_ns - start_ns + _NS_PER_MS // 2) // _NS_PER_MS  # half up
    if start_ms + dur_ms >= MAX_TS_MS:
        return Rejected(bid, label, _ENDS_TOO_LATE, start_ms)
    return _Event(bid, label, event_id if _is_int(event_id) else None, start_ms, dur_ms, data)


def _json_object(text: object) -> dict[str, object] | None:
    if not isinstance(text, str | bytes):
        return None
    try:
        value = json.loads(text, parse_float=Decimal, parse_constant=Decimal)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


# ---------------------------------------------------------------------------------------
# Bucket meanings


def _window_row(e: _Event, bucket: _Bucket) -> _WindowRow | Rejected:
    app = clean_name(e.data.get("app"))
    if not app:
        return Rejected(e.bucket, e.row, "empty app", e.start_ms)
    title = clean_name(e.data.get("title"))
    return _WindowRow(
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


def _web_event(e: _Event, bucket: _Bucket) -> _WebEvent | Rejected:
    url = clean_name(e.data.get("url"))
    if not url:
        return Rejected(e.bucket, e.row, "empty url", e.start_ms)
    return _WebEvent(
        e.start_ms,
        e.start_ms + e.dur_ms,
        url,
        e.data.get("audible") is True,
        _data_key(e.data),
        bucket.bid,
        bucket.hostname,
    )


def _afk_event(e: _Event, bucket: _Bucket) -> _AfkEvent | Rejected:
    status = e.data.get("status")
    if status not in ("afk", "not-afk"):
        return Rejected(e.bucket, e.row, "bad afk status", e.start_ms)
    return _AfkEvent(e.start_ms, e.start_ms + e.dur_ms, status == "afk", bucket.hostname)


def _assign_ids(rows: list[_WindowRow]) -> tuple[list[tuple[int, _WindowRow]], list[Rejected]]:
    """Row ids that do not depend on file order; repeats of an id are rejected."""
    ordered = sorted(rows, key=_row_order)
    next_id = max((r.event_id for r in rows if r.event_id is not None), default=0) + 1
    seen: set[int] = set()
    kept: list[tuple[int, _WindowRow]] = []
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


def _row_order(r: _WindowRow) -> tuple[int, int, str, str, str, str, int]:
    return (
        r.start_ms,
        r.dur_ms,
        r.app,
        r.title,
        r.data_key,
        r.bucket,
        -1 if r.event_id is None else r.event_id,
    )


# ---------------------------------------------------------------------------------------
# ActivityWatch's rules, host by host (aw_rules)


def _apply_rules(
    rows: list[tuple[int, _WindowRow]],
    webs: list[_WebEvent],
    afk: list[_AfkEvent],
    afk_hosts: set[str],
    audible_active: bool,
) -> tuple[list[Snapshot], list[Span], list[str]]:
    """Credited pieces as Snapshots, away spans no piece overlaps, and notes for
    blind_spots (hosts without an AFK bucket)."""
    hosts = sorted({r.device for _, r in rows})
    web_hosts = {w.hostname for w in webs}
    snaps: list[Snapshot] = []
    notes: list[str] = []
    for host in hosts:
        windows = [
            Ev(r.start_ms, r.dur_ms, r.data_key, (rid, r), (r.dur_ms, r.data_key, rid))
            for rid, r in rows
            if r.device == host
        ]
        host_afk = None
        if host in afk_hosts:
            host_afk = [
                Ev(a.start_ms, a.end_ms - a.start_ms, st, None, (a.end_ms - a.start_ms, st))
                for a in afk
                if a.hostname == host
                for st in ("afk" if a.afk else "not-afk",)
            ]
        else:
            notes.append(
                f"host {host or '(unnamed)'!r} has no AFK bucket: its window time is"
                " credited as recorded"
            )
        # The web UI takes a host's own web buckets, else those of an unknown host.
        web_host = host if host in web_hosts else None
        web: dict[str, list[Ev]] = {}
        for w in webs:
            if w.hostname == host or (web_host is None and w.hostname.casefold() in _NO_HOST):
                web.setdefault(w.bucket, []).append(
                    Ev(
                        w.start_ms,
                        w.end_ms - w.start_ms,
                        w.data_key,
                        (w.url, w.audible),
                        (w.end_ms - w.start_ms, w.data_key),
                    )
                )
        pieces, _ = host_pieces(
            HostInput(windows, host_afk, web, _app_of), audible_active=audible_active
        )
        taken: set[int] = set()
        for p in pieces:
            rid, r = cast(tuple[int, _WindowRow], p.ref)
            snaps.append(
                Snapshot(
                    row_id=_piece_id(rid, p.start - p.origin, taken),
                    ts_ms=p.start,
                    app=r.app,
                    title=clip_title(r.title),
                    url=p.url,
                    device=host,
                    dur_ms=p.end - p.start,
                )
            )
    if webs:
        notes.append(
            "audible browser tabs count as active time, as ActivityWatch's web UI counts them"
            if audible_active
            else "audible browser tabs without input are not active time (--no-audible-active)"
        )
    snaps.sort(key=lambda s: (s.ts_ms, s.row_id, s.device))
    credited = _merge((s.ts_ms, s.ts_ms + (s.dur_ms or 0)) for s in snaps)
    recorded_away = _merge((a.start_ms, a.end_ms) for a in afk if a.afk)
    away = _subtract(recorded_away, credited)
    return snaps, [Span(s, e) for s, e in away], notes


# Row ids of the later pieces of a window event (cut by AFK time or split by URL): the
# event's id plus (seconds from the flooded event's start + 1) * 2**31, so every Snapshot
# keeps a distinct id (frame ids are F<row id>), each the same whatever window is read,
# and all below 2**53 (exact in any JSON reader).
PIECE_ID_STRIDE = 2**31


def _piece_id(rid: int, offset_ms: int, taken: set[int]) -> int:
    pid = rid if offset_ms <= 0 else rid + (offset_ms // 1000 + 1) * PIECE_ID_STRIDE
    while pid in taken:  # two pieces of one event within one second
        pid += PIECE_ID_STRIDE
    taken.add(pid)
    return pid


def _app_of(ref: object) -> str:
    return cast(tuple[int, _WindowRow], ref)[1].app


def _subtract(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merged span list ``a`` without the merged span list ``b``."""
    if not a:
        return []
    return _intersect(a, _complement(b, a[0][0], a[-1][1]))


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Union of half-open spans, sorted; empty spans dropped, touching ones joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _intersect(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Intersection of two merged, sorted span lists."""
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def _complement(spans: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    """[lo, hi) minus a merged, sorted span list."""
    out: list[tuple[int, int]] = []
    cursor = lo
    for start, end in spans:
        if start > cursor:
            out.append((cursor, min(start, hi)))
        cursor = max(cursor, end)
    if cursor < hi:
        out.append((cursor, hi))
    return [s for s in out if s[1] > s[0]]
