"""Schema version 2 of the native store: a v1 store migrates without losing a row, stays
readable before and after, and retention deletes only what is older than the cut-off."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from actframes.api import compile_path
from actframes.capture import store
from actframes.capture.retention import DAY_MS, cutoff_ms, prune
from actframes.capture.store import SCHEMA_VERSION, open_store
from actframes.sources import open_source

T0 = 1_773_129_600_000  # 2026-03-10T08:00:00Z
DAY = "2026-03-10"


def _v1_store(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript("BEGIN;" + store._MIGRATIONS[1] + "PRAGMA user_version=1; COMMIT;")
    conn.execute(f"PRAGMA application_id={store.APPLICATION_ID}")
    conn.executemany(
        "INSERT INTO snapshots (id, ts_ms, device, app, title, url) VALUES (?,?,?,?,?,?)",
        [(1, T0, "", "Code", "a.py", None), (2, T0 + 30_000, "", "Code", "a.py", None)],
    )
    conn.execute(
        "INSERT INTO input_events (id, ts_ms, kind, count, device, app)"
        " VALUES (1, ?, 'key', 7, NULL, 'Code')",
        (T0 + 1_000,),
    )
    conn.execute("INSERT INTO afk (start_ms, end_ms) VALUES (?, ?)", (T0 + 40_000, T0 + 50_000))
    conn.commit()
    conn.close()


def test_v1_store_is_read_then_migrated_without_loss(tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    _v1_store(db)
    before = compile_path(db, DAY, "UTC")  # a v1 store reads as it is
    conn = open_store(db)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        cols = {r[1] for r in conn.execute("PRAGMA table_info(snapshots)")}
        assert {"window", "exe", "monitor"} <= cols
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"elements", "recorder_state"} <= names
        assert conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 2
        assert conn.execute("SELECT window FROM snapshots WHERE id = 1").fetchone()[0] is None
    finally:
        conn.close()
    after = compile_path(db, DAY, "UTC")
    assert after == before
    assert after["frames"][0]["input"]["keys"] == 7


def test_v2_rows_read_by_the_native_source(tmp_path: Path) -> None:
    db = tmp_path / "v2.db"
    conn = open_store(db)
    with conn:
        conn.execute(
            "INSERT INTO snapshots (ts_ms, app, title, url, reason, window, exe, monitor)"
            " VALUES (?, 'Chromium', 'Docs', 'https://docs.python.org/3/', 'focus', '0x1',"
            " 'chromium', 'DP-1')",
            (T0,),
        )
        conn.execute(
            "INSERT INTO input_events (ts_ms, kind, count, app, x, y)"
            " VALUES (?, 'click', 1, 'Chromium', 10, 20)",
            (T0 + 500,),
        )
        conn.execute(
            "INSERT INTO elements (snapshot_id, ts_ms, depth, role, name, x, y, w, h)"
            " VALUES (1, ?, 1, 'push button', 'OK', 0, 0, 50, 20)",
            (T0,),
        )
        conn.execute("INSERT INTO recorder_state (ts_ms, state) VALUES (?, 'start')", (T0,))
    conn.close()
    src = open_source(db)
    try:
        cap = src.read(T0 - 1, T0 + 60_000)
    finally:
        src.close()
    assert [s.app for s in cap.snapshots] == ["Chromium"]
    assert [(e.kind, e.app) for e in cap.all_events()] == [("click", "Chromium")]


def test_retention_deletes_only_older_rows(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    conn = open_store(db)
    now = T0 + 40 * DAY_MS
    with conn:
        for age_days in (45, 31, 29, 1):
            ts = now - age_days * DAY_MS
            conn.execute("INSERT INTO snapshots (ts_ms, app) VALUES (?, 'A')", (ts,))
            conn.execute("INSERT INTO input_events (ts_ms, kind) VALUES (?, 'key')", (ts,))
            conn.execute(
                "INSERT INTO elements (snapshot_id, ts_ms, depth, role) VALUES (1, ?, 0, 'frame')",
                (ts,),
            )
            conn.execute("INSERT INTO recorder_state (ts_ms, state) VALUES (?, 'start')", (ts,))
            conn.execute(
                "INSERT INTO screen_text (ts_ms, snapshot_id, kind, text)"
                " VALUES (?, 1, 'accessibility', 'words')",
                (ts,),
            )
        # An AFK period that began before the cut-off but ended after it stays.
        conn.execute(
            "INSERT INTO afk (start_ms, end_ms) VALUES (?, ?)",
            (now - 31 * DAY_MS, now - 29 * DAY_MS),
        )
        conn.execute(
            "INSERT INTO afk (start_ms, end_ms) VALUES (?, ?)",
            (now - 45 * DAY_MS, now - 44 * DAY_MS),
        )
    deleted = prune(conn, cutoff_ms(now, 30))
    assert deleted == {
        "snapshots": 2,
        "input_events": 2,
        "elements": 2,
        "screen_text": 2,
        "recorder_state": 2,
        "afk": 1,
    }
    assert conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 2
    assert conn.execute("SELECT count(*) FROM afk").fetchone()[0] == 1
    assert prune(conn, cutoff_ms(now, 30)) == dict.fromkeys(deleted, 0)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
