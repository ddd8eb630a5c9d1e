"""Incremental today: a store that only grew at its end is read from the cut on, and the
document is the bytes a fresh compile of the whole window gives; anything else (rows
before the cut inserted, edited or deleted) is read whole."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.api import compile_window
from actframes.emit.context import to_context
from actframes.emit.json_out import to_json
from actframes.emit.kept_lines import KeptLines
from actframes.model import Capture, EventColumn, Snapshot
from actframes.resident import ResidentCache
from actframes.simulate import SimDay, simulate_day, write_native
from actframes.sources import open_source
from actframes.sources.splice import splice
from actframes.tail import last_in

from .tail_days import DAY, LATE_MS, TZ, WINDOW, first_rows
from .tail_days import fresh as _fresh

APPS = ["Code", "Slack", "Google Chrome", "Terminal"]


def _day(n: int) -> SimDay:
    return first_rows(n, APPS)


# A recorder's step: what, how far after the newest row (s), app. "late" rows are stamped
# LATE_MS before the newest row: before any cut the cache may hold.
APPENDS = ["snapshot", "same_key", "event", "click", "away"]
CHANGES = ["late_snapshot", "late_event", "edit", "delete"]
steps = st.lists(
    st.tuples(
        st.sampled_from(APPENDS * 3 + CHANGES),
        st.integers(0, 400),
        st.integers(0, 3),
    ),
    min_size=1,
    max_size=12,
)


class _Recorder:
    """Writes the native store as the recorder does: plain SQL, each step committed."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path)

    def newest(self) -> int:
        return int(self.conn.execute("SELECT max(ts_ms) FROM snapshots").fetchone()[0])

    def do(self, what: str, secs: int, app: int) -> None:
        last = self.newest()
        # Off the whole second: credits with remainders, so the ledger's rounding can
        # move a second between frames whose rows did not change.
        at = last + secs * 1_000 + secs * 137 % 1_000
        with self.conn:
            if what in ("snapshot", "same_key"):
                name = APPS[app] if what == "snapshot" else self._last_app()
                self.conn.execute(
                    "INSERT INTO snapshots (ts_ms, device, app, title) VALUES (?, '', ?, ?)",
                    # Some titles name a file: a typed reference, listed in ``viewed``.
                    (at, name, f"mod{secs % 5}.py — proj" if secs % 2 else f"added {secs}"),
                )
            elif what in ("event", "click"):
                kind = "key" if what == "event" else "click"
                self.conn.execute(
                    "INSERT INTO input_events (ts_ms, kind, count, app) VALUES (?, ?, ?, ?)",
                    (last + secs * 10, kind, 1 + secs % 3, APPS[app]),
                )
            elif what == "away":
                self.conn.execute(
                    "INSERT INTO afk (start_ms, end_ms) VALUES (?, ?)", (at, at + 60_000)
                )
            elif what == "late_snapshot":  # written after the cut was taken, stamped before
                self.conn.execute(
                    "INSERT INTO snapshots (ts_ms, device, app, title) VALUES (?, '', ?, 'late')",
                    (last - LATE_MS - secs * 1_000, APPS[app]),
                )
            elif what == "late_event":
                self.conn.execute(
                    "INSERT INTO input_events (ts_ms, kind, count, app) VALUES (?, 'key', 1, ?)",
                    (last - LATE_MS - secs * 10, APPS[app]),
                )
            elif what == "edit":
                self.conn.execute(
                    "UPDATE snapshots SET app = ? WHERE id = (SELECT min(id) + ? FROM snapshots)",
                    (APPS[app] + "!", secs % 20),
                )
            else:
                self.conn.execute(
                    "DELETE FROM snapshots WHERE id = (SELECT min(id) + ? FROM snapshots)",
                    (secs % 20,),
                )

    def _last_app(self) -> str:
        row = self.conn.execute("SELECT app FROM snapshots ORDER BY ts_ms DESC, id DESC LIMIT 1")
        return str(row.fetchone()[0])


