"""The ``--model none`` answerer: a deterministic reader per representation.

It measures what a representation makes answerable, not how well a model reads it. Each
reader turns its text into the same ``Knowledge`` (None where the text does not say),
and one function answers every question kind from that:

- the context block, through the library's own ``parse_context`` (plus the proposed
  ``viewed`` section when present);
- the JSON document, through ``json.loads``;
- the raw rows, by plain aggregation: each row earns ``min(gap to the next row, 90 s)``
  when the gap is at most 300 s (its ``dur_s`` on interval sources), frames are runs of
  rows with the same app and site, and nothing is known of input or recorded away time.

Times are wall-clock minutes after the day's local midnight, as the questions use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from ..compile.site import site_of
from ..emit.context import parse_context, parse_dur, split_fields
from .questions import Question
from .tokens_report import VIEWED_HEAD

SESSION_GAP_S = 300
DWELL_CAP_S = 90
BREAK_MIN = 30.0
IDLE_MIN = 5.0  # the block lists gaps and away periods from 5 minutes


@dataclass
class Knowledge:
    app_s: dict[str, float] | None = None
    site_s: dict[str, float] | None = None  # None: no URLs in this representation
    first: float | None = None
    last: float | None = None
    frames: list[tuple[str, float, float]] | None = None  # (app, start, active_s)
    views: dict[tuple[str, str], float] | None = None  # (kind, name) -> first view
    titled: list[tuple[float, list[str]]] = field(default_factory=list)  # frame titles
    urls: list[tuple[float, str, str]] = field(default_factory=list)  # (at, url, title)
    keys: dict[str, int] | None = None
    breaks: list[list[float]] | None = None


# ---------------------------------------------------------------------------- answering


def answer(q: Question, k: Knowledge) -> Any:
    """The reader's answer to ``q`` (in scoring form), or None when it cannot tell."""
    p = q.params
    kind = q.kind
    if kind == "top_app":
        table = k.app_s
        return max(sorted(table), key=lambda a: table[a]) if table else None
    if kind == "app_minutes":
        return None if k.app_s is None else _get(k.app_s, p["app"]) / 60
    if kind == "site_minutes":
        return None if k.site_s is None else k.site_s.get(p["site"], 0.0) / 60
    if kind == "distinct_apps":
        return None if k.app_s is None else len(k.app_s)
    if kind == "compare_apps":
        if k.app_s is None:
            return None
        a, b = p["apps"]
        ta, tb = _get(k.app_s, a), _get(k.app_s, b)
        return None if ta == tb else (a if ta > tb else b)
    if kind in ("app_used", "absent_app"):
        if k.app_s is None:
            return None
        return "yes" if any(a.casefold() == p["app"].casefold() for a in k.app_s) else "no"
    if kind in ("site_visited", "absent_site"):
        if k.site_s is None:
            return None
        return "yes" if p["site"] in k.site_s else "no"
    if kind == "first_activity":
        return k.first
    if kind == "last_activity":
        return k.last
    if kind == "longest_frame":
        if not k.frames:
            return None
        app, start, _ = max(k.frames, key=lambda f: (f[2], -f[1]))
        return {"app": app, "start": start}
    if kind == "entity_viewed":
        return _entity(k, p["entity_kind"], p["entity"])
    if kind == "keys_in_app":
        return None if k.keys is None else int(_get(k.keys, p["app"]))
    if kind == "away_periods":
        return k.breaks
    raise ValueError(f"unknown question kind {kind!r}")


def _get(table: dict[str, Any], name: str) -> float:
    if name in table:
        return float(table[name])
    folded = [v for a, v in table.items() if a.casefold() == name.casefold()]
    return float(sum(folded))


_KIND_WORD = {"pull request": "pull_request", "issue": "issue", "document": "document"}


