"""The settled mark's halves on a screenpipe-style store (sources/screenpipe/settled.py): the
rows before the cut's hour are hashed in two parts, at once on two connections in one state
of the store. The mark is the same on one connection or two; an edit or deletion in either
half changes it, also where ids are out of time order; a commit landing between the
connections' transactions is never paired with the mark of the state before it."""

from __future__ import annotations

import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.emit.json_out import to_json
from actframes.model import InputEvent, Snapshot
from actframes.resident import ResidentCache
from actframes.simulate import SimDay, write_screenpipe
from actframes.simulate.writers import format_ts
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.sources.screenpipe import settled as screenpipe_settled
from actframes.sources.screenpipe.timestamps import text_at
from actframes.tail import cut_of

from .tail_days import DAY, T0, TZ, WINDOW
from .tail_days import fresh as _fresh

APPS = ["Code", "Slack", "Google Chrome"]
START = T0 - 3 * 3_600_000  # 06:00Z: rows over eight hours, so the halves hold rows each
HOURS = 8


def _day(ids: str) -> SimDay:
    """A snapshot every 2 minutes and an event every minute; ids in time order
    ("in-order"), the later a row the lower its id ("reversed"), or in order but for
    the events at 12:59 and 13:30, whose ids are far above every other ("far": the row
    halfway by id between the first and last events before the cut's hour, 13:00, is
    then the 13:30 one, outside them), or in order but for the day's first snapshot and
    event, written last ("first-late": the first row's id is above the last one's)."""
    n = HOURS * 30
    snaps = [Snapshot(i + 1, START + i * 120_000, APPS[i % 3], f"t{i % 4}") for i in range(n)]
    events = [
        InputEvent(k + 1, START + 500 + k * 60_000, ("key", "click")[k % 2], APPS[k % 3])
        for k in range(2 * n)
    ]
    if ids == "reversed":
        snaps = [s._replace(row_id=100_000 - s.row_id) for s in snaps]
        events = [e._replace(event_id=100_000 - e.event_id) for e in events]
    elif ids == "far":
        far = {
            T0 + 3 * 3_600_000 + 59 * 60_000 + 500: 1 << 40,
            T0 + 4 * 3_600_000 + 1_800_500: 1 << 39,
        }
        events = [e._replace(event_id=far.get(e.ts_ms, e.event_id)) for e in events]
    elif ids == "first-late":
        snaps[0] = snaps[0]._replace(row_id=len(snaps) + 1)
        events[0] = events[0]._replace(event_id=len(events) + 1)
    return SimDay(DAY, TZ, ("",), snaps, events, [])


