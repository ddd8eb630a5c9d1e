"""Reader for screenpipe-style SQLite stores (tables ``frames``, ``ui_events``, ``elements``).

Columns are discovered with ``PRAGMA table_info`` so older and newer screenpipe databases
and the reference recorder's databases all read; only ``frames(id, timestamp, app_name)``
is required. Timestamps are ISO-8601 text in any shape and are parsed, never compared as
strings: SQL only narrows the read to a few days around the window by date prefix, and
rows whose text does not start with a date are read separately so they are reported.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..errors import SourceError
from ..model import CLICK, COPY, KEY, PASTE, SCROLL, Capture, InputEvent, Rejected, Snapshot
from ._rows import app_and_title, parse_ts
from .base import READ_MARGIN_MS, connect_ro, table_columns, tables

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
_NOT_DATE_SHAPED = "NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'"


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
        lo, hi = _date_bounds(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
        cap = Capture(kind=self.kind, has_input=bool(self._ecols))
        try:
            self._read_frames(cap, lo, hi)
            if self._ecols:
                self._read_events(cap, lo, hi)
        except sqlite3.DatabaseError as exc:
            raise SourceError(f"{self.path}: cannot read ({exc})") from exc
        return cap

    def _select(self, table: str, cols: list[str], lo: str, hi: str) -> list[tuple[object, ...]]:
        sql_cols = ", ".join(cols)
        q = f"SELECT {sql_cols} FROM {table} WHERE timestamp >= ? AND timestamp < ?"
        rows = self._conn.execute(q, (lo, hi)).fetchall()
        odd = (
            f"SELECT {sql_cols} FROM {table}"
            f" WHERE timestamp IS NULL OR timestamp {_NOT_DATE_SHAPED}"
        )
        rows += self._conn.execute(odd).fetchall()
        return rows

    def _read_frames(self, cap: Capture, lo: str, hi: str) -> None:
        cols = ["id", "timestamp", "app_name"]
        cols += [
            c if c in self._fcols else "NULL" for c in ("window_name", "browser_url", "device_name")
        ]
        seen: set[int] = set()
        for rid, ts_raw, app_raw, title_raw, url_raw, dev_raw in self._select(
            "frames", cols, lo, hi
        ):
            if not isinstance(rid, int):
                cap.rejected.append(Rejected("frames", str(rid), "id missing or not an integer"))
                continue
            ts = parse_ts(ts_raw, "frames", rid)
            if isinstance(ts, Rejected):
                cap.rejected.append(ts)
                continue
            if rid in seen:
                cap.rejected.append(Rejected("frames", str(rid), "duplicate id", ts))
                continue
            seen.add(rid)
            app, title = app_and_title(app_raw, title_raw)
            if not app:
                cap.rejected.append(Rejected("frames", str(rid), "empty app name", ts))
                continue
            url = url_raw.strip() if isinstance(url_raw, str) and url_raw.strip() else None
            device = dev_raw if isinstance(dev_raw, str) else ""
            cap.snapshots.append(Snapshot(rid, ts, app, title, url, device))

    def _read_events(self, cap: Capture, lo: str, hi: str) -> None:
        cols = ["id", "timestamp", "event_type"]
        cols += [c if c in self._ecols else "NULL" for c in ("app_name", "device_name")]
        seen: set[int] = set()
        for rid, ts_raw, etype, app_raw, dev_raw in self._select("ui_events", cols, lo, hi):
            kind = EVENT_KINDS.get(etype.lower()) if isinstance(etype, str) else None
            if kind is None:
                continue
            if not isinstance(rid, int):
                cap.rejected.append(Rejected("ui_events", str(rid), "id missing or not an integer"))
                continue
            ts = parse_ts(ts_raw, "ui_events", rid)
            if isinstance(ts, Rejected):
                cap.rejected.append(ts)
                continue
            if rid in seen:
                cap.rejected.append(Rejected("ui_events", str(rid), "duplicate id", ts))
                continue
            seen.add(rid)
            app, _ = app_and_title(app_raw, None)
            device = dev_raw if isinstance(dev_raw, str) else None
            cap.events.append(InputEvent(rid, ts, kind, app or None, device))


def _date_bounds(start_ms: int, end_ms: int) -> tuple[str, str]:
    """Date-prefix bounds that contain every timestamp text of the span, in any offset."""
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    lo = (epoch + timedelta(milliseconds=start_ms) - _PREFILTER_SLACK).date().isoformat()
    hi = (epoch + timedelta(milliseconds=end_ms) + _PREFILTER_SLACK).date().isoformat()
    return lo, hi
