"""Place snapshot rows in the window: order each device's stream and give every row the
time it holds and the time it earns (dwell for point sources, observed span for
interval sources), both cut to the window and, for earned time, to not-away time."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import islice
from operator import itemgetter, lt
from typing import Any

from ..model import Snapshot, Span
from .constants import Rules
from .pieces import Row
from .site import site_of

_TIME_THEN_ID = itemgetter(1, 0)  # (ts_ms, row_id) of a Snapshot
_TIME, _DEVICE = itemgetter(1), itemgetter(5)


def streams(
    snaps: Sequence[Snapshot],
    fields: Sequence[tuple[Any, ...]] | None = None,
    known: tuple[str, int] | None = None,
) -> dict[str, list[Snapshot]]:
    """Rows grouped by device, each sorted by (time, row id) — never by input order.
    ``fields``: the rows' fields as columns (``zip(*snaps)``), when the caller made them.
    ``known``: (device, k) when the first k rows are known to be of that one device and in
    order (a growing window's previous compile found them so): only the rest is looked at."""
    if known is not None and fields and known[1] > 0:
        device, k = known
        devs, ts = fields[5], fields[1]
        if devs[k:].count(device) == len(devs) - k and _in_order(snaps[k - 1 :], ts[k - 1 :]):
            return {device: list(snaps)}
    devices = set(fields[5] if fields else map(_DEVICE, snaps))
    if len(devices) == 1:  # one stream, the usual case: no grouping row by row
        # As the reader delivers them: the sort would change nothing.
        if _in_order(snaps, fields[1] if fields else None):
            return {devices.pop(): list(snaps)}
        return {devices.pop(): sorted(snaps, key=_TIME_THEN_ID)}
    out: dict[str, list[Snapshot]] = {}
    for s in snaps:
        out.setdefault(s.device, []).append(s)
    for rows in out.values():
        if not _in_order(rows):
            rows.sort(key=_TIME_THEN_ID)
    return dict(sorted(out.items()))


def one_in_order(by_device: dict[str, list[Snapshot]], snaps: Sequence[Snapshot]) -> bool:
    """Whether ``streams`` found one stream, the rows in their own order (the usual case)."""
    return len(by_device) == 1 and next(iter(by_device.values())) == snaps


def _in_order(snaps: Sequence[Snapshot], times: Sequence[int] | None = None) -> bool:
    """Whether ``snaps`` is sorted by (time, row id) already, equal keys allowed: a stable
    sort would then return it unchanged. Times are compared a column at a time (C speed);
    row ids only where times tie, a handful of rows a day. ``times``: the rows' times."""
    ts = list(map(_TIME, snaps)) if times is None else times
    later = list(map(lt, ts, islice(ts, 1, None)))  # later[i]: row i + 1 is later than row i
    i = -1
    while True:  # from one row not later than its predecessor to the next (C speed)
        try:
            i = later.index(False, i + 1)
        except ValueError:
            return True
        if ts[i] != ts[i + 1] or snaps[i][0] > snaps[i + 1][0]:
            return False


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
        self._ends = [s.end_ms for s in self._spans]  # ascending too: the spans are disjoint
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


class _Keys:
    """(site, context key) per (app, URL): a day repeats a few hundred of them, and each
    context key is one shared tuple (sessionize compares keys by identity first)."""

    def __init__(self) -> None:
        self._keys: dict[tuple[str, str | None], tuple[str, str | None]] = {}
        self._of: dict[tuple[str, str | None], tuple[str | None, tuple[str, str | None]]] = {}

    def of(self, app: str, url: str | None) -> tuple[str | None, tuple[str, str | None]]:
        found = self._of.get((app, url))
        if found is None:
            site = site_of(url) if url else None
            found = self._of[(app, url)] = (site, self._keys.setdefault((app, site), (app, site)))
        return found


def place_stream(
    stream: Sequence[Snapshot],
    win_start: int,
    win_end: int,
    away: AwayClock,
    rules: Rules,
    points: bool = False,
    times: Sequence[int] | None = None,
) -> list[Row]:
    """One stream's rows, in order. ``points``: no snapshot has a ``dur_ms`` (the caller
    knows); the rows wholly inside the window then take a shorter path when there is no
    away time — most rows of a day: from the first at or after the window's start to the
    last whose next row starts by its end (a row holds time up to the next row at most).
    ``times``: the stream's times, when the caller has them."""
    ts = list(map(_TIME, stream)) if times is None else list(times)
    nexts: list[int | None] = list(ts)
    del nexts[0]
    nexts.append(None)
    rows: list[Row] = []
    keys = _Keys()
    n = lo = hi = len(stream)
    if points and not away.any and rules.dwell_cap_ms >= 0:
        lo = bisect_left(ts, win_start)
        hi = max(lo, min(bisect_left(ts, win_end), bisect_right(ts, win_end) - 1))
    _place_any(rows, stream, nexts, 0, lo, win_start, win_end, away, rules, keys)
    _place_inside(rows, stream, nexts, lo, hi, rules, keys)
    _place_any(rows, stream, nexts, hi, n, win_start, win_end, away, rules, keys)
    return rows


def _place_inside(
    rows: list[Row],
    stream: Sequence[Snapshot],
    nexts: list[int | None],
    lo: int,
    hi: int,
    rules: Rules,
    keys: _Keys,
) -> None:
    """``_place_any`` for point rows [lo, hi) that lie wholly inside the window, with no
    away time: each holds the time to the next row, capped, or none before a session
    gap, and earns all it holds."""
    append, new, keys_of = rows.append, object.__new__, keys.of
    cap_ms, gap_ms = rules.dwell_cap_ms, rules.session_gap_ms
    last_app: object = keys  # no app or URL is this object: the first row looks up
    last_url: object = keys
    site: str | None = None
    key: tuple[str, str | None] = ("", None)
    for s, nxt in zip(islice(stream, lo, hi), islice(nexts, lo, hi), strict=True):
        ts = s[1]
        gap = nxt - ts  # type: ignore[operator]  # (every row here has a next row)
        if gap > gap_ms:
            gap_after, end = True, ts
        else:
            gap_after, end = False, ts + (gap if gap < cap_ms else cap_ms)
        app, url = s[2], s[4]
        if app is not last_app or url is not last_url:
            (site, key), last_app, last_url = keys_of(app, url), app, url
        r = new(Row)  # (as in _place_any)
        r.snap = s
        r.site = site
        r.start_ms = ts
        r.end_ms = end
        r.credit_ms = end - ts
        r.gap_after = gap_after
        r.key = key
        r.owner = None
        append(r)


def _place_any(
    rows: list[Row],
    stream: Sequence[Snapshot],
    nexts: list[int | None],
    lo: int,
    hi: int,
    win_start: int,
    win_end: int,
    away: AwayClock,
    rules: Rules,
    keys: _Keys,
) -> None:
    """Rows [lo, hi) of the stream, each with the time it holds and earns, appended to
    ``rows`` (rows wholly outside the window are left out)."""
    if lo >= hi:
        return
    append, new, keys_of = rows.append, object.__new__, keys.of
    cap_ms, gap_ms = rules.dwell_cap_ms, rules.session_gap_ms
    overlap = away.overlap if away.any else None
    # Rows come in time order: away spans that end before a row's start end before every
    # later row's too, so one index walks them, and a row that meets none costs no search.
    away_ends, away_starts = away._ends, away._starts
    n_away, k_away = len(away_ends), 0
    # Heartbeats repeat the row before (the same string objects, from the reader): their
    # app and URL are looked up once.
    last_app: object = keys  # no app or URL is this object: the first row looks up
    last_url: object = keys
    site: str | None = None
    key: tuple[str, str | None] = ("", None)
    for s, nxt in zip(islice(stream, lo, hi), islice(nexts, lo, hi), strict=True):
        ts, dur = s[1], s[6]  # ts_ms, dur_ms (by index: named access costs per row)
        if dur is None:
            # Point source: the row holds the time to the next row, capped (dwell).
            if nxt is None:
                gap_after, hold_end = False, ts
            else:
                gap = nxt - ts
                gap_after = gap > gap_ms
                hold_end = ts if gap_after else ts + (gap if gap < cap_ms else cap_ms)
        else:
            # Interval source: the observed span, cut where the next observation begins.
            raw_end = ts + max(dur, 0)
            hold_end = raw_end if nxt is None else max(min(raw_end, nxt), ts)
            gap_after = nxt is not None and nxt - raw_end > gap_ms
        if ts >= win_end or (ts < win_start and hold_end <= win_start):
            continue
        start = ts if ts > win_start else win_start
        end = hold_end if hold_end < win_end else win_end
        if end < start:
            end = start
        if overlap is None:
            credit = end - start
        else:
            while k_away < n_away and away_ends[k_away] <= start:
                k_away += 1
            if k_away == n_away or away_starts[k_away] >= end:
                credit = end - start
            else:
                credit = end - start - overlap(start, end)
        app, url = s[2], s[4]
        if app is not last_app or url is not last_url:
            (site, key), last_app, last_url = keys_of(app, url), app, url
        # Made without a call to Row.__init__ (a Python frame per row, the pass's
        # largest cost): the same fields, stored directly, one statement each (a
        # multiple assignment builds a tuple and unpacks it again).
        r = new(Row)
        r.snap = s
        r.site = site
        r.start_ms = start
        r.end_ms = end
        r.credit_ms = credit
        r.gap_after = gap_after
        r.key = key
        r.owner = None
        append(r)
