"""The other places ActivityWatch keeps its data: the Python ``aw-server``'s own SQLite
file (peewee: ``bucketmodel`` / ``eventmodel``) and a running server's REST API
(``http://127.0.0.1:5600``). Both give the same buckets and events as an export, and the
same rules apply (``capture.events_capture``).

The peewee file (aw-core ``aw_datastore/storages/peewee.py``): ``bucketmodel`` (``key``
the integer row, ``id`` the bucket id, ``type``, ``hostname``), ``eventmodel``
(``bucket_id`` → ``bucketmodel.key``, ``timestamp`` as text ``YYYY-MM-DD HH:MM:SS[.ffffff]
+00:00``, ``duration`` in seconds, ``datastr`` the data as JSON).

The server is only ever asked with GET (``/api/0/buckets/``, then each bucket's
``/events?start=…&end=…``), only on this machine (127.0.0.1, ::1 or localhost), with a
timeout; a server that is not running or answers badly is a one-line error.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from ...errors import SourceError
from ...model import Capture, Rejected
from ...text import clean_name
from ...timeparse import MAX_TS_MS, MIN_TS_MS
from ..base import READ_MARGIN_MS, Source, connect_ro, reading, table_columns, tables
from .capture import events_capture
from .records import KIND, WINDOW_TYPE, Bucket, Event
from .source import json_event, json_object

PEEWEE_TABLES = {"bucketmodel", "eventmodel"}
_BUCKET_COLUMNS = {"key", "id", "type", "hostname"}
_EVENT_COLUMNS = {"id", "bucket_id", "timestamp", "duration", "datastr"}
# Timestamps are compared as text in SQL: a day of slack either side covers any offset a
# row might carry; the exact test is redone in milliseconds.
_TEXT_SLACK = timedelta(days=1)
# No usable event is longer than the range of timestamps read at all.
_HORIZON_S = (MAX_TS_MS - MIN_TS_MS) // 1000
_TEXT_TIME = "%Y-%m-%d %H:%M:%S"
LOCAL_HOSTS = ("127.0.0.1", "::1", "localhost")
TIMEOUT_S = 10.0
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _utc(ms: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=ms)


# The range of timestamps a row may hold, as text (the exact test is redone in ms).
_FIRST_TEXT, _LAST_TEXT = _utc(MIN_TS_MS).strftime(_TEXT_TIME), _utc(MAX_TS_MS).strftime(_TEXT_TIME)


class AWPeeweeSource(Source):
    """The Python aw-server's SQLite file, opened read-only."""

    kind = KIND

    def __init__(self, path: Path, *, audible_active: bool = True) -> None:
        self.path = path
        self._audible = audible_active
        self._conn = connect_ro(path)
        try:
            self._check(path)
            rows = self._conn.execute(
                "SELECT key, id, type, hostname FROM bucketmodel ORDER BY id, key"
            ).fetchall()
            self._buckets = [
                (Bucket(clean_name(bid), clean_name(t), clean_name(h)), int(key))
                for key, bid, t, h in rows
            ]
            if not any(b.type == WINDOW_TYPE for b, _ in self._buckets):
                raise SourceError(f"{path}: no window bucket (type {WINDOW_TYPE!r})")
            self._longest = {key: _seconds(self._conn, key) for _, key in self._buckets}
        except BaseException:
            self._conn.close()
            raise

    def _check(self, path: Path) -> None:
        missing = PEEWEE_TABLES - tables(self._conn)
        if missing:
            raise SourceError(
                f"{path}: not an aw-server database (no table {', '.join(sorted(missing))})"
            )
        for table, needed in (("bucketmodel", _BUCKET_COLUMNS), ("eventmodel", _EVENT_COLUMNS)):
            lacking = needed - table_columns(self._conn, table)
            if lacking:
                cols = ", ".join(sorted(lacking))
                raise SourceError(f"{path}: table {table} lacks column(s) {cols}")

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
        with reading(self.path):  # a damaged page or a lock: one line naming the file
            out = self._read(lo, hi)
        return events_capture(out, lo, hi, audible_active=self._audible)

    def _read(self, lo: int, hi: int) -> list[tuple[Bucket, list[Event | Rejected]]]:
        out: list[tuple[Bucket, list[Event | Rejected]]] = []
        for bucket, key in self._buckets:
            since = _utc(lo) - timedelta(seconds=self._longest[key]) - _TEXT_SLACK
            until = _utc(hi) + _TEXT_SLACK
            # Then the rows no window selects (a timestamp that is NULL, a number, a blob
            # or text outside 2000-2100: numbers order below text, blobs above), read by
            # every read so that each reports them, as the export reader does.
            rows = "SELECT id, timestamp, duration, datastr FROM eventmodel WHERE bucket_id = ? AND"
            lo_text, hi_text = since.strftime(_TEXT_TIME), until.strftime(_TEXT_TIME)
            cur = self._conn.execute(
                f"{rows} timestamp >= ? AND timestamp < ? UNION ALL {rows} timestamp IS NULL"
                f" UNION ALL {rows} timestamp < ? UNION ALL {rows} timestamp >= ?",
                (key, lo_text, hi_text, key, key, _FIRST_TEXT, key, _LAST_TEXT),
            )
            events = []
            for i, (eid, stamp, dur, datastr) in enumerate(cur):
                data = json_object(datastr)
                raw = {"id": eid, "timestamp": stamp, "duration": _decimal(dur), "data": data}
                events.append(json_event(bucket.bid, i, raw))
            out.append((bucket, [e for e in events if _near(e, lo, hi)]))
        return out

    def close(self) -> None:
        self._conn.close()