@pytest.fixture(params=["in-order", "reversed", "far", "first-late"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = write_screenpipe(tmp_path / "store.db", _day(request.param))
    with sqlite3.connect(path) as conn:  # as screenpipe's: readers keep their snapshots
        conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    return path


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two reading connections for the mark, whatever this machine has."""
    monkeypatch.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 2)


@pytest.fixture
def src(store: Path, two_cores: None) -> Iterator[ScreenpipeSource]:
    with ScreenpipeSource(store) as source:
        yield source


def _cut(src: ScreenpipeSource) -> int:
    cut = cut_of(src.read(WINDOW.start_ms, WINDOW.end_ms), WINDOW)
    assert cut is not None
    return cut


def _verdict(src: ScreenpipeSource, cut: int, mark: object) -> object:
    got = src.settled_read(WINDOW.start_ms, WINDOW.end_ms, cut, mark, cut)
    return None if got is None else got[1]()


def _ts(at_ms: int) -> str:
    return format_ts(at_ms)


# Rows in the first half (07:00Z) and in the second (12:00Z) of the rows before the cut's
# hour; each statement touches the row of the table at that time.
EDITS = {
    "frame_app": "UPDATE frames SET app_name = 'Zed' WHERE timestamp = ?",
    "frame_gone": "DELETE FROM frames WHERE timestamp = ?",
    "event_type": "UPDATE ui_events SET event_type = 'scroll' WHERE timestamp = ?",
    "event_gone": "DELETE FROM ui_events WHERE timestamp = ?",
}
IN_HALVES = {"first": T0 - 2 * 3_600_000, "second": T0 + 3 * 3_600_000}


def test_the_mark_is_split_in_two_halves_made_on_two_connections(src: ScreenpipeSource) -> None:
    """The mark on the main connection alone is the mark made by the two reading
    connections at once, each in its own thread, each making one half (the first part a
    thread makes waits until the other thread has made one: a run that made both halves
    in one thread would fail here, not pass by luck)."""
    cut = _cut(src)
    mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
    assert mark is not None
    seen: dict[int, list[str]] = {}
    meet = threading.Barrier(2, timeout=30)
    real = screenpipe_settled.rows_of

    def half_meets(ranges: list[tuple[str, str]], fp: object) -> bytes:
        part = real(ranges, fp)  # type: ignore[arg-type]
        first = threading.get_ident() not in seen
        seen.setdefault(threading.get_ident(), []).append(repr(ranges))
        if first and len(seen) <= 2:
            meet.wait()
        return part

    screenpipe_settled.rows_of = half_meets  # type: ignore[assignment]
    try:
        assert _verdict(src, cut, mark) == mark
    finally:
        screenpipe_settled.rows_of = real
    assert len(seen) == 2 and len(src._bg_conns) == 2
    hour = text_at(cut + 1000)[:13]  # the halves end by the cut's hour, the hour's part after
    halves = [r for parts in seen.values() for r in parts if not r.startswith(f"[('{hour}")]
    assert len(halves) == 2 and halves[0] != halves[1], seen


@pytest.mark.parametrize("half", sorted(IN_HALVES))
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edit_in_either_half_changes_the_mark(
    src: ScreenpipeSource, store: Path, half: str, edit: str
) -> None:
    cut = _cut(src)
    mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
    assert mark is not None and _verdict(src, cut, mark) == mark
    at = IN_HALVES[half] + (0 if edit.startswith("frame") else 500)
    with sqlite3.connect(store) as writer:
        assert writer.execute(EDITS[edit], (_ts(at),)).rowcount == 1
    writer.close()
    assert _verdict(src, cut, mark) is None
    changed = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
    assert changed is not None and changed != mark and _verdict(src, cut, changed) == changed


def test_a_commit_as_the_third_connection_begins_is_seen(
    src: ScreenpipeSource, store: Path
) -> None:
    """The third connection opens its transaction after the second: an edit committed
    between the two (seen by the third and the tail read, not by the second) is caught,
    never paired with the second's mark of the state before it."""
    cut = _cut(src)
    mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
    assert _verdict(src, cut, mark) == mark
    writer = sqlite3.connect(store)
    edits: list[str] = []

    def edit_at_begin(sql: str) -> None:
        if sql == "BEGIN" and not edits:
            edits.append(sql)
            with writer:
                first = _ts(IN_HALVES["first"])
                writer.execute("UPDATE frames SET app_name = 'Zed' WHERE timestamp = ?", (first,))

    third = src._bg_conn(1)
    third.set_trace_callback(edit_at_begin)
    try:
        assert _verdict(src, cut, mark) is None and edits
    finally:
        third.set_trace_callback(None)
        writer.close()


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(["in-order", "reversed", "far", "first-late"]),
    st.lists(
        st.tuples(st.sampled_from(["append", *sorted(EDITS)]), st.integers(0, HOURS * 60 - 1)),
        min_size=1,
        max_size=6,
    ),
)
def test_every_answer_is_a_fresh_compiles_whatever_the_ids(
    ids: str, ops: list[tuple[str, int]]
) -> None:
    """Appends at the end, edits and deletions anywhere before it, on a day whose ids are
    in time order or not: every answer of the resident cache is the bytes of a fresh
    compile."""
    with tempfile.TemporaryDirectory() as tmp:
        path = write_screenpipe(Path(tmp) / "store.db", _day(ids))
        cache = ResidentCache(path)
        writer = sqlite3.connect(path)
        newest = START + HOURS * 3_600_000
        try:
            assert to_json(cache.document(WINDOW)) == _fresh(path)
            for what, n in ops:
                with writer:
                    if what == "append":
                        newest += 30_000
                        writer.execute(
                            "INSERT INTO frames (video_chunk_id, offset_index, timestamp, name,"
                            " app_name, window_name, focused, device_name)"
                            " VALUES (1, 0, ?, 'v.mp4', 'Code', 'x', 1, '')",
                            (_ts(newest),),
                        )
                    else:  # the row of that minute (frames: of the even minutes)
                        at = START + (n - n % 2) * 60_000 + (0 if what[0] == "f" else 500)
                        writer.execute(EDITS[what], (_ts(at),))
                assert to_json(cache.document(WINDOW)) == _fresh(path), (what, n)
        finally:
            writer.close()
            cache.close()
