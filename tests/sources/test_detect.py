"""detect(): the store family from the file's own content, or a one-line error."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from actframes.errors import SourceError
from actframes.model import Snapshot
from actframes.sources import SOURCE_KINDS, detect, open_source

from ..builders import native_db, screenpipe_db, sha256, sqlite_db

AW_EXPORT = {
    "buckets": {
        "aw-watcher-window_host": {
            "id": "aw-watcher-window_host",
            "type": "currentwindow",
            "client": "aw-watcher-window",
            "hostname": "host",
            "events": [
                {
                    "timestamp": "2026-03-10T09:00:00.000000+00:00",
                    "duration": 12.5,
                    "data": {"app": "Code", "title": "main.py"},
                }
            ],
        }
    }
}

AW_SERVER_RUST = """
CREATE TABLE buckets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT UNIQUE NOT NULL,
    type TEXT NOT NULL,
    client TEXT NOT NULL,
    hostname TEXT NOT NULL,
    created TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bucketrow INTEGER NOT NULL,
    starttime INTEGER NOT NULL,
    endtime INTEGER NOT NULL,
    data TEXT NOT NULL,
    FOREIGN KEY (bucketrow) REFERENCES buckets(id)
);
CREATE TABLE key_value (key TEXT PRIMARY KEY, value TEXT, last_modified NUMBER NOT NULL);
"""


def test_native(tmp_path: Path) -> None:
    db = native_db(tmp_path / "capture.db", [Snapshot(1, 1_773_133_200_000, "Code")])
    assert detect(db) == "native"


@pytest.mark.parametrize("schema", ["new", "old", "noid_pk"])
def test_screenpipe(tmp_path: Path, schema: str) -> None:
    db = screenpipe_db(tmp_path / "db.sqlite", [(1, "2026-03-10T09:00:00Z", "Code")], schema=schema)
    assert detect(db) == "screenpipe"


@pytest.mark.parametrize("lead", ["", "\n  ", "\ufeff"])
def test_activitywatch_export(tmp_path: Path, lead: str) -> None:
    path = tmp_path / "aw-buckets-export.json"
    path.write_text(lead + json.dumps(AW_EXPORT), encoding="utf-8")
    # Leading whitespace or a UTF-8 byte-order mark (Windows editors) is still JSON.
    assert detect(path) == "activitywatch"


def test_activitywatch_sqlite(tmp_path: Path) -> None:
    db = sqlite_db(
        tmp_path / "sqlite.db",
        AW_SERVER_RUST,
        {
            "buckets": [
                (1, "aw-watcher-window_host", "currentwindow", "w", "host", "2026-03-10", "{}")
            ],
            "events": [
                (1, 1, 1_773_133_200_000_000_000, 1_773_133_212_000_000_000, '{"app":"Code"}')
            ],
        },
    )
    assert detect(db) == "activitywatch"


def test_detect_does_not_write(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "db.sqlite", [(1, "2026-03-10T09:00:00Z", "Code")], wal=True)
    before = sha256(db)
    detect(db)
    assert sha256(db) == before


def _error(path: Path) -> str:
    with pytest.raises(SourceError) as info:
        detect(path)
    msg = str(info.value)
    assert "\n" not in msg
    assert str(path) in msg
    assert info.value.exit_code == 1
    return msg


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.db"
    assert "no such file" in _error(path)
    assert not path.exists()


def test_directory(tmp_path: Path) -> None:
    assert "directory" in _error(tmp_path)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    assert "empty" in _error(path)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("notes.txt", b"these are my notes\nnot a database\n"),
        ("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64)),
        ("random.bin", bytes((i * 151 + 7) % 256 for i in range(4096))),
        ("csv.db", b"id,timestamp,app\n1,2026-03-10T09:00:00Z,Code\n"),
        ("nul.db", bytes(1024)),
    ],
)
def test_not_a_store(tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert "not a capture database" in _error(path)


def test_truncated_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "broken.db"
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 4)
    _error(path)


def test_unknown_sqlite_family_names_the_tables(tmp_path: Path) -> None:
    path = sqlite_db(
        tmp_path / "contacts.db",
        "CREATE TABLE people (id INTEGER, name TEXT);"
        "CREATE TABLE addresses (id INTEGER, person INTEGER, city TEXT);",
    )
    msg = _error(path)
    assert "unknown" in msg
    assert "people" in msg and "addresses" in msg


def test_empty_sqlite_database(tmp_path: Path) -> None:
    path = tmp_path / "blank.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 1")  # forces a header page to be written
    conn.close()
    assert path.stat().st_size > 0
    msg = _error(path)
    assert "none" in msg


@pytest.mark.parametrize("kind", SOURCE_KINDS)
def test_forced_family_on_a_missing_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "missing.db"
    with pytest.raises(SourceError) as info:
        open_source(path, kind)
    assert "no such file" in str(info.value)
    assert not path.exists()


def test_unknown_forced_family(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "db.sqlite", [(1, "2026-03-10T09:00:00Z", "Code")])
    with pytest.raises(SourceError, match="unknown source kind"):
        open_source(db, "rewind")
