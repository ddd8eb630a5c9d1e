"""Stale-event re-attribution.

Recorders sometimes stamp an input event with the app (or window) that had focus a
moment before or after: the focus change and the input arrive on different queues. An
event whose recorded app — or, where both are known, window title — disagrees with the
snapshot stream of its device at its time (the latest snapshot at or before it) is moved
to the nearest snapshot of the same device and the same app within ``STALE_MS`` (ties:
the earlier snapshot, then the lower row id); its time becomes that snapshot's time, so
the compiler attributes it there. Otherwise it is left where it is, unattributed, and
counted. Events without an app, or whose device has no snapshots, agree by definition.
When an event has no device, the snapshots of every device are its stream.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import TypeVar

from .. import doc_types
from ..fast.records import Record
from ..model import Action, Capture, EventColumn, InputEvent, Snapshot

STALE_MS = 2_000
# A few unattributed events look only at the rows near them (at most this many per
# slice of a column), not at the whole stream.
_NEAR_ROWS = 64

E = TypeVar("E", InputEvent, Action)


class Reattributed(Record):
    """What the repair did: moved event ids (to which snapshot row), ids left
    unattributed, and per-kind counts of both."""

    __slots__ = _fields = ("moved", "unattributed", "moved_by_kind", "unattributed_by_kind")

    moved: dict[int, int]  # event id -> snapshot row id
    unattributed: list[int]
    moved_by_kind: dict[str, int]
    unattributed_by_kind: dict[str, int]

    def __init__(
        self,
        moved: dict[int, int] | None = None,
        unattributed: list[int] | None = None,
        moved_by_kind: dict[str, int] | None = None,
        unattributed_by_kind: dict[str, int] | None = None,
    ) -> None:
        self.moved = {} if moved is None else moved
        self.unattributed = [] if unattributed is None else unattributed
        self.moved_by_kind = {} if moved_by_kind is None else moved_by_kind
        self.unattributed_by_kind = {} if unattributed_by_kind is None else unattributed_by_kind

    def merge(self, other: Reattributed) -> None:
        """Add what another pass did (over other events)."""
        self.moved.update(other.moved)
        self.unattributed += other.unattributed
        for mine, theirs in (
            (self.moved_by_kind, other.moved_by_kind),
            (self.unattributed_by_kind, other.unattributed_by_kind),
        ):
            for kind, n in theirs.items():
                mine[kind] = mine.get(kind, 0) + n

    def summary(self) -> doc_types.Reattributed:
        """The document's disclosure: ``coverage.reattributed``."""
        return {
            "events": len(self.moved),
            "keys": self.moved_by_kind.get("key", 0),
            "clicks": self.moved_by_kind.get("click", 0),
            "left_unattributed": len(self.unattributed),
        }


_TIME_THEN_ID = itemgetter(1, 0)  # (ts_ms, row_id) of a Snapshot
_TS, _APP = itemgetter(1), itemgetter(2)  # ts_ms, app of a Snapshot
Cols = tuple[Sequence[int], Sequence[str]] | None  # a stream's times and apps, if at hand


