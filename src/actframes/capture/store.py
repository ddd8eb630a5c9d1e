"""The native capture store: schema, migrations, and a small writer.

One SQLite file in WAL mode. Times are integer milliseconds since the Unix epoch (UTC).
The schema version lives in ``PRAGMA user_version``; ``migrate`` brings any older
store up to ``SCHEMA_VERSION`` in one transaction per step and never drops data.

Version 2 (the X11 recorder) adds, without touching what version 1 readers use:
``snapshots.window``/``exe``/``monitor`` (the X window id, the executable name, the
monitor holding the window), ``input_events.x``/``y`` (a click's screen position; keys
never carry any identity), ``elements`` (accessibility elements of the focused window
at a snapshot: role, name, bounds — never a text field's value) and ``recorder_state``
(start, stop, pause, resume, session notes).

Version 3 adds ``change_days`` — a change counter per UTC day that triggers bump on every
insert, update or delete of a snapshot or input event — and a random ``store_id`` in
``meta``, so a reader can fingerprint a window without reading its rows.

Version 4 adds ``screen_text`` (``record --screen-text``): the focused window's visible
text at a snapshot, redacted and bounded, as ``kind`` ``accessibility`` (AT-SPI) or
``ocr``. It is searched, never compiled, so its rows bump no change counter.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from ..model import InputEvent, Snapshot, Span
from ..native_schema import APPLICATION_ID, SCHEMA_VERSION

# The identity constants stay importable from here: the recorder's tests and tools use them.
__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "migrate",
    "open_store",
    "write_afk",
    "write_events",
    "write_snapshots",
]


def _bump(row: str) -> str:
    """Bump the change counter of the UTC day of ``row`` (NEW or OLD); -1 collects rows
    without a plausible time."""
    return f"""
        INSERT INTO change_days (day, version)
            VALUES (CASE WHEN {row}.ts_ms IS NULL OR {row}.ts_ms < 946684800000
                  OR {row}.ts_ms >= 4102444800000 THEN -1
                  ELSE CAST({row}.ts_ms / 86400000 AS INTEGER) END, 1)
            ON CONFLICT (day) DO UPDATE SET version = version + 1;"""


def _counting_triggers(table: str) -> str:
    """The triggers that count every insert, update (both days) and delete in ``table``."""
    rows = {"insert": ("NEW",), "update": ("OLD", "NEW"), "delete": ("OLD",)}
    return "".join(
        f"    CREATE TRIGGER IF NOT EXISTS {table}_{op}_counts AFTER {op.upper()} ON {table} BEGIN"
        + "".join(_bump(r) for r in bumped)
        + "\n    END;\n"
        for op, bumped in rows.items()
    )


_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE IF NOT EXISTS meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS snapshots (
        id      INTEGER PRIMARY KEY,
        ts_ms   INTEGER NOT NULL,
        device  TEXT NOT NULL DEFAULT '',
        app     TEXT NOT NULL,
        title   TEXT NOT NULL DEFAULT '',
        url     TEXT,
        reason  TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX IF NOT EXISTS snapshots_ts ON snapshots (ts_ms);
    CREATE TABLE IF NOT EXISTS input_events (
        id      INTEGER PRIMARY KEY,
        ts_ms   INTEGER NOT NULL,
        kind    TEXT NOT NULL,
        count   INTEGER NOT NULL DEFAULT 1,
        device  TEXT,
        app     TEXT
    );
    CREATE INDEX IF NOT EXISTS input_events_ts ON input_events (ts_ms);
    CREATE TABLE IF NOT EXISTS afk (
        id       INTEGER PRIMARY KEY,
        start_ms INTEGER NOT NULL,
        end_ms   INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS afk_end ON afk (end_ms);
    """,
    2: """
    ALTER TABLE snapshots ADD COLUMN window TEXT;
    ALTER TABLE snapshots ADD COLUMN exe TEXT;
    ALTER TABLE snapshots ADD COLUMN monitor TEXT;
    ALTER TABLE input_events ADD COLUMN x INTEGER;
    ALTER TABLE input_events ADD COLUMN y INTEGER;
    CREATE TABLE IF NOT EXISTS elements (
        id          INTEGER PRIMARY KEY,
        snapshot_id INTEGER NOT NULL,
        ts_ms       INTEGER NOT NULL,
        parent      INTEGER,
        depth       INTEGER NOT NULL,
        role        TEXT NOT NULL,
        name        TEXT NOT NULL DEFAULT '',
        x INTEGER, y INTEGER, w INTEGER, h INTEGER
    );
    CREATE INDEX IF NOT EXISTS elements_snapshot ON elements (snapshot_id);
    CREATE INDEX IF NOT EXISTS elements_ts ON elements (ts_ms);
    CREATE TABLE IF NOT EXISTS recorder_state (
        id     INTEGER PRIMARY KEY,
        ts_ms  INTEGER NOT NULL,
        state  TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX IF NOT EXISTS recorder_state_ts ON recorder_state (ts_ms);
    """,
    # Change counters per UTC day, kept by triggers, so a reader can tell whether a day's
    # rows changed without reading them (the document cache's fingerprint).
    3: """
    CREATE TABLE IF NOT EXISTS change_days (
        day     INTEGER PRIMARY KEY,  -- UTC day number; -1: no plausible time
        version INTEGER NOT NULL
    );
    INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));
"""
    + "".join(_counting_triggers(t) for t in ("snapshots", "input_events")),
    4: """
    CREATE TABLE IF NOT EXISTS screen_text (
        id          INTEGER PRIMARY KEY,
        ts_ms       INTEGER NOT NULL,
        snapshot_id INTEGER,
        kind        TEXT NOT NULL,  -- 'accessibility' or 'ocr'
        text        TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS screen_text_ts ON screen_text (ts_ms);
    """,
}


class StoreVersionError(RuntimeError):
    pass


def open_store(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) a native store for writing, migrated to the latest schema."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=10.0)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    migrate(conn)
    return conn


def migrate(conn: sqlite3.Connection) -> int:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreVersionError(
            f"store schema {version} is newer than this actframes ({SCHEMA_VERSION})"
        )
    for target in range(version + 1, SCHEMA_VERSION + 1):
        with conn:
            conn.executescript("BEGIN;" + _MIGRATIONS[target] + f"PRAGMA user_version={target};")
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    return SCHEMA_VERSION


def write_snapshots(conn: sqlite3.Connection, rows: Iterable[Snapshot]) -> None:
    with conn:
        conn.executemany(
            "INSERT INTO snapshots (id, ts_ms, device, app, title, url) VALUES (?,?,?,?,?,?)",
            ((s.row_id, s.ts_ms, s.device, s.app, s.title, s.url) for s in rows),
        )


def write_events(conn: sqlite3.Connection, events: Iterable[InputEvent]) -> None:
    with conn:
        conn.executemany(
            "INSERT INTO input_events (id, ts_ms, kind, count, device, app) VALUES (?,?,?,?,?,?)",
            ((e.event_id, e.ts_ms, e.kind, e.count, e.device, e.app) for e in events),
        )


def write_afk(conn: sqlite3.Connection, spans: Iterable[Span]) -> None:
    with conn:
        conn.executemany(
            "INSERT INTO afk (start_ms, end_ms) VALUES (?,?)",
            ((s.start_ms, s.end_ms) for s in spans),
        )
