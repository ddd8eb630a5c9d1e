"""A lock met in the middle of a read says "locked, try again" (exit 75), as one met when
the store is opened does, for every reader of a SQLite store: the store opens, then
another connection takes a real exclusive lock (rollback-journal mode, ``BEGIN
EXCLUSIVE``) just before the reader's first query. Through the real CLI entry point, on
real files: the exit status, and one line on stderr naming the store, without a
traceback; once the lock is released the same command succeeds."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from actframes.cli import main
from actframes.simulate import simulate_day, write_native, write_screenpipe
from actframes.sources import base
from actframes.sources.activitywatch import source as activitywatch
from actframes.sources.native import actions as native_actions
from actframes.sources.native import source as native
from actframes.sources.screenpipe import actions as screenpipe_actions
from actframes.sources.screenpipe import source as screenpipe

from .fuzz_inputs import make_aw_sqlite

DAY, TZ = "2026-03-10", "UTC"
TRY_AGAIN = 75


class _Holder:
    """Another connection to the store, which takes the exclusive lock when asked."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        mode = self.conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
        assert mode == "delete"  # rollback journal: an exclusive lock keeps readers out
        self.held = False

    def take(self) -> None:
        if not self.held:
            self.conn.execute("BEGIN EXCLUSIVE")
            self.held = True

    def release(self) -> None:
        if self.held:
            self.conn.execute("ROLLBACK")
            self.held = False


def _locking_first(holder: _Holder, real: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        holder.take()
        return real(*args, **kwargs)

    return wrapped


def _native(path: Path) -> Path:
    return write_native(path, simulate_day(DAY, TZ, seed=3, rows=200))


def _screenpipe(path: Path) -> Path:
    return write_screenpipe(path, simulate_day(DAY, TZ, seed=3, rows=200))


def _aw_sqlite(path: Path) -> Path:
    return make_aw_sqlite(path, random.Random(7))


DAY_ARGS = ("day", DAY, "--tz", TZ)
ROUTINE_ARGS = ("routines", "--tz", TZ, "--until", DAY, "--days", "1")
# (store, command, where the read starts: the lock is taken just before it)
CASES = [
    ("native", _native, DAY_ARGS, (native.NativeSource, "_read")),
    ("screenpipe", _screenpipe, DAY_ARGS, (screenpipe.ScreenpipeSource, "_read")),
    ("aw-sqlite", _aw_sqlite, DAY_ARGS, (activitywatch.AWSqliteSource, "read")),
    ("native actions", _native, ROUTINE_ARGS, (native_actions, "_read")),
    ("screenpipe actions", _screenpipe, ROUTINE_ARGS, (screenpipe_actions, "_read")),
]


@pytest.fixture(autouse=True)
def _quick_busy_wait(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A reader waits this long for a lock before it gives up (5 s outside tests)."""
    monkeypatch.setattr(base, "BUSY_TIMEOUT_S", 0.2)
    monkeypatch.setenv("ACTFRAMES_CACHE", "off")  # every call reads the store
    monkeypatch.delenv("ACTFRAMES_DEBUG", raising=False)
    monkeypatch.delenv("ACTFRAMES_DB", raising=False)
    yield


def _run(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("name", "make", "args", "where"), CASES, ids=[c[0] for c in CASES])
def test_a_lock_met_mid_read_says_try_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    make: Callable[[Path], Path],
    args: tuple[str, ...],
    where: tuple[Any, str],
) -> None:
    db = make(tmp_path / "store.db")
    holder = _Holder(db)
    argv = (*args, "--db", str(db))
    owner, attr = where
    real = getattr(owner, attr)
    try:
        monkeypatch.setattr(owner, attr, _locking_first(holder, real))
        code, out, err = _run(argv, capsys)
        assert holder.held, "the lock must be taken inside the read"
    finally:
        holder.release()
        monkeypatch.setattr(owner, attr, real)
    assert "Traceback" not in err
    assert code == TRY_AGAIN, err
    assert out == ""
    assert err == f"actframes: error: {db}: locked by another process; try again\n"
    holder.conn.close()
    code, out, err = _run(argv, capsys)  # released: the same command reads the store
    assert code == 0 and not err, err


@pytest.mark.parametrize("given", ["--db", "--db=", "ACTFRAMES_DB"])
def test_a_lock_met_outside_a_reader_still_names_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    """A query whose failure no reader turned into its own error reaches the command
    line's last resort, which still names the store, from ``--db`` or $ACTFRAMES_DB: one
    line, 75. Here the screenpipe reader and the library's guard (``read_failed``,
    ``reading``) pass SQLite's own error on, as a read outside them would."""
    db = _screenpipe(tmp_path / "store.db")
    holder = _Holder(db)
    real = screenpipe.ScreenpipeSource._read
    monkeypatch.setattr(screenpipe.ScreenpipeSource, "_read", _locking_first(holder, real))
    monkeypatch.setattr(screenpipe, "read_failed", lambda path, exc: exc)
    monkeypatch.setattr(base, "reading", lambda path: contextlib.nullcontext())
    if given == "ACTFRAMES_DB":
        monkeypatch.setenv("ACTFRAMES_DB", str(db))
        where: tuple[str, ...] = ()
    else:
        where = (given, str(db)) if given == "--db" else (f"--db={db}",)
    try:
        code, out, err = _run((*DAY_ARGS, *where), capsys)
        assert holder.held
    finally:
        holder.release()
        holder.conn.close()
    assert (code, out) == (TRY_AGAIN, "")
    assert err == f"actframes: error: {db}: locked by another process; try again\n"
