from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from actframes.compile.ranges import compact, compact_distinct, compact_within, expand


@pytest.mark.parametrize(
    ("ids", "text"),
    [
        ([], ""),
        ([5], "5"),
        ([1, 2, 3], "1-3"),
        ([101, 102, 140, 145, 141], "101-102,140-141,145"),
        ([3, 1, 2, 2], "1-3"),
    ],
)
def test_compact(ids: list[int], text: str) -> None:
    assert compact(ids) == text


@given(st.lists(st.integers(min_value=0, max_value=10_000)))
def test_expand_inverts_compact(ids: list[int]) -> None:
    assert expand(compact(ids)) == sorted(set(ids))


def _runs(ids: list[int]) -> list[str]:
    runs: list[list[int]] = []
    for i in sorted(set(ids)):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return [str(a) if a == b else f"{a}-{b}" for a, b in runs]


@given(st.lists(st.integers(min_value=0, max_value=12)))
def test_compact_of_dense_ids_with_repeats(ids: list[int]) -> None:
    # Small ranges: mostly one run, often with repeats.
    assert compact(ids) == ",".join(_runs(ids))


# Runs of any length, and more runs than are searched one by one (the rest are scanned).
_blocks = st.lists(
    st.tuples(st.integers(min_value=1, max_value=40), st.integers(min_value=1, max_value=300)),
    max_size=30,
)


@given(_blocks, st.none() | st.integers(min_value=1, max_value=30), st.randoms())
def test_compact_within_many_runs(
    blocks: list[tuple[int, int]], max_runs: int | None, rnd: random.Random
) -> None:
    ids, at = [], 0
    for skip, length in blocks:
        at += skip
        ids += range(at, at + length)
        at += length
    rnd.shuffle(ids)
    want = _runs(ids)
    got = compact_within(ids, max_runs)
    assert got == (None if max_runs is not None and len(want) > max_runs else ",".join(want))


@given(st.sets(st.integers(min_value=-50, max_value=400)), st.randoms())
def test_compact_of_distinct_ids_is_compact(ids: set[int], rnd: random.Random) -> None:
    # Distinct ids in any order (a frame's events come column by column), few runs or
    # many: the text of compact, which looks for repeats.
    listed = sorted(ids)
    rnd.shuffle(listed)
    assert compact_distinct(listed) == compact(listed)
