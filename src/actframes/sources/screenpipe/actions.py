"""Actions from a screenpipe store, for steps (read-only).

Actions are the counted events of ``ScreenpipeSource`` (same rows, same ids), as
screenpipe writes them: a ``text`` row is one typing burst (its characters; the text
itself only when the operator opted in), a ``key`` row a shortcut, a click the real
click — the accessibility look-up row written just after it (``click_count = 0``) only
names the click's target (``clicks``) — and ``clipboard`` rows copy, cut or
paste by ``modifiers``. Columns are discovered; absent ones read as NULL. An element of a
role that may be named by its contents (``form_roles``) keeps its role and loses its name
unless the operator opted in to typed text, on the click row and the look-up row alike.

No element trees and no screen sizes are returned: screenpipe's ``elements`` bounds are
fractions (0–1) of a monitor or of a window whose place and size the store never
records, while clicks are screen points or pixels, so no click can be hit-tested against
them; an anonymous click stays unresolved (SPEC.md §1.2b).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from ...form_roles import shown_element_name
from ...model import TEXT, Action, Element, ScreenSize
from ...text import clean_name
from ...timeparse import TimestampError, parse_iso_ms
from ..base import connect_ro, fetch, read_failed, table_columns, tables
from .clicks import Lookup, name_clicks, own_target, parse_bounds
from .input import EVENT_KINDS, clipboard_op, echoes
from .payloads import ARCHIVE_COLUMNS, BulkReader, archives
from .schema import detect
from .timestamps import Span


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
        return _read(conn, indexed, start_ms, end_ms, include_text), [], {}
    except sqlite3.DatabaseError as exc:
        raise read_failed(path, exc) from exc
    finally:
        conn.close()


def _read(
    conn: sqlite3.Connection, indexed: bool, start_ms: int, end_ms: int, include_text: bool
) -> list[Action]:
    if "ui_events" not in tables(conn):
        return []
    c = table_columns(conn, "ui_events")
    # The rows the capture's read keeps for the window (timestamps.Span), so that
    # only the window's rows are parsed here, not the days either side its dates reach.
    rows = Span(start_ms, end_ms).rows("ui_events", indexed)
    q = (
        f"SELECT id, timestamp, event_type, {_col(c, 'app_name')}, {_col(c, 'window_title')},"
        f" {_col(c, 'browser_url')}, {_col(c, 'x')}, {_col(c, 'y')},"
        f" {_col(c, 'element_role')}, {_col(c, 'element_name')}, {_col(c, 'text_content')},"
        f" {_col(c, 'text_length')}, {_col(c, 'click_count')}, {_col(c, 'modifiers')},"
        f" {_col(c, 'element_bounds')}"
    )
    archived = archives(c)
    if archived:
        q += ", " + ", ".join(ARCHIVE_COLUMNS)
    raw = fetch(conn, q + f" FROM {rows}")
    if archived:
        raw = _unarchived(conn, raw)
    out: list[Action] = []
    lookups: list[Lookup] = []
    polled: list[tuple[int, int, str | None]] = []
    keyboard: list[tuple[int, int, str | None]] = []
    for row in raw:
        rid, ts_raw, et, app, title, url, x, y, role, name, txt, nbytes, clicks, mods, box = row[
            :15
        ]
        ts = _ms(ts_raw)
        if not isinstance(rid, int) or ts is None or not start_ms <= ts < end_ms:
            continue
        etype = et.lower() if isinstance(et, str) else ""
        kind = EVENT_KINDS.get(etype)
        if kind is None:
            continue
        count = 1
        text = None
        px, py = _int(x), _int(y)
        # A field's name may be its contents (SPEC.md §1.2b): blanked unless opted in.
        shown_role = clean_name(role)
        stored_name = clean_name(name)
        name_shown = shown_element_name(shown_role, stored_name, include_text)
        withheld = bool(stored_name) and not name_shown
        target = shown_role or None, name_shown or None
        if etype == "click" and clicks == 0:
            lookups.append(Lookup(ts, rid, px, py, *target, withheld))
            continue
        if etype == "click":
            target = own_target(*target, parse_bounds(box), px, py)
            # a click row whose element lies elsewhere keeps no element at all
            withheld = withheld and target != (None, None)
        else:
            withheld = False
        if etype == "clipboard":
            kind = clipboard_op(mods)  # copy, cut or paste
            if _code(mods) in _ECHO_CODES:  # the poller's 'p', or a keyboard copy or cut
                (polled if _code(mods) == ord("p") else keyboard).append(
                    (rid, ts, clean_name(app) or None)
                )
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
                px,
                py,
                *target,
                text,
                count,
                withheld,
            )
        )
    if polled:  # a poller row beside a keyboard copy is that copy again (SPEC.md §1.2)
        drop = echoes([(t, a) for _, t, a in polled], [(t, a) for _, t, a in keyboard])
        gone = {polled[i][0] for i in drop}
        out = [a for a in out if a.event_id not in gone]
    out.sort(key=lambda a: (a.ts_ms, a.event_id))
    return name_clicks(out, lookups)


# The archived columns _read selects, by their place in its rows.
_ARCHIVED_AT = {
    "window_title": 4, "browser_url": 5, "element_name": 9, "text_content": 10,
    "element_bounds": 14,
}  # fmt: skip


def _unarchived(conn: sqlite3.Connection, raw: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows with the values screenpipe moved to Parquet put back (SPEC.md §1.2d)."""
    keys = [(r[0], r[15], r[16], r[17]) for r in raw if r[15] is not None]
    if not keys:
        return raw
    got = BulkReader(conn).values(keys, _ARCHIVED_AT)
    if not got:
        return raw
    out = []
    for r in raw:
        values = got.get(r[0])
        if values:
            row = list(r)
            for col, v in values.items():
                row[_ARCHIVED_AT[col]] = v
            r = tuple(row)
        out.append(r)
    return out


_ECHO_CODES = frozenset({ord("p"), ord("c"), ord("x")})


def _code(mods: object) -> int | None:
    try:
        return int(str(mods)) if mods is not None and mods != "" else None
    except ValueError:
        return None
