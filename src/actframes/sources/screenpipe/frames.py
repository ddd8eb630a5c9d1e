"""Frames of a screenpipe-style store as snapshots: the app per row (``frames``, else the
frame's ``ocr_text`` rows), and focus (only focused rows earn time; SPEC.md §1.2)."""

from __future__ import annotations

import json
import sqlite3
from itertools import groupby, repeat
from operator import itemgetter
from typing import Any

from ...model import Capture, Rejected, Snapshot
from ...timeparse import MAX_TS_MS, MIN_TS_MS
from .._rows import NO_OFFSET_SQL, Names, first_of_each_id
from ..base import fetch
from .schema import Schema
from .timestamps import Span, instant, instant_or_text, odd_rows_sql, split

_SHOWN = itemgetter(2, 3, 4, 5)  # stored app, title, URL, focus of a frames row
_ID, _TIME = itemgetter(0), itemgetter(1)  # of a Snapshot


def sort_by_time_then_id(snaps: list[Snapshot]) -> None:
    """``snaps.sort(key=itemgetter(1, 0))``, as two stable sorts on one int key each (row
    id, then time): the same order, equal keys included, in under half the time — no key
    tuple per row, and one key compared at a time."""
    snaps.sort(key=_ID)
    snaps.sort(key=_TIME)


def frame_opt(s: Schema) -> str:
    # The monitor (device_name) is not read: one person's attention is one stream,
    # whichever monitor a row came from (see SPEC.md, screenpipe).
    return ", ".join(
        f"{c if c in s.fcols else 'NULL'} AS {alias}"
        for c, alias in (
            ("app_name", "app_name"),
            ("window_name", "title"),
            ("browser_url", "url"),
            ("focused", "foc"),
        )
    )


def frames_query(s: Schema, span: Span) -> str:
    """The frames of the span per distinct (app, title, URL, focus), with their ids and
    instants comma-joined, and how many of them have a timestamp without a UTC offset:
    SQLite reads, parses and groups them in C, and Python makes no string per row and no
    tuple but the Snapshot. BINARY collation: values group only when their bytes are
    equal, whatever collation a column declares."""
    shown = "app_name, title, url, foc"
    by = ", ".join(f"{c} COLLATE BINARY" for c in shown.split(", "))
    rows = span.rows("frames", s.frames_indexed)
    return (
        f"SELECT count(*), {shown}, group_concat(id), group_concat({span.ms}), sum(naive)"
        f" FROM (SELECT frames.id, frames.timestamp, {frame_opt(s)}, {NO_OFFSET_SQL} AS naive"
        f" FROM {rows}) GROUP BY {by}"
    )


def read_frames(
    conn: sqlite3.Connection, s: Schema, cap: Capture, span: Span, groups: list[Any] | None
) -> None:
    """``groups``: the rows of frames_query (but its last column), when the ids are the
    table's key."""
    opt = frame_opt(s)
    odd = fetch(conn, odd_rows_sql("frames", f"id, timestamp, {opt}", "", s.frames_indexed), ())
    placed_odd = []
    for rid, ts_raw, *rest in odd:
        placed = instant(rid, None, ts_raw, "frames", cap)
        if placed is not None and span.keeps(placed):
            placed_odd.append((rid, placed, *rest))
    names = Names()
    snaps: list[Snapshot] = []
    looks = Looks()
    # Ids that are the table's key are distinct integers: the frames are read grouped
    # by what they show, unless some row needs a look of its own.
    grouped = groups is not None and snaps_from_groups(groups, names, snaps, looks)
    if not grouped:
        # The instant, or the stored text where SQLite could not parse it (rows of the
        # ranges always hold text, see instant_or_text). In index order, as stored.
        rows_sql = span.rows("frames", s.frames_indexed)
        q = f"SELECT frames.id, {instant_or_text(span.ms)}, {opt} FROM {rows_sql}"
        rows = fetch(conn, q, ())
        rows += placed_odd
    else:
        rows = placed_odd
    append, new = snaps.append, tuple.__new__
    # Runs of rows with the same stored app, title, URL and focus (heartbeats), found
    # in C: names are cleaned per run, and each row only gets its id and instant.
    for (app_raw, title_raw, url_raw, foc), run in groupby(rows, key=_SHOWN):
        if is_false(foc):
            looks.unfocused += sum(1 for _ in run)
            continue
        app = names.app(app_raw)
        url = url_raw.strip() or None if isinstance(url_raw, str) else None
        shown = (app, names.title(title_raw), url, "", None)
        for row in run:
            rid, ts = row[0], row[1]
            if type(rid) is not int or type(ts) is not int or not MIN_TS_MS <= ts < MAX_TS_MS:
                placed = instant(rid, *split(ts), "frames", cap)
                if placed is None or not span.keeps(placed):
                    continue
                ts = placed
            if not app:
                looks.pending.append((rid, ts, title_raw, url_raw, foc))
                continue
            append(new(Snapshot, (rid, ts) + shown))  # noqa: RUF005 - faster than *shown
    if looks.pending:
        apps_from_ocr(conn, s, looks, names, snaps, cap)
        sort_by_time_then_id(snaps)
    if looks.unfocused:
        cap.notes.append(
            "windows on screen but not focused (screenpipe's focused = 0) are on-screen"
            " context: they earn no active time"
        )
    if s.frame_ids_ok:  # distinct by the table's own key
        cap.snapshots = snaps
    else:
        cap.snapshots, dropped = first_of_each_id(snaps, "frames")
        cap.rejected.extend(dropped)


