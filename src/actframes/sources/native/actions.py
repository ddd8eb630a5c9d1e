"""Actions and element trees from the native store (read-only).

Schema 2 adds ``input_events.x/y`` and ``elements``; a schema-1 store reads with no
points and no trees (every anonymous click stays unresolved). The window title of an
event is the title of the latest snapshot of its device at its time. Screen sizes are
read from ``meta`` keys ``screen:<device>`` = ``<w>x<h>`` when the recorder wrote them;
without one, only exact hit-tests are possible. Native stores never hold typed text.
"""

from __future__ import annotations

import hashlib
import sqlite3
from bisect import bisect_right
from collections.abc import Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any

from ...errors import SourceError
from ...model import INPUT_KINDS, Action, Element, ScreenSize
from ...text import clean_name
from ..base import READ_MARGIN_MS, connect_ro, fetch, read_failed, table_columns, tables

TREE_MARGIN_MS = 5_000
DAY_MS = 86_400_000


def read(
    path: Path, start_ms: int, end_ms: int, include_text: bool = False
) -> tuple[list[Action], list[Element], dict[str, ScreenSize]]:
    conn = connect_ro(path)
    try:
        return _read(conn, start_ms, end_ms)
    except sqlite3.DatabaseError as exc:
        raise read_failed(path, exc) from exc
    finally:
        conn.close()


def fingerprints(path: Path, spans: Sequence[tuple[int, int]]) -> list[str | None]:
    """For each [start_ms, end_ms) of ``spans``: everything the action steps of that
    window read from a native store — its capture (``READ_MARGIN_MS`` either side),
    actions, element trees and screen sizes — identified without reading the window: the
    change counters of the UTC days inside the window (triggers bump them on any change
    of a snapshot or input event), every row of the two margins (a few minutes each), the
    away spans and recorder sessions it reads, and the trees and screens. The margins are
    read rather than counted so that rows added to the next day leave this one's
    fingerprint alone. Elements are written once, with their snapshot, and no trigger
    counts them: their count, ids, times, boxes and name lengths stand for them. None for
    stores without counters, or unreadable."""
    try:
        conn = connect_ro(path)
    except (sqlite3.DatabaseError, SourceError):
        return [None] * len(spans)
    try:
        present = tables(conn)
        if not {"change_days", "meta", "snapshots", "input_events", "afk"} <= present:
            return [None] * len(spans)
        return [_fingerprint(conn, present, start, end) for start, end in spans]
    except sqlite3.DatabaseError:
        return [None] * len(spans)
    finally:
        conn.close()


