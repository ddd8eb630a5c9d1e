"""Reader for screenpipe databases (``frames``, ``ocr_text``, ``ui_events``), every schema
since mid-2024, and the reference recorder's databases, which share the shape.

Columns are discovered with ``PRAGMA table_info``; ``frames(id, timestamp)`` and an
``app_name`` in ``frames`` or ``ocr_text`` are required. The app is taken per row from
``frames``, else from the frame's ``ocr_text`` rows; only focused rows earn time, and the
rows of every monitor form one stream (SPEC.md §1.2 and §1.2a give the facts, with the
upstream files they come from).

Timestamps are ISO-8601 text in any shape and are parsed to instants, never compared as
strings. SQL narrows the read to a few days around the window by date prefix (a superset:
offsets reach ±14 h), then SQLite's own date parser turns the usual shapes into integer
milliseconds in C — a day holds tens of thousands of event rows. A row is parsed there
only when its text has the strict shape ``YYYY-MM-DD[T ]HH:MM:SS…`` and a real calendar
date; every other row (other shapes, impossible dates, no date at all, out of range) is
parsed or rejected by ``timeparse`` in Python, for every window, so it is reported.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from itertools import groupby, repeat
from operator import itemgetter
from pathlib import Path
from typing import Any

from ..errors import SourceError
from ..model import CLICK, COPY, KEY, PASTE, SCROLL, Capture, InputEvent, Rejected, Snapshot
from ..text import clean_name
from ..timeparse import MAX_TS_MS, MIN_TS_MS, _days_in_month
from ._columns import DuplicateIds, UnplacedRows, columns_from_groups
from ._rows import NO_OFFSET_SQL, Names, first_of_each_id, naive_note, parse_ts
from .base import READ_MARGIN_MS, Source, connect_ro, fetch, rowid_alias, table_columns, tables

# Stored event types and the input kind each counts as. screenpipe writes ordinary typing
# as ``text`` rows (one per burst, counted by its characters) and ``key`` rows only for
# shortcuts; copy, cut and paste are all ``clipboard`` rows told apart by ``modifiers``
# (see CLIPBOARD_OPS). Mouse moves, app switches and focus changes are not input counts.
# ``copy``/``paste``/``keydown``... are other recorders' names for the same actions.
EVENT_KINDS: dict[str, str] = {
    "key": KEY,
    "keydown": KEY,
    "key_press": KEY,
    "text": KEY,
    "click": CLICK,
    "mouse_click": CLICK,
    "scroll": SCROLL,
    "clipboard": COPY,
    "copy": COPY,
    "paste": PASTE,
}
# A clipboard row's ``modifiers`` holds the operation's character code: 'c' copy,
# 'x' cut, 'v' paste. A cut puts content on the clipboard as a copy does, so it counts
# as a copy (steps show it as a cut).
CLIPBOARD_OPS: dict[int, str] = {ord("c"): "copy", ord("x"): "cut", ord("v"): "paste"}
_CLIPBOARD_KINDS = {"copy": COPY, "cut": COPY, "paste": PASTE}

_SHOWN = itemgetter(2, 3, 4, 5)  # stored app, title, URL, focus of a frames row
_TIME_THEN_ID = itemgetter(1, 0)  # (ts_ms, row_id) of a Snapshot
# Slack around the window for the date-prefix pre-filter: UTC offsets reach ±14 h.
_PREFILTER_SLACK = timedelta(days=2)
# Date-prefix bounds just inside the plausible range: anything outside is read as odd.
_RANGE_LO, _RANGE_HI = "2000-01-02", "2099-12-31"
_NOT_DATE_SHAPED = "NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'"
# SQLite keeps instants as integer milliseconds of the Julian day; this recovers them
# exactly (sub-millisecond digits are rounded to the nearest millisecond, as in Python).
_JD_MS = "CAST(round((julianday(timestamp) - 2440587.5) * 86400000.0) AS INTEGER)"


class ScreenpipeSource(Source):
    kind = "screenpipe"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = connect_ro(path)
        # Sorts (for GROUP BY) in memory: a day's frames outgrow the page cache a sort may
        # use, and would be spilled to a temporary file.
        self._conn.execute("PRAGMA temp_store = MEMORY")
        present = tables(self._conn)
        if "frames" not in present:
            raise SourceError(f"{path}: no 'frames' table: not a screenpipe-style database")
        self._fcols = table_columns(self._conn, "frames")
        missing = {"id", "timestamp"} - self._fcols
        if missing:
            raise SourceError(f"{path}: table frames lacks column(s) {', '.join(sorted(missing))}")
        # From August 2024 to February 2025 screenpipe kept the app (and window and focus)
        # in ocr_text, one row per captured window; rows of that time keep it there.
        ocols = table_columns(self._conn, "ocr_text") if "ocr_text" in present else set()
        self._ocols = ocols if {"frame_id", "app_name"} <= ocols else set()
        if "app_name" not in self._fcols and not self._ocols:
            raise SourceError(
                f"{path}: neither frames nor ocr_text has an app_name column:"
                " this screenpipe version records no app names"
            )
        self._ecols = table_columns(self._conn, "ui_events") if "ui_events" in present else set()
        if self._ecols and not {"id", "timestamp", "event_type"} <= self._ecols:
            self._ecols = set()  # an events table we cannot read is treated as absent
        # Tables keyed by INTEGER PRIMARY KEY (screenpipe's own) hold distinct integer ids.
        self._frame_ids_ok = rowid_alias(self._conn, "frames")
        self._event_ids_ok = bool(self._ecols) and rowid_alias(self._conn, "ui_events")

    def close(self) -> None:
        self._conn.close()

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi = date_bounds(start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS)
        cap = Capture(
            kind=self.kind, has_input=bool(self._ecols), has_urls="browser_url" in self._fcols
        )
        cap.notes.extend(self._schema_notes())
        ms = _ms_expr(lo, hi)
        try:
            groups = self._frames_grouped(lo, hi, ms) if self._frame_ids_ok else None
            # The events' query runs in another thread, on a connection of its own, while
            # Python here makes the snapshots: SQLite works with the interpreter's lock
            # released, and the two never query at once.
            events = None
            if self._ecols:
                events = _Background(self.path, *self._events_query(lo, hi, ms))
            try:
                self._read_frames(cap, lo, hi, ms, groups)
            finally:
                event_groups = events.result() if events is not None else None
            if event_groups is not None:
                self._read_events(cap, lo, hi, ms, event_groups)
            naive = fetch(
                self._conn,
                f"SELECT count(*) FROM frames WHERE timestamp >= ? AND timestamp < ?"
                f" AND {NO_OFFSET_SQL}",
                (lo, hi),
            )[0][0]
            if naive:
                cap.notes.append(naive_note(naive))
        except sqlite3.DatabaseError as exc:
            raise SourceError(f"{self.path}: cannot read ({exc})") from exc
        return cap

    def _odd_rows(self, table: str, cols: str, lo: str, hi: str, where: str) -> list[Any]:
        """Rows that can never be placed in a day (no date shape, dated out of range): read
        for every window, so each document reports them."""
        # Rows outside [lo, hi) in three disjoint parts (NULL, below, from hi on), each a
        # range of the timestamp index where there is one: the window's own days, most
        # of a store's rows near a day, are never visited.
        odd = f"(timestamp < ? OR timestamp >= ? OR timestamp {_NOT_DATE_SHAPED})"
        parts = ("timestamp IS NULL", f"timestamp < ? AND {odd}", f"timestamp >= ? AND {odd}")
        q = " UNION ALL ".join(f"SELECT {cols} FROM {table} WHERE {p}{where}" for p in parts)
        bounds = (_RANGE_LO, _RANGE_HI)
        return fetch(self._conn, q, (lo, *bounds, hi, *bounds))

    def _read_frames(
        self, cap: Capture, lo: str, hi: str, ms: str, groups: list[Any] | None
    ) -> None:
        """``groups``: the rows of _frames_grouped, when the ids are the table's key."""
        opt = self._frame_opt()
        odd = self._odd_rows("frames", f"id, timestamp, {opt}", lo, hi, "")
        placed_odd = []
        for rid, ts_raw, *rest in odd:
            placed = _instant(rid, None, ts_raw, "frames", cap)
            if placed is not None:
                placed_odd.append((rid, placed, *rest))
        names = Names()
        snaps: list[Snapshot] = []
        looks = _Looks()
        # Ids that are the table's key are distinct integers: the frames are read grouped
        # by what they show, unless some row needs a look of its own.
        grouped = groups is not None and _snaps_from_groups(groups, names, snaps, looks)
        if not grouped:
            # The instant, or the stored text where SQLite could not parse it (rows of the
            # date range always hold text, see _instant_or_text).
            q = (
                f"SELECT id, {_instant_or_text(ms)}, {opt}"
                " FROM frames WHERE timestamp >= ? AND timestamp < ?"
            )
            rows = fetch(self._conn, q, (lo, hi))
            rows += placed_odd
        else:
            rows = placed_odd
        append, new = snaps.append, tuple.__new__
        # Runs of rows with the same stored app, title, URL and focus (heartbeats), found
        # in C: names are cleaned per run, and each row only gets its id and instant.
        for (app_raw, title_raw, url_raw, foc), run in groupby(rows, key=_SHOWN):
            if _is_false(foc):
                looks.unfocused += sum(1 for _ in run)
                continue
            app = names.app(app_raw)
            url = url_raw.strip() or None if isinstance(url_raw, str) else None
            shown = (app, names.title(title_raw), url, "", None)
            for row in run:
                rid, ts = row[0], row[1]
                if type(rid) is not int or type(ts) is not int or not MIN_TS_MS <= ts < MAX_TS_MS:
                    placed = _instant(rid, *_split(ts), "frames", cap)
                    if placed is None:
                        continue
                    ts = placed
                if not app:
                    looks.pending.append((rid, ts, title_raw, url_raw, foc))
                    continue
                append(new(Snapshot, (rid, ts) + shown))  # noqa: RUF005 - faster than *shown
        if looks.pending:
            self._apps_from_ocr(looks, names, snaps, cap)
            snaps.sort(key=_TIME_THEN_ID)
        if looks.unfocused:
            cap.notes.append(
                "windows on screen but not focused (screenpipe's focused = 0) are on-screen"
                " context: they earn no active time"
            )
        if self._frame_ids_ok:  # distinct by the table's own key
            cap.snapshots = snaps
        else:
            cap.snapshots, dropped = first_of_each_id(snaps, "frames")
            cap.rejected.extend(dropped)

    def _apps_from_ocr(
        self, looks: _Looks, names: Names, snaps: list[Snapshot], cap: Capture
    ) -> None:
        """Frames without an app of their own take it from their ocr_text rows (screenpipe
        wrote it there from August 2024 to February 2025, one row per captured window,
        the active one marked ``focused``)."""
        by_frame: dict[int, list[tuple[str, object, object]]] = {}
        if self._ocols:
            ids = json.dumps(sorted({p[0] for p in looks.pending if type(p[0]) is int}))
            win = "window_name" if "window_name" in self._ocols else "NULL"
            # Focus is known only for rows written with it: focused and window_name came in
            # one release, so an older row (window_name NULL) reads focused = 0 by default.
            foc = (
                f"CASE WHEN {win} IS NULL THEN NULL ELSE focused END"
                if ("focused" in self._ocols)
                else "NULL"
            )
            q = (
                f"SELECT frame_id, app_name, {win}, {foc} FROM ocr_text"
                " WHERE frame_id IN (SELECT value FROM json_each(?))"
            )
            for fid, app_raw, win_raw, f in fetch(self._conn, q, (ids,)):
                app = names.app(app_raw)
                if app:
                    by_frame.setdefault(fid, []).append((app, win_raw, f))
        for rid, ts, title_raw, url_raw, frame_foc in looks.pending:
            seen = by_frame.get(rid, [])
            known = [w for w in seen if w[2] is not None]
            focused = [w for w in seen if w[2] is not None and not _is_false(w[2])]
            looks.unfocused += len(known) - len(focused)  # windows beside the active one
            if frame_foc is None and known and not focused:
                continue  # every window of the capture known, none focused
            pick = min(focused or seen, key=_ocr_order, default=None)
            if pick is None:
                cap.rejected.append(Rejected("frames", str(rid), "empty app name", ts))
                continue
            title = names.title(title_raw) or names.title(pick[1])
            url = url_raw.strip() or None if isinstance(url_raw, str) else None
            snaps.append(Snapshot(rid, ts, pick[0], title, url, "", None))

    def _schema_notes(self) -> list[str]:
        notes = []
        if "focused" not in self._fcols and "focused" not in self._ocols:
            notes.append(
                "this screenpipe version records no window focus: every captured window"
                " counts as the focused one"
            )
        if not self._ecols:
            notes.append("this screenpipe version has no ui_events table: no input counts")
        return notes

    def _frame_opt(self) -> str:
        # The monitor (device_name) is not read: one person's attention is one stream,
        # whichever monitor a row came from (see SPEC.md, screenpipe).
        return ", ".join(
            f"{c if c in self._fcols else 'NULL'} AS {alias}"
            for c, alias in (
                ("app_name", "app_name"),
                ("window_name", "title"),
                ("browser_url", "url"),
                ("focused", "foc"),
            )
        )

    def _frames_grouped(self, lo: str, hi: str, ms: str) -> list[Any]:
        """The frames of [lo, hi) per distinct (app, title, URL, focus), with their ids and
        instants comma-joined: SQLite reads, parses and groups them in C, and Python makes
        no string per row and no tuple but the Snapshot. BINARY collation: values group
        only when their bytes are equal, whatever collation a column declares."""
        shown = "app_name, title, url, foc"
        by = ", ".join(f"{c} COLLATE BINARY" for c in shown.split(", "))
        q = (
            f"SELECT count(*), {shown}, group_concat(id), group_concat({ms})"
            f" FROM (SELECT id, timestamp, {self._frame_opt()} FROM frames"
            " WHERE timestamp >= ? AND timestamp < ?)"
            f" GROUP BY {by}"
        )
        return fetch(self._conn, q, (lo, hi))

    def _event_sql(self) -> tuple[str, str, str]:
        """(type key, characters, filter) expressions over ui_events: the type key tells
        clipboard operations apart; characters is a text row's count (its stored text's
        characters, else ``text_length``, UTF-8 bytes, as an estimate); the filter keeps
        the counted types and drops the accessibility look-up rows screenpipe writes after
        each click (``click_count = 0``: no click of their own)."""
        c = self._ecols
        types = ",".join(f"'{t}'" for t in EVENT_KINDS)
        key = "event_type"
        if "modifiers" in c:
            key = (
                "CASE WHEN lower(event_type) = 'clipboard' THEN 'clipboard:' ||"
                " coalesce(modifiers, '') ELSE event_type END"
            )
        stored = "length(text_content)" if "text_content" in c else "NULL"
        nbytes = "text_length" if "text_length" in c else "NULL"
        chars = f"max(1, coalesce({stored}, {nbytes}, 1))"
        where = f" AND event_type COLLATE NOCASE IN ({types})"
        if "click_count" in c:
            where += " AND NOT (lower(event_type) = 'click' AND click_count IS 0)"
        return key, chars, where

    def _estimated_sql(self) -> str:
        c = self._ecols
        if "text_length" not in c:
            return "0"
        stored = "text_content IS NULL AND " if "text_content" in c else ""
        return f"sum(lower(event_type) = 'text' AND {stored}text_length IS NOT NULL)"

    def _events_query(self, lo: str, hi: str, ms: str) -> tuple[str, tuple[str, str]]:
        """The counted events of [lo, hi) per (type, app), ids, instants and text rows'
        characters comma-joined."""
        app = "app_name" if "app_name" in self._ecols else "NULL"
        key, chars, where = self._event_sql()
        # Each instant is computed once, and no row is sorted in SQL: group_concat skips
        # the NULL instants of rows SQLite could not parse (the counts then differ), and
        # columns_from_groups puts each column in (time, id) order.
        integer_ids = "1" if self._event_ids_ok else "min(typeof(id) = 'integer')"
        q = (
            f"SELECT {integer_ids}, count(*), {key} AS k, {app}, NULL,"
            f" group_concat(id), group_concat({ms}),"
            f" group_concat(CASE WHEN lower(event_type) = 'text' THEN {chars} END),"
            f" {self._estimated_sql()} FROM ui_events"
            f" WHERE timestamp >= ? AND timestamp < ?{where} GROUP BY k, {app}"
        )
        return q, (lo, hi)

    def _read_events(
        self, cap: Capture, lo: str, hi: str, ms: str, groups: list[Any] | None = None
    ) -> None:
        """In bulk when every row is clean; row by row when some row needs a report.
        ``groups``: the rows of _events_query, when read already."""
        _, _, where = self._event_sql()
        if groups is None:
            groups = fetch(self._conn, *self._events_query(lo, hi, ms))
        if any(g[8] for g in groups):
            cap.notes.append(_ESTIMATE_NOTE)
        odd = self._odd_rows("ui_events", "id", lo, hi, where)
        if not odd and all(g[0] == 1 for g in groups):
            try:
                cap.event_columns = columns_from_groups(
                    (g[2:8] for g in groups),
                    _kind_of,
                    sizes=[g[1] for g in groups],
                    exact_text=True,  # integer ids (checked above) and instants
                    unique_ids=self._event_ids_ok,
                )
                return
            except (DuplicateIds, UnplacedRows):
                pass
        self._read_events_rowwise(cap, lo, hi, ms)

    def _read_events_rowwise(self, cap: Capture, lo: str, hi: str, ms: str) -> None:
        app = "app_name" if "app_name" in self._ecols else "NULL"
        # Only the counted types are read: stores hold far more mouse moves than clicks.
        key, chars, counted = self._event_sql()
        n = f"CASE WHEN lower(event_type) = 'text' THEN {chars} ELSE 1 END"
        q = (
            f"SELECT id, {_instant_or_text(ms)}, {key}, {app}, {n} FROM ui_events"
            f" WHERE timestamp >= ? AND timestamp < ?{counted}"
        )
        rows = fetch(self._conn, q, (lo, hi))
        odd = self._odd_rows("ui_events", f"id, timestamp, {key}, {app}, {n}", lo, hi, counted)
        for rid, ts_raw, *rest in odd:
            placed = _instant(rid, None, ts_raw, "ui_events", cap)
            if placed is not None:
                rows.append((rid, placed, *rest))
        events: list[InputEvent] = []
        apps: dict[object, str | None] = {}
        kinds: dict[object, str | None] = {}
        for rid, ts, kind_raw, app_raw, count in rows:
            # The common row (integer id, an instant SQLite parsed) takes the short path.
            if type(rid) is not int or type(ts) is not int or not MIN_TS_MS <= ts < MAX_TS_MS:
                placed = _instant(rid, *_split(ts), "ui_events", cap)
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
            events.append(
                InputEvent(rid, ts, kind, ev_app, None, count if type(count) is int else 1)
            )
        cap.events, dropped = first_of_each_id(events, "ui_events")
        cap.rejected.extend(dropped)


