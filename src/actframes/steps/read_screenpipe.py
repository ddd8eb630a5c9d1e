"""Actions and element trees from a screenpipe-style store (read-only).

``ui_events`` gives each event's app, window, URL, device, point and element fields;
``elements`` (joined to ``frames`` for time, device and window) gives the trees. Columns
are discovered; absent ones read as NULL. Typed text (``text_content``) is read only when
the operator opted in. The store records no screen size, so ``screens`` is empty and only
exact hit-tests are possible (see ``resolve``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import SourceError
from ..sources.base import connect_ro, fetch, table_columns, tables
from ..sources.screenpipe import EVENT_KINDS
from ..text import clean_name
from ..timeparse import TimestampError, parse_iso_ms
from .model import TEXT, Action, Element, ScreenSize

_TEXT_TYPES = frozenset({"text", "typed_text", "text_input"})


def _col(cols: set[str], name: str) -> str:
    return name if name in cols else "NULL"


def _ms(raw: object) -> int | None:
    if not isinstance(raw, str):
        return None
    try:
        return parse_iso_ms(raw)
    except TimestampError:
        return None


def _int(v: object) -> int | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    return round(v)


def read(
    path: Path, start_ms: int, end_ms: int, include_text: bool = False
) -> tuple[list[Action], list[Element], dict[str, ScreenSize]]:
    conn = connect_ro(path)
    try:
        return _read(conn, start_ms, end_ms, include_text), _elements(conn, start_ms, end_ms), {}
    except sqlite3.DatabaseError as exc:
        raise SourceError(f"{path}: cannot read ({exc})") from exc
    finally:
        conn.close()


def _read(conn: sqlite3.Connection, start_ms: int, end_ms: int, include_text: bool) -> list[Action]:
    if "ui_events" not in tables(conn):
        return []
    c = table_columns(conn, "ui_events")
    text = _col(c, "text_content") if include_text else "NULL"
    q = (
        f"SELECT id, timestamp, event_type, {_col(c, 'app_name')}, {_col(c, 'window_title')},"
        f" {_col(c, 'browser_url')}, {_col(c, 'device_name')}, {_col(c, 'x')}, {_col(c, 'y')},"
        f" {_col(c, 'element_role')}, {_col(c, 'element_name')}, {text} FROM ui_events"
    )
    out: list[Action] = []
    for rid, ts_raw, et, app, title, url, dev, x, y, role, name, txt in fetch(conn, q):
        ts = _ms(ts_raw)
        if not isinstance(rid, int) or ts is None or not start_ms <= ts < end_ms:
            continue
        kind = EVENT_KINDS.get(str(et).lower()) if isinstance(et, str) else None
        if kind is None and isinstance(et, str) and et.lower() in _TEXT_TYPES and include_text:
            kind = TEXT
        if kind is None:
            continue
        out.append(
            Action(
                rid,
                ts,
                kind,
                clean_name(app) or None,
                clean_name(title) or None,
                url.strip() or None if isinstance(url, str) else None,
                dev if isinstance(dev, str) and dev else None,
                _int(x),
                _int(y),
                clean_name(role) or None,
                clean_name(name) or None,
                txt if include_text and isinstance(txt, str) and txt else None,
            )
        )
    out.sort(key=lambda a: (a.ts_ms, a.event_id))
    return out


def _elements(conn: sqlite3.Connection, start_ms: int, end_ms: int) -> list[Element]:
    present = tables(conn)
    if "elements" not in present or "frames" not in present:
        return []
    e = table_columns(conn, "elements")
    f = table_columns(conn, "frames")
    need = {"frame_id", "role", "left_bound", "top_bound", "width_bound", "height_bound"}
    if not need <= e:
        return []
    q = (
        f"SELECT e.frame_id, f.timestamp, {'f.device_name' if 'device_name' in f else 'NULL'},"
        f" {'f.window_name' if 'window_name' in f else 'NULL'}, e.role,"
        f" {'e.text' if 'text' in e else 'NULL'},"
        " e.left_bound, e.top_bound, e.width_bound, e.height_bound"
        " FROM elements e JOIN frames f ON f.id = e.frame_id"
    )
    out: list[Element] = []
    for fid, ts_raw, dev, win, role, name, x, y, w, h in fetch(conn, q):
        ts = _ms(ts_raw)
        xs = [_int(v) for v in (x, y, w, h)]
        if ts is None or not isinstance(fid, int) or not start_ms - 5_000 <= ts < end_ms + 5_000:
            continue
        if any(v is None for v in xs):
            continue
        ix, iy, iw, ih = (v or 0 for v in xs)
        out.append(
            Element(
                fid,
                ts,
                dev if isinstance(dev, str) and dev else None,
                clean_name(win) or None,
                clean_name(role),
                clean_name(name),
                ix,
                iy,
                iw,
                ih,
            )
        )
    return out
