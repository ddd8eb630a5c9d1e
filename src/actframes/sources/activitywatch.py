"""ActivityWatch readers: the bucket export JSON and aw-server-rust's ``sqlite.db``.

ActivityWatch is an *interval* source: every window event carries the span the watcher
observed (a 1 s poll merged by heartbeats), so each Snapshot gets ``dur_ms``. Zero-duration
events are kept: they are real focus switches too short to see a second poll.

Buckets used (by ``type``):

- ``currentwindow`` (required, one per host): the Snapshots. ``device`` = bucket hostname.
- ``afkstatus``: ``afk`` events become away Spans. The watcher often writes a new event per
  heartbeat instead of extending the last one (dozens of copies with one start and growing
  durations), so spans are merged. With several AFK buckets (several hosts) the user counts
  as away only where every host that reported anything says AFK: being away from one
  machine while typing on another is not away.
- ``web.tab.current``: URLs for browser window events (below).

Browser URL fusion. A window event is a browser event when its app name contains one of
the substrings in ``_BROWSER_APPS`` (case-insensitive: ``firefox.exe``, ``Firefox Developer
Edition``, ``Google-chrome`` ...). A web bucket applies to it when the bucket's browser
family (from its id, ``aw-watcher-web-firefox``) is unknown or the same as the app's, and
its hostname is unknown or the same. Among the applicable web events:

1. Those overlapping the window event in time (a zero-length one overlaps what contains
   its instant). The winner is the one whose title agrees, i.e. the web title is contained
   in the window title (case-insensitive; the window title adds " — Mozilla Firefox"),
   then the one with the most overlap, then the later start, then the smaller URL.
   An overlapping event whose title disagrees still wins when no overlapping one agrees:
   the tab the browser reported while the window was focused is the best evidence.
2. If none overlaps, the one nearest in time (gap between the spans) within
   ``URL_NEAR_MS`` whose title agrees; ties go to the later start, then the smaller URL.
3. Else no URL.

The rule depends only on the events themselves, never on the read window or file order.

Row ids: an event's ``id`` when it has one (always, in sqlite). A JSON export without ids
numbers the window events 1..n after sorting them by (timestamp, duration, app, title,
bucket), so ids do not depend on file order; events without an id among events with ids
are numbered after the largest id. A repeated id rejects every copy but the first in that
order. Rows that cannot be used (empty app, bad timestamp or duration, out of range)
become ``Rejected`` entries; rows without a usable time are reported by every read.
"""

from __future__ import annotations

import json
import re
import sqlite3
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from itertools import accumulate
from pathlib import Path
from typing import TypeGuard, TypeVar

from ..errors import SourceError
from ..model import Capture, Rejected, Snapshot, Span
from ..text import clean_name, clip_title
from ..timeparse import MAX_TS_MS, MIN_TS_MS, TimestampError, check_range, parse_iso_ms
from ._rows import naive_note, without_offset
from .base import READ_MARGIN_MS, Source, connect_ro, quote_ident, table_columns, tables

KIND = "activitywatch"
WINDOW_TYPE = "currentwindow"
AFK_TYPE = "afkstatus"
WEB_TYPE = "web.tab.current"

# A web event this close to a browser window event (and agreeing on the title) still
# names its page: the two watchers poll independently, about a second apart.
URL_NEAR_MS = 2_000

# Substring of a lower-cased app name -> browser family. Edge is matched by its exe and
# product names only, so "Knowledge" or "hedgehog" are not browsers.
_BROWSER_APPS: tuple[tuple[str, str], ...] = (
    ("firefox", "firefox"),
    ("librewolf", "firefox"),
    ("waterfox", "firefox"),
    ("chromium", "chromium"),
    ("chrome", "chromium"),
    ("brave", "chromium"),
    ("msedge", "chromium"),
    ("microsoft edge", "chromium"),
    ("microsoft-edge", "chromium"),
    ("opera", "chromium"),
    ("vivaldi", "chromium"),
    ("safari", "safari"),
)
# Whole tokens of a web bucket id (aw-watcher-web-chrome_myhost) -> browser family.
_BROWSER_TOKENS: dict[str, str] = {
    "firefox": "firefox",
    "librewolf": "firefox",
    "waterfox": "firefox",
    "chrome": "chromium",
    "chromium": "chromium",
    "brave": "chromium",
    "edge": "chromium",
    "msedge": "chromium",
    "opera": "chromium",
    "vivaldi": "chromium",
    "safari": "safari",
}
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
    title: str  # cleaned, not clipped: fusion compares whole titles
    device: str


@dataclass(frozen=True, slots=True)
class _WebEvent:
    start_ms: int
    end_ms: int
    url: str
    title_cf: str
    family: str | None
    hostname: str


@dataclass(frozen=True, slots=True)
class _AfkEvent:
    start_ms: int
    end_ms: int
    afk: bool


