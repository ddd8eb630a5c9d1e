"""The native store's screen text (schema 4, ``record --screen-text``): the focused window's
visible text at a snapshot, as the recorder kept it (already redacted and bounded)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from ...model import SCREEN_TEXT_KINDS, ScreenText
from ...native_schema import SCREEN_TEXT_TABLE
from ..base import fetch, tables


def read_screen_text(
    conn: sqlite3.Connection, start_ms: int, end_ms: int, after: Mapping[str, int] | None
) -> list[ScreenText]:
    """Rows timed in [start_ms, end_ms), in id order; of each kind only those with an id
    above ``after[kind]`` when given. A store without the table (older than schema 4)
    holds none."""
    if SCREEN_TEXT_TABLE not in tables(conn):
        return []
    after = after or {}
    q = (
        "SELECT t.id, t.ts_ms, t.kind, t.text, t.snapshot_id, s.app"
        " FROM screen_text t LEFT JOIN snapshots s ON s.id = t.snapshot_id"
        " WHERE t.ts_ms >= ? AND t.ts_ms < ? AND t.id > ? ORDER BY t.id"
    )
    floor = min((after.get(k, 0) for k in SCREEN_TEXT_KINDS), default=0)
    found: list[ScreenText] = []
    for rid, ts, kind, text, snap, app in fetch(conn, q, (start_ms, end_ms, floor)):
        if not isinstance(rid, int) or not isinstance(ts, int) or not isinstance(kind, str):
            continue
        if rid <= after.get(kind, 0) or not isinstance(text, str) or not text:
            continue
        capture = snap if isinstance(snap, int) else None
        found.append(ScreenText(rid, ts, kind, text, capture, app if isinstance(app, str) else ""))
    return found
