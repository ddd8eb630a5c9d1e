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
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import TypeVar

from ..model import Capture, InputEvent, Snapshot
from ..records import Record
from .model import Action

STALE_MS = 2_000

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

    def summary(self) -> dict[str, int]:
        """The document's disclosure: ``coverage.reattributed``."""
        return {
            "events": len(self.moved),
            "keys": self.moved_by_kind.get("key", 0),
            "clicks": self.moved_by_kind.get("click", 0),
            "left_unattributed": len(self.unattributed),
        }


_TIME_THEN_ID = itemgetter(1, 0)  # (ts_ms, row_id) of a Snapshot
_TIME = itemgetter(1)


class _Stream:
    def __init__(self, snaps: Sequence[Snapshot], ordered: bool = False) -> None:
        self.snaps = list(snaps) if ordered else sorted(snaps, key=_TIME_THEN_ID)
        self.ts = list(map(_TIME, self.snaps))

    def at(self, t: int) -> Snapshot | None:
        k = bisect_right(self.ts, t) - 1
        return self.snaps[k] if k >= 0 else None

    def nearest(self, t: int, app: str, title: str | None) -> Snapshot | None:
        lo, hi = bisect_left(self.ts, t - STALE_MS), bisect_right(self.ts, t + STALE_MS)
        best: tuple[int, int, int] | None = None
        chosen = None
        for s in self.snaps[lo:hi]:
            if s.app.casefold() != app or (title is not None and s.title != title):
                continue
            key = (abs(s.ts_ms - t), s.ts_ms, s.row_id)
            if best is None or key < best:
                best, chosen = key, s
        return chosen


def reattribute(
    snapshots: Sequence[Snapshot],
    events: Sequence[E],
    by_device: Mapping[str, Sequence[Snapshot]] | None = None,
) -> tuple[list[E], Reattributed]:
    """Events with stale ones moved (new time = the snapshot's), and what was done.
    Events keep their order of arrival; the result is the same set of events.
    ``by_device``: the same snapshots already grouped by device, each group sorted by
    (time, row id), when the caller has them (the compiler does): nothing is sorted again.
    """
    ordered = by_device is not None
    if by_device is None:
        grouped: dict[str, list[Snapshot]] = {}
        for s in snapshots:
            grouped.setdefault(s.device, []).append(s)
        by_dev: Mapping[str, Sequence[Snapshot]] = grouped
    else:
        by_dev = by_device
    # Streams are sorted only when an event needs them (often only a few events do).
    streams: dict[str, _Stream] = {}
    everything: list[_Stream] = []

    def stream_of(device: str | None) -> _Stream | None:
        if device is None:
            if not everything:
                if ordered and len(by_dev) == 1:
                    everything.append(_Stream(next(iter(by_dev.values())), ordered=True))
                else:
                    everything.append(_Stream(snapshots))
            return everything[0]
        if device not in by_dev:
            return None
        if device not in streams:
            streams[device] = _Stream(by_dev[device], ordered)
        return streams[device]

    rep = Reattributed()
    out: list[E] = []
    for ev in events:
        if not ev.app:
            out.append(ev)
            continue
        stream = stream_of(ev.device)
        if stream is None:
            out.append(ev)
            continue
        cur = stream.at(ev.ts_ms)
        want = ev.app.casefold()
        title = ev.title if isinstance(ev, Action) else None
        if cur is not None and cur.app.casefold() == want and (title is None or title == cur.title):
            out.append(ev)
            continue
        target = stream.nearest(ev.ts_ms, want, title)
        same_app_now = cur is not None and cur.app.casefold() == want
        if target is None or (cur is not None and target.row_id == cur.row_id):
            if not same_app_now:  # the compiler will leave it unattributed: count it
                rep.unattributed.append(ev.event_id)
                rep.unattributed_by_kind[ev.kind] = rep.unattributed_by_kind.get(ev.kind, 0) + 1
            out.append(ev)
            continue
        rep.moved[ev.event_id] = target.row_id
        rep.moved_by_kind[ev.kind] = rep.moved_by_kind.get(ev.kind, 0) + ev.count
        out.append(ev._replace(ts_ms=target.ts_ms))
    return out, rep


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