# ---------------------------------------------------------------------------------------
# Readers


class AWExportSource(Source):
    """An ActivityWatch bucket export (``aw-buckets-export.json`` or a single bucket)."""

    kind = KIND

    def __init__(self, path: Path) -> None:
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
        self._afk: list[list[_AfkEvent]] = []
        for bucket, raw in buckets:
            events = _keep(
                (_json_event(bucket.bid, i, ev) for i, ev in enumerate(raw)), self._rejected
            )
            if bucket.type == WINDOW_TYPE:
                windows += _keep((_window_row(e, bucket) for e in events), self._rejected)
            elif bucket.type == WEB_TYPE:
                webs += _keep((_web_event(e, bucket) for e in events), self._rejected)
            elif bucket.type == AFK_TYPE:
                self._afk.append(_keep((_afk_event(e) for e in events), self._rejected))
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
        # Fusion depends only on the events, not on the read window, so it is done once.
        self._snapshots = _snapshots(rows, _WebIndex(webs))
        self._starts = [s.ts_ms for s in self._snapshots]
        self._max_dur = max((r.dur_ms for _, r in rows), default=0)

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
        # Sorted by start: a row starting before lo - (longest duration) cannot reach lo.
        first = bisect_left(self._starts, lo - self._max_dur)
        last = bisect_left(self._starts, hi)
        cap = _capture(
            [s for s in self._snapshots[first:last] if _reaches(s, lo)],
            [[a for a in evs if _touches(a.start_ms, a.end_ms, lo, hi)] for evs in self._afk],
            self._rejected,
            lo,
            hi,
            has_afk=self._has_afk,
            has_urls=self._has_web,
        )
        if self._naive:
            cap.notes.append(naive_note(self._naive))
        return cap

    def close(self) -> None:
        """Nothing is held open: the file was read once, by the constructor."""