def _entity(k: Knowledge, kind: str, name: str) -> float | None:
    if k.views:
        want = (_KIND_WORD.get(kind, kind), _entity_key(name))
        hits = [at for (vk, vn), at in k.views.items() if (vk, _entity_key(vn)) == want]
        if hits:
            return min(hits)
    for at, url, title in sorted(k.urls):
        if _page_matches(kind, name, url, title):
            return at
    for at, titles in sorted(k.titled, key=lambda x: x[0]):
        if any(_title_matches(kind, name, t) for t in titles):
            return at
    return None


def _entity_key(name: str) -> str:
    """One spelling per entity: "owner/repo#12", "owner/repo/pull/12" and
    "owner/repo pull 12" all read "owner/repo#12"; other names are case-folded."""
    m = re.fullmatch(r"([\w.-]+/[\w.-]+)(?:#|/pull/|/issues/|\s+\D*)(\d+)", name.strip())
    return f"{m.group(1)}#{m.group(2)}".casefold() if m else name.strip().casefold()


def _page_matches(kind: str, name: str, url: str, title: str) -> bool:
    if kind in ("pull request", "issue"):
        m = re.fullmatch(r"(.+)/(.+)#(\d+)", name)
        if not m:
            return False
        seg = "pull" if kind == "pull request" else "issues"
        path = f"github.com/{m.group(1)}/{m.group(2)}/{seg}/{m.group(3)}"
        return re.search(re.escape(path) + r"(?!\d)", url, re.IGNORECASE) is not None
    return _title_matches(kind, name, title)


def _title_matches(kind: str, name: str, title: str) -> bool:
    t = title.casefold()
    if kind in ("pull request", "issue"):
        m = re.fullmatch(r"(.+)/(.+)#(\d+)", name)
        if not m:
            return False
        word = "pull request" if kind == "pull request" else "issue"
        return f"{word} #{m.group(3)} · {m.group(1)}/{m.group(2)}".casefold() in t
    return t.startswith(f"{name} - google ".casefold())


# ---------------------------------------------------------------------------- times


def _clock(text: str, day: date) -> float:
    """'HH:MM' or 'MM-DD HH:MM' (outside the day) as minutes after the day's midnight."""
    text = text.strip()
    m = re.fullmatch(r"(?:(\d{2})-(\d{2}) )?(\d{2}):(\d{2})", text)
    if not m:
        raise ValueError(f"bad time {text!r}")
    offset = 0
    if m.group(1):
        when = date(day.year, int(m.group(1)), int(m.group(2)))
        if (when - day).days > 180:
            when = when.replace(year=day.year - 1)
        elif (day - when).days > 180:
            when = when.replace(year=day.year + 1)
        offset = (when - day).days * 1440
    return offset + int(m.group(3)) * 60 + int(m.group(4))


def _iso_minutes(text: str, day: date) -> float:
    """A local ISO time (with offset) as wall minutes after the day's midnight."""
    dt = datetime.fromisoformat(text)
    return (dt.date() - day).days * 1440 + dt.hour * 60 + dt.minute + dt.second / 60


def _breaks(
    spans: Iterable[tuple[float, float]], first: float, last: float, join: float
) -> list[list[float]]:
    """Idle spans (of at least 5 minutes) clipped to [first, last], joined when at most
    ``join`` minutes apart, kept when at least 30 minutes long."""
    out: list[list[float]] = []
    for s, e in sorted(spans):
        s, e = max(s, first), min(e, last)
        if e - s < IDLE_MIN - 1e-9:
            continue
        if out and s - out[-1][1] <= join:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [x for x in out if x[1] - x[0] >= BREAK_MIN - 1e-9]


def _adjust(first: float, last: float, away: list[tuple[float, float]]) -> tuple[float, float]:
    """Coverage runs from the first to the last held time; recorded away time at its
    edges is not activity."""
    for s, e in sorted(away):
        if s <= first < e:
            first = e
    for s, e in sorted(away, reverse=True):
        if s < last <= e:
            last = s
    return first, last


