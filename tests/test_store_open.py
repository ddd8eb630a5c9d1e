"""Opening a store at the edges: another user's WAL store in a folder we cannot write, a
store a writer holds locked, paths that are not store files, empty day and zone
arguments, the machine zone as a POSIX TZ string. Through the real CLI, on real files."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .builders import cli_env, run_cli, screenpipe_db, sha256

DAY = "2026-03-10"
ROWS = [
    (1, "2026-03-10T09:00:00Z", "Code", "main.py", None, "monitor_0"),
    (2, "2026-03-10T09:00:30Z", "Code", "main.py", None, "monitor_0"),
    (3, "2026-03-10T09:01:00Z", "Code", "main.py", None, "monitor_0"),
]
STORE_PROBLEM, USAGE, TRY_AGAIN = 1, 2, 75


def one_line_error(proc: Any, code: int, *needles: str) -> str:
    assert "Traceback" not in proc.stderr
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.startswith("actframes: error: ") and proc.stderr.count("\n") == 1
    for needle in needles:
        assert needle in proc.stderr, proc.stderr
    return str(proc.stderr)


def day(db: Path | str, *extra: str, env: dict[str, str] | None = None) -> Any:
    return run_cli("day", DAY, "--db", str(db), "--tz", "UTC", *extra, env=env)


# ---------------------------------------------------------------- another user's store

NOBODY = 65534


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder another (unprivileged) user can reach: pytest's own is private to us."""
    d = Path(tempfile.mkdtemp(prefix="actframes-ro-"))
    d.chmod(0o755)
    try:
        yield d
    finally:
        for p in (d, *d.rglob("*")):
            p.chmod(0o755 if p.is_dir() else 0o644)
        shutil.rmtree(d)