class AWSqliteSource(Source):
    """aw-server-rust's ``sqlite.db``, opened read-only."""

    kind = KIND

    def __init__(self, path: Path) -> None:
        self.path = path
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
        snaps = _snapshots(rows, _WebIndex(self._web_events(windows, rejected, lo, hi)))
        afk_buckets = []
        for bucket, rowid in self._of_type(AFK_TYPE):
            events = _keep(self._events(bucket.bid, rowid, lo, hi), rejected)
            afk = _keep((_afk_event(e) for e in events), rejected)
            afk_buckets.append([a for a in afk if _touches(a.start_ms, a.end_ms, lo, hi)])
        return _capture(
            [s for s in snaps if s.ts_ms < hi and _reaches(s, lo)],
            afk_buckets,
            rejected + dups,
            lo,
            hi,
            has_afk=bool(self._of_type(AFK_TYPE)),
            has_urls=bool(self._of_type(WEB_TYPE)),
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

    def _web_events(
        self, windows: Sequence[_WindowRow], rejected: list[Rejected], lo: int, hi: int
    ) -> list[_WebEvent]:
        """Web events in [lo, hi) (for their rejections) and every fusion candidate of a
        browser row of ``windows`` (which can reach outside it)."""
        browsers = [w for w in windows if _browser_family(w.app) is not None]
        if browsers:
            lo = min(lo, min(w.start_ms for w in browsers) - URL_NEAR_MS)
            hi = max(hi, max(w.start_ms + w.dur_ms for w in browsers) + URL_NEAR_MS + 1)
        out: list[_WebEvent] = []
        for bucket, rowid in self._of_type(WEB_TYPE):
            events = _keep(self._events(bucket.bid, rowid, lo, hi), rejected)
            out += _keep((_web_event(e, bucket) for e in events), rejected)
        return out


def _capture(
    snapshots: list[Snapshot],
    afk_buckets: list[list[_AfkEvent]],
    rejected: list[Rejected],
    lo: int,
    hi: int,
    *,
    has_afk: bool,
    has_urls: bool,
) -> Capture:
    shown = [r for r in rejected if r.ts_ms is None or lo <= r.ts_ms < hi]
    return Capture(
        kind=KIND,
        snapshots=snapshots,
        afk=_away(afk_buckets, lo, hi),
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
        e.bucket, e.row, e.event_id, e.start_ms, e.dur_ms, app, title, bucket.hostname
    )


def _web_event(e: _Event, bucket: _Bucket) -> _WebEvent | Rejected:
    url = clean_name(e.data.get("url"))
    if not url:
        return Rejected(e.bucket, e.row, "empty url", e.start_ms)
    title_cf = clean_name(e.data.get("title")).casefold()
    family = _web_family(bucket.bid)
    return _WebEvent(e.start_ms, e.start_ms + e.dur_ms, url, title_cf, family, bucket.hostname)


def _afk_event(e: _Event) -> _AfkEvent | Rejected:
    status = e.data.get("status")
    if status not in ("afk", "not-afk"):
        return Rejected(e.bucket, e.row, "bad afk status", e.start_ms)
    return _AfkEvent(e.start_ms, e.start_ms + e.dur_ms, status == "afk")


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


def _row_order(r: _WindowRow) -> tuple[int, int, str, str, str, int]:
    return (
        r.start_ms,
        r.dur_ms,
        r.app,
        r.title,
        r.bucket,
        -1 if r.event_id is None else r.event_id,
    )


def _snapshots(rows: list[tuple[int, _WindowRow]], web: _WebIndex) -> list[Snapshot]:
    snaps = [
        Snapshot(
            row_id=rid,
            ts_ms=r.start_ms,
            app=r.app,
            title=clip_title(r.title),
            url=web.url_for(r),
            device=r.device,
            dur_ms=r.dur_ms,
        )
        for rid, r in rows
    ]
    snaps.sort(key=lambda s: (s.ts_ms, s.row_id))
    return snaps


# ---------------------------------------------------------------------------------------
# Browser URL fusion (rule in the module docstring)


def _browser_family(app: str) -> str | None:
    name = app.casefold()
    for fragment, family in _BROWSER_APPS:
        if fragment in name:
            return family
    return None


def _web_family(bucket_id: str) -> str | None:
    for token in re.split(r"[^a-z0-9]+", bucket_id.casefold()):
        if token in _BROWSER_TOKENS:
            return _BROWSER_TOKENS[token]
    return None


class _WebIndex:
    """Web events sorted by start, searchable by time."""

    def __init__(self, events: Iterable[_WebEvent]) -> None:
        self._events = sorted(events, key=lambda e: (e.start_ms, e.end_ms, e.url))
        self._starts = [e.start_ms for e in self._events]
        # Running maximum of ends: every event before the first index whose running max
        # reaches t ends before t, so the search can start there.
        self._max_end = list(accumulate((e.end_ms for e in self._events), max))

    def near(self, lo: int, hi: int) -> Iterable[_WebEvent]:
        """Events with end >= lo and start <= hi."""
        first = bisect_left(self._max_end, lo)
        last = bisect_right(self._starts, hi)
        return (e for e in self._events[first:last] if e.end_ms >= lo)

    def url_for(self, row: _WindowRow) -> str | None:
        family = _browser_family(row.app)
        if family is None or not self._events:
            return None
        title = row.title.casefold()
        if any(marker in title for marker in _PRIVATE_MARKERS):
            # The web watcher never sees private windows: an overlapping event belongs
            # to another window's tab, so a private window gets no URL.
            return None
        start, end = row.start_ms, row.start_ms + row.dur_ms
        overlapping: list[tuple[bool, int, int, str]] = []
        nearby: list[tuple[int, int, str]] = []
        for e in self.near(start - URL_NEAR_MS, end + URL_NEAR_MS):
            if not _applies(e, family, row.device):
                continue
            agrees = bool(e.title_cf) and e.title_cf in title
            overlap = min(end, e.end_ms) - max(start, e.start_ms)
            # A zero-length event overlaps whatever contains its instant (overlap == 0).
            if overlap > 0 or (overlap == 0 and (start == end or e.start_ms == e.end_ms)):
                overlapping.append((not agrees, -overlap, -e.start_ms, e.url))
            elif agrees:
                gap = max(e.start_ms - end, start - e.end_ms)
                nearby.append((gap, -e.start_ms, e.url))
        if overlapping:
            return min(overlapping)[3]
        return min(nearby)[2] if nearby else None


# Title markers of private browsing windows (Firefox, Chrome/Chromium, Edge, Brave).
_PRIVATE_MARKERS = ("private browsing", "incognito", "inprivate", "private window")


def _applies(e: _WebEvent, family: str, device: str) -> bool:
    same_browser = e.family is None or e.family == family
    same_host = e.hostname.casefold() in _NO_HOST or e.hostname == device
    return same_browser and same_host


# ---------------------------------------------------------------------------------------
# Away periods


def _away(afk_buckets: list[list[_AfkEvent]], lo: int, hi: int) -> list[Span]:
    """AFK spans within [lo, hi): where every AFK bucket that reported says away."""
    if not afk_buckets:
        return []
    per_bucket = [
        (
            _merge((a.start_ms, a.end_ms) for a in evs if a.afk),
            _merge((a.start_ms, a.end_ms) for a in evs),
        )
        for evs in afk_buckets
    ]
    away = _merge(s for spans, _ in per_bucket for s in spans)
    if len(per_bucket) > 1:
        for spans, seen in per_bucket:
            # Where a host reported nothing (asleep, off), it does not veto "away".
            away = _intersect(away, _merge([*spans, *_complement(seen, lo, hi)]))
    return [Span(s, e) for s, e in _intersect(away, [(lo, hi)])]


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
