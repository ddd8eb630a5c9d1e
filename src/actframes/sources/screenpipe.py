"""Reader for screenpipe-style SQLite stores (tables ``frames``, ``ui_events``, ``elements``).

Columns are discovered with ``PRAGMA table_info`` so older and newer screenpipe databases
and the reference recorder's databases all read; only ``frames(id, timestamp, app_name)``
is required.

Timestamps are ISO-8601 text in any shape and are parsed to instants, never compared as
strings. SQL narrows the read to a few days around the window by date prefix (a superset:
offsets reach ±14 h), then SQLite's own date parser turns the usual shapes into integer
milliseconds in C — a day holds tens of thousands of event rows. A row is parsed there
only when its text has the strict shape ``YYYY-MM-DD[T ]HH:MM:SS…`` and a real calendar
date; every other row (other shapes, impossible dates, no date at all, out of range) is
parsed or rejected by ``timeparse`` in Python, for every window, so it is reported.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import SourceError
from ..model import CLICK, COPY, KEY, PASTE, SCROLL, Capture, InputEvent, Rejected, Snapshot
from ..text import clean_name
from ..timeparse import MAX_TS_MS, MIN_TS_MS
from ._columns import DuplicateIds, columns_from_groups
from ._rows import Names, first_of_each_id, parse_ts
from .base import READ_MARGIN_MS, connect_ro, fetch, table_columns, tables

# Stored event types and the input kind each counts as. Others (mouse moves, focus
# changes, typed-text runs) are not input counts: typed text is content, and keys come
# from key events, so counting text runs too would count typing twice.
EVENT_KINDS: dict[str, str] = {
    "key": KEY,
    "keydown": KEY,
    "key_press": KEY,
    "click": CLICK,
    "mouse_click": CLICK,
    "scroll": SCROLL,
    "clipboard": COPY,
    "copy": COPY,
    "paste": PASTE,
}

# Slack around the window for the date-prefix pre-filter: UTC offsets reach ±14 h.
_PREFILTER_SLACK = timedelta(days=2)
# Date-prefix bounds just inside the plausible range: anything outside is read as odd.
_RANGE_LO, _RANGE_HI = "2000-01-02", "2099-12-31"
_NOT_DATE_SHAPED = "NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'"
# SQLite keeps instants as integer milliseconds of the Julian day; this recovers them
# exactly (sub-millisecond digits are rounded to the nearest millisecond, as in Python).
_JD_MS = "CAST(round((julianday(timestamp) - 2440587.5) * 86400000.0) AS INTEGER)"


class ScreenpipeSource:
    kind = "screenpipe"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = connect_ro(path)
        present = tables(self._conn)
        if "frames" not in present:
            raise SourceError(f"{path}: no 'frames' table: not a screenpipe-style database")
        self._fcols = table_columns(self._conn, "frames")
        missing = {"id", "timestamp", "app_name"} - self._fcols
        if missing:
            raise SourceError(f"{path}: table frames lacks column(s) {', '.join(sorted(missing))}")
        self._ecols = table_columns(self._conn, "ui_events") if "ui_events" in present else set()
        if self._ecols and not {"id", "timestamp", "event_type"} <= self._ecols:
            self._ecols = set()  # an events table we cannot read is treated as absent

    def close(self) -> None:
        self._conn.close()

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi, dates = _date_bounds(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
        cap = Capture(
            kind=self.kind, has_input=bool(self._ecols), has_urls="browser_url" in self._fcols
        )
        ms = _ms_expr(dates)
        try:
            self._read_frames(cap, lo, hi, ms)
            if self._ecols:
                self._read_events(cap, lo, hi, ms)
        except sqlite3.DatabaseError as exc:
            raise SourceError(f"{self.path}: cannot read ({exc})") from exc
        return cap

    def _odd_rows(self, table: str, cols: str, lo: str, hi: str, where: str) -> list[Any]:
        """Rows that can never be placed in a day (no date shape, dated out of range): read
        for every window, so each document reports them."""
        # The cheap range test comes first, so rows of the window's own days stop there.
        q = (
            f"SELECT {cols} FROM {table}"
            " WHERE (timestamp IS NULL OR NOT (timestamp >= ? AND timestamp < ?))"
            f" AND (timestamp IS NULL OR timestamp < ? OR timestamp >= ?"
            f" OR timestamp {_NOT_DATE_SHAPED}){where}"
        )
        return fetch(self._conn, q, (lo, hi, _RANGE_LO, _RANGE_HI))

    def _read_frames(self, cap: Capture, lo: str, hi: str, ms: str) -> None:
        opt = ", ".join(
            f"{c if c in self._fcols else 'NULL'} AS {alias}"
            for c, alias in (
                ("window_name", "title"),
                ("browser_url", "url"),
                ("device_name", "dev"),
            )
        )
        # LIMIT -1 keeps the subquery whole, so each instant is computed once; the text
        # comes back only for rows SQLite could not parse.
        q = (
            f"SELECT id, ms, CASE WHEN ms IS NULL THEN ts END, app, title, url, dev FROM ("
            f"SELECT id, timestamp AS ts, {ms} AS ms, app_name AS app, {opt}"
            " FROM frames WHERE timestamp >= ? AND timestamp < ? LIMIT -1)"
        )
        rows = fetch(self._conn, q, (lo, hi))
        rows += self._odd_rows("frames", f"id, NULL, timestamp, app_name, {opt}", lo, hi, "")
        names = Names()
        urls: dict[object, str | None] = {}
        snaps: list[Snapshot] = []
        for rid, ts, ts_raw, app_raw, title_raw, url_raw, dev_raw in rows:
            if type(rid) is not int or type(ts) is not int or not MIN_TS_MS <= ts < MAX_TS_MS:
                placed = _instant(rid, ts, ts_raw, "frames", cap)
                if placed is None:
                    continue
                ts = placed
            app = names.app(app_raw)
            if not app:
                cap.rejected.append(Rejected("frames", str(rid), "empty app name", ts))
                continue
            url = urls.get(url_raw, "")
            if url == "":
                url = urls[url_raw] = url_raw.strip() or None if isinstance(url_raw, str) else None
            device = dev_raw if type(dev_raw) is str else ""
            snaps.append(Snapshot(rid, ts, app, names.title(title_raw), url, device))
        cap.snapshots, dropped = first_of_each_id(snaps, "frames")
        cap.rejected.extend(dropped)

    def _read_events(self, cap: Capture, lo: str, hi: str, ms: str) -> None:
        """In bulk when every row is clean; row by row when some row needs a report."""
        app = "app_name" if "app_name" in self._ecols else "NULL"
        dev = "device_name" if "device_name" in self._ecols else "NULL"
        types = ",".join(f"'{t}'" for t in EVENT_KINDS)
        # LIMIT -1 keeps the subquery whole, so each instant is computed once.
        q = (
            "SELECT ms IS NOT NULL AND typeof(id) = 'integer', et, app, dev,"
            " group_concat(id), group_concat(ms), NULL FROM ("
            f"SELECT id, {ms} AS ms, event_type AS et, {app} AS app, {dev} AS dev"
            " FROM ui_events WHERE timestamp >= ? AND timestamp < ?"
            f" AND event_type COLLATE NOCASE IN ({types}) ORDER BY ms, id LIMIT -1)"
            " GROUP BY 1, et, app, dev"
        )
        groups = fetch(self._conn, q, (lo, hi))
        odd = self._odd_rows(
            "ui_events", "id", lo, hi, f" AND event_type COLLATE NOCASE IN ({types})"
        )
        if not odd and all(g[0] for g in groups):
            try:
                cap.event_columns = columns_from_groups((g[1:] for g in groups), _kind_of)
                return
            except DuplicateIds:
                pass
        self._read_events_rowwise(cap, lo, hi, ms)

    def _read_events_rowwise(self, cap: Capture, lo: str, hi: str, ms: str) -> None:
        app = "app_name" if "app_name" in self._ecols else "NULL"
        dev = "device_name" if "device_name" in self._ecols else "NULL"
        # Only the counted types are read: stores hold far more mouse moves than clicks.
        types = ",".join(f"'{t}'" for t in EVENT_KINDS)
        counted = f" AND event_type COLLATE NOCASE IN ({types})"
        # The subquery (kept whole by LIMIT -1) computes each instant once; the text comes
        # back only for the rows SQLite could not parse.
        q = (
            f"SELECT id, ms, CASE WHEN ms IS NULL THEN ts END, et, app, dev FROM ("
            f"SELECT id, timestamp AS ts, {ms} AS ms, event_type AS et, {app} AS app,"
            f" {dev} AS dev FROM ui_events WHERE timestamp >= ? AND timestamp < ?{counted}"
            " LIMIT -1)"
        )
        rows = fetch(self._conn, q, (lo, hi))
        rows += self._odd_rows(
            "ui_events", f"id, NULL, timestamp, event_type, {app}, {dev}", lo, hi, counted
        )
        events: list[InputEvent] = []
        apps: dict[object, str | None] = {}
        kinds: dict[object, str | None] = {}
        for rid, ts, ts_raw, kind_raw, app_raw, dev_raw in rows:
            # The common row (integer id, an instant SQLite parsed) takes the short path.
            if type(rid) is not int or type(ts) is not int or not MIN_TS_MS <= ts < MAX_TS_MS:
                placed = _instant(rid, ts, ts_raw, "ui_events", cap)
                if placed is None:
                    continue
                ts = placed
            kind: str | None = kinds.get(kind_raw, "")
            if kind == "":
                kind = kinds[kind_raw] = _kind_of(kind_raw) if isinstance(kind_raw, str) else None
            if kind is None:
                continue
            ev_app: str | None = apps.get(app_raw, "")
            if ev_app == "":
                ev_app = apps[app_raw] = clean_name(app_raw) or None
            events.append(InputEvent(rid, ts, kind, ev_app, dev_raw or None))
        cap.events, dropped = first_of_each_id(events, "ui_events")
        cap.rejected.extend(dropped)


def _kind_of(event_type: str) -> str | None:
    return EVENT_KINDS.get(event_type) or EVENT_KINDS.get(event_type.lower())


def _instant(rid: object, ts_sql: object, ts_raw: object, table: str, cap: Capture) -> int | None:
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


def _ms_expr(dates: list[str]) -> str:
    """Milliseconds for rows SQLite may parse (strict shape, a real date in the read
    range), else NULL. SQLite would roll 2026-02-30 over into March: listing the real
    dates keeps impossible ones for Python, which rejects them."""
    listed = ",".join(f"'{d}'" for d in dates)
    valid = (
        f"substr(timestamp, 11, 1) IN ('T', ' ') AND substr(timestamp, 12, 2) < '24'"
        f" AND substr(timestamp, 1, 10) IN ({listed})"
    )
    return f"(CASE WHEN {valid} THEN {_JD_MS} END)"


def _date_bounds(start_ms: int, end_ms: int) -> tuple[str, str, list[str]]:
    """Date-prefix bounds that contain every timestamp text of the span in any offset,
    and the real calendar dates between them."""
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    first = (epoch + timedelta(milliseconds=start_ms) - _PREFILTER_SLACK).date()
    last = (epoch + timedelta(milliseconds=end_ms) + _PREFILTER_SLACK).date()
    dates = [(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)]
    return first.isoformat(), last.isoformat(), dates
