"""A window's capture made from the capture read before and a read of its tail only.

When a store's rows before an instant (the *cut*) are as they were (``settled_mark``),
what a read of the whole window gives now is the earlier capture's rows before the cut
and a fresh read's rows from the cut on. ``splice`` builds that, or says None where it
cannot be sure it is the same (then the whole window is read): rows the reader rejected,
events it delivered one by one, an event column the earlier read lacked, or flags and
notes that differ between the two reads.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import islice
from operator import itemgetter

from ..model import Capture, EventColumn, Snapshot

_TS = itemgetter(1)  # Snapshot.ts_ms


def splice(before: Capture, tail: Capture, cut_ms: int) -> Capture | None:
    """``before`` (a read of the window, its rows before ``cut_ms`` unchanged since) and
    ``tail`` (a read from ``cut_ms``) as one read of the window; None when unsure."""
    if (
        before.rejected
        or tail.rejected
        or before.events
        or tail.events
        or (before.kind, before.has_input, before.has_afk, before.has_urls, before.interval)
        != (tail.kind, tail.has_input, tail.has_afk, tail.has_urls, tail.interval)
        or set(before.notes) - before.row_notes.keys() != set(tail.notes) - tail.row_notes.keys()
    ):
        return None
    snaps = _before(before.snapshots, cut_ms)
    snaps += [s for s in tail.snapshots if s.ts_ms >= cut_ms]
    later = {(c.kind, c.app, c.device): c for c in tail.event_columns}
    columns: list[EventColumn] = []
    for col in before.event_columns:
        key = (col.kind, col.app, col.device)
        k = bisect_left(col.ts, cut_ms)
        ts, ids = col.ts[:k], col.ids[:k]
        counts = None if col.counts is None else col.counts[:k]
        more = later.pop(key, None)
        if more is not None:
            j = bisect_left(more.ts, cut_ms)
            ts, ids = ts + more.ts[j:], ids + more.ids[j:]
            if counts is not None or more.counts is not None:
                counts = (counts or [1] * k) + (more.counts or [1] * len(more.ts))[j:]
        if counts is not None and counts.count(1) == len(counts):
            counts = None  # the reader lists counts only when some event counts more
        if ts:
            text = _text(col, k, ids, ts)
            columns.append(EventColumn(col.kind, col.app, col.device, ts, ids, counts, text))
    if any(c.ts and c.ts[-1] >= cut_ms for c in later.values()):
        return None  # a column the earlier read lacked: where it goes is the reader's
    cap = Capture(
        kind=before.kind,
        snapshots=snaps,
        afk=list(before.afk),
        has_input=before.has_input,
        has_afk=before.has_afk,
        has_urls=before.has_urls,
        interval=before.interval,
        event_columns=columns,
    )
    # The store's notes (equal in both), the notes of rows before the cut (unchanged
    # since) and those of the rows read from the cut on: a read of the whole window's.
    row_notes = {n: t for n, t in before.row_notes.items() if t < cut_ms}
    for n, t in tail.row_notes.items():
        row_notes[n] = min(t, row_notes.get(n, t))
    cap.notes = [n for n in before.notes if n not in before.row_notes] + sorted(row_notes)
    cap.row_notes = row_notes
    return cap


def _before(snaps: list[Snapshot], cut_ms: int) -> list[Snapshot]:
    """``[s for s in snaps if s.ts_ms < cut_ms]``: where the rows are in time order (as a
    reader gives them), the rows before the last few, checked in C rather than looked at
    one by one in Python."""
    k = len(snaps)
    while k and snaps[k - 1][1] >= cut_ms:  # (Snapshot.ts_ms) the few rows from the cut on
        k -= 1
    if not k or max(map(_TS, islice(snaps, k))) < cut_ms:
        return snaps[:k]
    return [s for s in snaps if s.ts_ms < cut_ms]


def _text(col: EventColumn, k: int, ids: list[int], ts: list[int]) -> tuple[str, str]:
    """The spliced column's comma-joined ids and instants (``EventColumn.text``, which the
    digest would otherwise make from a whole day's events at every call): the earlier
    column's text up to its k-th comma, when it has one, and the few entries from the
    cut on."""
    if col.text is None or k == 0:
        return ",".join(map(str, ids)), ",".join(map(str, ts))
    after = len(col.ts) - k  # the earlier column's entries from the cut on: few
    out = []
    for whole, values in zip(col.text, (ids, ts), strict=True):
        end = len(whole)
        for _ in range(after):
            end = whole.rfind(",", 0, end)
        rest = ",".join(map(str, values[k:]))
        out.append(whole[:end] + ("," if rest else "") + rest)
    return out[0], out[1]