def as_other_user(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI run by a user who owns none of the files: root itself ignores permissions,
    so as root the run drops to ``nobody`` (setpriv, util-linux)."""
    cmd = [sys.executable, "-m", "actframes.cli", *args]
    env = cli_env(ACTFRAMES_CACHE="off", HOME="/nonexistent")
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("setpriv (util-linux) is needed to run as another user")
        drop = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        probe = [*drop, sys.executable, "-c", "import actframes"]
        if subprocess.run(probe, capture_output=True, cwd="/", env=env).returncode != 0:
            pytest.skip("the unprivileged user cannot run this checkout's interpreter")
        cmd = [*drop, *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/", timeout=60)


def wal_store(folder: Path, *, pending: bool) -> Path:
    """A WAL-mode screenpipe store, as its owner leaves it: no -shm; with ``pending``, a
    -wal file holding a row the main file does not have yet."""
    work = folder / "work"
    work.mkdir()
    db = screenpipe_db(work / "sp.db", ROWS)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    store = folder / "store"
    store.mkdir()
    if pending:
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA wal_autocheckpoint=0")
        with conn:
            conn.execute(
                "INSERT INTO frames (id, timestamp, app_name) VALUES (4, ?, 'Vim')",
                ("2026-03-10T09:01:30Z",),
            )
        shutil.copy(db, store / "sp.db")
        shutil.copy(f"{db}-wal", store / "sp.db-wal")
        conn.close()
    else:
        shutil.copy(db, store / "sp.db")
    shutil.rmtree(work)
    for p in store.iterdir():
        p.chmod(0o444)
    store.chmod(0o555)  # the reader cannot create sp.db-shm here
    return store / "sp.db"


def test_wal_store_in_a_folder_we_cannot_write_is_read(shared_dir: Path) -> None:
    db = wal_store(shared_dir, pending=False)
    before = sha256(db)
    proc = as_other_user("day", DAY, "--db", str(db), "--tz", "UTC")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["coverage"]["rows"] == 3
    assert sorted(os.listdir(db.parent)) == ["sp.db"]  # nothing created beside it
    assert sha256(db) == before


def test_wal_store_with_changes_only_in_its_wal_says_why(shared_dir: Path) -> None:
    db = wal_store(shared_dir, pending=True)
    proc = as_other_user("day", DAY, "--db", str(db), "--tz", "UTC")
    one_line_error(proc, STORE_PROBLEM, str(db), "sp.db-wal", "sp.db-shm", "cannot write")
    assert sorted(os.listdir(db.parent)) == ["sp.db", "sp.db-wal"]


def test_unreadable_file_is_a_store_problem(shared_dir: Path) -> None:
    db = screenpipe_db(shared_dir / "sp.db", ROWS)
    db.chmod(0o000)
    proc = as_other_user("day", DAY, "--db", str(db), "--tz", "UTC")
    one_line_error(proc, STORE_PROBLEM, str(db), "permission denied")


# ---------------------------------------------------------------- a writer holds the lock


def test_store_locked_by_a_writer_says_try_again(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", ROWS)  # rollback journal (SQLite's default)
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("BEGIN EXCLUSIVE")
        writer.execute(
            "INSERT INTO frames (id, timestamp, app_name) VALUES (9, ?, 'x')",
            ("2026-03-10T09:02:00Z",),
        )
        proc = day(db)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    msg = one_line_error(proc, TRY_AGAIN, str(db), "locked by another process; try again")
    assert "not a readable" not in msg
    assert json.loads(day(db).stdout)["coverage"]["rows"] == 3  # readable once released


# ---------------------------------------------------------------- paths that are not stores


def test_each_kind_of_path_problem_has_the_store_status(tmp_path: Path) -> None:
    fifo = tmp_path / "export.json"
    os.mkfifo(fifo)
    cases = [
        (tmp_path / "missing.db", "no such file"),
        (tmp_path, "is a directory"),
        (fifo, "not a regular file"),
    ]
    for path, needle in cases:
        one_line_error(day(path), STORE_PROBLEM, str(path), needle)
        one_line_error(day(path, "--source", "activitywatch"), STORE_PROBLEM, needle)
    one_line_error(day("-"), STORE_PROBLEM, "standard input")


# ---------------------------------------------------------------- empty arguments, zones


def test_empty_day_and_zone_are_usage_errors(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", ROWS)
    one_line_error(run_cli("day", "", "--db", str(db), "--tz", "UTC"), USAGE, "not a date")
    one_line_error(run_cli("apps", "", "--db", str(db), "--tz", "UTC"), USAGE, "not a date")
    one_line_error(run_cli("day", DAY, "--db", str(db), "--tz", ""), USAGE, "zone")
    one_line_error(run_cli("day", DAY, "--db", str(db), "--tz=  "), USAGE, "zone")


@pytest.mark.parametrize(
    ("tz", "zone", "offset"),
    [
        ("JST-9", "Etc/GMT-9", "+09:00"),
        ("EST5", "Etc/GMT+5", "-05:00"),
        (":Asia/Tokyo", "Asia/Tokyo", "+09:00"),
        ("UTC0", "UTC", "+00:00"),
    ],
)
def test_posix_tz_of_the_machine_is_honoured(
    tmp_path: Path, tz: str, zone: str, offset: str
) -> None:
    db = screenpipe_db(tmp_path / "sp.db", ROWS)
    proc = run_cli("day", DAY, "--db", str(db), env=cli_env(TZ=tz))
    assert proc.returncode == 0, proc.stderr
    window = json.loads(proc.stdout)["window"]
    assert window["tz"] == zone
    assert window["start"] == f"{DAY}T00:00:00{offset}"


@pytest.mark.parametrize("tz", ["CET-1CEST,M3.5.0,M10.5.0/3", "IST-5:30", "Mars/Olympus"])
def test_posix_tz_that_cannot_be_resolved_is_named(tmp_path: Path, tz: str) -> None:
    db = screenpipe_db(tmp_path / "sp.db", ROWS)
    proc = run_cli("day", DAY, "--db", str(db), env=cli_env(TZ=tz))
    one_line_error(proc, USAGE, f"TZ={tz!r}", "--tz")
    # An explicit zone needs no machine zone.
    assert run_cli("day", DAY, "--db", str(db), "--tz", "UTC", env=cli_env(TZ=tz)).returncode == 0


# ---------------------------------------------------------------- damage the fuzz test found


def test_schema_text_that_is_not_utf8_is_a_damaged_store(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", ROWS)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    data = db.read_bytes()
    assert data.count(b"notes") == 3  # name, tbl_name and sql, in sqlite_master
    # Same lengths: only the text breaks. SQLite's own error then quotes bytes that are
    # not UTF-8 (the table's name, its broken SQL), which Python cannot decode.
    broken = data.replace(b"notes", b"n\xc4tes").replace(b"(body TEXT)", b"(body TEXT\xc4")
    db.write_bytes(broken)
    one_line_error(day(db), STORE_PROBLEM, str(db), "damaged SQLite database")
    db.write_bytes(data.replace(b"notes", b"n\xc4tes"))  # a name alone: SQLite reads on
    one_line_error(day(db), STORE_PROBLEM, str(db), "UTF-8")


def test_aw_sqlite_spans_past_any_integer_are_rejected_rows(tmp_path: Path) -> None:
    from .sources.test_activitywatch import export_to_sqlite

    export = tmp_path / "aw.json"
    events = [
        {
            "id": i,
            "timestamp": f"2026-03-10T09:0{i}:00+00:00",
            "duration": 30.0,
            "data": {"app": "Code", "title": "t"},
        }
        for i in range(1, 4)
    ]
    bucket = {
        "id": "aw-watcher-window_h",
        "type": "currentwindow",
        "client": "c",
        "hostname": "h",
        "created": "2026-03-01T00:00:00+00:00",
        "events": events,
    }
    export.write_text(json.dumps({"buckets": {bucket["id"]: bucket}}), encoding="utf-8")
    db = export_to_sqlite(export, tmp_path / "sqlite.db")
    conn = sqlite3.connect(db)
    with conn:  # one event from the smallest 64-bit instant, one ending at infinity
        conn.execute("UPDATE events SET starttime = ? WHERE id = 1", (-(2**63),))
        conn.execute("UPDATE events SET endtime = 1e999 WHERE id = 2")
    conn.close()
    proc = day(db)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["coverage"]["rows"] == 1
    # The one from 2**63 ns before 1970 is no day's: reported by every day, as the export
    # reader reports such a row.
    assert [(r["reason"], r["count"]) for r in doc["rejected_rows"]] == [
        ("bad timestamp: starttime/endtime not integer ns", 1),
        ("bad timestamp: timestamp out of range (before 2000 or after 2099)", 1),
    ]


def test_native_store_with_a_repeated_event_id_reports_it(tmp_path: Path) -> None:
    """Only a damaged file repeats a key; the events are then read one by one."""
    from actframes.model import InputEvent, Snapshot

    from .builders import native_db

    t0 = 1_773_133_200_000  # 2026-03-10T09:00:00Z
    snaps = [Snapshot(i, t0 + i * 30_000, "Code", "main.py") for i in range(1, 5)]
    events = [InputEvent(i, t0 + 31_000 + i * 1_000, "key", "Code") for i in range(1, 4)]
    db = native_db(tmp_path / "capture.db", snaps, events)
    conn = sqlite3.connect(db)
    with conn:  # the same table without its key, holding one id twice
        conn.execute("ALTER TABLE input_events RENAME TO keyed")
        conn.execute("CREATE TABLE input_events AS SELECT * FROM keyed")
        conn.execute("DROP TABLE keyed")
        conn.execute("INSERT INTO input_events SELECT * FROM input_events WHERE id = 2")
    conn.close()
    proc = day(db, "--no-cache")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["coverage"]["input_events"] == 3
    assert [(r["reason"], r["rows"]) for r in doc["rejected_rows"]] == [("duplicate id", "2")]
