"""Actions and element trees from the native store (read-only).

Schema 2 adds ``input_events.x/y`` and ``elements``; a schema-1 store reads with no
points and no trees (every anonymous click stays unresolved). The window title of an
event is the title of the latest snapshot of its device at its time. Screen sizes are
read from ``meta`` keys ``screen:<device>`` = ``<w>x<h>`` when the recorder wrote them;
without one, only exact hit-tests are possible. Native stores never hold typed text.
"""

from __future__ import annotations

import sqlite3
from bisect import bisect_right
from pathlib import Path

from ..errors import SourceError
from ..model import INPUT_KINDS
from ..steps.model import Action, Element, ScreenSize
from ..text import clean_name
from .base import connect_ro, fetch, table_columns, tables

TREE_MARGIN_MS = 5_000


def read(
    path: Path, start_ms: int, end_ms: int, include_text: bool = False
) -> tuple[list[Action], list[Element], dict[str, ScreenSize]]:
    conn = connect_ro(path)
    try:
        return _read(conn, start_ms, end_ms)
    except sqlite3.DatabaseError as exc:
        raise SourceError(f"{path}: cannot read ({exc})") from exc
    finally:
        conn.close()


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
    by_dev: dict[str, tuple[list[int], list[str]]] = {}
    titles: dict[int, tuple[int, str, str]] = {}
    for sid, ts, dev, title in snaps:
        if not isinstance(ts, int):
            continue
        d = dev or ""
        ts_list, t_list = by_dev.setdefault(d, ([], []))
        ts_list.append(ts)
        t_list.append(clean_name(title))
        titles[sid] = (ts, d, clean_name(title))
    cols = table_columns(conn, "input_events")
    xy = "x, y" if {"x", "y"} <= cols else "NULL, NULL"
    kinds = ",".join(f"'{k}'" for k in INPUT_KINDS)
    actions: list[Action] = []
    for rid, ts, kind, count, app, dev, x, y in fetch(
        conn,
        f"SELECT id, ts_ms, kind, count, app, device, {xy} FROM input_events"
        f" WHERE ts_ms >= ? AND ts_ms < ? AND kind IN ({kinds})",
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
        actions.append(
            Action(
                rid,
                ts,
                kind,
                clean_name(app) or None,
                title or None,
                None,
                dev or None,
                x if isinstance(x, int) else None,
                y if isinstance(y, int) else None,
                count=n,
            )
        )
    actions.sort(key=lambda a: (a.ts_ms, a.event_id))
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