def _seconds(conn: sqlite3.Connection, key: int) -> int:
    """The bucket's longest event in whole seconds (rounded up), at most the whole
    timestamp range: a damaged row's duration (1e308 s, text) is not a date bound."""
    (value,) = conn.execute(
        "SELECT max(duration) FROM eventmodel WHERE bucket_id = ?"
        " AND typeof(duration) IN ('integer', 'real')",
        (key,),
    ).fetchone()
    try:
        return min(max(0, int(value or 0)), _HORIZON_S) + 1
    except (ValueError, OverflowError):  # NaN, infinity
        return _HORIZON_S


def _decimal(value: object) -> object:
    """A REAL duration as the decimal it was written as (repr is the shortest round trip)."""
    if isinstance(value, float):
        return Decimal(repr(value))
    return value


def _near(e: Event | Rejected, lo: int, hi: int) -> bool:
    if isinstance(e, Rejected):
        return True
    return e.start_ms < hi and e.start_ms + e.dur_ms >= lo


# ---------------------------------------------------------------------------------------
# A running server


def is_url(text: str) -> bool:
    return text.startswith(("http://", "https://", "http:/", "https:/"))


def normalize_url(text: str) -> str:
    """``http:/host:port`` (a URL that went through pathlib) back to ``http://host:port``."""
    scheme, _, rest = text.partition(":")
    return f"{scheme}://{rest.lstrip('/')}".rstrip("/")


class AWRestSource(Source):
    """A running ActivityWatch server (aw-server or aw-server-rust), read through its REST
    API: read-only, on this machine only, every request with a timeout."""

    kind = KIND

    def __init__(
        self, url: str, *, audible_active: bool = True, timeout_s: float = TIMEOUT_S
    ) -> None:
        self.url = normalize_url(url)
        self.path = Path(self.url)
        self._audible = audible_active
        self._timeout = timeout_s
        parts = urllib.parse.urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SourceError(f"{self.url}: not a server address (http://127.0.0.1:5600)")
        if parts.hostname not in LOCAL_HOSTS:
            raise SourceError(
                f"{self.url}: only a server on this machine is read (127.0.0.1 or localhost)"
            )
        listing = self._get("/api/0/buckets/")
        if not isinstance(listing, dict):
            raise SourceError(f"{self.url}: /api/0/buckets/ did not answer with an object")
        self._buckets = [
            Bucket(clean_name(bid), clean_name(meta.get("type")), clean_name(meta.get("hostname")))
            for bid, meta in sorted(listing.items(), key=lambda kv: str(kv[0]))
            if isinstance(meta, dict)
        ]
        if not any(b.type == WINDOW_TYPE for b in self._buckets):
            raise SourceError(f"{self.url}: no window bucket (type {WINDOW_TYPE!r})")

    def _get(self, route: str, query: dict[str, str] | None = None) -> object:
        url = self.url + route + ("?" + urllib.parse.urlencode(query) if query else "")
        req = urllib.request.Request(url, headers={"Accept": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                body = resp.read()
        except urllib.error.HTTPError as exc:
            raise SourceError(f"{self.url}: the server answered {exc.code} to {route}") from exc
        except TimeoutError as exc:
            raise SourceError(
                f"{self.url}: no answer within {self._timeout:g} s to {route}"
            ) from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise SourceError(f"{self.url}: no ActivityWatch server answers ({reason})") from exc
        try:
            return json.loads(body, parse_float=Decimal, parse_constant=Decimal)
        except (ValueError, RecursionError) as exc:
            raise SourceError(f"{self.url}: the answer to {route} is not JSON") from exc

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
        query = {"start": _utc(lo).isoformat(), "end": _utc(hi).isoformat()}
        out: list[tuple[Bucket, list[Event | Rejected]]] = []
        for bucket in self._buckets:
            route = f"/api/0/buckets/{urllib.parse.quote(bucket.bid, safe='')}/events"
            got = self._get(route, query)
            if not isinstance(got, list):
                raise SourceError(f"{self.url}: {route} did not answer with a list")
            out.append((bucket, [json_event(bucket.bid, i, ev) for i, ev in enumerate(got)]))
        return events_capture(out, lo, hi, audible_active=self._audible)

    def category_settings(self) -> object | None:
        """The server's categories (``GET /api/0/settings``, key ``classes``); None when it
        keeps none or has no settings (aw-server 0.12 from PyPI answers 404)."""
        try:
            settings = self._get("/api/0/settings")
        except SourceError:
            return None
        return settings.get("classes") if isinstance(settings, dict) else None

    def close(self) -> None:
        """Nothing is held open: every request is its own connection."""