class _Stream:
    """One device's snapshots in (time, row id) order, with, for each snapshot, the index
    of the next snapshot of the same app (and of the same app and title): what the merge
    pass needs to find the nearest later snapshot of an app without searching."""

    def __init__(self, snaps: Sequence[Snapshot], ordered: bool = False, cols: Cols = None) -> None:
        self.snaps = list(snaps) if ordered else sorted(snaps, key=_TIME_THEN_ID)
        self.ts = list(map(_TS, self.snaps) if cols is None else cols[0])
        raw = list(map(_APP, self.snaps)) if cols is None else cols[1]
        # A day shows a few dozen apps over thousands of rows: each casefolded once, and
        # the list made by look-ups in C.
        folded = {a: a.casefold() for a in set(raw)}
        self.apps = list(map(folded.__getitem__, raw))
        self._next: dict[bool, tuple[list[int], dict[object, int]]] = {}
        self._of_app: dict[str, tuple[list[int], list[int]]] | None = None
        self._near_rows = 0

    def chains(self, titled: bool) -> tuple[list[int], dict[object, int]]:
        """(next index of the same key per index (-1: none), first index of each key);
        the key is the app, or (app, title) when ``titled``."""
        if titled not in self._next:
            keys = self.keys(titled)
            nxt = [-1] * len(keys)
            first: dict[object, int] = {}
            for i in range(len(keys) - 1, -1, -1):
                k = keys[i]
                nxt[i] = first.get(k, -1)
                first[k] = i
            self._next[titled] = (nxt, first)
        return self._next[titled]

    def of_app(self, app: str) -> tuple[list[int], list[int]]:
        """The instants at which the stream shows ``app`` (casefolded) and, for each, the
        index of its first snapshot then (the lowest row id)."""
        if self._of_app is None:
            made: dict[str, tuple[list[int], list[int]]] = {}
            for i, (a, t) in enumerate(zip(self.apps, self.ts, strict=True)):
                at = made.get(a)
                if at is None:
                    made[a] = ([t], [i])
                elif at[0][-1] != t:
                    at[0].append(t)
                    at[1].append(i)
            self._of_app = made
        return self._of_app.get(app, ([], []))

    def of_app_near(self, app: str, lo: int, hi: int) -> tuple[list[int], list[int], bool]:
        """``of_app(app)`` — or, when few rows fall in [lo, hi], only its instants there,
        found by looking at just those rows (``whole`` False). For events between
        lo + STALE_MS and hi - STALE_MS that is the same: an instant outside is further
        than STALE_MS from each, as good as none."""
        ts = self.ts
        a, b = bisect_left(ts, lo), bisect_right(ts, hi)
        # Rows looked at near events, all told, never more than the stream's: past that
        # (many events: a day of stale input), the whole stream's instants are made once.
        if b - a > _NEAR_ROWS or self._near_rows + b - a > len(ts):
            return (*self.of_app(app), True)
        self._near_rows += b - a
        apps = self.apps
        at: list[int] = []
        idx: list[int] = []
        for k in range(a, b):
            if apps[k] == app and (not at or at[-1] != ts[k]):  # an instant's first row
                at.append(ts[k])
                idx.append(k)
        return at, idx, False

    def keys(self, titled: bool) -> list[object]:
        if titled:
            return [(a, s.title) for a, s in zip(self.apps, self.snaps, strict=True)]
        return list(self.apps)


def reattribute(
    snapshots: Sequence[Snapshot],
    events: Sequence[E],
    by_device: Mapping[str, Sequence[Snapshot]] | None = None,
) -> tuple[list[E], Reattributed]:
    """Events with stale ones moved (new time = the snapshot's), and what was done.
    Events keep their order of arrival; the result is the same set of events.
    ``by_device``: the same snapshots already grouped by device, each group sorted by
    (time, row id), when the caller has them (the compiler does): nothing is sorted again.

    One merge pass per stream over its events in time order and its snapshots: the
    snapshot shown at an event's time is where the pass stands; the nearest earlier
    snapshot of the event's app is the last one the pass went by, the nearest later one
    follows from it by a precomputed chain. No event searches a window.
    """
    ordered = by_device is not None
    if by_device is None:
        grouped: dict[str, list[Snapshot]] = {}
        for s in snapshots:
            grouped.setdefault(s.device, []).append(s)
        by_dev: Mapping[str, Sequence[Snapshot]] = grouped
    else:
        by_dev = by_device
    # Each stream's events (positions in ``events``); events without an app agree.
    work: dict[str | None, list[int]] = {}
    for i, ev in enumerate(events):
        if ev.app and (ev.device is None or ev.device in by_dev):
            work.setdefault(ev.device, []).append(i)
    out = list(events)
    rep = Reattributed()
    moves: list[tuple[int, Snapshot]] = []
    left: list[int] = []
    for device in sorted(work, key=lambda d: (d is not None, d or "")):
        if device is None:
            if ordered and len(by_dev) == 1:
                stream = _Stream(next(iter(by_dev.values())), ordered=True)
            else:
                stream = _Stream(snapshots)
        else:
            stream = _Stream(by_dev[device], ordered)
        _merge_pass(stream, events, work[device], moves, left)
    for i, target in sorted(moves, key=itemgetter(0)):
        ev = events[i]
        rep.moved[ev.event_id] = target.row_id
        rep.moved_by_kind[ev.kind] = rep.moved_by_kind.get(ev.kind, 0) + ev.count
        out[i] = ev._replace(ts_ms=target.ts_ms)
    for i in sorted(left):
        ev = events[i]
        rep.unattributed.append(ev.event_id)
        rep.unattributed_by_kind[ev.kind] = rep.unattributed_by_kind.get(ev.kind, 0) + 1
    return out, rep


