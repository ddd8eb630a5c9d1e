"""Routines kept across calls (``resident_routines``) are the bytes a cold mining of the
store gives, whatever a writer did to it between calls: appends, edits, moves and
deletions on any day of the window, at its edges and on the day after it."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.day_steps_cache import DayStepsCache
from actframes.model import InputEvent, Snapshot
from actframes.resident_routines import ResidentRoutines
from actframes.routines.mine import Rules
from actframes.routines.store_mining import mine_store, window_of
from actframes.simulate import SimDay, write_native
from actframes.simulate.workflows import simulate_workflows, write_workflows
from actframes.sources.watch import StoreWatch
from actframes.window import day_window

from ..builders import cli_env, run_cli_bytes
from .kept_mining import EDGE, RULES, cold, kept_follow_every_change, mining_bytes, warm

TZ = "Europe/Berlin"  # local days straddle UTC days: the counters are per UTC day
ZONES = [TZ, "UTC"]  # in UTC a day's read margins lie in the UTC days either side
DAYS = ["2026-03-09", "2026-03-10", "2026-03-11"]
UNTIL = DAYS[-1]
# Loose rules, so that the small fixture has routines to get wrong.
PAGES = [
    "https://claims.example.test/new",
    "https://claims.example.test/form",
    "https://mail.example.test/",
]


def _native_days(tz: str = TZ) -> list[SimDay]:
    """Three local days, each with the same round of pages three times, clicks and keys,
    and a page opened just before each midnight."""
    out = []
    sid = eid = 0
    for day in DAYS:
        t0 = day_window(day, tz).start_ms + 9 * 3_600_000
        snaps, events = [], []
        sid += 1
        late = day_window(day, tz).end_ms - 100_000
        snaps.append(Snapshot(sid, late, "Chromium", "late", PAGES[2]))
        for run in range(3):
            t = t0 + run * 1_800_000
            for k, url in enumerate(PAGES):
                sid += 1
                snaps.append(Snapshot(sid, t + k * 20_000, "Chromium", f"page {k}", url))
                for j, kind in enumerate(("click", "key", "key")):
                    eid += 1
                    events.append(
                        InputEvent(eid, t + k * 20_000 + 2_000 + j * 3_000, kind, "Chromium")
                    )
        out.append(SimDay(day, tz, ("",), snaps, events, []))
    return out


class _Writer:
    """Changes a native store as plain committed SQL, the way another process would."""

    def __init__(self, path: Path, tz: str = TZ) -> None:
        self.conn = sqlite3.connect(path)
        self.tz = tz

    def do(self, what: str, table: str, day: int, secs: int, pick: float, page: int) -> None:
        base = day_window(DAYS[0], self.tz).start_ms
        ts = base + day * 86_400_000 + secs * 1_000  # day 3: the day after the window
        ids = [r[0] for r in self.conn.execute(f"SELECT id FROM {table} ORDER BY id")]
        rid = ids[min(int(pick * len(ids)), len(ids) - 1)] if ids else None
        # Another app now and then: input of one app while another has focus is stale,
        # and re-attributed to a snapshot near it, maybe one in the next day's margin.
        app = "Code" if page == 1 else "Chromium"
        with self.conn:
            if what == "append" and table == "snapshots":
                self.conn.execute(
                    "INSERT INTO snapshots (ts_ms, device, app, title, url) VALUES (?,?,?,?,?)",
                    (ts, "", app, f"page {page}", PAGES[page]),
                )
            elif what == "append":
                kind = ("click", "key", "scroll")[page]
                self.conn.execute(
                    "INSERT INTO input_events (ts_ms, kind, count, app, device) VALUES (?,?,1,?,?)",
                    (ts, kind, app, ""),
                )
            elif rid is None:
                return
            elif what == "edit" and table == "snapshots":
                self.conn.execute(
                    "UPDATE snapshots SET url = ?, app = ? WHERE id = ?", (PAGES[page], app, rid)
                )
            elif what == "edit":
                kind = ("click", "key", "scroll")[page]
                self.conn.execute("UPDATE input_events SET kind = ? WHERE id = ?", (kind, rid))
            elif what == "move":
                self.conn.execute(f"UPDATE {table} SET ts_ms = ? WHERE id = ?", (ts, rid))
            else:
                self.conn.execute(f"DELETE FROM {table} WHERE id = ?", (rid,))


def _cold(path: Path, days: int, tz: str = TZ) -> tuple[str, list[object]]:
    return cold(path, days, tz, UNTIL)


def _warm(kept: ResidentRoutines, days: int, tz: str = TZ) -> tuple[str, list[object]]:
    return warm(kept, days, tz, UNTIL)


# One change to a native store, as ``_Writer.do`` takes it (the race tests use it too).
change = st.tuples(
    st.sampled_from(["append", "edit", "move", "delete"]),
    st.sampled_from(["snapshots", "input_events"]),
    st.integers(0, 3),
    EDGE,
    st.floats(0, 1),
    st.integers(0, 2),
)
ops = st.lists(change, min_size=1, max_size=4)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ZONES), ops)
def test_kept_days_mine_the_bytes_of_a_cold_mining(tz: str, changes: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write_native(Path(tmp) / "store.db", _native_days(tz))
        writer = _Writer(path, tz)
        try:
            kept_follow_every_change(path, tz, UNTIL, writer.do, changes)
        finally:
            writer.conn.close()


def test_the_fixture_has_routines() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write_native(Path(tmp) / "store.db", _native_days())
        assert json.loads(_cold(path, 3)[0])


def test_a_row_added_today_reads_today_only(tmp_path: Path) -> None:
    path = write_native(tmp_path / "store.db", _native_days())
    watch = StoreWatch(path)
    kept = ResidentRoutines(path, None, lambda: watch.token())
    try:
        first = _warm(kept, 3)
        assert kept.stats == {"served": 0, "fingerprint": 0, "read": 3, "mined": 1}
        assert _warm(kept, 3) == first  # nothing changed: served, nothing mined
        assert kept.stats == {"served": 3, "fingerprint": 0, "read": 3, "mined": 1}
        # A page seen again late today (in Berlin) changes today's steps only.
        _Writer(path).do("append", "snapshots", 2, 80_000, 0.0, 0)
        assert _warm(kept, 3) == _cold(path, 3) != first
        assert kept.stats == {"served": 3, "fingerprint": 2, "read": 4, "mined": 2}
        # A row that changes no step (a scroll) is read, and the mining stands.
        _Writer(path).do("append", "input_events", 2, 80_500, 0.0, 2)
        assert _warm(kept, 3) == _cold(path, 3)
        assert kept.stats == {"served": 3, "fingerprint": 4, "read": 5, "mined": 2}
    finally:
        watch.close()


@pytest.fixture(scope="module")
def workflows(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("wfr") / "workflows.db"
    return write_workflows(p, simulate_workflows("2026-03-02", 4, TZ, seed=5))


def test_a_window_not_of_whole_days_is_mined_whole_while_unchanged(workflows: Path) -> None:
    """The whole store (no --days) is read in one piece, as a cold mining reads it, and
    the mining kept while the store's token is."""
    watch = StoreWatch(workflows)
    kept = ResidentRoutines(workflows, None, lambda: watch.token())
    start, end = window_of(TZ, None, None)
    try:
        warm = kept.mining(TZ, start, end, Rules())
        cold = mine_store(workflows, None, TZ, start, end, Rules())
        assert warm.routines and mining_bytes(warm) == mining_bytes(cold)
        assert kept.mining(TZ, start, end, Rules()) is warm
        assert kept.stats == {"served": 1, "fingerprint": 0, "read": 0, "mined": 1}
        conn = sqlite3.connect(workflows)
        with conn:
            conn.execute("DELETE FROM frames WHERE id = (SELECT max(id) FROM frames)")
        conn.close()
        again = kept.mining(TZ, start, end, Rules())
        fresh = mine_store(workflows, None, TZ, start, end, Rules())
        assert mining_bytes(again) == mining_bytes(fresh)
        assert kept.stats["mined"] == 2
    finally:
        watch.close()


