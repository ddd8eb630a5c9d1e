"""The bisection's per-line counts (``emit/block_fit.py``) answer as ``fits`` of the
whole block's text would, whatever the lines; and a context block fitted with them is
the block fitted by counting each probe's text whole."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.emit import token_count
from actframes.emit.block_fit import BlockFit, largest
from actframes.emit.context import to_context
from actframes.emit.token_count import fits
from tests.emit.test_token_count import line

lines = st.lists(line, max_size=8)


@settings(max_examples=300, deadline=None)
@given(lines, lines, st.lists(line, min_size=1, max_size=3), st.integers(0, 400))
def test_parts_answer_as_the_whole_text(
    head: list[str], ranked: list[str], around: list[str], budget: int
) -> None:
    token_count._SEGMENT_TOKENS.clear()

    def extra(k: int) -> list[str]:
        return [f"{around[0]} {k}", *around[1:]]

    parts = BlockFit(head, ranked, extra)
    for k in range(len(ranked) + 1):
        text = "\n".join([*head, extra(k)[0], *ranked[:k], *extra(k)[1:]]) + "\n"
        told = parts.fits(k, budget)
        assert told is None or told == fits(text, budget)
        if told is None:  # only a line that does not start a piece of its own declines
            assert not all(token_count.starts_segment(s) for s in [*ranked, *extra(k)])


def test_largest_is_the_last_that_fits() -> None:
    assert largest(10, lambda k: k <= 6) == 6
    assert largest(10, lambda k: False) == 0
    assert largest(0, lambda k: True) == 0


def _whole(text: str, budget: int) -> bool:
    return fits(text, budget)  # not ``fits`` itself: the block counts each probe whole


@settings(max_examples=30, deadline=None)
@given(st.integers(150, 2500))
def test_block_fitted_by_parts_equals_counted_whole(budget: int) -> None:
    from tests.emit.test_context import busy_doc

    doc = busy_doc()
    assert to_context(doc, budget) == to_context(doc, budget, fits_budget=_whole)