@settings(max_examples=40, deadline=None)
@given(steps)
def test_tail_reads_give_the_bytes_of_a_fresh_compile(ops: list[tuple[str, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write_native(Path(tmp) / "store.db", _day(60))
        cache = ResidentCache(path)
        rec = _Recorder(path)
        try:
            assert to_json(cache.document(WINDOW)) == _fresh(path)
            for what, secs, app in ops:
                before = dict(cache.stats)
                rec.do(what, secs, app)
                assert to_json(cache.document(WINDOW)) == _fresh(path)
                _assert_last_is_exact(cache)
                if what in CHANGES:  # the rows before the cut changed: read whole
                    assert cache.stats["tail"] == before["tail"]
                elif what != "away":  # (a new away span changes the window's mark)
                    assert cache.stats["tail"] == before["tail"] + 1, what
        finally:
            rec.conn.close()
            cache.close()


def _assert_last_is_exact(cache: ResidentCache) -> None:
    """The last instant a tail carries (found from the tail read's rows alone where they
    tell) is its capture's, as a pass over all of them finds it."""
    for entry in cache._entries.values():
        if entry.tail is not None and entry.tail.last_ms is not None:
            assert entry.tail.last_ms == last_in(entry.tail.cap.snapshots, WINDOW)


def test_a_day_recorded_row_by_row_is_compiled_from_its_tail(tmp_path: Path) -> None:
    path = write_native(tmp_path / "store.db", _day(60))
    cache = ResidentCache(path)
    rec = _Recorder(path)
    try:
        cache.document(WINDOW)
        for i in range(30):
            rec.do("snapshot" if i % 7 else "event", 1 + (i * 37) % 30, i % 4)
            assert to_json(cache.document(WINDOW)) == _fresh(path)
            _assert_last_is_exact(cache)
        assert cache.stats["tail"] == 30 and cache.stats["compiled"] == 1
        (entry,) = cache._entries.values()
        assert entry.tail is not None and entry.tail.reuse.hits > 0  # frames made once
        assert entry.tail.reuse.rows_reused > 0  # and rows placed once
        assert entry.tail.reuse.whole_hits > 0  # and ``viewed`` made once while it holds
        assert entry.tail.last_ms is not None  # the last instant found from the tail read
    finally:
        rec.conn.close()
        cache.close()


@settings(max_examples=10, deadline=None)
@given(steps, st.integers(1, 50))
def test_a_simulated_day_grows_to_the_bytes_of_a_fresh_compile(
    ops: list[tuple[str, int, int]], seed: int
) -> None:
    """A day of the simulator's shape (flickers folded, gaps, several apps and sites)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = write_native(Path(tmp) / "store.db", simulate_day(DAY, TZ, seed=seed, rows=400))
        cache = ResidentCache(path)
        rec = _Recorder(path)
        kept = KeptLines()  # frame lines kept from one context block to the next
        try:
            for i, (what, secs, app) in enumerate([("snapshot", 1, 0), *ops]):
                rec.do(what, secs % 40 if what in APPENDS else secs, app)
                assert to_json(cache.document(WINDOW)) == _fresh(path)
                budget = (400, 1500)[i % 2]  # most frames left out, or few
                block = cache.render(
                    WINDOW, None, budget, lambda d, b=budget: to_context(d, b, kept=kept)
                )
                assert block == _fresh_block(path, budget)
            assert kept.hits > 0 or not cache.stats["tail"]  # a tail's frames: the same lines
        finally:
            rec.conn.close()
            cache.close()


def _fresh_block(path: Path, budget: int) -> str:
    src = open_source(path)
    try:
        return to_context(compile_window(src, WINDOW), budget)
    finally:
        src.close()


def _snap(rid: int, ts: int) -> Snapshot:
    return Snapshot(rid, ts, "Code", "t")


def test_splice_keeps_rows_before_the_cut_and_takes_the_tail_from_it() -> None:
    col = EventColumn("key", "Code", None, [10, 20, 30], [1, 2, 3], [1, 2, 1])
    before = Capture("native", [_snap(1, 10), _snap(2, 20)], event_columns=[col])
    later = EventColumn("key", "Code", None, [20, 30, 40], [2, 3, 4])
    tail = Capture("native", [_snap(2, 20), _snap(3, 25)], event_columns=[later])
    got = splice(before, tail, 20)
    assert got is not None
    assert [s.row_id for s in got.snapshots] == [1, 2, 3]
    (merged,) = got.event_columns
    assert (merged.ts, merged.ids, merged.counts) == ([10, 20, 30, 40], [1, 2, 3, 4], None)
    assert merged.text == ("1,2,3,4", "10,20,30,40")  # the digest's joined text
    col.text = ("1,2,3", "10,20,30")  # the earlier text is cut at the cut, not made again
    again = splice(before, tail, 25)
    assert again is not None and again.event_columns[0].text == ("1,2,3,4", "10,20,30,40")


def test_splice_declines_what_only_a_whole_read_can_order() -> None:
    before = Capture("native", [_snap(1, 10)], has_input=True)
    click = EventColumn("click", "Code", None, [30], [9])
    new_column = Capture("native", [_snap(2, 30)], has_input=True, event_columns=[click])
    assert splice(before, new_column, 20) is None
    assert splice(before, new_column, 40) is not None  # the new column's events: before
    assert splice(before, Capture("native", has_input=False), 20) is None
    assert splice(before, Capture("native", has_input=True, notes=["estimated"]), 20) is None


def test_splice_keeps_a_row_note_only_from_rows_before_the_cut() -> None:
    before = Capture("native", [_snap(1, 10), _snap(2, 30)], notes=["store", "hd", "late"])
    before.row_notes = {"hd": 10, "late": 30}
    tail = Capture("native", [_snap(2, 30)], notes=["store", "new"])
    tail.row_notes = {"new": 30}
    got = splice(before, tail, 20)
    assert got is not None
    # "late" came from a row from the cut on, which the tail read no longer has
    assert sorted(got.notes) == ["hd", "new", "store"]
    assert got.row_notes == {"hd": 10, "new": 30}
    other_store = Capture("native", [_snap(2, 30)], notes=["hd"])
    assert splice(before, other_store, 20) is None  # the store's own notes must agree
