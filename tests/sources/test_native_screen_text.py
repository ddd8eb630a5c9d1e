"""The native store's screen text (schema 4): read back by ``NativeSource.screen_text`` with
its snapshot's app, incrementally by kind; a version-3 store (no table) holds none and stays
readable, and migrating it keeps every row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from actframes.api import compile_path
from actframes.capture import store
from actframes.capture.retention import prune
from actframes.capture.store import open_store
from actframes.model import ACCESSIBILITY, OCR, ScreenText
from actframes.sources.native import NativeSource

T0 = 1_773_129_600_000  # 2026-03-10T08:00:00Z
DAY = "2026-03-10"


def _fill(conn: sqlite3.Connection) -> None:
    with conn:
        conn.executemany(
            "INSERT INTO snapshots (id, ts_ms, device, app, title, reason) VALUES (?,?,'',?,?,?)",
            [(1, T0, "Gedit", "notes", "focus"), (2, T0 + 60_000, "XTerm", "bash", "focus")],
        )


def test_screen_text_is_read_with_its_snapshot_app_and_incrementally(tmp_path: Path) -> None:
    db = tmp_path / "capture.db"
    conn = open_store(db)
    _fill(conn)
    with conn:
        conn.executemany(
            "INSERT INTO screen_text (id, ts_ms, snapshot_id, kind, text) VALUES (?,?,?,?,?)",
            [
                (1, T0, 1, ACCESSIBILITY, "Quarterly zebra forecast"),
                (2, T0 + 60_000, 2, OCR, "$ make test"),
                (3, T0 + 90_000, 1, ACCESSIBILITY, "Quarterly zebra forecast, revised"),
                (4, T0 + 86_400_000, 1, ACCESSIBILITY, "tomorrow"),
            ],
        )
    conn.close()
    end = T0 + 86_400_000
    with NativeSource(db) as src:
        got = src.screen_text(T0, end)
        assert got == [
            ScreenText(1, T0, ACCESSIBILITY, "Quarterly zebra forecast", 1, "Gedit"),
            ScreenText(2, T0 + 60_000, OCR, "$ make test", 2, "XTerm"),
            ScreenText(
                3, T0 + 90_000, ACCESSIBILITY, "Quarterly zebra forecast, revised", 1, "Gedit"
            ),
        ]
        later = src.screen_text(T0, end, after={ACCESSIBILITY: 1, OCR: 2})
        assert [t.row_id for t in later] == [3]
        assert [t.row_id for t in src.screen_text(T0, end, after={ACCESSIBILITY: 3})] == [2]
        assert src.screen_text(T0 + 60_001, T0 + 90_000) == []
    # Retention cuts screen text by its time like every other row.
    conn = sqlite3.connect(db)
    assert prune(conn, T0 + 60_000)["screen_text"] == 1
    conn.close()


def test_a_version_3_store_has_no_screen_text_and_migrates(tmp_path: Path) -> None:
    db = tmp_path / "v3.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    for version in (1, 2, 3):
        conn.executescript(
            "BEGIN;" + store._MIGRATIONS[version] + f"PRAGMA user_version={version}; COMMIT;"
        )
    conn.execute(f"PRAGMA application_id={store.APPLICATION_ID}")
    _fill(conn)
    conn.close()
    before = compile_path(db, DAY, "UTC")
    with NativeSource(db) as src:
        assert src.screen_text(T0, T0 + 86_400_000) == []
    conn = open_store(db)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "screen_text" in names
    assert conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 2
    conn.close()
    assert compile_path(db, DAY, "UTC") == before