def _merge_pass(
    stream: _Stream,
    events: Sequence[E],
    mine: list[int],
    moves: list[tuple[int, Snapshot]],
    left: list[int],
) -> None:
    """The rule for one stream's events (``mine``: positions in ``events``)."""
    snaps, ts, apps = stream.snaps, stream.ts, stream.apps
    n = len(snaps)
    if not n:  # no snapshot at all: nothing agrees, nothing to move to
        left.extend(mine)
        return
    titles = [_title(events[i]) for i in mine]
    by_title = any(t is not None for t in titles)
    app_next, app_first = stream.chains(False)
    title_keys = stream.keys(True) if by_title else []
    title_next, title_first = stream.chains(True) if by_title else ([], {})
    # key -> index of its latest snapshot passed (at one instant, the lowest row id)
    last_app: dict[object, int] = {}
    last_title: dict[object, int] = {}
    k = -1  # the last snapshot at or before the current event's time
    order = sorted(range(len(mine)), key=lambda m: events[mine[m]].ts_ms)
    for m in order:
        i = mine[m]
        ev = events[i]
        t = ev.ts_ms
        while k + 1 < n and ts[k + 1] <= t:
            k += 1
            a = apps[k]
            j = last_app.get(a)
            if j is None or ts[j] != ts[k]:
                last_app[a] = k
            if by_title:
                tk = title_keys[k]
                j = last_title.get(tk)
                if j is None or ts[j] != ts[k]:
                    last_title[tk] = k
        app = ev.app
        assert app is not None
        want = app.casefold()
        title = titles[m]
        same_app_now = k >= 0 and apps[k] == want
        if same_app_now and (title is None or title == snaps[k].title):
            continue
        if title is None:
            key: object = want
            last, nxt, first = last_app, app_next, app_first
        else:
            key = (want, title)
            last, nxt, first = last_title, title_next, title_first
        # The nearest snapshot of the key within STALE_MS (ties: the earlier): the latest
        # one passed, or the first after t, which follows it in the key's chain.
        before = last.get(key, -1)
        after = nxt[before] if before >= 0 else first.get(key, -1)
        while after >= 0 and ts[after] <= t:  # more snapshots at the instant passed
            after = nxt[after]
        if before >= 0 and t - ts[before] > STALE_MS:
            before = -1
        if after >= 0 and ts[after] - t > STALE_MS:
            after = -1
        target = before if before >= 0 and (after < 0 or t - ts[before] <= ts[after] - t) else after
        if target < 0 or (k >= 0 and snaps[target].row_id == snaps[k].row_id):
            if not same_app_now:  # the compiler will leave it unattributed: count it
                left.append(i)
            continue
        moves.append((i, snaps[target]))


def reattribute_columns(
    snapshots: Sequence[Snapshot],
    by_device: Mapping[str, Sequence[Snapshot]],
    slices: Iterable[tuple[EventColumn, int, int]],
    cols: Cols = None,
) -> tuple[list[InputEvent], Reattributed]:
    """The same rule for events held as slices of event columns (what the compiler leaves
    unattributed), without making an object per event: the moved events (at their new
    time) and what was done. ``by_device`` as for ``reattribute`` (``cols``: the times
    and apps of its one stream, if at hand). A slice shares one app and device and is
    sorted by time, so each is one merge pass against its stream and against the
    instants at which that stream shows the slice's app."""
    streams: dict[str | None, _Stream] = {}
    rep = Reattributed()
    moved: list[InputEvent] = []
    for col, i, j in slices:
        if not col.app or j <= i or (col.device is not None and col.device not in by_device):
            continue  # agrees by definition
        stream = streams.get(col.device)
        if stream is None:
            one = cols if len(by_device) == 1 else None
            if col.device is not None:
                stream = _Stream(by_device[col.device], ordered=True, cols=one)
            elif len(by_device) == 1:
                stream = _Stream(next(iter(by_device.values())), ordered=True, cols=one)
            else:
                stream = _Stream(snapshots)
            streams[col.device] = stream
        _column_pass(stream, col, i, j, rep, moved)
    return moved, rep


