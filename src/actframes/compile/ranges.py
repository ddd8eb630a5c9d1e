"""Compact id ranges for evidence: [101..140, 145] -> "101-140,145"."""

from __future__ import annotations

from collections.abc import Iterable


def compact(ids: Iterable[int]) -> str:
    out: list[str] = []
    run_start: int | None = None
    prev = 0
    for i in sorted(set(ids)):
        if run_start is None:
            run_start = prev = i
        elif i == prev + 1:
            prev = i
        else:
            out.append(_run(run_start, prev))
            run_start = prev = i
    if run_start is not None:
        out.append(_run(run_start, prev))
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
