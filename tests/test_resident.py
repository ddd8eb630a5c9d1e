"""The resident cache answers with the bytes a fresh compile gives, whatever a writer did
to the store between calls: appends, edits and deletions, on every store family."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.api import compile_window
from actframes.emit.json_out import to_json
from actframes.model import InputEvent, Snapshot
from actframes.resident import ResidentCache
from actframes.simulate import SimDay, write_aw_export, write_native, write_screenpipe
from actframes.simulate.writers import format_ts
from actframes.sources import open_source
from actframes.window import day_window

DAY, TZ = "2026-03-10", "UTC"
T0 = 1_773_133_200_000  # 2026-03-10T09:00:00Z
APPS = ["Code", "Slack", "Google Chrome"]
WINDOWS = [day_window(DAY, TZ), day_window("2026-03-13", TZ)]


def _day(n: int) -> SimDay:
    snaps = [Snapshot(i + 1, T0 + i * 7_000, APPS[i % 3], f"t{i % 4}") for i in range(n)]
    events = [InputEvent(k + 1, T0 + 500 + k * 3_000, "key", APPS[k % 2]) for k in range(n)]
    return SimDay(DAY, TZ, ("",), snaps, events, [])


def _fresh(path: Path, window_index: int) -> str:
    src = open_source(path)
    try:
        return to_json(compile_window(src, WINDOWS[window_index]))
    finally:
        src.close()


# One writer step: (what, which row (a fraction of the rows), when (seconds), app index).
steps = st.lists(
    st.tuples(
        st.sampled_from(["append", "edit", "delete", "append_late"]),
        st.floats(0, 1),
        st.integers(0, 3_600),
        st.integers(0, 2),
    ),
    min_size=1,
    max_size=5,
)


class _Writer:
    """Changes a SQLite store the way its own recorder would (plain SQL, committed)."""

    def __init__(self, path: Path, family: str) -> None:
        self.conn = sqlite3.connect(path)
        self.family = family
        if family == "native":
            self.table, self.ts, self.app = "snapshots", "ts_ms", "app"
        else:
            self.table, self.ts, self.app = "frames", "timestamp", "app_name"

    def ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute(f"SELECT id FROM {self.table} ORDER BY id")]

    def do(self, what: str, where: float, secs: int, app: int) -> None:
        ids = self.ids()
        with self.conn:
            if what in ("append", "append_late"):
                ts = T0 + secs * 1_000 + (3 * 86_400_000 if what == "append_late" else 0)
                new = (ids[-1] if ids else 0) + 1
                if self.family == "native":
                    self.conn.execute(
                        "INSERT INTO snapshots (id, ts_ms, device, app, title) VALUES (?,?,?,?,?)",
                        (new, ts, "", APPS[app], "added"),
                    )
                else:
                    self.conn.execute(
                        "INSERT INTO frames (id, video_chunk_id, offset_index, timestamp, name,"
                        " app_name, window_name, focused, device_name)"
                        " VALUES (?,1,0,?,'v.mp4',?,?,1,'')",
                        (new, format_ts(ts), APPS[app], "added"),
                    )
            elif ids:
                rid = ids[min(int(where * len(ids)), len(ids) - 1)]
                if what == "edit":
                    self.conn.execute(
                        f"UPDATE {self.table} SET {self.app} = ? WHERE id = ?", (APPS[app], rid)
                    )
                else:
                    self.conn.execute(f"DELETE FROM {self.table} WHERE id = ?", (rid,))


def _check_sqlite(family: str, ops: list[tuple[str, float, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "store.db"
        (write_native if family == "native" else write_screenpipe)(path, _day(30))
        cache = ResidentCache(path)
        writer = _Writer(path, family)
        try:
            for w in range(2):
                assert to_json(cache.document(WINDOWS[w])) == _fresh(path, w)
            for op in ops:
                writer.do(*op)
                for w in range(2):
                    # Twice: the second call is served from memory, and must still agree.
                    for _ in range(2):
                        assert to_json(cache.document(WINDOWS[w])) == _fresh(path, w)
        finally:
            writer.conn.close()
            cache.close()


@settings(max_examples=25, deadline=None)
@given(steps)
def test_native_store_same_bytes_as_a_fresh_compile(ops: list[tuple[str, float, int, int]]) -> None:
    _check_sqlite("native", ops)


@settings(max_examples=25, deadline=None)
@given(steps)
def test_screenpipe_store_same_bytes_as_a_fresh_compile(
    ops: list[tuple[str, float, int, int]],
) -> None:
    _check_sqlite("screenpipe", ops)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(5, 40), min_size=1, max_size=4))
def test_export_file_same_bytes_as_a_fresh_compile(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.json"
        write_aw_export(path, _day(20))
        cache = ResidentCache(path)
        try:
            assert to_json(cache.document(WINDOWS[0])) == _fresh(path, 0)
            for n in sizes:
                # A new export replaces the old file, as a download does.
                write_aw_export(Path(tmp) / "next.json", _day(n))
                os.replace(Path(tmp) / "next.json", path)
                for _ in range(2):
                    assert to_json(cache.document(WINDOWS[0])) == _fresh(path, 0)
        finally:
            cache.close()


def test_an_unchanged_store_is_served_without_reading(tmp_path: Path) -> None:
    path = write_screenpipe(tmp_path / "s.db", _day(30))
    cache = ResidentCache(path)
    try:
        first = cache.document(WINDOWS[0])
        assert cache.document(WINDOWS[0]) is first
        assert cache.stats == {"served": 1, "fingerprint": 0, "digest": 0, "tail": 0, "compiled": 1}
        # A write days later: the window's rows are read and digested, not compiled.
        _Writer(path, "screenpipe").do("append_late", 0, 10, 0)
        assert cache.document(WINDOWS[0]) is first
        assert cache.stats["digest"] == 1 and cache.stats["compiled"] == 1
    finally:
        cache.close()


def test_only_whole_days_are_kept(tmp_path: Path) -> None:
    from actframes.window import Window

    path = write_native(tmp_path / "n.db", _day(30))
    cache = ResidentCache(path)
    try:
        span = Window(T0, T0 + 3_600_000, TZ)
        assert to_json(cache.document(span)) == to_json(compile_window(open_source(path), span))
        cache.document(span)
        assert cache.stats["compiled"] == 2 and cache.stats["served"] == 0
        cache.document(WINDOWS[0])
        cache.document(WINDOWS[0])
        assert cache.stats["compiled"] == 3 and cache.stats["served"] == 1
    finally:
        cache.close()


def test_routines_are_mined_again_only_when_the_store_changes(tmp_path: Path) -> None:
    from actframes.mcp.library import Service

    path = write_native(tmp_path / "n.db", _day(30))
    svc = Service(path, TZ, None, lambda: T0)
    try:
        first = svc.routines(7, DAY, 2)
        assert svc.routines(7, DAY, 2) == first
        stats = svc.store.routines_kept.stats
        assert (stats["served"], stats["fingerprint"], stats["read"], stats["mined"]) == (
            7,
            0,
            7,
            1,
        )
        _Writer(path, "native").do("append", 0, 100, 1)
        svc.routines(7, DAY, 2)
        # Only the changed day is read again (the others: unchanged fingerprints).
        assert (stats["served"], stats["fingerprint"], stats["read"], stats["mined"]) == (
            7,
            6,
            8,
            1,
        )
    finally:
        svc.close()