_ESTIMATE_NOTE = (
    "typed characters are estimated from text_length (UTF-8 bytes) where screenpipe"
    " stored no typed text: non-ASCII text counts more than once"
)


class _Background:
    """One query run to the end in another thread, on a read-only connection of its own
    (opened here); ``result`` waits for its rows, or raises its error."""

    def __init__(self, path: Path, sql: str, params: tuple[object, ...]) -> None:
        import _thread

        self._rows: list[Any] = []
        self._exc: BaseException | None = None
        conn = connect_ro(path, check_same_thread=False)
        self._done = _thread.allocate_lock()
        self._done.acquire()
        started = _thread.allocate_lock()
        started.acquire()
        _thread.start_new_thread(self._run, (conn, sql, params, started))
        # Waiting lets the new thread take the interpreter's lock at once and go into
        # SQLite, rather than after this thread's next switch interval.
        started.acquire()

    def _run(
        self, conn: sqlite3.Connection, sql: str, params: tuple[object, ...], started: Any
    ) -> None:
        try:
            started.release()
            self._rows = fetch(conn, sql, params)
        except BaseException as exc:  # handed to the caller
            self._exc = exc
        finally:
            conn.close()
            self._done.release()

    def result(self) -> list[Any]:
        self._done.acquire()
        self._done.release()
        if self._exc is not None:
            raise self._exc
        return self._rows


