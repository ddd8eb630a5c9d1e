"""Actions and element trees from a screenpipe store, for steps (read-only).

Actions are the counted events of ``ScreenpipeSource`` (same rows, same ids), as
screenpipe writes them: a ``text`` row is one typing burst (its characters; the text
itself only when the operator opted in), a ``key`` row a shortcut, a click the real
click — the accessibility look-up row written just after it (``click_count = 0``) only
names the click's target — and ``clipboard`` rows copy, cut or paste by ``modifiers``.
``elements`` (joined to ``frames`` for time and window) gives the trees; an editable or
secure element is named only with the opt-in, as its text is its contents. Columns are
discovered; absent ones read as NULL. The store records no screen size, so ``screens``
is empty and only exact hit-tests are possible (see ``steps/resolve``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import SourceError
from ..form_roles import shown_name
from ..model import TEXT, Action, Element, ScreenSize
from ..text import clean_name
from ..timeparse import TimestampError, parse_iso_ms
from .base import connect_ro, fetch, table_columns, tables
from .screenpipe_input import EVENT_KINDS, clipboard_op
from .screenpipe_schema import detect
from .screenpipe_time import Span, date_bounds

# A look-up row names the click at the same point at most this long before it.
LOOKUP_MS = 2_000


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
        indexed = detect(conn, path).events_indexed
        acts = _read(conn, indexed, start_ms, end_ms, include_text)
        return acts, _elements(conn, start_ms, end_ms, include_text), {}
    except sqlite3.DatabaseError as exc:
        raise SourceError(f"{path}: cannot read ({exc})") from exc
    finally:
        conn.close()


def _read(
    conn: sqlite3.Connection, indexed: bool, start_ms: int, end_ms: int, include_text: bool
) -> list[Action]:
    if "ui_events" not in tables(conn):
        return []
    c = table_columns(conn, "ui_events")
    # The rows the capture's read keeps for the window (screenpipe_time.Span), so that
    # only the window's rows are parsed here, not the days either side its dates reach.
    rows = Span(start_ms, end_ms).rows("ui_events", indexed)
    q = (
        f"SELECT id, timestamp, event_type, {_col(c, 'app_name')}, {_col(c, 'window_title')},"
        f" {_col(c, 'browser_url')}, {_col(c, 'x')}, {_col(c, 'y')},"
        f" {_col(c, 'element_role')}, {_col(c, 'element_name')}, {_col(c, 'text_content')},"
        f" {_col(c, 'text_length')}, {_col(c, 'click_count')}, {_col(c, 'modifiers')}"
        f" FROM {rows}"
    )
    out: list[Action] = []
    lookups: list[tuple[int, int, object, object, object, object]] = []
    for row in fetch(conn, q):
        rid, ts_raw, et, app, title, url, x, y, role, name, txt, nbytes, clicks, mods = row
        ts = _ms(ts_raw)
        if not isinstance(rid, int) or ts is None or not start_ms <= ts < end_ms:
            continue
        etype = et.lower() if isinstance(et, str) else ""
        kind = EVENT_KINDS.get(etype)
        if kind is None:
            continue
        count = 1
        text = None
        if etype == "click" and clicks == 0:
            lookups.append((ts, rid, x, y, role, name))
            continue
        if etype == "clipboard":
            kind = clipboard_op(mods)  # copy, cut or paste
            text = txt if include_text and isinstance(txt, str) and txt else None
        elif etype == "text":
            if isinstance(txt, str) and txt:
                count = len(txt)
                if include_text:
                    kind, text = TEXT, txt
            elif isinstance(nbytes, int) and nbytes > 0:
                count = nbytes  # UTF-8 bytes: an estimate (SPEC.md)
        out.append(
            Action(
                rid,
                ts,
                kind,
                clean_name(app) or None,
                clean_name(title) or None,
                url.strip() or None if isinstance(url, str) else None,
                None,  # the monitor: one attention stream (see ScreenpipeSource)
                _int(x),
                _int(y),
                clean_name(role) or None,
                clean_name(name) or None,
                text,
                count,
            )
        )
    out.sort(key=lambda a: (a.ts_ms, a.event_id))
    return _name_clicks(out, lookups)


def _name_clicks(
    actions: list[Action], lookups: list[tuple[int, int, object, object, object, object]]
) -> list[Action]:
    """Each click without a recorded target takes the element of the first look-up row
    at its point within LOOKUP_MS after it (screenpipe looks the element up in the
    background and writes it as a row of its own)."""
    if not lookups:
        return actions
    lookups.sort(key=lambda r: (r[0], r[1]))
    used: set[int] = set()
    out = []
    for a in actions:
        if a.kind == "click" and a.element_role is None and a.element_name is None:
            for ts, rid, x, y, role, name in lookups:
                if ts < a.ts_ms or rid in used:
                    continue
                if ts > a.ts_ms + LOOKUP_MS:
                    break
                if (_int(x), _int(y)) == (a.x, a.y):
                    used.add(rid)
                    a = a._replace(element_role=clean_name(role) or None)
                    a = a._replace(element_name=clean_name(name) or None)
                    break
        out.append(a)
    return out


def _elements(
    conn: sqlite3.Connection, start_ms: int, end_ms: int, include_text: bool = False
) -> list[Element]:
    """The elements of the frames around the window. An editable or secure element's
    ``text`` is its contents (screenpipe stores a field's value there), so its name is
    blank unless the operator opted in to typed text (``form_roles``)."""
    present = tables(conn)
    if "elements" not in present or "frames" not in present:
        return []
    e = table_columns(conn, "elements")
    f = table_columns(conn, "frames")
    need = {"frame_id", "role", "left_bound", "top_bound", "width_bound", "height_bound"}
    if not need <= e:
        return []
    lo, hi = date_bounds(start_ms - 5_000, end_ms + 5_000)
    q = (
        f"SELECT e.frame_id, f.timestamp, {'f.window_name' if 'window_name' in f else 'NULL'},"
        f" e.role, {'e.text' if 'text' in e else 'NULL'},"
        " e.left_bound, e.top_bound, e.width_bound, e.height_bound"
        " FROM frames f JOIN elements e ON e.frame_id = f.id"
        " WHERE f.timestamp >= ? AND f.timestamp < ?"
    )
    out: list[Element] = []
    for fid, ts_raw, win, role, name, x, y, w, h in fetch(conn, q, (lo, hi)):
        ts = _ms(ts_raw)
        xs = [_int(v) for v in (x, y, w, h)]
        if ts is None or not isinstance(fid, int) or not start_ms - 5_000 <= ts < end_ms + 5_000:
            continue
        if any(v is None for v in xs):
            continue
        ix, iy, iw, ih = (v or 0 for v in xs)
        kind = clean_name(role)
        out.append(
            Element(
                fid,
                ts,
                None,
                clean_name(win) or None,
                kind,
                shown_name(kind, clean_name(name), include_text),
                ix,
                iy,
                iw,
                ih,
            )
        )
    return out
