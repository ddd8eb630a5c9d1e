"""A source is a context manager: ``with open_source(path) as src`` closes the store when
the block ends, however it ends. Observed on real SQLite files through the process's own
open file descriptors, not through the reader's private fields."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from actframes.api import compile_path
from actframes.model import Snapshot
from actframes.sources import open_source
from actframes.window import WindowError, day_window

from ..builders import ms, native_db, screenpipe_db, sha256

DAY = "2026-03-10"
T0 = ms("2026-03-10T09:00:00+00:00")
WIN = day_window(DAY, "UTC")

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="open files are observed through /proc"
)


def _open_files(db: Path) -> list[str]:
    """The store's files (main, -wal, -shm) this process holds open."""
    names = {str(db.resolve()) + suffix for suffix in ("", "-wal", "-shm")}
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # the descriptor listdir itself used is gone by now
            continue
        if target in names:
            held.append(target)
    return held


@pytest.fixture(params=["native", "screenpipe"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    if request.param == "native":
        snaps = [
            Snapshot(1, T0, "Code", "a.py — proj", None, "0"),
            Snapshot(2, T0 + 60_000, "Firefox", "Docs", "https://docs.python.org/3/", "0"),
            Snapshot(3, T0 + 120_000, "Code", "a.py — proj", None, "0"),
        ]
        return native_db(tmp_path / "native.db", snaps)
    frames = [
        (1, "2026-03-10T09:00:00Z", "Code", "a.py — proj", None, "monitor_1"),
        (2, "2026-03-10T09:01:00Z", "Firefox", "Docs", "https://docs.python.org/3/", "monitor_1"),
        (3, "2026-03-10T09:02:00Z", "Code", "a.py — proj", None, "monitor_1"),
    ]
    return screenpipe_db(tmp_path / "db.sqlite", frames)


def test_with_block_reads_then_closes_the_store(store: Path) -> None:
    before = sha256(store)
    with open_source(store) as src:
        assert _open_files(store), "the store is open inside the block"
        cap = src.read(WIN.start_ms, WIN.end_ms)
    assert [s.app for s in cap.snapshots] == ["Code", "Firefox", "Code"]
    assert _open_files(store) == []
    assert sha256(store) == before  # read-only: the user's file is unchanged


def test_with_block_closes_the_store_when_it_raises(store: Path) -> None:
    with pytest.raises(RuntimeError, match="inside the block"), open_source(store):
        raise RuntimeError("inside the block")  # the error passes through, not swallowed
    assert _open_files(store) == []


def test_compile_path_leaves_nothing_open(store: Path) -> None:
    doc = compile_path(store, DAY, "UTC")
    assert doc["source"]["kind"] == ("native" if store.name == "native.db" else "screenpipe")
    assert _open_files(store) == []
    with pytest.raises(WindowError):  # the zone is refused after the store was opened
        compile_path(store, DAY, "Not/AZone")
    assert _open_files(store) == []
