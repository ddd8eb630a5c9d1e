"""Work left with ``sources.base.while_waiting`` (``actframes day`` loads the compiler so)
is done once, by the first screenpipe-style read that waits for its events' query in
another thread, and the read is the same as without it."""

from __future__ import annotations

from pathlib import Path

from actframes.compile.provenance import capture_digest
from actframes.sources.base import idle_work, while_waiting
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.window import day_window

from ..builders import screenpipe_db

WINDOW = day_window("2026-03-10", "UTC")
FRAMES = [(1, "2026-03-10T09:00:00Z", "Code", "a.py"), (2, "2026-03-10T09:05:00Z", "Slack", "x")]
EVENTS = [(1, "2026-03-10T09:01:00Z", "click", "Code"), (2, "2026-03-10T09:06:00Z", "key", "Slack")]


def _digest(db: Path) -> str:
    with ScreenpipeSource(db) as src:
        return capture_digest(src.read(WINDOW.start_ms, WINDOW.end_ms))


def test_a_read_that_waits_does_the_work_once(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", FRAMES, EVENTS)
    plain = _digest(db)
    done: list[int] = []
    while_waiting(lambda: done.append(1))
    try:
        assert _digest(db) == plain
        assert done == [1]
        assert _digest(db) == plain
        assert done == [1]  # taken by the first read only
    finally:
        while_waiting(None)


def test_a_read_without_events_leaves_it_and_none_clears_it(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", FRAMES, schema="old")  # no ui_events table
    done: list[int] = []
    while_waiting(lambda: done.append(1))
    try:
        _digest(db)
        assert done == []  # nothing waited: the work stays for a later read
        while_waiting(None)
        idle_work()
        assert done == []
    finally:
        while_waiting(None)