class _Looks:
    """Frames that need a second look: rows without an app of their own (their ocr_text
    rows are read), and how many rows were of unfocused windows."""

    def __init__(self) -> None:
        self.pending: list[tuple[Any, int, object, object, object]] = []
        self.unfocused = 0


def _is_false(v: object) -> bool:
    """A stored focus flag that says "not focused" (sqlx writes booleans as 0/1)."""
    if isinstance(v, str):
        return v.strip().lower() in ("0", "false")
    return v is not None and v == 0


def _ocr_order(w: tuple[str, object, object]) -> tuple[str, str]:
    # Several candidate windows: the least by (app, title), never the rows' order.
    return (w[0], w[1] if isinstance(w[1], str) else "")


def _snaps_from_groups(
    groups: list[Any], names: Names, snaps: list[Snapshot], looks: _Looks
) -> bool:
    """Snapshots from _frames_grouped's rows; False (and nothing reported) when some row
    needs reading one by one: an instant SQLite could not parse (group_concat skips the
    NULL, so fewer instants than rows), an instant out of range, or a stored value that
    is not text (numbers of equal value group together, whatever their type)."""
    loads = json.loads  # integers only, each written as SQLite writes it: exact, and fast
    parts = []
    for n, app_raw, title_raw, url_raw, foc, ids_text, ts_text in groups:
        if ts_text is None or not all(
            v is None or type(v) is str for v in (app_raw, title_raw, url_raw)
        ):
            return False
        if foc is not None and type(foc) is not int:
            return False
        ids, ts = loads(f"[{ids_text}]"), loads(f"[{ts_text}]")
        if not len(ids) == len(ts) == n or min(ts) < MIN_TS_MS or max(ts) >= MAX_TS_MS:
            return False
        parts.append((ids, ts, app_raw, title_raw, url_raw, foc))
    extend, new = snaps.extend, tuple.__new__
    for ids, ts, app_raw, title_raw, url_raw, foc in parts:
        if foc == 0:
            looks.unfocused += len(ids)
            continue
        app = names.app(app_raw)
        if not app:
            looks.pending += [
                (rid, t, title_raw, url_raw, foc) for rid, t in zip(ids, ts, strict=True)
            ]
            continue
        url = url_raw.strip() or None if url_raw is not None else None
        same = (app, names.title(title_raw), url, "", None)
        columns = zip(ids, ts, *map(repeat, same), strict=False)  # repeat() never ends
        extend(map(new, repeat(Snapshot), columns))
    snaps.sort(key=_TIME_THEN_ID)  # in time order, as read row by row
    return True


