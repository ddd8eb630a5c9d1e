"""The AFK state machine: back-dated starts, ends at the next input, no flapping."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from actframes.capture.idle import AfkEnded, AfkStarted, IdleTracker


def test_afk_starts_back_dated_and_ends_at_the_next_input() -> None:
    idle = IdleTracker(180_000, last_input_ms=1_000)
    assert idle.update(100_000, 50_000) is None
    assert idle.update(229_999) is None  # 179.999 s since the last input
    assert idle.update(230_000) == AfkStarted(50_000)
    assert idle.afk and idle.afk_since == 50_000
    assert idle.update(400_000) is None  # still away
    assert idle.update(401_000, 400_500) == AfkEnded(50_000, 400_500)
    assert not idle.afk


def test_older_input_reports_do_not_end_afk() -> None:
    idle = IdleTracker(10_000, last_input_ms=0)
    assert idle.update(20_000) == AfkStarted(0)
    assert idle.update(21_000, 0) is None  # the same input again: not new
    assert idle.afk


def test_input_is_never_in_the_future() -> None:
    idle = IdleTracker(10_000, last_input_ms=0)
    idle.update(5_000, 9_000)
    assert idle.last_input_ms == 5_000


def test_reset_closes_an_open_period() -> None:
    idle = IdleTracker(1_000, last_input_ms=0)
    idle.update(5_000)
    assert idle.reset(7_000) == AfkEnded(0, 7_000)
    assert idle.reset(8_000) is None
    assert idle.last_input_ms == 8_000


def test_threshold_must_be_positive() -> None:
    with pytest.raises(ValueError):
        IdleTracker(0)


@given(
    st.integers(1_000, 300_000),
    st.lists(st.tuples(st.integers(0, 60_000), st.booleans()), max_size=60),
)
def test_periods_are_ordered_disjoint_and_bounded(
    threshold: int, steps: list[tuple[int, bool]]
) -> None:
    idle = IdleTracker(threshold, last_input_ms=0)
    now = 0
    periods: list[tuple[int, int]] = []
    open_start = None
    for gap, typed in steps:
        now += gap
        step = idle.update(now, now if typed else None)
        if isinstance(step, AfkStarted):
            assert open_start is None
            assert now - step.start_ms >= threshold
            open_start = step.start_ms
        elif isinstance(step, AfkEnded):
            assert step.start_ms == open_start and step.end_ms > step.start_ms
            periods.append((step.start_ms, step.end_ms))
            open_start = None
    for (_, e1), (s2, _) in itertools.pairwise(periods):
        assert e1 <= s2
