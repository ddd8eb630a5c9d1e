from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from actframes.compile.ranges import compact, expand


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


@given(st.lists(st.integers(min_value=0, max_value=12)))
def test_compact_of_dense_ids_with_repeats(ids: list[int]) -> None:
    # Small ranges: mostly one run, often with repeats (the path that skips the set).
    want = sorted(set(ids))
    runs = []
    for i in want:
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    assert compact(ids) == ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
