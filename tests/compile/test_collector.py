"""A compile pauses the cyclic garbage collector and leaves it as it found it: on, off,
or after the compile failed."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from actframes.compile.pipeline import compile_capture, compile_pieces
from actframes.model import Capture

from .caps import DAY, cap, seq


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_the_collector_is_paused_during_a_compile_and_on_again_after(
    collector_on: None,
) -> None:
    seen: list[bool] = []

    class Watched(Capture):  # reads its snapshots inside the compile
        __slots__ = ()

        def all_columns(self):  # type: ignore[no-untyped-def]
            seen.append(gc.isenabled())
            return super().all_columns()

    base = cap(seq(("Code", 30), ("Firefox", 30), ("Code", 0)))
    watched = Watched(base.kind, base.snapshots, base.events, has_input=True)
    compile_capture(watched, DAY)
    assert seen and not any(seen)
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_caller_stays_off(collector_on: None) -> None:
    gc.disable()
    compile_capture(cap(seq(("Code", 30), ("Code", 0))), DAY)
    assert not gc.isenabled()


def test_the_collector_is_on_again_after_a_failed_compile(collector_on: None) -> None:
    broken = Capture("screenpipe", snapshots=[object()])  # type: ignore[list-item]
    with pytest.raises(Exception):  # noqa: B017 - any failure will do
        compile_capture(broken, DAY)
    assert gc.isenabled()


def test_a_compile_leaves_nothing_for_the_collector(collector_on: None) -> None:
    # Rows and pieces unlinked after attribution: all a compile drops is freed by
    # reference counting, none of it waits for a collection.
    c = cap(seq(("Code", 30), ("Firefox", 5), ("Code", 30), ("Slack", 400), ("Code", 0)))
    gc.collect()
    gc.disable()
    doc, frames = compile_pieces(c, DAY)
    del doc, frames
    assert gc.collect() == 0
