"""A store a reader refuses (a schema it does not read, a missing table, no window bucket)
is not left open: the reader's constructor closes its connection before the error
leaves it. Checked on this process's open files while the error (and with it the half-made
reader, in its traceback) is still alive."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from actframes.errors import SourceError
from actframes.model import Snapshot
from actframes.sources import open_source

from ..builders import native_db, screenpipe_db, sqlite_db

T0 = 1_773_133_200_000


def _open_on(path: Path) -> list[str]:
    """This process's open files that are the store or its -wal/-shm."""
    names = {str(path.resolve()) + tail for tail in ("", "-wal", "-shm", "-journal")}
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target in names:
            found.append(target)
    return found


def _native(path: Path) -> Path:
    return native_db(path, [Snapshot(1, T0, "Code", "a")])


def _newer_native(path: Path) -> Path:
    _native(path)
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA user_version = 999")
        conn.commit()
    finally:
        conn.close()
    return path


def _screenpipe(path: Path) -> Path:
    return screenpipe_db(path, [(1, "2026-03-10T09:00:00Z", "Code", "a")], wal=True)


# aw-server-rust's and the Python aw-server's tables, with no window bucket.
_AW_RUST = """
CREATE TABLE buckets (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE NOT NULL,
    type TEXT NOT NULL, client TEXT NOT NULL, hostname TEXT NOT NULL, created TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}');
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, bucketrow INTEGER NOT NULL,
    starttime INTEGER NOT NULL, endtime INTEGER NOT NULL, data TEXT NOT NULL);
INSERT INTO buckets VALUES (1, 'aw-watcher-afk_h', 'afkstatus', 'w', 'h', '2026-03-10', '{}');
"""
_AW_PEEWEE = """
CREATE TABLE bucketmodel (key INTEGER PRIMARY KEY, id VARCHAR(255) NOT NULL,
    created DATETIME NOT NULL, name VARCHAR(255), type VARCHAR(255) NOT NULL,
    client VARCHAR(255) NOT NULL, hostname VARCHAR(255) NOT NULL);
CREATE TABLE eventmodel (id INTEGER PRIMARY KEY, bucket_id INTEGER NOT NULL,
    timestamp DATETIME NOT NULL, duration DECIMAL(10, 5) NOT NULL, datastr VARCHAR(255) NOT NULL);
INSERT INTO bucketmodel VALUES (1, 'aw-watcher-afk_h', '2026-03-10', NULL, 'afkstatus', 'w', 'h');
"""

CASES = {
    "native store of a newer schema": (_newer_native, None, "newer than this actframes"),
    "native forced on a screenpipe file": (_screenpipe, "native", "lacks table"),
    "screenpipe forced on a native store": (_native, "screenpipe", "no 'frames' table"),
    "aw-server-rust forced on a native store": (_native, "activitywatch", "not an aw-server"),
    "aw-server-rust without a window bucket": (
        lambda p: sqlite_db(p, _AW_RUST),
        None,
        "no window bucket",
    ),
    "aw-server without a window bucket": (
        lambda p: sqlite_db(p, _AW_PEEWEE),
        None,
        "no window bucket",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_refused_store_is_closed(tmp_path: Path, case: str) -> None:
    make, kind, message = CASES[case]
    path = make(tmp_path / "store.db")
    assert not _open_on(path)
    with pytest.raises(SourceError, match=message) as refused:
        open_source(path, kind)
    # The traceback holds the half-made reader: its connection must be closed anyway.
    assert refused.traceback and not _open_on(path), case
