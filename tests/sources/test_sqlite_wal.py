"""The WAL-index pin and the WAL's frames (sources/sqlite_pages/wal.py) against SQLite itself: real
WAL databases, a writer connection and a reader connection holding a read transaction. What
the pin names must be the reader's snapshot, page for page (``dbstat`` of the reader's
transaction says which pages a table has, their type and cell count)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from actframes.sources.sqlite_pages import wal
from actframes.sources.sqlite_pages.wal import Pin, WalFrames, read_pin, shm_checksum

_TYPES = {"leaf": 0x0D, "internal": 0x05, "overflow": None}


def _store(path: Path, page_size: int = 1024) -> sqlite3.Connection:
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute(f"PRAGMA page_size = {page_size}")
    writer.execute("PRAGMA journal_mode = wal")
    writer.execute("PRAGMA wal_autocheckpoint = 0")  # the tests checkpoint themselves
    writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
    return writer


def _append(writer: sqlite3.Connection, n: int, size: int = 100) -> None:
    writer.execute("BEGIN")
    for i in range(n):
        writer.execute("INSERT INTO t (body) VALUES (?)", (f"{i:08d}" * (size // 8),))
    writer.execute("COMMIT")


def _pinned_reader(path: Path) -> tuple[sqlite3.Connection, Pin]:
    """A reader in a read transaction, and the pin taken around its start (equal before
    and after: the snapshot is the pin's)."""
    reader = sqlite3.connect(path, isolation_level=None)
    before = read_pin(path)
    reader.execute("BEGIN")
    reader.execute("PRAGMA data_version").fetchone()
    reader.execute("SELECT count(*) FROM t").fetchone()
    after = read_pin(path)
    assert before is not None and before == after
    return reader, before


def _agrees(reader: sqlite3.Connection, frames: WalFrames, pin: Pin) -> int:
    """Every page dbstat lists for ``t`` in the reader's transaction, as the frames read it
    at the pin: its type byte and cell count are dbstat's. Returns how many pages."""
    rows = reader.execute("SELECT pageno, pagetype, ncell FROM dbstat WHERE name = 't'").fetchall()
    for pgno, kind, ncell in rows:
        page = frames.page(pgno, pin.max_frame)
        assert len(page) == pin.page_size
        if _TYPES[kind] is None:
            continue
        assert page[0] == _TYPES[kind], (pgno, kind)
        assert int.from_bytes(page[3:5], "big") == ncell, (pgno, ncell)
    return len(rows)


def test_the_checksum_is_sqlites(tmp_path: Path) -> None:
    """A header SQLite wrote checks out; a header with one byte changed does not."""
    db = tmp_path / "a.db"
    writer = _store(db)
    _append(writer, 5)
    raw = (tmp_path / "a.db-shm").read_bytes()[:48]
    assert shm_checksum(raw[:40]) == (
        int.from_bytes(raw[40:44], "little"),
        int.from_bytes(raw[44:48], "little"),
    )
    assert shm_checksum(raw[:12] + bytes([raw[12] ^ 1]) + raw[13:40]) != shm_checksum(raw[:40])


@pytest.mark.parametrize("pread", [True, False], ids=["pread", "seek-and-read"])
def test_the_pin_is_the_readers_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pread: bool
) -> None:
    if not pread:  # as where the system has no pread (Windows)
        monkeypatch.setattr(wal, "_PREAD", None)
    db = tmp_path / "a.db"
    writer = _store(db)
    _append(writer, 300)
    reader, pin = _pinned_reader(db)
    # Later commits (an update of early rows, more rows) are not in the reader's snapshot.
    writer.execute("UPDATE t SET body = 'changed' WHERE id < 50")
    _append(writer, 300)
    assert read_pin(db) != pin
    frames = WalFrames(db)
    assert not frames.follow(pin)  # a generation it did not follow before
    assert frames.generation == pin.salts
    assert _agrees(reader, frames, pin) > 10
    assert reader.execute("SELECT count(*) FROM t").fetchone()[0] == 300
    # A page the update wrote reads as before at the pin: the first leaf's first row.
    first_leaf = reader.execute(
        "SELECT pageno FROM dbstat WHERE name = 't' AND pagetype = 'leaf' ORDER BY path LIMIT 1"
    ).fetchone()[0]
    assert b"changed" not in frames.page(first_leaf, pin.max_frame)
    later = read_pin(db)
    assert later is not None and frames.follow(later)  # the same generation, further on
    assert b"changed" in frames.page(first_leaf, later.max_frame)
    reader.rollback()


