"""Parts made at once (sources/screenpipe/parallel_parts.py): ``ready`` is called once,
when the other workers' threads are running and before the calling thread's first part (the
settled mark's caller waits for it, so that no thread of the mark starts while it runs
Python)."""

from __future__ import annotations

import threading

from actframes.sources.screenpipe.parallel_parts import made_at_once


def test_ready_is_called_once_the_threads_run_and_before_the_callers_part() -> None:
    caller = threading.get_ident()
    before = threading.active_count()
    both_busy = threading.Barrier(2, timeout=30)  # no part ends before both have begun one
    calls: list[int] = []

    def ready() -> None:
        calls.append(threading.active_count())

    def make(worker: str) -> str:
        if threading.get_ident() == caller:
            assert calls, "the caller's part began before ready"
        both_busy.wait()
        return worker

    made = made_at_once({1: make, 2: make}, ["here", "there"], ready)
    assert calls == [before + 1]
    assert sorted(made.values()) == ["here", "there"]
