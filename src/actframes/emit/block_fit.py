"""Whether a context block with k frame lines fits its budget, from each line's counts.

``to_context`` bisects for the largest k whose block fits (about log2 of the frames
probes). Joined and counted whole, every probe joins, splits and looks up each line
again; here each line's bytes and tokens are counted once, and a probe adds prefix sums
over the lines in rank order (the sums do not depend on the lines' order). The answer is
``token_count.fits`` of the block's text: o200k's pre-tokenizer ends a piece at each
newline before a line that starts a segment (``token_count.starts_segment``), so when
every line after the fixed head starts one, the block's count is the head's count plus
each later line's own (with its newline). A line that does not start one makes ``fits``
answer None: the caller counts the text whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate

from .token_count import count_tokens, line_tokens, starts_segment


class BlockFit:
    """Counts of a block ``head + around(k)[:1] + k frame lines + around(k)[1:]``, joined
    by newlines and ended by one (``context._assemble``): ``ranked``, the frame lines in
    rank order; ``around(k)``, the frames line and the omitted lines of k lines shown."""

    def __init__(
        self,
        head: Sequence[str],
        ranked: Sequence[str],
        around: Callable[[int], list[str]],
    ) -> None:
        self._head = head
        self._ranked = ranked
        self._around = around
        self._ok = all(map(starts_segment, ranked))
        self._head_bytes = sum(map(len, map(str.encode, head))) + len(head)
        self._bytes = [0, *accumulate(map(len, map(str.encode, ranked)))]
        self._head_tokens: int | None = None
        self._tokens: list[int] | None = None

    def fits(self, k: int, budget: int) -> bool | None:
        """Whether the block with the first ``k`` ranked lines is at most ``budget``
        tokens; None when the lines do not split as the counts assume."""
        extra = self._around(k)
        if not self._ok or not all(map(starts_segment, extra)):
            return None
        size = self._head_bytes + self._bytes[k] + k + sum(map(len, map(str.encode, extra)))
        size += len(extra)  # the newlines
        if size <= budget:  # every token covers at least one byte
            return True
        if self._tokens is None:
            self._head_tokens = count_tokens("\n".join(self._head) + "\n") if self._head else 0
            self._tokens = [0, *accumulate(line_tokens(self._ranked))]
        assert self._head_tokens is not None
        total = self._head_tokens + self._tokens[k]
        return total + sum(line_tokens(extra)) <= budget


def largest(n: int, fits_with: Callable[[int], bool]) -> int:
    """The largest k in 0..n with ``fits_with(k)``, for a test that only grows with k."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits_with(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo
