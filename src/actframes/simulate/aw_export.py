"""Simulated days as an ActivityWatch bucket export (JSON): window, AFK and web-tab
buckets as the watchers write them, derived from the records alone."""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from ..model import Snapshot
from .catalog import CHROME, CHROME_TITLE_SUFFIX
from .generator import SimDay
from .writers import Days, as_list, format_ts, new_file


@dataclass(frozen=True, slots=True)
class _Run:
    """Consecutive snapshots with the same window, merged as aw-watcher heartbeats are."""

    first: Snapshot
    dur_ms: int


def write_aw_export(path: str | Path, days: Days, hostname: str = "sim") -> Path:
    """An ActivityWatch bucket export: window, AFK and Chrome web buckets, newest first.

    Only the focused screen (each day's first device) is exported: ActivityWatch watches
    the focused window, not monitors. A run of identical rows becomes one event lasting
    until the next different row of that screen; the day's last run ends at its last row.
    """
    p = new_file(path)
    window: list[dict[str, Any]] = []
    afk: list[dict[str, Any]] = []
    web: list[dict[str, Any]] = []
    for day in as_list(days):
        runs = _runs(day)
        window += [_aw_event(r.first.ts_ms, r.dur_ms, _window_data(r.first)) for r in runs]
        web += _web_events(runs)
        afk += _afk_events(day)
    created = min((e["timestamp"] for e in window), default=format_ts(0))
    buckets = {
        f"aw-watcher-window_{hostname}": _bucket(
            f"aw-watcher-window_{hostname}", "currentwindow", "aw-watcher-window", hostname
        ),
        f"aw-watcher-afk_{hostname}": _bucket(
            f"aw-watcher-afk_{hostname}", "afkstatus", "aw-watcher-afk", hostname
        ),
        # aw-client-web cannot know the host name and reports "unknown", as real exports show.
        "aw-watcher-web-chrome": _bucket(
            "aw-watcher-web-chrome", "web.tab.current", "aw-client-web", "unknown"
        ),
    }
    for bucket, events in zip(buckets.values(), (window, afk, web), strict=True):
        bucket["created"] = created
        bucket["events"] = sorted(events, key=lambda e: e["timestamp"], reverse=True)
    p.write_text(json.dumps({"buckets": buckets}, ensure_ascii=False, indent=1) + "\n")
    return p


def _bucket(bucket_id: str, kind: str, client: str, hostname: str) -> dict[str, Any]:
    return {
        "id": bucket_id,
        "created": "",
        "name": None,
        "type": kind,
        "client": client,
        "hostname": hostname,
        "events": [],
    }


def _aw_event(ts_ms: int, dur_ms: int, data: dict[str, Any]) -> dict[str, Any]:
    # The export format stores durations as float seconds; this is the only float here.
    return {"timestamp": format_ts(ts_ms), "duration": dur_ms / 1000, "data": data}


def _runs(day: SimDay) -> list[_Run]:
    """Runs of identical (app, title, url) rows on the focused screen, split at AFK starts."""
    rows = [s for s in day.snapshots if s.device == day.devices[0]]
    afk_starts = sorted(a.start_ms for a in day.afk)
    runs: list[_Run] = []
    first: Snapshot | None = None
    for prev, cur in pairwise(rows):
        first = first or prev
        away = bisect_right(afk_starts, cur.ts_ms) != bisect_right(afk_starts, prev.ts_ms)
        if away or (cur.app, cur.title, cur.url) != (first.app, first.title, first.url):
            runs.append(_Run(first, cur.ts_ms - first.ts_ms))
            first = None
    if rows:
        last = first or rows[-1]
        runs.append(_Run(last, rows[-1].ts_ms - last.ts_ms))
    return runs


def _window_data(s: Snapshot) -> dict[str, Any]:
    return {"app": s.app, "title": s.title}


def _web_events(runs: list[_Run]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for r in runs:
        s = r.first
        if s.app != CHROME or s.url is None:
            continue
        seen.add(s.url)
        data = {
            "url": s.url,
            "title": s.title.removesuffix(CHROME_TITLE_SUFFIX),
            "audible": "youtube.com/watch" in s.url,
            "incognito": False,
            "tabCount": 3 + len(seen) % 12,  # tabs come and go as pages are opened
        }
        out.append(_aw_event(s.ts_ms, r.dur_ms, data))
    return out


def _afk_events(day: SimDay) -> list[dict[str, Any]]:
    """not-afk from the first to the last row of the day, with the away spans cut out."""
    if not day.snapshots:
        return []
    t, end = day.snapshots[0].ts_ms, day.snapshots[-1].ts_ms
    out: list[dict[str, Any]] = []
    for a in day.afk:
        out.append(_aw_event(t, a.start_ms - t, {"status": "not-afk"}))
        out.append(_aw_event(a.start_ms, a.end_ms - a.start_ms, {"status": "afk"}))
        t = a.end_ms
    out.append(_aw_event(t, max(0, end - t), {"status": "not-afk"}))
    return out
