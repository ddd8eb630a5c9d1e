"""The native store: written by capture.store, read back by the native reader, versioned."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from actframes.api import compile_path
from actframes.capture.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    StoreVersionError,
    migrate,
    open_store,
)
from actframes.errors import SourceError
from actframes.model import InputEvent, Snapshot, Span
from actframes.sources import detect, open_source
from actframes.sources.native import NativeSource
from actframes.window import day_window

from ..builders import ms, native_db, sha256

DAY = "2026-03-10"
T0 = ms("2026-03-10T09:00:00+00:00")
WIN = day_window(DAY, "UTC")

SNAPS = [
    Snapshot(1, T0, "Code", "store.py — actframes", None, "0"),
    Snapshot(2, T0 + 30_000, "Firefox", "Docs", "https://docs.python.org/3/", "0"),
    Snapshot(3, T0 + 60_000, "Firefox", "Docs", "https://docs.python.org/3/", "0"),
    Snapshot(4, T0 + 90_500, "Terminal", "pytest", None, "1"),
    Snapshot(5, T0 + 120_000, "Code", "Überblick ✓ — naïve", None, "0"),
]
EVENTS = [
    InputEvent(1, T0 + 1_000, "key", "Code", "0", 12),
    InputEvent(2, T0 + 31_000, "click", "Firefox", "0", 1),
    InputEvent(3, T0 + 32_000, "scroll", "Firefox", "0", 3),
    InputEvent(4, T0 + 91_000, "paste", "Terminal", "1", 1),
    InputEvent(5, T0 + 92_000, "copy", None, None, 1),
]
AFK = [Span(T0 + 200_000, T0 + 900_000)]


def _read(path: Path) -> tuple[list[Snapshot], list[InputEvent], list[Span]]:
    src = NativeSource(path)
    try:
        cap = src.read(WIN.start_ms, WIN.end_ms)
    finally:
        src.close()
    assert cap.rejected == []
    assert cap.kind == "native" and cap.has_input and cap.has_afk
    return list(cap.snapshots), cap.all_events(), list(cap.afk)


def test_round_trip(tmp_path: Path) -> None:
    db = native_db(tmp_path / "capture.db", SNAPS, EVENTS, AFK)
    snaps, events, afk = _read(db)
    assert snaps == SNAPS
    assert events == EVENTS
    assert afk == AFK


def test_round_trip_through_open_source_and_compile(tmp_path: Path) -> None:
    db = native_db(tmp_path / "capture.db", SNAPS, EVENTS, AFK)
    assert detect(db) == "native"
    src = open_source(db)
    try:
        assert isinstance(src, NativeSource)
    finally:
        src.close()
    before = sha256(db)
    doc = compile_path(db, DAY, "UTC")
    assert sha256(db) == before
    assert doc["source"]["kind"] == "native"
    assert doc["coverage"]["rows"] == len(SNAPS)
    assert doc["coverage"]["input_events"] == len(EVENTS)
    assert doc["coverage"]["away"] == [
        {"start": "2026-03-10T09:03:20+00:00", "end": "2026-03-10T09:15:00+00:00", "s": 700}
    ]
    assert not any("no away periods" in b for b in doc["blind_spots"])
    assert not any("input is unmeasured" in b for b in doc["blind_spots"])


def test_only_the_window_is_read(tmp_path: Path) -> None:
    other_day = [Snapshot(100, T0 + 86_400_000, "Code", "tomorrow")]
    db = native_db(tmp_path / "capture.db", SNAPS + other_day, EVENTS, AFK)
    snaps, _, _ = _read(db)
    assert [s.row_id for s in snaps] == [1, 2, 3, 4, 5]


def test_events_of_other_kinds_are_not_counted(tmp_path: Path) -> None:
    events = [
        InputEvent(1, T0 + 1_000, "key", "Code"),
        InputEvent(2, T0 + 2_000, "mouse_move", "Code"),
        InputEvent(3, T0 + 3_000, "focus", "Code"),
        InputEvent(4, T0 + 4_000, "key", "Code", count=0),  # a count below 1 counts once
    ]
    db = native_db(tmp_path / "capture.db", SNAPS, events)
    _, got, _ = _read(db)
    assert [(e.event_id, e.kind, e.count) for e in got] == [(1, "key", 1), (4, "key", 1)]


def test_row_problems_are_reported(tmp_path: Path) -> None:
    db = native_db(tmp_path / "capture.db", SNAPS)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "INSERT INTO snapshots (id, ts_ms, app, title) VALUES (50, ?, '', 'x')", (T0 + 5_000,)
        )
        conn.execute(
            "INSERT INTO snapshots (id, ts_ms, app, title) VALUES (51, ?, ?, 'x')",
            (T0 + 6_000, "\u200b"),
        )
        conn.execute(
            "INSERT INTO snapshots (id, ts_ms, app, title) VALUES (52, ?, 'Code', ?)",
            (T0 + 7_000, b"\xff\xfe bad"),
        )
    conn.close()
    src = NativeSource(db)
    try:
        cap = src.read(WIN.start_ms, WIN.end_ms)
    finally:
        src.close()
    assert sorted((r.row, r.reason) for r in cap.rejected) == [
        ("50", "empty app name"),
        ("51", "empty app name"),
    ]
    bad = next(s for s in cap.snapshots if s.row_id == 52)
    assert bad.title == "\ufffd\ufffd bad"


def test_unplaceable_rows_are_reported_on_every_day(tmp_path: Path) -> None:
    db = native_db(tmp_path / "capture.db", SNAPS)
    conn = sqlite3.connect(db)
    with conn:
        conn.executemany(
            "INSERT INTO snapshots (id, ts_ms, app, title) VALUES (?, ?, 'Code', 'x')",
            [(60, 7_258_118_400_000), (61, -2_208_988_800_000), (62, "yesterday"), (63, T0 + 0.5)],
        )
    conn.close()
    for day in ("2026-03-10", "2026-03-11"):
        src = NativeSource(db)
        try:
            w = day_window(day, "UTC")
            cap = src.read(w.start_ms, w.end_ms)
        finally:
            src.close()
        # Rows with no plausible integer time are reported every day; a fractional time is
        # reported on the day it falls in (2026-03-10).
        expected = ["60", "61", "62", "63"] if day == "2026-03-10" else ["60", "61", "62"]
        assert sorted(r.row for r in cap.rejected) == expected


def test_newer_schema_is_refused_in_one_line(tmp_path: Path) -> None:
    db = native_db(tmp_path / "capture.db", SNAPS)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = sha256(db)
    with pytest.raises(SourceError) as info:
        NativeSource(db)
    msg = str(info.value)
    assert "\n" not in msg
    assert str(db) in msg
    assert str(SCHEMA_VERSION + 1) in msg
    assert sha256(db) == before
    # The writer refuses it too rather than "migrating" it backwards.
    conn = sqlite3.connect(db)
    try:
        with pytest.raises(StoreVersionError):
            migrate(conn)
    finally:
        conn.close()


def test_native_store_missing_tables(tmp_path: Path) -> None:
    db = tmp_path / "half.db"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("CREATE TABLE snapshots (id INTEGER PRIMARY KEY, ts_ms INTEGER)")
    conn.close()
    assert detect(db) == "native"
    with pytest.raises(SourceError) as info:
        open_source(db)
    assert "afk" in str(info.value) and "input_events" in str(info.value)
    assert "\n" not in str(info.value)


def test_migration_from_an_empty_file(tmp_path: Path) -> None:
    db = tmp_path / "new" / "capture.db"
    db.parent.mkdir()
    db.write_bytes(b"")
    conn = open_store(db)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"meta", "snapshots", "input_events", "afk"} <= names
        # migrating again is a no-op
        assert migrate(conn) == SCHEMA_VERSION
    finally:
        conn.close()
    assert detect(db) == "native"
    doc = compile_path(db, DAY, "UTC")
    assert doc["frames"] == []
    assert doc["coverage"]["first"] is None


def test_open_store_creates_missing_folders(tmp_path: Path) -> None:
    db = tmp_path / "a" / "b" / "capture.db"
    conn = open_store(db)
    conn.close()
    assert db.exists()


def test_reopen_keeps_data(tmp_path: Path) -> None:
    db = native_db(tmp_path / "capture.db", SNAPS[:2])
    native_db(db, SNAPS[2:], EVENTS, AFK)  # a second session appends
    snaps, events, afk = _read(db)
    assert snaps == SNAPS
    assert events == EVENTS
    assert afk == AFK


def test_native_by_tables_without_application_id(tmp_path: Path) -> None:
    db = native_db(tmp_path / "capture.db", SNAPS)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id = 0")
    conn.close()
    assert detect(db) == "native"
