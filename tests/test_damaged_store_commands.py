"""A store whose header and schema are sound but whose pages past them are damaged fails
every command that reads it the same way: one line naming the file, the store status
(1), no traceback — also the commands that read rows outside ``day``'s path (``comms``,
``patterns``, ``routines``). The file is never written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from .builders import run_cli, sha256
from .sources.test_activitywatch import T0, bucket, ev, export_to_sqlite, write_export

DAY = "2023-11-14"  # T0's day (UTC)
PAGE = 4096


def _aw_rust(tmp_path: Path) -> Path:
    events = [
        ev(T0 - 3_600_000 + i * 1_000, 1, app=f"app{i % 7}", title=f"window {i} " + "x" * 200)
        for i in range(3_000)
    ]
    window = bucket("aw-watcher-window_h", "currentwindow", "h", events)
    export = write_export(tmp_path / "export.json", {**window, "created": "2023-11-14T00:00:00"})
    return export_to_sqlite(export, tmp_path / "sqlite.db")


def _damage_second_half(db: Path) -> None:
    """Overwrite the pages of the second half of the file (event rows and indexes; the
    header, schema and buckets live in the first pages)."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA page_size").fetchone()[0] == PAGE
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    finally:
        conn.close()
    assert pages > 40
    data = bytearray(db.read_bytes())
    for n in range(pages // 2, pages):
        data[n * PAGE : (n + 1) * PAGE] = bytes((n * 31 + i * 7) % 251 for i in range(PAGE))
    db.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "args",
    [
        ("day", DAY),
        ("comms", DAY),
        ("patterns", "--days", "1", "--until", DAY),
        ("routines", "--days", "1", "--until", DAY),
    ],
    ids=lambda a: a[0],
)
def test_damaged_aw_server_rust_database(tmp_path: Path, args: tuple[str, ...]) -> None:
    db = _aw_rust(tmp_path)
    _damage_second_half(db)
    before = sha256(db)
    proc = run_cli(*args, "--db", str(db), "--tz", "UTC")
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"actframes: error: {db}: ") and proc.stderr.count("\n") == 1
    assert "damaged" in proc.stderr or "malformed" in proc.stderr
    assert sha256(db) == before
