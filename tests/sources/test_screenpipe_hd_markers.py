"""screenpipe's HD recorder (upstream `hd_recorder.rs`, fb470dc08, 2026-05-30, v2.4.298)
indexes its video with one frame per monitor per second, inserted when the chunk is
finished: a chunk and offset, ``focused = 1``, no app, no snapshot, no capture trigger.
They are not rejected rows, earn no time, and the document says HD recording was on."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.api import compile_path
from actframes.emit.json_out import to_json
from actframes.resident import ResidentCache
from actframes.sources.screenpipe.frames import HD_NOTE

from ..tail_days import T0 as TAIL_T0
from ..tail_days import WINDOW, fresh
from .screenpipe_summer import SummerStore
from .screenpipe_versions import NEWEST, Store, make_day, stamp, write_day
from .test_screenpipe_versions import DAY, T0, assert_input, assert_time

HOUR = 3_600_000


def hd_meeting(store: Store, start_ms: int, seconds: int) -> int:
    """One HD chunk per monitor over ``seconds``, its markers written after it (ids later
    than the frames around them). Returns how many markers were written."""
    w = SummerStore(store)
    for mon in ("monitor_1", "monitor_2"):
        chunk = w.hd_chunk(mon, start_ms)
        for i in range(seconds):
            w.hd_marker(chunk, i, start_ms + i * 1000, mon)
    store.conn.commit()
    return 2 * seconds


@pytest.mark.parametrize("setup", ["single", "two_monitors"])
def test_hd_markers_are_not_rejected_and_earn_no_time(tmp_path: Path, setup: str) -> None:
    day = make_day(seed=11, start_ms=T0)
    store = Store(tmp_path / "db.sqlite", NEWEST)
    truth = write_day(store, day, setup, 30_000)
    store.write_input(day)
    store.conn.commit()
    before = compile_path(store.path, DAY, "UTC")
    assert hd_meeting(store, T0 + 10 * 60_000, 300) == 600
    store.close()
    doc = compile_path(store.path, DAY, "UTC")
    assert_time(doc, truth)
    assert_input(doc, day)
    assert doc["frames"] == before["frames"]
    assert HD_NOTE in doc["blind_spots"]
    assert not any("empty app name" in str(r) for r in doc["rejected_rows"])
    assert doc["rejected_rows"] == before["rejected_rows"]


def test_a_frame_without_app_and_trigger_but_no_chunk_is_still_rejected(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite", NEWEST)
    store.capture_event(T0, "monitor_1", "Code", "a.py", None, "app_switch")
    store.conn.execute(
        "INSERT INTO frames (offset_index, timestamp, focused, device_name)"
        " VALUES (0, ?, 1, 'monitor_1')",
        (stamp(T0 + 5000),),
    )
    store.conn.commit()
    store.close()
    doc = compile_path(store.path, DAY, "UTC")
    assert HD_NOTE not in doc["blind_spots"]
    assert "empty app name" in str(doc["rejected_rows"])


def test_today_from_the_tail_with_hd_markers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 2)
    store = Store(tmp_path / "db.sqlite", NEWEST)
    first = make_day(seed=3, start_ms=TAIL_T0 - 3 * HOUR)
    write_day(store, first, "two_monitors", 30_000)
    store.write_input(first)
    store.conn.commit()
    cache = ResidentCache(store.path)
    try:
        assert to_json(cache.document(WINDOW)) == fresh(store.path)
        later = make_day(seed=3, start_ms=TAIL_T0)
        write_day(store, later, "two_monitors", 30_000)
        hd_meeting(store, TAIL_T0 + 5 * 60_000, 120)
        store.write_input(later)
        store.conn.commit()
        assert to_json(cache.document(WINDOW)) == fresh(store.path)
    finally:
        cache.close()
        store.close()