def test_a_commit_between_two_pins_is_listed(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    writer = _store(db)
    _append(writer, 300)
    first = read_pin(db)
    assert first is not None
    frames = WalFrames(db)
    frames.follow(first)
    leaf = writer.execute(
        "SELECT pageno FROM dbstat WHERE name = 't' AND pagetype = 'leaf' ORDER BY path LIMIT 1"
    ).fetchone()[0]
    writer.execute("UPDATE t SET body = 'x' WHERE id = 1")
    second = read_pin(db)
    assert second is not None and second.change > first.change
    assert frames.follow(second)
    written = frames.written(first.max_frame, second.max_frame)
    assert [pgno for _, pgno in written] == [leaf]
    assert written[0][0] == second.max_frame == first.max_frame + 1
    assert frames.frame_image(written[0][0]) == frames.page(leaf, second.max_frame)
    assert frames.written(second.max_frame, second.max_frame) == []


@pytest.mark.parametrize("mode", ["RESTART", "TRUNCATE"])
def test_a_restart_is_another_generation(tmp_path: Path, mode: str) -> None:
    db = tmp_path / "a.db"
    writer = _store(db)
    _append(writer, 300)
    old = read_pin(db)
    assert old is not None
    frames = WalFrames(db)
    frames.follow(old)
    assert writer.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()[0] == 0
    _append(writer, 20)  # written from the WAL's first frame again, with new salts
    new = read_pin(db)
    assert new is not None and new.salts != old.salts and new.max_frame < old.max_frame
    assert not frames.follow(new)
    assert frames.generation == new.salts
    reader, pin = _pinned_reader(db)
    assert pin == new
    assert _agrees(reader, frames, pin) > 10  # the file's pages and the new frames
    reader.rollback()


def test_a_restart_between_two_reads_of_a_generation(tmp_path: Path) -> None:
    """Frames scanned of one generation, then the WAL restarted: following the old pin
    again finds frames of the new salts and gives up."""
    db = tmp_path / "a.db"
    writer = _store(db)
    _append(writer, 300)
    old = read_pin(db)
    assert old is not None
    writer.execute("PRAGMA wal_checkpoint(RESTART)")
    _append(writer, 300)
    frames = WalFrames(db)
    assert not frames.follow(old)
    assert frames.generation is None


def test_no_pin_without_a_wal_index(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")  # a rollback-journal database
    conn.execute("INSERT INTO t VALUES (1)")
    assert read_pin(db) is None
    assert read_pin(tmp_path / "missing.db") is None


def test_no_pin_from_a_header_that_does_not_check_out(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    writer = _store(db)
    _append(writer, 5)
    copy = tmp_path / "b.db"
    shm = bytearray((tmp_path / "a.db-shm").read_bytes())
    for i in (8, 56):  # iChange in both copies: equal, but the checksum no longer holds
        shm[i] ^= 1
    (tmp_path / "b.db-shm").write_bytes(bytes(shm))
    shutil.copy(db, copy)
    assert read_pin(db) is not None
    assert read_pin(copy) is None
    shm[8] ^= 1  # the first copy restored: the copies now differ
    (tmp_path / "b.db-shm").write_bytes(bytes(shm))
    assert read_pin(copy) is None
