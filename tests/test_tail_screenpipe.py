"""Incremental today on a screenpipe-style store: rows appended at its end are read from the
cut on (the raw rows before the cut keep their mark), and every answer is the bytes of a
fresh compile; rows inserted before the cut, edits and deletions make it read whole."""

from __future__ import annotations

import sqlite3
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.api import compile_window
from actframes.emit.json_out import to_json
from actframes.model import InputEvent, Snapshot
from actframes.resident import ResidentCache
from actframes.simulate import SimDay, write_screenpipe
from actframes.simulate.writers import format_ts
from actframes.sources import open_source
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.tail import CUT_SLACK_MS

from .tail_days import LATE_MS, T0, TZ, WINDOW, first_rows
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
            if what in ("frame", "late_frame", "late_odd_frame", "offset_frame"):
                stamp = format_ts(at)
                if what == "late_odd_frame":
                    # A leading space: text no date's index range holds, which every
                    # read takes from the odd rows (and parses, and places by instant).
                    stamp = " " + stamp
                elif what == "offset_frame":
                    # Local time 5 h behind UTC: its text orders hours before the rows
                    # of its instant (a tail read must still find it).
                    local = datetime.fromtimestamp(at / 1000, timezone(timedelta(hours=-5)))
                    stamp = local.isoformat(timespec="milliseconds")
                self.conn.execute(
                    "INSERT INTO frames (id, video_chunk_id, offset_index, timestamp, name,"
                    " app_name, window_name, focused, device_name)"
                    " VALUES (?,1,0,?,'v.mp4',?,?,1,'')",
                    (self._next_id("frames"), stamp, APPS[app], f"w{secs % 3}"),
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


OPS = [
    "frame", "frame", "click", "late_frame", "late_click", "edit", "delete",
    "late_odd_frame", "offset_frame",
]  # fmt: skip
steps = st.lists(
    st.tuples(
        st.sampled_from(OPS),
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


def test_an_odd_row_inserted_before_the_cut_makes_it_read_whole(tmp_path: Path) -> None:
    """Rows no date holds are read for every window: one inserted before the cut changes
    the mark (it was once kept from an earlier state of the store)."""
    path = write_screenpipe(tmp_path / "store.db", _day(60))
    cache = ResidentCache(path)
    writer = _Writer(path)
    try:
        cache.document(WINDOW)
        for op in ("frame", "frame", "late_odd_frame", "frame"):
            writer.do(op, 5, 1)
            assert to_json(cache.document(WINDOW)) == _fresh(path), op
        assert cache.stats["compiled"] == 2, cache.stats
    finally:
        writer.conn.close()
        cache.close()


def test_rows_whose_text_orders_before_the_tail_are_still_read(tmp_path: Path) -> None:
    """A tail read skips the text before its start only while every settled row has a UTC
    timestamp: a row written in local time (text hours before its instant) is found."""
    path = write_screenpipe(tmp_path / "store.db", _day(60))
    src = ScreenpipeSource(path)
    cache = ResidentCache(path)
    writer = _Writer(path)
    try:
        cache.document(WINDOW)
        cut = writer._newest() - CUT_SLACK_MS
        utc_mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
        assert utc_mark is not None and utc_mark.in_utc
        writer.do("offset_frame", 2, 2)  # its instant: after the newest row
        offset_mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
        assert offset_mark is not None and not offset_mark.in_utc
        tails = cache.stats["tail"]
        for i in range(8):
            writer.do("frame" if i % 2 else "click", 3, i % 3)
            assert to_json(cache.document(WINDOW)) == _fresh(path), i
        assert cache.stats["tail"] >= tails + 6, cache.stats
    finally:
        writer.conn.close()
        src.close()
        cache.close()


def test_a_write_between_the_marks_connections_is_seen(tmp_path: Path) -> None:
    """The mark runs on a second connection beside the tail read: an edit before the cut
    committed just as the read's transaction opens (after the second connection's) is
    caught, not paired with a mark of the state before it."""
    from actframes.tail import cut_of

    path = write_screenpipe(tmp_path / "store.db", _day(60))
    writer = _Writer(path)
    writer.conn.execute("PRAGMA journal_mode=WAL")  # as screenpipe's: readers never block it
    src = ScreenpipeSource(path)
    try:
        cut = cut_of(src.read(WINDOW.start_ms, WINDOW.end_ms), WINDOW)
        assert cut is not None
        mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
        calm = src.settled_read(WINDOW.start_ms, WINDOW.end_ms, cut, mark, cut)
        assert calm is not None and calm[1]() == mark  # nothing written: it stands
        edits: list[str] = []

        def edit_at_begin(sql: str) -> None:
            if sql == "BEGIN" and not edits:
                edits.append(sql)
                writer.do("edit", 7, 0)

        src._conn.set_trace_callback(edit_at_begin)
        got = src.settled_read(WINDOW.start_ms, WINDOW.end_ms, cut, mark, cut)
        src._conn.set_trace_callback(None)
        assert edits and (got is None or got[1]() is None)
    finally:
        writer.conn.close()
        src.close()


def test_the_mark_is_under_way_when_the_tail_read_comes_back(tmp_path: Path) -> None:
    """The mark's thread has started on the mark (not merely been given it) by the time
    the tail is read and handed back: it need not ask for the interpreter's lock while
    the caller compiles."""
    from actframes.tail import cut_of

    path = write_screenpipe(tmp_path / "store.db", _day(60))
    src = ScreenpipeSource(path)
    try:
        cut = cut_of(src.read(WINDOW.start_ms, WINDOW.end_ms), WINDOW)
        assert cut is not None
        mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
        for _ in range(5):
            got = src.settled_read(WINDOW.start_ms, WINDOW.end_ms, cut, mark, cut)
            assert got is not None and src._tails is not None
            pending = src._tails._pending
            assert pending is not None and (pending.running() or pending.done())
            assert got[1]() == mark
    finally:
        src.close()


YESTERDAY = "2026-03-09"
Y0 = T0 - 86_400_000  # 09:00Z the day before DAY: in the read's ranges, before its start


def _two_days() -> list[SimDay]:
    """DAY's rows after 60 of the day before (ids after theirs)."""
    before = [Snapshot(i + 1, Y0 + i * 60_000, APPS[i % 3], f"y{i}") for i in range(60)]
    clicks = [InputEvent(i + 1, Y0 + 500 + i * 60_000, "click", APPS[i % 3]) for i in range(60)]
    today = _day(60)
    today.snapshots[:] = [s._replace(row_id=s.row_id + 60) for s in today.snapshots]
    today.events[:] = [e._replace(event_id=e.event_id + 60) for e in today.events]
    return [SimDay(YESTERDAY, TZ, ("",), before, clicks, []), today]


def _edit_yesterday(conn: sqlite3.Connection, what: str, row: int) -> None:
    """Edit one of the first day's rows (ids 1-60)."""
    rid = row % 60 + 1
    with conn:
        if what == "y_app":  # not in DAY's document: DAY's reads drop the row by its text
            conn.execute("UPDATE frames SET app_name = 'Zed' WHERE id = ?", (rid,))
        elif what == "y_click_app":
            conn.execute("UPDATE ui_events SET app_name = 'Zed' WHERE id = ?", (rid,))
        elif what == "y_into_day":  # moved to DAY, before any cut
            at = format_ts(T0 - 60_000 + rid * 100)
            conn.execute("UPDATE frames SET timestamp = ? WHERE id = ?", (at, rid))
        elif what == "y_offset":  # text of the day before, instant of DAY (local time)
            local = datetime.fromtimestamp(
                (T0 - 3_600_000 + rid) / 1000, timezone(-timedelta(hours=12))
            )
            stamp = local.isoformat(timespec="milliseconds")
            conn.execute("UPDATE ui_events SET timestamp = ? WHERE id = ?", (stamp, rid))


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["frame", "click", "y_app", "y_click_app", "y_into_day", "y_offset"]),
            st.integers(0, 400),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_rows_of_the_day_before_change_the_mark_only_when_they_can_count(
    ops: list[tuple[str, int]],
) -> None:
    """The mark skips rows with a UTC timestamp before the read's start (every read drops
    them by their text): edits that keep them there are served from the tail; a row
    moved into the day, or given another offset, is read whole. Every answer is the bytes
    of a fresh compile."""
    with tempfile.TemporaryDirectory() as tmp:
        path = write_screenpipe(Path(tmp) / "store.db", _two_days())
        cache = ResidentCache(path)
        writer = _Writer(path)
        try:
            assert to_json(cache.document(WINDOW)) == _fresh(path)
            for what, n in ops:
                if what in ("frame", "click"):
                    writer.do(what, n % 20, n % 3)
                else:
                    _edit_yesterday(writer.conn, what, n)
                assert to_json(cache.document(WINDOW)) == _fresh(path), (what, n)
        finally:
            writer.conn.close()
            cache.close()


def test_an_edit_of_the_day_before_keeps_the_tail(tmp_path: Path) -> None:
    path = write_screenpipe(tmp_path / "store.db", _two_days())
    cache = ResidentCache(path)
    writer = _Writer(path)
    try:
        cache.document(WINDOW)
        writer.do("frame", 5, 0)
        cache.document(WINDOW)  # a whole read, then marks from the tail on
        tails = cache.stats["tail"]
        for i in range(4):
            _edit_yesterday(writer.conn, ("y_app", "y_click_app")[i % 2], i)
            writer.do("frame", 5, i % 3)
            assert to_json(cache.document(WINDOW)) == _fresh(path), i
        assert cache.stats["tail"] == tails + 4, cache.stats
    finally:
        writer.conn.close()
        cache.close()


def test_a_rendering_made_beside_the_mark_is_a_fresh_documents(tmp_path: Path) -> None:
    """A context block asked with today's document is made from a tail's compile before
    the mark is known: it is kept only when the mark held."""
    from actframes.emit.context import to_context

    path = write_screenpipe(tmp_path / "store.db", _day(60))
    cache = ResidentCache(path)
    writer = _Writer(path)

    def block(doc: Any) -> str:
        return to_context(doc, 2_000)

    def fresh_block() -> str:
        src = open_source(path)
        try:
            return block(compile_window(src, WINDOW))
        finally:
            src.close()

    try:
        cache.render(WINDOW, None, "ctx", block)
        for op in ("frame", "click", "frame", "edit", "frame", "late_frame", "frame"):
            writer.do(op, 4, 2)
            assert cache.render(WINDOW, None, "ctx", block) == fresh_block(), op
        assert cache.stats["tail"] >= 3, cache.stats
    finally:
        writer.conn.close()
        cache.close()


def test_the_mark_a_verdict_moves_on_to_is_a_fresh_sources(tmp_path: Path) -> None:
    """When the cut moves on, the verdict's mark at the next cut (its digest reuses the
    part before the cut's hour, its UTC flag looks only between the cuts) is the mark a
    fresh source takes there: within an hour and across one, with and without a row
    between the cuts whose text is in local time."""
    path = write_screenpipe(tmp_path / "store.db", _day(60))  # 09:00 to 09:07 UTC
    writer = _Writer(path)
    try:
        for local_row in (False, True):
            if local_row:  # its text orders at 09:03 (its instant is 08:03 UTC)
                with writer.conn:
                    writer.conn.execute(
                        "INSERT INTO frames (id, video_chunk_id, offset_index, timestamp,"
                        " name, app_name, window_name, focused, device_name)"
                        " VALUES (999, 1, 0, '2026-03-10T09:03:00.000+01:00', 'v.mp4',"
                        " 'Code', 'local', 1, '')"
                    )
            for cut, nxt in ((T0 + 120_000, T0 + 300_000), (T0 - 1_800_000, T0 + 300_000)):
                src = ScreenpipeSource(path)
                try:
                    mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
                    got = src.settled_read(WINDOW.start_ms, WINDOW.end_ms, cut, mark, nxt)
                    assert got is not None
                    moved = got[1]()
                finally:
                    src.close()
                fresh_src = ScreenpipeSource(path)
                try:
                    fresh = fresh_src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, nxt)
                finally:
                    fresh_src.close()
                assert moved is not None and moved == fresh, (local_row, cut)
                assert fresh.in_utc is not local_row
    finally:
        writer.conn.close()


def _hd_marker(conn: sqlite3.Connection, at: int) -> int:
    """One of screenpipe's HD recording markers (SPEC.md §1.2c): a chunk and offset,
    focused, no app, no snapshot, no capture trigger."""
    rid = int(conn.execute("SELECT max(id) FROM frames").fetchone()[0]) + 1
    with conn:
        conn.execute(
            "INSERT INTO frames (id, video_chunk_id, offset_index, timestamp, focused,"
            " device_name) VALUES (?, 7, 0, ?, 1, 'monitor_1')",
            (rid, format_ts(at)),
        )
    return rid


def test_hd_markers_keep_the_tail_and_their_note(tmp_path: Path) -> None:
    """The HD note comes from rows: kept while its marker lies before the cut, taken from
    the tail when the marker is new, gone with a marker deleted from the tail; the tail
    read serves throughout, each answer a fresh compile's bytes."""
    from actframes.sources.screenpipe.frames import HD_NOTE

    path = write_screenpipe(tmp_path / "store.db", _day(60))
    conn = sqlite3.connect(path)
    conn.executescript(
        "ALTER TABLE frames ADD COLUMN snapshot_path TEXT;"
        " ALTER TABLE frames ADD COLUMN capture_trigger TEXT;"
    )
    _hd_marker(conn, T0 + 30_000)  # early in the day: before every cut
    cache = ResidentCache(path)
    writer = _Writer(path)
    try:
        first = cache.document(WINDOW)
        assert HD_NOTE in first["blind_spots"]
        for i in range(6):
            writer.do("frame", 5, i % 3)
            assert to_json(cache.document(WINDOW)) == _fresh(path)
        tail = cache.stats["tail"]
        assert tail >= 5, cache.stats

        with conn:
            conn.execute("DELETE FROM frames WHERE id = (SELECT min(id) FROM frames"
                         " WHERE app_name IS NULL)")  # fmt: skip
        assert HD_NOTE not in cache.document(WINDOW)["blind_spots"]  # read whole
        for i in range(3):
            writer.do("frame", 5, i % 3)
        late = _hd_marker(conn, writer._newest() + 1_000)  # after the cut: in the tail
        got = cache.document(WINDOW)
        assert HD_NOTE in got["blind_spots"] and to_json(got) == _fresh(path)
        writer.do("frame", 5, 0)
        assert to_json(cache.document(WINDOW)) == _fresh(path)
        with conn:
            conn.execute("DELETE FROM frames WHERE id = ?", (late,))
        writer.do("frame", 5, 1)
        got = cache.document(WINDOW)
        assert HD_NOTE not in got["blind_spots"] and to_json(got) == _fresh(path)
        assert cache.stats["tail"] == tail + 3, cache.stats  # all but the read after the delete
    finally:
        writer.conn.close()
        conn.close()
        cache.close()
