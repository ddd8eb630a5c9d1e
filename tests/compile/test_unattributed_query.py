"""Unattributed input too scattered to list stays exact: the document says "query" and
verify.unattributed_ids lists the ids from the store."""

from __future__ import annotations

from pathlib import Path

from actframes.api import compile_day
from actframes.compile.constants import BY_QUERY, UNATTRIBUTED_MAX_RUNS
from actframes.compile.ranges import expand
from actframes.model import InputEvent, Snapshot
from actframes.simulate import SimDay, write_native
from actframes.sources import open_source
from actframes.verify import unattributed_ids

DAY, TZ = "2026-03-10", "UTC"
T0 = 1_773_132_000_000  # 2026-03-10T08:40:00Z


def _store(tmp_path: Path, scattered: int) -> Path:
    snaps = [Snapshot(i + 1, T0 + i * 10_000, "Code", "main.py") for i in range(600)]
    # Every other event names an app no screen shows: 2 * scattered events, `scattered`
    # unattributed ones, none adjacent in id, so each is a range of its own.
    events = [
        InputEvent(k + 1, T0 + 1_000 + k * 1_000, "key", "Slack" if k % 2 else "Code")
        for k in range(2 * scattered)
    ]
    return write_native(tmp_path / "s.db", SimDay(DAY, TZ, ("",), snaps, events, []))


def test_few_unattributed_events_are_listed(tmp_path: Path) -> None:
    src = open_source(_store(tmp_path, 40))
    try:
        doc = compile_day(src, DAY, TZ)
        listed = doc["coverage"]["unattributed_input"]["evidence"]
        assert expand(listed) == list(range(2, 81, 2))
        assert unattributed_ids(doc, src) == expand(listed)
    finally:
        src.close()


def test_too_many_ranges_point_to_a_query_that_lists_them_exactly(tmp_path: Path) -> None:
    n = UNATTRIBUTED_MAX_RUNS + 1
    src = open_source(_store(tmp_path, n))
    try:
        doc = compile_day(src, DAY, TZ)
        un = doc["coverage"]["unattributed_input"]
        assert un["evidence"] == BY_QUERY and un["events"] == n
        ids = unattributed_ids(doc, src)
        assert ids == list(range(2, 2 * n + 1, 2))
        counted = [i for f in doc["frames"] for i in expand(f["evidence"]["events"])]
        assert sorted(counted + ids) == list(range(1, 2 * n + 1))
    finally:
        src.close()
