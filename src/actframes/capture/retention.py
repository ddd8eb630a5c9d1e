"""``--keep-days N``: delete what is older than N days from the native store.

Deletion runs in small transactions so a recorder writing the same store (it commits
every second) never waits long for the lock. Rows are deleted, never rewritten; an AFK
period is deleted only once it ended before the cut-off.
"""

from __future__ import annotations

import sqlite3

DAY_MS = 86_400_000
_BATCH = 2_000

# (table, time column) pairs cut by time; elements go with their snapshots' time.
_TIMED = (
    ("snapshots", "ts_ms"),
    ("input_events", "ts_ms"),
    ("elements", "ts_ms"),
    ("screen_text", "ts_ms"),
    ("recorder_state", "ts_ms"),
    ("afk", "end_ms"),
)


def cutoff_ms(now_ms: int, keep_days: int) -> int:
    return now_ms - keep_days * DAY_MS


def prune(conn: sqlite3.Connection, before_ms: int) -> dict[str, int]:
    """Delete rows timed before ``before_ms``; returns the count deleted per table."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    deleted: dict[str, int] = {}
    for table, column in _TIMED:
        if table not in have:
            continue
        total = 0
        while True:
            with conn:
                cur = conn.execute(
                    f"DELETE FROM {table} WHERE rowid IN "
                    f"(SELECT rowid FROM {table} WHERE {column} < ? LIMIT {_BATCH})",
                    (before_ms,),
                )
            total += cur.rowcount
            if cur.rowcount < _BATCH:
                break
        deleted[table] = total
    return deleted
