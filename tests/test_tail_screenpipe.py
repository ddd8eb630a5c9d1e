"""Incremental today on a screenpipe-style store: rows appended at its end are read from the
cut on (the raw rows before the cut keep their mark), and every answer is the bytes of a
fresh compile; rows inserted before the cut, edits and deletions make it read whole."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.emit.json_out import to_json
from actframes.resident import ResidentCache
from actframes.simulate import SimDay, write_screenpipe
from actframes.simulate.writers import format_ts

from .tail_days import LATE_MS, WINDOW, first_rows
from .tail_days import fresh as _fresh

APPS = ["Code", "Slack", "Google Chrome"]


def _day(n: int) -> SimDay:
    return first_rows(n, APPS)


class _Writer:
    """Writes frames and ui_events as screenpipe does: plain SQL, each step committed."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path)

    def _newest(self) -> int:
        from actframes.timeparse import parse_iso_ms

        return parse_iso_ms(self.conn.execute("SELECT max(timestamp) FROM frames").fetchone()[0])

    def _next_id(self, table: str) -> int:
        return int(self.conn.execute(f"SELECT max(id) FROM {table}").fetchone()[0]) + 1

    def do(self, what: str, secs: int, app: int) -> None:
        at = self._newest() + secs * 1_000
        if what.startswith("late_"):
            at = self._newest() - LATE_MS
        with self.conn:
            if what in ("frame", "late_frame"):
                self.conn.execute(
                    "INSERT INTO frames (id, video_chunk_id, offset_index, timestamp, name,"
                    " app_name, window_name, focused, device_name)"
                    " VALUES (?,1,0,?,'v.mp4',?,?,1,'')",
                    (self._next_id("frames"), format_ts(at), APPS[app], f"w{secs % 3}"),
                )
            elif what in ("click", "late_click"):
                self.conn.execute(
                    "INSERT INTO ui_events (id, timestamp, event_type, app_name, click_count)"
                    " VALUES (?,?,'click',?,1)",
                    (self._next_id("ui_events"), format_ts(at + 200), APPS[app]),
                )
            elif what == "edit":
                self.conn.execute(
                    "UPDATE frames SET window_name = ? WHERE id = (SELECT min(id) FROM frames)",
                    (f"edited {secs}",),
                )
            elif what == "delete":
                self.conn.execute(
                    "DELETE FROM ui_events WHERE id = (SELECT min(id) FROM ui_events)"
                )


steps = st.lists(
    st.tuples(
        st.sampled_from(["frame", "frame", "click", "late_frame", "late_click", "edit", "delete"]),
        st.integers(0, 400),
        st.integers(0, 2),
    ),
    min_size=1,
    max_size=10,
)


@settings(max_examples=25, deadline=None)
@given(steps)
def test_every_answer_is_the_bytes_of_a_fresh_compile(ops: list[tuple[str, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write_screenpipe(Path(tmp) / "store.db", _day(60))
        cache = ResidentCache(path)
        writer = _Writer(path)
        try:
            assert to_json(cache.document(WINDOW)) == _fresh(path)
            for op in ops:
                writer.do(*op)
                assert to_json(cache.document(WINDOW)) == _fresh(path), op
        finally:
            writer.conn.close()
            cache.close()


def test_a_day_recorded_row_by_row_is_compiled_from_its_tail(tmp_path: Path) -> None:
    path = write_screenpipe(tmp_path / "store.db", _day(60))
    cache = ResidentCache(path)
    writer = _Writer(path)
    try:
        cache.document(WINDOW)
        for i in range(12):
            writer.do("frame" if i % 3 else "click", 5, i % 3)
            assert to_json(cache.document(WINDOW)) == _fresh(path)
        assert cache.stats["tail"] >= 10, cache.stats
        writer.do("edit", 1, 0)  # before the cut: read whole
        before = dict(cache.stats)
        assert to_json(cache.document(WINDOW)) == _fresh(path)
        assert cache.stats["tail"] == before["tail"], cache.stats
    finally:
        writer.conn.close()
        cache.close()
