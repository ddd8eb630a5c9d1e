"""Place snapshot rows in the window: order each device's stream and give every row the
time it holds and the time it earns (dwell for point sources, observed span for
interval sources), both cut to the window and, for earned time, to not-away time."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from operator import itemgetter

from ..model import Snapshot, Span
from .constants import Rules
from .pieces import Row
from .site import site_of

_TIME_THEN_ID = itemgetter(1, 0)  # (ts_ms, row_id) of a Snapshot


def streams(snaps: Sequence[Snapshot]) -> dict[str, list[Snapshot]]:
    """Rows grouped by device, each sorted by (time, row id) — never by input order."""
    out: dict[str, list[Snapshot]] = {}
    for s in snaps:
        out.setdefault(s.device, []).append(s)
    for rows in out.values():
        rows.sort(key=_TIME_THEN_ID)
    return dict(sorted(out.items()))


def merge_spans(spans: Sequence[Span]) -> list[Span]:
    merged: list[Span] = []
    for sp in sorted(spans, key=lambda s: (s.start_ms, s.end_ms)):
        if sp.end_ms <= sp.start_ms:
            continue
        if merged and sp.start_ms <= merged[-1].end_ms:
            last = merged[-1]
            merged[-1] = Span(last.start_ms, max(last.end_ms, sp.end_ms))
        else:
            merged.append(sp)
    return merged


class AwayClock:
    """Overlap of any span with the (merged) away periods."""

    def __init__(self, away: Sequence[Span]) -> None:
        self._spans = merge_spans(away)
        self._starts = [s.start_ms for s in self._spans]
        self.any = bool(self._spans)

    def overlap(self, start: int, end: int) -> int:
        if not self._spans or end <= start:
            return 0
        i = max(bisect_right(self._starts, start) - 1, 0)
        total = 0
        while i < len(self._spans) and self._spans[i].start_ms < end:
            sp = self._spans[i]
            lo, hi = max(start, sp.start_ms), min(end, sp.end_ms)
            if hi > lo:
                total += hi - lo
            i += 1
        return total


def place_stream(
    stream: Sequence[Snapshot], win_start: int, win_end: int, away: AwayClock, rules: Rules
) -> list[Row]:
    rows: list[Row] = []
    n = len(stream)
    cap_ms, gap_ms = rules.dwell_cap_ms, rules.session_gap_ms
    overlap = away.overlap if away.any else None
    keys: dict[tuple[str, str | None], tuple[str, str | None]] = {}
    for i, s in enumerate(stream):
        ts = s.ts_ms
        nxt = stream[i + 1].ts_ms if i + 1 < n else None
        if s.dur_ms is None:
            # Point source: the row holds the time to the next row, capped (dwell).
            if nxt is None:
                gap_after, hold_end = False, ts
            else:
                gap = nxt - ts
                gap_after = gap > gap_ms
                hold_end = ts if gap_after else ts + (gap if gap < cap_ms else cap_ms)
        else:
            # Interval source: the observed span, cut where the next observation begins.
            raw_end = ts + max(s.dur_ms, 0)
            hold_end = raw_end if nxt is None else max(min(raw_end, nxt), ts)
            gap_after = nxt is not None and nxt - raw_end > gap_ms
        if ts >= win_end or (ts < win_start and hold_end <= win_start):
            continue
        start = ts if ts > win_start else win_start
        end = hold_end if hold_end < win_end else win_end
        if end < start:
            end = start
        credit = end - start if overlap is None else end - start - overlap(start, end)
        site = site_of(s.url) if s.url else None
        key = keys.setdefault((s.app, site), (s.app, site))
        rows.append(Row(s, site, start, end, credit, gap_after, key))
    return rows