def _kind_of(event_type: str) -> str | None:
    if event_type.startswith("clipboard:"):
        return _CLIPBOARD_KINDS.get(clipboard_op(event_type[10:]), COPY)
    return EVENT_KINDS.get(event_type) or EVENT_KINDS.get(event_type.lower())


def clipboard_op(modifiers: object) -> str:
    """copy, cut or paste, from a clipboard row's ``modifiers`` (stored as a number, or
    as the text SQL's ``||`` made of it); an unknown code reads as a copy, the meaning
    ``clipboard`` has in stores that do not record the operation."""
    try:
        code = int(str(modifiers)) if modifiers is not None and modifiers != "" else None
    except ValueError:
        code = None
    return CLIPBOARD_OPS.get(code, "copy") if code is not None else "copy"


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


def _ms_expr(lo: str, hi: str) -> str:
    """Milliseconds for rows SQLite may parse (strict shape, a real date), else NULL.

    Only rows whose text lies in [lo, hi) are read, and julianday() accepts a date only
    as YYYY-MM-DD with month 01-12 and day 01-31; so the one kind of date it accepts that
    is not real is a day past the end of its month (2026-02-30, which it would roll over
    into March). Those few strings in [lo, hi), if any, are left to Python, which rejects
    them: the same rows as listing every real date in the range, tested per row for less.
    """
    valid = "substr(timestamp, 11, 1) IN ('T', ' ') AND substr(timestamp, 12, 2) < '24'"
    unreal = _unreal_dates(lo, hi)
    if unreal:
        listed = ",".join(f"'{d}'" for d in unreal)
        valid += f" AND substr(timestamp, 1, 10) NOT IN ({listed})"
    return f"(CASE WHEN {valid} THEN {_JD_MS} END)"


