"""Compact id ranges for evidence: [101..140, 145] -> "101-140,145"."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress, count, islice, repeat
from operator import ne, sub


def compact(ids: Iterable[int]) -> str:
    s = sorted(set(ids))
    if s and s[-1] - s[0] == len(s) - 1:  # one run, the usual case: no further call
        first, last = s[0], s[-1]
        return str(first) if first == last else f"{first}-{last}"
    text = _compact_sorted(s, None)
    assert text is not None
    return text


def compact_distinct(ids: Iterable[int]) -> str:
    """``compact(ids)`` of ids known to be distinct (``Capture.distinct_ids``): sorted,
    with no look for repeats (a frame's events number in the hundreds)."""
    s = sorted(ids)
    if s and s[-1] - s[0] == len(s) - 1:  # one run, the usual case
        first, last = s[0], s[-1]
        return str(first) if first == last else f"{first}-{last}"
    text = _compact_sorted(s, None)
    assert text is not None
    return text


def compact_within(ids: Iterable[int], max_runs: int | None) -> str | None:
    """``compact(ids)``, or None when it would hold more than ``max_runs`` ranges."""
    return _compact_sorted(sorted(set(ids)), max_runs)


def _compact_sorted(s: list[int], max_runs: int | None) -> str | None:
    """``compact_within`` of ids sorted and distinct already."""
    if not s:
        return ""
    if s[-1] - s[0] == len(s) - 1:  # one run, the usual case for a frame's rows
        return _run(s[0], s[-1])
    # A frame's events are a few long runs: each run's end is found by a search from its
    # start, in a few steps (ids that are sorted and distinct keep s[k] - k the same
    # along a run and larger after it).
    out: list[str] = []
    n, begin = len(s), 0
    while begin < n and len(out) < _SEARCHED_RUNS:
        # The rest one run (the last run of a few): its end is the list's, found at once.
        end = n - 1 if s[-1] - s[begin] == n - 1 - begin else _run_end(s, begin)
        out.append(_run(s[begin], s[end]))
        begin = end + 1
    if begin < n:
        # Many short runs (unattributed input): where each ends is found in C, so the
        # work in Python is per run, not per id (a day's evidence lists ~100k ids).
        rest = s[begin:]
        ends = [*compress(count(1), map(ne, map(sub, islice(rest, 1, None), rest), repeat(1)))]
        ends.append(len(rest))
        if max_runs is not None and len(out) + len(ends) > max_runs:
            return None
        begin = 0
        for end in ends:
            out.append(_run(rest[begin], rest[end - 1]))
            begin = end
    if max_runs is not None and len(out) > max_runs:
        return None
    return ",".join(out)


_SEARCHED_RUNS = 8  # past these, the rest of the runs are found by a scan


def _run_end(s: list[int], begin: int) -> int:
    """The index of the last id of the run that starts at ``begin`` (``s`` sorted and
    distinct): steps that double while still in the run, then a bisection."""
    key = s[begin] - begin
    n = len(s)
    last, step = begin, 1  # s[last] is in the run
    while last + step < n and s[last + step] - (last + step) == key:
        last += step
        step *= 2
    hi = min(last + step, n) - 1  # the run ends in [last, hi]
    while last < hi:
        mid = (last + hi + 1) // 2
        if s[mid] - mid == key:
            last = mid
        else:
            hi = mid - 1
    return last


def expand(text: str) -> list[int]:
    """The inverse of ``compact``."""
    ids: list[int] = []
    if not text:
        return ids
    for part in text.split(","):
        lo, sep, hi = part.partition("-")
        if sep and lo:
            ids.extend(range(int(lo), int(hi) + 1))
        else:
            ids.append(int(part))
    return ids


def _run(a: int, b: int) -> str:
    return str(a) if a == b else f"{a}-{b}"