def _fingerprint(conn: sqlite3.Connection, present: set[str], start_ms: int, end_ms: int) -> str:
    lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
    parts: list[Any] = [
        fetch(conn, "SELECT value FROM meta WHERE key = 'store_id'"),
        fetch(
            conn,
            "SELECT day, version FROM change_days WHERE day BETWEEN ? AND ? OR day = -1"
            " ORDER BY day",
            (start_ms // DAY_MS, (end_ms - 1) // DAY_MS),
        ),
        fetch(
            conn,
            "SELECT * FROM afk WHERE end_ms > ? AND start_ms < ? ORDER BY id",
            (start_ms, end_ms),
        ),
        fetch(conn, "SELECT key, value FROM meta WHERE key LIKE 'screen:%' ORDER BY key"),
    ]
    for table in ("snapshots", "input_events"):
        for a, b in ((lo, start_ms), (end_ms, hi)):
            rows = fetch(
                conn,
                f"SELECT * FROM {table} WHERE ts_ms >= ? AND ts_ms < ? ORDER BY id",
                (a, b),
            )
            parts.append(hashlib.sha256(repr(rows).encode()).hexdigest())
    if "recorder_state" in present:
        parts.append(
            fetch(
                conn,
                "SELECT * FROM recorder_state WHERE state = 'start' AND ts_ms < ? AND ts_ms"
                " >= (SELECT coalesce(max(ts_ms), 0) FROM recorder_state"
                "  WHERE state = 'start' AND ts_ms <= ?) ORDER BY id",
                (end_ms, start_ms),
            )
        )
    if "elements" in present:
        parts.append(
            fetch(
                conn,
                "SELECT count(*), max(id), total(id), total(snapshot_id), total(ts_ms),"
                " total(x), total(y), total(w), total(h), total(length(role)),"
                " total(length(name)) FROM elements WHERE ts_ms >= ? AND ts_ms < ?",
                (start_ms - TREE_MARGIN_MS, end_ms + TREE_MARGIN_MS),
            )
        )
    return repr(parts)


def _read(
    conn: sqlite3.Connection, start_ms: int, end_ms: int
) -> tuple[list[Action], list[Element], dict[str, ScreenSize]]:
    present = tables(conn)
    snaps = fetch(
        conn,
        "SELECT id, ts_ms, device, title FROM snapshots WHERE ts_ms >= ? AND ts_ms < ?"
        " ORDER BY ts_ms, id",
        (start_ms - 300_000, end_ms + TREE_MARGIN_MS),
    )
    # Names repeat all day (a handful of apps, a title per window): cleaned once each.
    cleaned: dict[object, str] = {}

    def clean(value: object) -> str:
        got = cleaned.get(value)
        if got is None:
            got = cleaned[value] = clean_name(value)
        return got

    by_dev: dict[str, tuple[list[int], list[str]]] = {}
    titles: dict[int, tuple[int, str, str]] = {}
    for sid, ts, dev, title in snaps:
        if not isinstance(ts, int):
            continue
        d = dev or ""
        ts_list, t_list = by_dev.setdefault(d, ([], []))
        name = clean(title)
        ts_list.append(ts)
        t_list.append(name)
        titles[sid] = (ts, d, name)
    cols = table_columns(conn, "input_events")
    xy = "x, y" if {"x", "y"} <= cols else "NULL, NULL"
    kinds = ",".join(f"'{k}'" for k in INPUT_KINDS)
    actions: list[Action] = []
    append = actions.append
    for rid, ts, kind, count, app, dev, x, y in fetch(
        conn,
        f"SELECT id, ts_ms, kind, count, app, device, {xy} FROM input_events"
        f" WHERE ts_ms >= ? AND ts_ms < ? AND kind IN ({kinds}) ORDER BY ts_ms, id",
        (start_ms, end_ms),
    ):
        if not isinstance(rid, int) or not isinstance(ts, int):
            continue
        title = None
        stream = by_dev.get(dev or "")
        if stream is not None:
            k = bisect_right(stream[0], ts) - 1
            title = stream[1][k] if k >= 0 else None
        n = count if isinstance(count, int) and count > 0 else 1
        append(
            Action(
                rid,
                ts,
                kind,
                clean(app) or None,
                title or None,
                None,
                dev or None,
                x if isinstance(x, int) else None,
                y if isinstance(y, int) else None,
                None,
                None,
                None,
                n,
            )
        )
    actions.sort(key=itemgetter(1, 0))  # (ts_ms, event_id); already so from SQL
    elements: list[Element] = []
    if "elements" in present:
        for sid, ts, role, name, x, y, w, h in fetch(
            conn,
            "SELECT snapshot_id, ts_ms, role, name, x, y, w, h FROM elements"
            " WHERE ts_ms >= ? AND ts_ms < ?",
            (start_ms - TREE_MARGIN_MS, end_ms + TREE_MARGIN_MS),
        ):
            if not all(isinstance(v, int) for v in (sid, ts, x, y, w, h)):
                continue
            snap = titles.get(sid)
            dev_s = snap[1] if snap else ""
            elements.append(
                Element(
                    sid,
                    ts,
                    dev_s or None,
                    snap[2] if snap else None,
                    clean_name(role),
                    clean_name(name),
                    x,
                    y,
                    w,
                    h,
                )
            )
    screens: dict[str, ScreenSize] = {}
    if "meta" in present:
        for key, value in fetch(conn, "SELECT key, value FROM meta WHERE key LIKE 'screen:%'"):
            w_s, _, h_s = str(value).partition("x")
            if w_s.isdigit() and h_s.isdigit() and int(w_s) > 0 and int(h_s) > 0:
                screens[str(key)[len("screen:") :]] = ScreenSize(int(w_s), int(h_s))
    return actions, elements, screens
