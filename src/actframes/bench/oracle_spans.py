"""Span arithmetic for the oracle: half-open (start, end) millisecond spans."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable


def union(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(x for x in spans if x[1] > x[0]):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def intersect(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for s1, e1 in a:
        for s2, e2 in b:
            s, e = max(s1, s2), min(e1, e2)
            if s < e:
                out.append((s, e))
    return union(out)


def minus(spans: list[tuple[int, int]], cut: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` without ``cut`` (both merged and sorted)."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        cur = s
        for cs, ce in cut:
            if ce <= cur or cs >= e:
                continue
            if cs > cur:
                out.append((cur, cs))
            cur = max(cur, ce)
        if cur < e:
            out.append((cur, e))
    return out


def split_at(spans: list[tuple[int, int]], points: list[int]) -> list[tuple[int, int]]:
    """Sorted spans cut at the (sorted) points strictly inside them."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        for p in points[bisect_right(points, s) : bisect_left(points, e)]:
            out.append((s, p))
            s = p
        out.append((s, e))
    return out


def bridge(spans: list[tuple[int, int]], blip: int) -> list[tuple[int, int]]:
    """Join sorted spans separated by less than ``blip``."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s - out[-1][1] < blip:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out