# ---------------------------------------------------------------------------- context block


def split_proposed(text: str) -> tuple[str, list[str], str | None]:
    """The block without the proposed additions; the ``viewed`` item lines; the
    ``longest`` line (or None)."""
    lines = text.split("\n")
    longest = next((x for x in lines if x.startswith("longest ")), None)
    if longest is not None:
        lines.remove(longest)
    if VIEWED_HEAD not in lines:
        return "\n".join(lines), [], longest
    at = lines.index(VIEWED_HEAD)
    end = at + 1
    while end < len(lines) and lines[end].startswith("- "):
        end += 1
    return "\n".join(lines[:at] + lines[end:]), lines[at + 1 : end], longest


def read_context(text: str, day: str) -> Knowledge:
    d = date.fromisoformat(day)
    core, viewed, longest = split_proposed(text)
    p = parse_context(core)
    apps: dict[str, float] = {}
    keys: dict[str, int] = {}
    sites: dict[str, float] = {}
    for e in p["ledger"]:
        apps[e["app"]] = apps.get(e["app"], 0.0) + e["active_s"]
        keys[e["app"]] = keys.get(e["app"], 0) + e["keys"]
        if e["site"]:
            sites[e["site"]] = sites.get(e["site"], 0.0) + e["active_s"]
    k = Knowledge(app_s=apps, site_s=sites, keys=keys)
    cov = p.get("coverage") or {}
    gaps = [(_clock(g["start"], d), _clock(g["end"], d)) for g in p["gaps"]]
    away = [(_clock(a["start"], d), _clock(a["end"], d)) for a in p["away"]]
    if cov.get("first"):
        k.first, k.last = _adjust(_clock(cov["first"], d), _clock(cov["last"], d), away)
        k.breaks = _breaks([*gaps, *away], k.first, k.last, join=1.0)
    k.frames = [(f["app"], _clock(f["start"], d), float(f["active_s"])) for f in p["frames"]]
    top = p.get("longest") or (_parse_longest(longest) if longest else None)
    if top:  # the longest frame, named even when no frame line fits the budget
        k.frames.append((top["app"], _clock(top["start"], d), float(top["active_s"])))
    k.titled = [(_clock(f["start"], d), list(f["titles"])) for f in p["frames"]]
    parsed_views = p.get("viewed")  # once the grammar has the section, the parser reads it
    if parsed_views is not None:
        k.views = {
            (v["kind"], str(v["entity"]).casefold()): _clock(v["first"], d) for v in parsed_views
        }
    elif viewed:
        k.views = {}
        for line in viewed:
            kind, name, first, _views = split_fields(line[2:])
            if name.startswith('"'):
                name = json.loads(name)
            k.views[(kind, name.casefold())] = _clock(first, d)
    return k


def _parse_longest(line: str) -> dict[str, Any]:
    span, app, site, dur, fid = split_fields(line[len("longest ") :])
    start, _, end = span.partition("–")
    return {
        "start": start,
        "end": end,
        "app": json.loads(app) if app.startswith('"') else app,
        "site": None if site == "-" else site,
        "active_s": parse_dur(dur),
        "id": fid,
    }


# ---------------------------------------------------------------------------- JSON document


