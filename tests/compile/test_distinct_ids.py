"""Readers that keep one event per id say so (``Capture.distinct_ids``), and the compiler
then makes each frame's event evidence without looking for repeats: the same bytes as a
compile that looks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from actframes.compile.pipeline import compile_capture
from actframes.simulate import simulate_day, write_screenpipe
from actframes.simulate.writers import write_native
from actframes.sources import open_source
from actframes.window import day_window

DAY, TZ = "2026-03-10", "UTC"


@pytest.mark.parametrize("write", [write_screenpipe, write_native], ids=["screenpipe", "native"])
def test_a_readers_distinct_ids_change_no_byte(
    tmp_path: Path, write: Callable[[Path, object], Path]
) -> None:
    db = write(tmp_path / "store.db", simulate_day(DAY, TZ, seed=3, rows=600, devices=("", "b")))
    window = day_window(DAY, TZ)
    src = open_source(db)
    try:
        cap = src.read(window.start_ms, window.end_ms)
    finally:
        src.close()
    assert cap.distinct_ids
    assert cap.event_columns or cap.events  # (the day has input to attribute)
    vouched = json.dumps(compile_capture(cap, window))
    cap.distinct_ids = False
    assert json.dumps(compile_capture(cap, window)) == vouched
