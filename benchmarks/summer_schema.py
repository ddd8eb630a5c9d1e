"""A simulated screenpipe store brought to screenpipe's summer-2026 schema (b23e6850, app
2.6.78; SPEC.md §1.2a) for ``today-screenpipe-summer``: the columns and indexes its
migrations added to the tables the reader reads, ``_sqlx_migrations`` up to the newest
checked migration, and what the HD recorder adds to a day with a meeting: one marker
frame per monitor per second, among the other frames."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

NEWEST_CHECKED = 20260818133000

_UPGRADE = """
ALTER TABLE frames ADD COLUMN snapshot_path TEXT DEFAULT NULL;
ALTER TABLE frames ADD COLUMN capture_trigger TEXT DEFAULT NULL;
ALTER TABLE frames ADD COLUMN full_text TEXT DEFAULT NULL;
ALTER TABLE frames ADD COLUMN text_source TEXT DEFAULT NULL;
ALTER TABLE frames ADD COLUMN elements_ref_frame_id INTEGER DEFAULT NULL;
ALTER TABLE frames ADD COLUMN document_path TEXT DEFAULT NULL;
ALTER TABLE frames ADD COLUMN text_json TEXT DEFAULT NULL;
ALTER TABLE frames ADD COLUMN full_text_redacted_at INTEGER;
ALTER TABLE frames ADD COLUMN window_name_redacted_at INTEGER;
ALTER TABLE frames ADD COLUMN browser_url_redacted_at INTEGER;
ALTER TABLE frames ADD COLUMN semantic_run_id INTEGER;
ALTER TABLE ui_events ADD COLUMN redacted_at INTEGER;
ALTER TABLE ui_events ADD COLUMN element_ancestors TEXT;
CREATE INDEX idx_frames_timestamp_device ON frames(timestamp, device_name);
CREATE INDEX idx_frames_app_name_timestamp ON frames(app_name, timestamp);
CREATE INDEX idx_frames_elements_ref_frame_id ON frames(elements_ref_frame_id)
    WHERE elements_ref_frame_id IS NOT NULL;
CREATE INDEX idx_frames_full_text_redacted_at ON frames(full_text_redacted_at)
    WHERE full_text_redacted_at IS NULL;
CREATE INDEX idx_frames_snapshot_pending ON frames(device_name, timestamp)
    WHERE snapshot_path IS NOT NULL;
CREATE INDEX idx_ui_events_type_redacted_at ON ui_events(event_type, redacted_at);
CREATE TABLE display_layout (id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp TEXT NOT NULL,
    reason TEXT NOT NULL, layout_json TEXT NOT NULL);
CREATE TABLE video_chunks (id INTEGER PRIMARY KEY AUTOINCREMENT, file_path TEXT NOT NULL,
    device_name TEXT NOT NULL DEFAULT '', fps REAL NOT NULL DEFAULT 0.5,
    evicted_at TIMESTAMP DEFAULT NULL);
CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL, execution_time BIGINT NOT NULL);
"""


def _stamp(ts_ms: int) -> str:
    dt = datetime.fromtimestamp(ts_ms / 1000, UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+00:00"


def upgrade(db: Path, meeting_ms: int, meeting_s: int = 1_800) -> None:
    """The summer schema, and a meeting's HD markers from ``meeting_ms`` on both monitors."""
    conn = sqlite3.connect(db)
    try:
        conn.executescript(_UPGRADE)
        conn.execute(
            "INSERT INTO _sqlx_migrations VALUES (?, 'activity ledger query indexes',"
            " '2026-08-22 09:00:00', 1, X'00', 1000)",
            (NEWEST_CHECKED,),
        )
        for monitor in ("monitor_1", "monitor_2"):
            for start in range(meeting_ms, meeting_ms + meeting_s * 1000, 300_000):
                cur = conn.execute(
                    "INSERT INTO video_chunks (file_path, device_name, fps) VALUES (?, ?, 10)",
                    (f"/data/hd_{monitor}_{start}.mp4", monitor),
                )
                conn.executemany(
                    "INSERT INTO frames (video_chunk_id, offset_index, timestamp, focused,"
                    " device_name) VALUES (?, ?, ?, 1, ?)",
                    [
                        (cur.lastrowid, n * 10, _stamp(start + n * 1000), monitor)
                        for n in range(min(300, (meeting_ms + meeting_s * 1000 - start) // 1000))
                    ],
                )
        _in_time_order(conn)
        conn.commit()
    finally:
        conn.close()


def _in_time_order(conn: sqlite3.Connection) -> None:
    """Frame ids renumbered by time, as screenpipe's writers leave them: its markers are
    written within minutes of their instants, among the other frames, not after the day
    (ids that run with time put each part of the day in its own pages)."""
    conn.executescript(
        """
        CREATE TEMP TABLE remap AS
            SELECT id AS old, row_number() OVER (ORDER BY timestamp, id) AS new FROM frames;
        CREATE UNIQUE INDEX temp.remap_old ON remap(old);
        UPDATE frames SET id = -(SELECT new FROM remap WHERE old = frames.id);
        UPDATE frames SET id = -id;
        """
    )
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        cols = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        if "frame_id" in cols and table != "frames":
            conn.execute(
                f"UPDATE {table} SET frame_id = (SELECT new FROM remap WHERE old = frame_id)"
                " WHERE frame_id IN (SELECT old FROM remap)"
            )
    conn.execute("DROP TABLE temp.remap")