def read_json(text: str, day: str) -> Knowledge:
    d = date.fromisoformat(day)
    doc = json.loads(text)
    apps: dict[str, float] = {}
    keys: dict[str, int] = {}
    sites: dict[str, float] = {}
    for e in doc["ledger"]:
        apps[e["app"]] = apps.get(e["app"], 0.0) + e["active_s"]
        keys[e["app"]] = keys.get(e["app"], 0) + e.get("keys", 0)
        if e.get("site"):
            sites[e["site"]] = sites.get(e["site"], 0.0) + e["active_s"]
    no_urls = any("no URLs" in s for s in doc.get("blind_spots", []))
    k = Knowledge(app_s=apps, site_s=None if no_urls else sites, keys=keys)
    cov = doc["coverage"]
    away = [(_iso_minutes(a["start"], d), _iso_minutes(a["end"], d)) for a in cov.get("away", [])]
    gaps = [(_iso_minutes(g["start"], d), _iso_minutes(g["end"], d)) for g in cov["gaps"]]
    if cov.get("first"):
        k.first, k.last = _adjust(_iso_minutes(cov["first"], d), _iso_minutes(cov["last"], d), away)
        k.breaks = _breaks([*gaps, *away], k.first, k.last, join=1.0 - 1e-6)
    k.frames = [
        (f["app"], _iso_minutes(f["start"], d), float(f["active_s"])) for f in doc["frames"]
    ]
    k.titled = [(_iso_minutes(f["start"], d), list(f["titles"])) for f in doc["frames"]]
    views: dict[tuple[str, str], float] = {}
    for f in doc["frames"]:
        for page in f.get("pages", []):
            if page.get("first") and page.get("kind") != "page":
                key = (page["kind"], str(page["entity"]).casefold())
                at = _iso_minutes(page["first"], d)
                views[key] = min(at, views.get(key, at))
    k.views = views or None
    return k


# ---------------------------------------------------------------------------- raw rows


def read_raw(text: str, day: str) -> Knowledge:
    d = date.fromisoformat(day)
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    apps: dict[str, float] = {}
    sites: dict[str, float] = {}
    k = Knowledge(app_s=apps, site_s=sites)
    if not rows:
        return k
    streams: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        r["_t"] = datetime.fromisoformat(r["time"]).timestamp()
        r["_m"] = _iso_minutes(r["time"], d)
        r["_site"] = site_of(r.get("url"))
        streams.setdefault(r.get("device", ""), []).append(r)
    held: list[tuple[float, float]] = []
    frames: list[list[Any]] = []
    for stream in streams.values():
        prev_key: tuple[str, str | None] | None = None
        for i, r in enumerate(stream):
            nxt = stream[i + 1]["_t"] if i + 1 < len(stream) else None
            if "dur_s" in r:
                secs = (
                    float(r["dur_s"]) if nxt is None else max(0.0, min(r["dur_s"], nxt - r["_t"]))
                )
                joined = nxt is not None and nxt - (r["_t"] + r["dur_s"]) <= SESSION_GAP_S
            else:
                gap = None if nxt is None else nxt - r["_t"]
                joined = gap is not None and gap <= SESSION_GAP_S
                secs = min(gap, DWELL_CAP_S) if gap is not None and joined else 0.0
            app, site = r["app"], r["_site"]
            apps[app] = apps.get(app, 0.0) + secs
            if site:
                sites[site] = sites.get(site, 0.0) + secs
            held.append((r["_m"], r["_m"] + secs / 60))
            if prev_key == (app, site) and frames:
                frames[-1][2] += secs
            else:
                frames.append([app, r["_m"], secs])
            prev_key = (app, site) if joined else None
            if r.get("url"):
                k.urls.append((r["_m"], r["url"], r.get("title") or ""))
    k.frames = [(a, s, float(x)) for a, s, x in frames]
    k.first = min(s for s, _ in held)
    k.last = max(e for _, e in held)
    idle: list[tuple[float, float]] = []
    cursor = k.first
    for s, e in sorted(held):
        if s - cursor >= IDLE_MIN:
            idle.append((cursor, s))
        cursor = max(cursor, e)
    k.breaks = _breaks(idle, k.first, k.last, join=1.0 - 1e-6)
    if not any(r.get("url") for r in rows) and not sites:
        k.site_s = None
    return k


READERS = {"context": read_context, "context+": read_context, "json": read_json, "raw": read_raw}


def read(rep: str, text: str, day: str) -> Knowledge | None:
    """The reader's knowledge of a representation; None for one it cannot read (a
    summary written by a model)."""
    reader = READERS.get(rep)
    return reader(text, day) if reader else None
