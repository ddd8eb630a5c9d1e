"""Compact id ranges for evidence: [101..140, 145] -> "101-140,145"."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress, count, islice, repeat
from operator import ne, sub


def compact(ids: Iterable[int]) -> str:
    text = compact_within(ids, None)
    assert text is not None
    return text


def compact_within(ids: Iterable[int], max_runs: int | None) -> str | None:
    """``compact(ids)``, or None when it would hold more than ``max_runs`` ranges."""
    s = sorted(set(ids))
    if not s:
        return ""
    if s[-1] - s[0] == len(s) - 1:  # one run, the usual case for a frame's rows
        return _run(s[0], s[-1])
    # A run ends where the next id is not one more; the breaks are found in C, so the
    # work in Python is per run, not per id (a day's evidence lists ~100k ids).
    ends = [*compress(count(1), map(ne, map(sub, islice(s, 1, None), s), repeat(1))), len(s)]
    if max_runs is not None and len(ends) > max_runs:
        return None
    out = []
    begin = 0
    for end in ends:
        out.append(_run(s[begin], s[end - 1]))
        begin = end
    return ",".join(out)


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