def _column_pass(
    stream: _Stream, col: EventColumn, i: int, j: int, rep: Reattributed, moved: list[InputEvent]
) -> None:
    snaps, ts, apps = stream.snaps, stream.ts, stream.apps
    want = col.app.casefold() if col.app else ""
    times, ids, counts, kind = col.ts, col.ids, col.counts, col.kind
    n = len(ts)
    app_ts, app_idx, whole = stream.of_app_near(want, times[i] - STALE_MS, times[j - 1] + STALE_MS)
    m = len(app_ts)
    if not m and whole:  # the stream never shows the app: nothing agrees, nothing to move to
        rep.unattributed.extend(ids[i:j])
        rep.unattributed_by_kind[kind] = rep.unattributed_by_kind.get(kind, 0) + j - i
        return
    k = bisect_right(ts, times[i]) - 1  # the snapshot shown at the event's time
    p = bisect_right(app_ts, times[i])  # app_ts[p - 1] <= t < app_ts[p]
    left = 0
    for e in range(i, j):
        t = times[e]
        while k + 1 < n and ts[k + 1] <= t:
            k += 1
        while p < m and app_ts[p] <= t:
            p += 1
        if k >= 0 and apps[k] == want:
            continue  # agrees (attribution left it for another reason)
        before = t - app_ts[p - 1] if p else STALE_MS + 1
        after = app_ts[p] - t if p < m else STALE_MS + 1
        if before <= after:
            target = app_idx[p - 1] if before <= STALE_MS else -1
        else:
            target = app_idx[p] if after <= STALE_MS else -1
        if target < 0:
            rep.unattributed.append(ids[e])
            left += 1
            continue
        s = snaps[target]
        count = 1 if counts is None else counts[e]
        rep.moved[ids[e]] = s.row_id
        rep.moved_by_kind[kind] = rep.moved_by_kind.get(kind, 0) + count
        moved.append(InputEvent(ids[e], s.ts_ms, kind, col.app, col.device, count))
    if left:
        rep.unattributed_by_kind[kind] = rep.unattributed_by_kind.get(kind, 0) + left


def _title(ev: InputEvent | Action) -> str | None:
    return ev.title if isinstance(ev, Action) else None


def moved_events(cap: Capture) -> dict[int, int]:
    """Event id -> snapshot row id for each event of the capture that re-attribution moves:
    ``reattribute_capture``'s ``moved``, by the column pass (no object per event)."""
    by_device: dict[str, list[Snapshot]] = {}
    for s in sorted(cap.snapshots, key=_TIME_THEN_ID):
        by_device.setdefault(s.device, []).append(s)
    slices = [(c, 0, len(c.ts)) for c in cap.all_columns()]
    _, rep = reattribute_columns(cap.snapshots, by_device, slices)
    return rep.moved


def reattribute_capture(cap: Capture) -> tuple[Capture, Reattributed]:
    """The capture with stale events moved: what the compiler would call first.
    Column events are expanded into single events (same ids, times, counts)."""
    events = cap.all_events()
    fixed, rep = reattribute(cap.snapshots, events)
    out = Capture(
        kind=cap.kind,
        snapshots=cap.snapshots,
        events=fixed,
        afk=cap.afk,
        rejected=cap.rejected,
        has_input=cap.has_input,
        has_afk=cap.has_afk,
        has_urls=cap.has_urls,
        interval=cap.interval,
        notes=cap.notes,
    )
    return out, rep


def reattributed(acts: Sequence[Action], cap: Capture) -> list[Action]:
    """``acts`` with the times the compiler's stale-event re-attribution gives them (an
    event moved to a snapshot takes the snapshot's time), so steps agree with frames."""
    moved = moved_events(cap)
    if not moved:
        return list(acts)
    moved_to = {s.row_id: s.ts_ms for s in cap.snapshots}
    return [
        a._replace(ts_ms=moved_to[moved[a.event_id]]) if a.event_id in moved else a for a in acts
    ]
