"""Input attribution: every input event in the window is counted exactly once — in the
frame or interruption whose time span holds it, else as unattributed."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from itertools import compress, count, islice
from operator import attrgetter, itemgetter, ne
from typing import Any

from ..fast.records import Record
from ..model import CLICK, COPY, KEY, PASTE, SCROLL, EventColumn, InputEvent
from .pieces import Piece, Row, Runs

INPUT_FIELDS: dict[str, str] = {
    KEY: "keys",
    CLICK: "clicks",
    SCROLL: "scrolls",
    COPY: "copies",
    PASTE: "pastes",
}


class Unattributed(Record):
    """Input events no frame or interruption took, and the count of events in the window."""

    __slots__ = _fields = ("input", "event_ids", "in_window", "slices", "singles")

    input: dict[str, int]
    event_ids: list[int]
    in_window: int  # every event whose time is in the window
    # Where the unattributed events sit, so a repair can look at just those.
    slices: list[tuple[EventColumn, int, int]]
    singles: list[InputEvent]

    def __init__(
        self,
        input: dict[str, int] | None = None,
        event_ids: list[int] | None = None,
        in_window: int = 0,
        slices: list[tuple[EventColumn, int, int]] | None = None,
        singles: list[InputEvent] | None = None,
    ) -> None:
        self.input = {} if input is None else input
        self.event_ids = [] if event_ids is None else event_ids
        self.in_window = in_window
        self.slices = [] if slices is None else slices
        self.singles = [] if singles is None else singles

    def events(self) -> list[InputEvent]:
        out = list(self.singles)
        for col, i, j in self.slices:
            counts = col.counts
            out += [
                InputEvent(
                    col.ids[k],
                    col.ts[k],
                    col.kind,
                    col.app,
                    col.device,
                    1 if counts is None else counts[k],
                )
                for k in range(i, j)
            ]
        return out

    def forget(self, moved: list[InputEvent]) -> None:
        """Take ``moved`` events out: a repair found where they belong."""
        gone = {e.event_id for e in moved}
        self.event_ids = [i for i in self.event_ids if i not in gone]
        for e in moved:
            name = INPUT_FIELDS[e.kind]
            self.input[name] = self.input.get(name, 0) - e.count


_OWNER = attrgetter("owner")


class _Holds:
    """For one stream: which piece holds each instant, by row."""

    def __init__(self, rows: Sequence[Row]) -> None:
        """``rows`` are one stream's placed rows in (time, row id) order, each claimed by
        its piece (``claim_rows``)."""
        self.starts = [r.start_ms for r in rows]
        self.spans: list[tuple[int, int, Piece]] = []
        n = len(rows)
        for k, r in enumerate(rows):
            owner = r.owner
            assert owner is not None
            end = r.end_ms
            if k + 1 < n and rows[k + 1].owner is owner:
                # Inside one piece the row holds everything up to the next row.
                nxt = rows[k + 1].start_ms
                if nxt > end:
                    end = nxt
            self.spans.append((r.start_ms, end, owner))

    def at(self, t: int) -> Piece | None:
        k = bisect_right(self.starts, t) - 1
        if k < 0:
            return None
        start, end, piece = self.spans[k]
        return piece if (t < end or t == start) else None


Seg = tuple[int, int, Piece]  # [lo, hi) held by the piece


def attribute(
    rows_by_stream: dict[str, list[Row]],
    columns: Sequence[EventColumn],
    win_start: int,
    win_end: int,
    seg_cache: dict[int, Any] | None = None,
    runs_by_stream: dict[str, Runs] | None = None,
) -> Unattributed:
    """``rows_by_stream``: each device's placed rows in order, each stream's pieces given
    by ``runs_by_stream`` (``held_runs``) or, without it, by the rows' owners
    (``claim_rows``). ``seg_cache`` keeps a stream's segments between calls on the same
    rows."""
    cache = seg_cache if seg_cache is not None else {}
    runs = runs_by_stream or {}
    if len(rows_by_stream) <= 1 and all(
        c.device is None or c.device in rows_by_stream for c in columns
    ):
        device, only = next(iter(rows_by_stream.items()), ("", []))
        one = cache.get(id(only))
        if one is None:
            one = cache[id(only)] = _OneStream(segments(only, runs.get(device)))
        return _attribute_columns(one.segments_for, columns, win_start, win_end)
    scopes = cache.get(id(rows_by_stream))
    if scopes is None:
        scopes = cache[id(rows_by_stream)] = _Scopes(rows_by_stream, runs)
    return _attribute_columns(scopes.segments_for, columns, win_start, win_end)


class _Scopes:
    """With several streams: the segments an event column may fall in — its own device's
    when the store names one of the streams, else every stream's, merged so that where
    streams overlap the first device in name order holds the time (as the rule picks the
    first qualifying piece in that order); only pieces of the column's app when it names
    one. Built once per (device, app) and kept."""

    def __init__(self, rows_by_stream: dict[str, list[Row]], runs: dict[str, Runs]) -> None:
        self.order = sorted(rows_by_stream)
        self.segs = {d: segments(rows, runs.get(d)) for d, rows in rows_by_stream.items()}
        self._made: dict[tuple[str | None, str | None], list[Seg]] = {}

    def segments_for(self, col: EventColumn) -> list[Seg]:
        dev = col.device if col.device is not None and col.device in self.segs else None
        app = None if col.app is None else col.app.casefold()
        key = (dev, app)
        found = self._made.get(key)
        if found is None:
            devices = self.order if dev is None else [dev]
            lists = [self._of_app(d, app) for d in devices]
            found = lists[0] if lists else []
            for more in lists[1:]:
                found = _fill(found, more)
            self._made[key] = found
        return found

    def _of_app(self, device: str, app: str | None) -> list[Seg]:
        key = (device, app)
        found = self._made.get(key)
        if found is None:
            segs = self.segs[device]
            found = segs if app is None else [g for g in segs if g[2].app.casefold() == app]
            self._made[key] = found
        return found


def _fill(covered: list[Seg], more: list[Seg]) -> list[Seg]:
    """``covered`` plus the parts of ``more`` it leaves uncovered, in order (both lists
    sorted and disjoint)."""
    parts: list[Seg] = []
    j, nc = 0, len(covered)
    for lo, hi, piece in more:
        while j < nc and covered[j][1] <= lo:
            j += 1
        cur = lo
        k = j
        while k < nc and covered[k][0] < hi:
            c_lo, c_hi = covered[k][0], covered[k][1]
            if c_lo > cur:
                parts.append((cur, c_lo, piece))
            if c_hi > cur:
                cur = c_hi
            if cur >= hi:
                break
            k += 1
        if cur < hi:
            parts.append((cur, hi, piece))
    if not parts:
        return covered
    return sorted(covered + parts, key=_LO)


_LO = itemgetter(0)


def _attribute_any(
    holds: dict[str, _Holds], events: Sequence[InputEvent], win_start: int, win_end: int
) -> Unattributed:
    """The rule event by event, with several streams (monitors): the specification the
    segment passes are held to (tests compare them)."""
    all_holds = [holds[d] for d in sorted(holds)]
    un = Unattributed()
    for ev in events:
        t = ev.ts_ms
        if not win_start <= t < win_end:
            continue
        un.in_window += 1
        dev_holds = holds.get(ev.device) if ev.device is not None else None
        scope = [dev_holds] if dev_holds is not None else all_holds
        candidates = [p for h in scope if (p := h.at(t)) is not None]
        if ev.app is None:
            chosen = candidates[0] if candidates else None
        else:
            want = ev.app.casefold()
            chosen = next((p for p in candidates if p.app.casefold() == want), None)
        if chosen is None:
            un.singles.append(ev)
        target = un.input if chosen is None else chosen.input
        name = INPUT_FIELDS[ev.kind]
        target[name] = target.get(name, 0) + ev.count
        (un.event_ids if chosen is None else chosen.event_ids).append(ev.event_id)
    return un


def segments(rows: Sequence[Row], runs: Runs | None = None) -> list[tuple[int, int, Piece]]:
    """One stream's time as disjoint half-open [lo, hi) segments, each held by one piece,
    in order — the same holding as ``_Holds.at``: inside a piece a row holds everything up
    to the next row; a row that holds no time still holds its own instant t, as
    [t, t + 1), unless a later row starts at that same instant and shadows it."""
    segs: list[tuple[int, int, Piece]] = []

    def add(lo: int, hi: int, owner: Piece) -> None:
        if segs and segs[-1][2] is owner and segs[-1][1] == lo:
            segs[-1] = (segs[-1][0], hi, owner)
        else:
            segs.append((lo, hi, owner))

    # Work per run of consecutive rows of one piece, not per row: inside a run each row
    # but the last holds [its start, the next row's start) (or nothing, when the next
    # row starts at the same instant), so together they hold [first start, last start).
    # Runs end where the owner changes (by identity): given, or found in C over the
    # whole stream from the rows' owners.
    if not rows:
        return segs
    if runs is None:
        owners = list(map(id, map(_OWNER, rows)))
        ends = [*compress(count(1), map(ne, owners, islice(owners, 1, None))), len(rows)]
        runs = []
        for end in ends:
            owner = rows[end - 1].owner
            assert owner is not None
            runs.append((end, owner))
    assert runs[-1][0] == len(rows)
    begin = 0
    n_runs = len(runs)
    for k, (end, owner) in enumerate(runs):
        first, last = rows[begin], rows[end - 1]
        begin = end
        if last.start_ms > first.start_ms:
            add(first.start_ms, last.start_ms, owner)
        # The run's last row: the next row, if any, belongs to another piece.
        start = last.start_ms
        nxt = rows[end].start_ms if k + 1 < n_runs else None
        if nxt == start:
            continue
        hi = last.end_ms
        if hi <= start:
            hi = start + 1
        if nxt is not None and hi > nxt:
            hi = nxt
        add(start, hi, owner)
    return segs


class _OneStream:
    """The rule for a capture with one stream, per time segment instead of per event: the
    segments are disjoint, so the events a piece takes from a column are one slice of it,
    found by bisection. The segments of each app are gathered once and kept."""

    def __init__(self, segs: list[Seg]) -> None:
        self.segs = segs
        self.by_app: dict[str, list[Seg]] = {}
        for seg in segs:
            self.by_app.setdefault(seg[2].app.casefold(), []).append(seg)

    def segments_for(self, col: EventColumn) -> list[Seg]:
        return self.segs if col.app is None else self.by_app.get(col.app.casefold(), [])


def _attribute_segments(
    segs: list[Seg], columns: Sequence[EventColumn], win_start: int, win_end: int
) -> Unattributed:
    """The one-stream rule on ``segs`` (tests hold it to the event-by-event rule)."""
    return _attribute_columns(_OneStream(segs).segments_for, columns, win_start, win_end)


def _attribute_columns(
    segments_for: Callable[[EventColumn], list[Seg]],
    columns: Sequence[EventColumn],
    win_start: int,
    win_end: int,
) -> Unattributed:
    """Each column against the disjoint segments its events may fall in: the events a
    piece takes are one slice of the column, found by bisection."""
    un = Unattributed()
    for col in columns:
        ts, ids, counts = col.ts, col.ids, col.counts
        i0, i1 = bisect_left(ts, win_start), bisect_left(ts, win_end)
        un.in_window += i1 - i0
        name = INPUT_FIELDS[col.kind]
        target_segs = segments_for(col)
        free = i0  # events before this index are taken or left behind
        # A segment that ends by the next event's time takes nothing and leaves nothing
        # behind: passed over without a search (most do, for a column of rare input).
        upcoming = ts[free] if free < i1 else win_end
        for lo, hi, piece in target_segs:
            if hi <= upcoming:
                continue
            i = bisect_left(ts, lo, free, i1)
            j = bisect_left(ts, hi, i, i1)
            if i > free:
                _add(un.input, un.event_ids, name, ids, counts, free, i)
                un.slices.append((col, free, i))
            if j > i:  # (``_add``, written out: the loop's most frequent call)
                taken = piece.input
                taken[name] = taken.get(name, 0) + (j - i if counts is None else sum(counts[i:j]))
                piece.event_ids += ids[i:j]
            free = j
            if free >= i1:
                break
            upcoming = ts[free]
        if i1 > free:
            _add(un.input, un.event_ids, name, ids, counts, free, i1)
            un.slices.append((col, free, i1))
    return un


def _add(
    into: dict[str, int],
    into_ids: list[int],
    name: str,
    ids: list[int],
    counts: list[int] | None,
    i: int,
    j: int,
) -> None:
    into[name] = into.get(name, 0) + (j - i if counts is None else sum(counts[i:j]))
    into_ids.extend(ids[i:j])