def apps_from_ocr(
    conn: sqlite3.Connection,
    s: Schema,
    looks: Looks,
    names: Names,
    snaps: list[Snapshot],
    cap: Capture,
) -> None:
    """Frames without an app of their own take it from their ocr_text rows (screenpipe
    wrote it there from August 2024 to February 2025, one row per captured window,
    the active one marked ``focused``)."""
    by_frame: dict[int, list[tuple[str, object, object]]] = {}
    if s.ocols:
        ids = json.dumps(sorted({p[0] for p in looks.pending if type(p[0]) is int}))
        win = "window_name" if "window_name" in s.ocols else "NULL"
        # Focus is known only for rows written with it: focused and window_name came in
        # one release, so an older row (window_name NULL) reads focused = 0 by default.
        foc = (
            f"CASE WHEN {win} IS NULL THEN NULL ELSE focused END"
            if ("focused" in s.ocols)
            else "NULL"
        )
        q = (
            f"SELECT frame_id, app_name, {win}, {foc} FROM ocr_text"
            " WHERE frame_id IN (SELECT value FROM json_each(?))"
        )
        for fid, app_raw, win_raw, f in fetch(conn, q, (ids,)):
            app = names.app(app_raw)
            if app:
                by_frame.setdefault(fid, []).append((app, win_raw, f))
    no_app: list[tuple[Any, int]] = []
    for rid, ts, title_raw, url_raw, frame_foc in looks.pending:
        seen = by_frame.get(rid, [])
        known = [w for w in seen if w[2] is not None]
        focused = [w for w in seen if w[2] is not None and not is_false(w[2])]
        looks.unfocused += len(known) - len(focused)  # windows beside the active one
        if frame_foc is None and known and not focused:
            continue  # every window of the capture known, none focused
        pick = min(focused or seen, key=_ocr_order, default=None)
        if pick is None:
            no_app.append((rid, ts))
            continue
        title = names.title(title_raw) or names.title(pick[1])
        url = url_raw.strip() or None if isinstance(url_raw, str) else None
        snaps.append(Snapshot(rid, ts, pick[0], title, url, "", None))
    if no_app:
        markers = hd_markers(conn, s, [rid for rid, _ in no_app])
        first: int | None = None
        for rid, ts in no_app:
            if rid not in markers:
                cap.rejected.append(Rejected("frames", str(rid), "empty app name", ts))
            elif first is None or ts < first:
                first = ts
        if first is not None:
            if HD_NOTE not in cap.notes:
                cap.notes.append(HD_NOTE)
            cap.row_notes[HD_NOTE] = min(first, cap.row_notes.get(HD_NOTE, first))


# screenpipe's HD recorder (macOS, since 2026-05-30) indexes its high-fps video with one
# frame per monitor per second: a chunk and offset, focused = 1, and no app, snapshot or
# capture trigger. They say nothing of the focused app: they earn no time.
HD_NOTE = "screenpipe HD recording was on: its video index frames carry no app and earn no time"
_HD_COLS = ("video_chunk_id", "snapshot_path", "capture_trigger", "app_name", "focused")


def hd_markers(conn: sqlite3.Connection, s: Schema, ids: list[Any]) -> set[Any]:
    """The frames among ``ids`` (rows without an app) that are HD recording markers."""
    if not all(c in s.fcols for c in _HD_COLS):
        return set()
    q = (
        "SELECT id FROM frames WHERE id IN (SELECT value FROM json_each(?))"
        " AND video_chunk_id IS NOT NULL AND snapshot_path IS NULL"
        " AND capture_trigger IS NULL AND app_name IS NULL AND focused = 1"
    )
    wanted = json.dumps(sorted(i for i in ids if type(i) is int))
    return {r[0] for r in fetch(conn, q, (wanted,))}


class Looks:
    """Frames that need a second look: rows without an app of their own (their ocr_text
    rows are read), and how many rows were of unfocused windows."""

    def __init__(self) -> None:
        self.pending: list[tuple[Any, int, object, object, object]] = []
        self.unfocused = 0


def is_false(v: object) -> bool:
    """A stored focus flag that says "not focused" (sqlx writes booleans as 0/1)."""
    if isinstance(v, str):
        return v.strip().lower() in ("0", "false")
    return v is not None and v == 0


def _ocr_order(w: tuple[str, object, object]) -> tuple[str, str]:
    # Several candidate windows: the least by (app, title), never the rows' order.
    return (w[0], w[1] if isinstance(w[1], str) else "")


def snaps_from_groups(groups: list[Any], names: Names, snaps: list[Snapshot], looks: Looks) -> bool:
    """Snapshots from frames_query's rows; False (and nothing reported) when some row
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
    sort_by_time_then_id(snaps)  # in time order, as read row by row
    return True
