"""From ActivityWatch events to a Capture by ActivityWatch's own rules, host by host
(``rules``): window events flooded, cut to the host's flooded not-AFK periods (joined
by audible browser time unless ``audible_active`` is off), a browser window's time split
by the URLs of the web events overlapping it. A host without an AFK bucket has its window
time credited as recorded, and the document says so in ``blind_spots``. Each credited
piece is one Snapshot with its span as ``dur_ms``; the capture's away spans are recorded
AFK time in which no host was credited, so they never cut a piece again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar, cast

from ...model import Capture, Rejected, Snapshot, Span
from ...text import clip_title
from .records import (
    AFK_TYPE,
    KIND,
    WEB_TYPE,
    WINDOW_TYPE,
    AfkEvent,
    Bucket,
    Event,
    WebEvent,
    WindowRow,
    afk_event,
    assign_ids,
    web_event,
    window_row,
)
from .rules import Ev, HostInput, host_pieces

# Hostnames that say "this watcher does not know its machine" (aw-watcher-web).
_NO_HOST = ("", "unknown")

_T = TypeVar("_T")


def events_capture(
    buckets: list[tuple[Bucket, list[Event | Rejected]]],
    lo: int,
    hi: int,
    *,
    audible_active: bool,
) -> Capture:
    """The capture of [lo, hi) from every bucket's events (read for that range, or more):
    what the other readers of ActivityWatch stores share (aw-server's own SQLite file, a
    running server's REST API)."""
    rejected: list[Rejected] = []
    windows: list[WindowRow] = []
    webs: list[WebEvent] = []
    afk: list[AfkEvent] = []
    for bucket, raw in buckets:
        events = keep_usable(raw, rejected)
        if bucket.type == WINDOW_TYPE:
            windows += keep_usable((window_row(e, bucket) for e in events), rejected)
        elif bucket.type == WEB_TYPE:
            webs += keep_usable((web_event(e, bucket) for e in events), rejected)
        elif bucket.type == AFK_TYPE:
            afk += keep_usable((afk_event(e, bucket) for e in events), rejected)
    rows, dups = assign_ids(windows)
    afk_hosts = {b.hostname for b, _ in buckets if b.type == AFK_TYPE}
    snaps, away, notes = apply_rules(rows, webs, afk, afk_hosts, audible_active)
    return capture_of(
        [s for s in snaps if s.ts_ms < hi and reaches(s, lo)],
        away,
        rejected + dups,
        lo,
        hi,
        has_afk=bool(afk_hosts),
        has_urls=any(b.type == WEB_TYPE for b, _ in buckets),
        notes=notes,
    )


def capture_of(
    snapshots: list[Snapshot],
    away: list[Span],
    rejected: list[Rejected],
    lo: int,
    hi: int,
    *,
    has_afk: bool,
    has_urls: bool,
    notes: list[str],
) -> Capture:
    shown = [r for r in rejected if r.ts_ms is None or lo <= r.ts_ms < hi]
    return Capture(
        kind=KIND,
        snapshots=snapshots,
        afk=[Span(s, e) for s, e in _intersect([(a.start_ms, a.end_ms) for a in away], [(lo, hi)])],
        notes=list(notes),  # the capture's own list: a reader may append to it
        rejected=sorted(set(shown), key=_rejected_key),
        has_input=False,  # ActivityWatch records no key or click counts
        has_afk=has_afk,
        has_urls=has_urls,
    )


def _rejected_key(r: Rejected) -> tuple[str, int, str, str]:
    return (r.table, r.ts_ms if r.ts_ms is not None else -1, r.row, r.reason)


def keep_usable(items: Iterable[_T | Rejected | None], rejected: list[Rejected]) -> list[_T]:
    """The usable items; rejections are collected into ``rejected``, Nones dropped."""
    out: list[_T] = []
    for item in items:
        if isinstance(item, Rejected):
            rejected.append(item)
        elif item is not None:
            out.append(item)
    return out


def reaches(s: Snapshot, lo: int) -> bool:
    return s.ts_ms + (s.dur_ms or 0) >= lo


# ---------------------------------------------------------------------------------------
# ActivityWatch's rules, host by host (rules.py)


def apply_rules(
    rows: list[tuple[int, WindowRow]],
    webs: list[WebEvent],
    afk: list[AfkEvent],
    afk_hosts: set[str],
    audible_active: bool,
) -> tuple[list[Snapshot], list[Span], list[str]]:
    """Credited pieces as Snapshots, away spans no piece overlaps, and notes for
    blind_spots (hosts without an AFK bucket)."""
    hosts = sorted({r.device for _, r in rows})
    web_hosts = {w.hostname for w in webs}
    snaps: list[Snapshot] = []
    notes: list[str] = []
    for host in hosts:
        windows = [
            Ev(r.start_ms, r.dur_ms, r.data_key, (rid, r), (r.dur_ms, r.data_key, rid))
            for rid, r in rows
            if r.device == host
        ]
        host_afk = None
        if host in afk_hosts:
            host_afk = [
                Ev(a.start_ms, a.end_ms - a.start_ms, st, None, (a.end_ms - a.start_ms, st))
                for a in afk
                if a.hostname == host
                for st in ("afk" if a.afk else "not-afk",)
            ]
        else:
            notes.append(
                f"host {host or '(unnamed)'!r} has no AFK bucket: its window time is"
                " credited as recorded"
            )
        # The web UI takes a host's own web buckets, else those of an unknown host.
        web_host = host if host in web_hosts else None
        web: dict[str, list[Ev]] = {}
        for w in webs:
            if w.hostname == host or (web_host is None and w.hostname.casefold() in _NO_HOST):
                web.setdefault(w.bucket, []).append(
                    Ev(
                        w.start_ms,
                        w.end_ms - w.start_ms,
                        w.data_key,
                        (w.url, w.audible),
                        (w.end_ms - w.start_ms, w.data_key),
                    )
                )
        pieces, _ = host_pieces(
            HostInput(windows, host_afk, web, _app_of), audible_active=audible_active
        )
        taken: set[int] = set()
        for p in pieces:
            rid, r = cast(tuple[int, WindowRow], p.ref)
            snaps.append(
                Snapshot(
                    row_id=_piece_id(rid, p.start - p.origin, taken),
                    ts_ms=p.start,
                    app=r.app,
                    title=clip_title(r.title),
                    url=p.url,
                    device=host,
                    dur_ms=p.end - p.start,
                )
            )
    if webs:
        notes.append(
            "audible browser tabs count as active time, as ActivityWatch's web UI counts them"
            if audible_active
            else "audible browser tabs without input are not active time (--no-audible-active)"
        )
    snaps.sort(key=lambda s: (s.ts_ms, s.row_id, s.device))
    credited = _merge((s.ts_ms, s.ts_ms + (s.dur_ms or 0)) for s in snaps)
    recorded_away = _merge((a.start_ms, a.end_ms) for a in afk if a.afk)
    away = _subtract(recorded_away, credited)
    return snaps, [Span(s, e) for s, e in away], notes


# Row ids of the later pieces of a window event (cut by AFK time or split by URL): the
# event's id plus (seconds from the flooded event's start + 1) * 2**31, so every Snapshot
# keeps a distinct id (frame ids are F<row id>), each the same whatever window is read,
# and all below 2**53 (exact in any JSON reader).
PIECE_ID_STRIDE = 2**31


def _piece_id(rid: int, offset_ms: int, taken: set[int]) -> int:
    pid = rid if offset_ms <= 0 else rid + (offset_ms // 1000 + 1) * PIECE_ID_STRIDE
    while pid in taken:  # two pieces of one event within one second
        pid += PIECE_ID_STRIDE
    taken.add(pid)
    return pid


def _app_of(ref: object) -> str:
    return cast(tuple[int, WindowRow], ref)[1].app


def _subtract(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merged span list ``a`` without the merged span list ``b``."""
    if not a:
        return []
    return _intersect(a, _complement(b, a[0][0], a[-1][1]))


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Union of half-open spans, sorted; empty spans dropped, touching ones joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _intersect(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Intersection of two merged, sorted span lists."""
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def _complement(spans: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    """[lo, hi) minus a merged, sorted span list."""
    out: list[tuple[int, int]] = []
    cursor = lo
    for start, end in spans:
        if start > cursor:
            out.append((cursor, min(start, hi)))
        cursor = max(cursor, end)
    if cursor < hi:
        out.append((cursor, hi))
    return [s for s in out if s[1] > s[0]]