def _unreal_dates(lo: str, hi: str) -> list[str]:
    """Date-shaped strings in [lo, hi) (real dates, YYYY-MM-DD) that name no real day."""
    out = []
    y, m = int(lo[:4]), int(lo[5:7])
    while (y, m) <= (int(hi[:4]), int(hi[5:7])):
        days = _days_in_month(y, m)
        out += [f"{y:04d}-{m:02d}-{d:02d}" for d in range(days + 1, 32)]
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return [d for d in out if lo <= d < hi]


def _instant_or_text(ms: str) -> str:
    """The instant when SQLite parsed it, else the stored timestamp, in one column. Rows
    of the date range always hold text there: an integer or a blob never compares
    between two text bounds (SQLite orders numbers < text < blobs), and NULL never does."""
    return f"coalesce({ms}, timestamp)"


def _split(ts: object) -> tuple[object, object]:
    """(instant, stored text) of an _instant_or_text value."""
    return (ts, None) if type(ts) is int else (None, ts)


def date_bounds(start_ms: int, end_ms: int) -> tuple[str, str]:
    """Date-prefix bounds that contain every timestamp text of the span in any offset."""
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    first = (epoch + timedelta(milliseconds=start_ms) - _PREFILTER_SLACK).date()
    last = (epoch + timedelta(milliseconds=end_ms) + _PREFILTER_SLACK).date()
    return first.isoformat(), last.isoformat()


_date_bounds = date_bounds  # the name it had before the step reader used it too
