"""Routines kept across calls and a write that lands between a day's fingerprint and the
read of its steps. Kept under the older fingerprint, steps of the newer rows would be
served as soon as the store is back in the older state (an edit undone): here a real
writer commits right after the fingerprints are taken, the edit is undone, and every
mining afterwards must be the bytes of a cold mining. Native stores, WAL and
rollback-journal mode, kept in memory (a server) and on disk (one-shot processes)."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.day_steps_cache import DayStepsCache
from actframes.resident_routines import ResidentRoutines
from actframes.simulate import write_native
from actframes.sources.watch import StoreWatch

from .kept_mining import CommitAfterFingerprints, cold, warm
from .test_resident_routines import UNTIL, _native_days, _Writer, change


def _journal(path: Path, mode: str) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute(f"PRAGMA journal_mode={mode}").fetchone()[0] == mode
    finally:
        conn.close()


class _Kept:
    """A server's routines (one ``ResidentRoutines``, the store watched), or one-shot
    processes' (a fresh one per call, the days on disk)."""

    def __init__(self, path: Path, disk: DayStepsCache | None) -> None:
        self.path, self.disk = path, disk
        self.watch = StoreWatch(path)
        self.server = ResidentRoutines(path, None, lambda: self.watch.token())

    def __call__(self) -> ResidentRoutines:
        if self.disk is None:
            return self.server
        return ResidentRoutines(self.path, None, lambda: None, disk=self.disk)

    def close(self) -> None:
        self.watch.close()


@pytest.mark.parametrize("journal", ["wal", "delete"])
@pytest.mark.parametrize("on_disk", [False, True], ids=["server", "disk"])
def test_steps_read_after_a_commit_are_not_kept_under_the_older_fingerprint(
    tmp_path: Path, journal: str, on_disk: bool
) -> None:
    path = write_native(tmp_path / "store.db", _native_days("UTC"))
    _journal(path, journal)
    writer = _Writer(path, "UTC")
    kept = _Kept(path, DayStepsCache(tmp_path / "cache") if on_disk else None)
    try:
        # A click in Code a second before day 1's midnight, while Chromium has focus.
        writer.do("append", "input_events", 1, 86_399, 0.0, 1)
        before = cold(path, 3, "UTC", UNTIL)
        with CommitAfterFingerprints() as race:
            # A Code snapshot at midnight, in day 1's read margin: the click is
            # re-attributed to it. Day 1's own UTC day does not change.
            race.arm(lambda: writer.do("append", "snapshots", 2, 0, 0.0, 1))
            racing = warm(kept(), 3, "UTC", UNTIL)
            assert race.landed()
        edited = cold(path, 3, "UTC", UNTIL)
        assert edited != before, "the edit must change the mining"
        assert racing == edited  # the mining of the rows it read
        with writer.conn:  # undone: day 1's margin rows are as they were
            writer.conn.execute("DELETE FROM snapshots WHERE id = (SELECT max(id) FROM snapshots)")
        assert cold(path, 3, "UTC", UNTIL) == before
        for _ in range(2):
            assert warm(kept(), 3, "UTC", UNTIL) == before
    finally:
        writer.conn.close()
        kept.close()


# (whether it lands inside the next call, after its fingerprints; the change)
ops = st.lists(st.tuples(st.booleans(), change), min_size=1, max_size=5)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["wal", "delete"]), st.booleans(), ops)
def test_random_writes_inside_calls_never_serve_stale_steps(
    journal: str, on_disk: bool, changes: list[tuple]
) -> None:
    """Any sequence of writes, each landing before a call or inside it (after its
    fingerprints): every mining is the bytes of a cold one, asked twice."""
    with tempfile.TemporaryDirectory() as tmp:
        path = write_native(Path(tmp) / "store.db", _native_days("UTC"))
        _journal(path, journal)
        writer = _Writer(path, "UTC")
        kept = _Kept(path, DayStepsCache(Path(tmp) / "cache") if on_disk else None)
        try:
            with CommitAfterFingerprints() as race:
                assert warm(kept(), 3, "UTC", UNTIL) == cold(path, 3, "UTC", UNTIL)
                for inside, one in changes:
                    write: Callable[[], None] = lambda c=one: writer.do(*c)  # noqa: E731
                    if inside:
                        race.arm(write)
                    else:
                        write()
                    for days in (3, 2):
                        got = warm(kept(), days, "UTC", UNTIL)
                        if race.landed():  # before the call, or inside it before any read
                            assert got == cold(path, days, "UTC", UNTIL)
                        assert warm(kept(), days, "UTC", UNTIL) == cold(path, days, "UTC", UNTIL)
                    race.flush()  # (a call that read no day left it armed)
        finally:
            writer.conn.close()
            kept.close()