def test_a_row_in_the_next_days_margin_is_seen(tmp_path: Path) -> None:
    """A click in Code a second before midnight while Chromium has focus is stale; a Code
    snapshot written later, at midnight (UTC day 3, in day 2's read margin), is where it
    is re-attributed: day 2's steps change though its own UTC day's rows did not."""
    path = write_native(tmp_path / "store.db", _native_days("UTC"))
    watch = StoreWatch(path)
    kept = ResidentRoutines(path, None, lambda: watch.token())
    writer = _Writer(path, "UTC")
    try:
        writer.do("append", "input_events", 1, 86_399, 0.0, 1)
        before = _warm(kept, 3, "UTC")
        assert before == _cold(path, 3, "UTC")
        writer.do("append", "snapshots", 2, 0, 0.0, 1)
        after = _cold(path, 3, "UTC")
        assert _warm(kept, 3, "UTC") == after != before
    finally:
        writer.conn.close()
        watch.close()


def test_days_on_disk_serve_a_later_process_only_while_unchanged(tmp_path: Path) -> None:
    """A fresh ``ResidentRoutines`` (another process) finds the days on disk, reads the
    changed day again, and mines the bytes of a cold mining; typed text never goes there."""
    path = write_native(tmp_path / "store.db", _native_days())
    cache = DayStepsCache(tmp_path / "cache")
    start, end = window_of(TZ, 3, UNTIL)

    def run(include_text: bool = False) -> tuple[tuple[str, list[object]], dict[str, int]]:
        kept = ResidentRoutines(path, None, lambda: None, disk=cache)
        return mining_bytes(kept.mining(TZ, start, end, RULES, include_text)), kept.stats

    first, stats = run()
    assert first == _cold(path, 3) and stats["read"] == 3 and stats["disk"] == 0
    assert len(list(cache.root.iterdir())) == 3
    again, stats = run()
    assert again == first and stats["read"] == 0 and stats["disk"] == 3
    _Writer(path).do("append", "snapshots", 2, 80_000, 0.0, 0)
    changed, stats = run()
    assert changed == _cold(path, 3) != first
    assert stats["read"] == 1 and stats["disk"] == 2
    for entry in cache.root.iterdir():
        entry.write_text("{not json")  # a torn or foreign file: read the store instead
    assert run()[0] == changed
    for entry in cache.root.iterdir():
        entry.unlink()
    run(include_text=True)
    assert list(cache.root.iterdir()) == []


def test_the_cli_gives_the_same_bytes_from_its_disk_cache(tmp_path: Path) -> None:
    path = write_native(tmp_path / "store.db", _native_days())
    args = ("routines", "--db", str(path), "--tz", TZ, "--until", UNTIL, "--days", "3")
    args += ("--min-occurrences", "2", "--min-specific", "0")
    env = cli_env(ACTFRAMES_CACHE=str(tmp_path / "cache"))
    runs = [run_cli_bytes(*args, env=env) for _ in range(2)]
    _Writer(path).do("append", "input_events", 2, 80_000, 0.0, 0)
    runs.append(run_cli_bytes(*args, env=env))
    runs.append(run_cli_bytes(*args, env=cli_env(ACTFRAMES_CACHE="off")))
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout
    assert runs[2].stdout == runs[3].stdout
    assert (tmp_path / "cache" / "routine-days").is_dir()
