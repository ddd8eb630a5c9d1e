"""The ``--model none`` answerer: a deterministic reader per representation.

It measures what a representation makes answerable, not how well a model reads it. Each
reader turns its text into the same ``Knowledge`` (None where the text does not say),
and one function answers every question kind from that:

- the context block, through the library's own ``parse_context`` (its ``longest`` line
  and ``viewed`` section included);
- the JSON document, through ``json.loads`` (its ``viewed`` key gives first views);
- the raw rows, by plain aggregation: each row earns ``min(gap to the next row, 90 s)``
  when the gap is at most 300 s (its ``dur_s`` on interval sources), frames are runs of
  rows with the same app and site, a pull request, issue or Google document is
  recognised in a row's URL (else its title), and nothing is known of input or recorded
  away time.

Times are wall-clock minutes after the day's local midnight, as the questions use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, cast
from urllib.parse import urlsplit

from ..compile.site import site_of
from ..doc_types import Document
from ..emit.context_parse import parse_context
from .questions import Question

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
    views: dict[tuple[str, str], float] | None = None  # (kind, entity folded) -> first view
    # Pages of the frames shown, (frame start, kind, entity folded): the frame's start
    # stands for a view the representation does not list.
    pages: list[tuple[float, str, str]] = field(default_factory=list)
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


def _entity(k: Knowledge, kind: str, name: str) -> float | None:
    want = (kind, _entity_key(name))
    if k.views:
        hits = [at for (vk, vn), at in k.views.items() if (vk, _entity_key(vn)) == want]
        if hits:
            return min(hits)
    hits = [at for at, pk, pn in k.pages if (pk, _entity_key(pn)) == want]
    return min(hits) if hits else None


def _entity_key(name: str) -> str:
    """One spelling per entity: "owner/repo#12", "owner/repo/pull/12" and
    "owner/repo pull 12" all read "owner/repo#12"; other names are case-folded."""
    m = re.fullmatch(r"([\w.-]+/[\w.-]+)(?:#|/pull/|/issues/|\s+\D*)(\d+)", name.strip())
    return f"{m.group(1)}#{m.group(2)}".casefold() if m else name.strip().casefold()


_GH_PATH = re.compile(r"/([\w-]+)/([\w.-]+)/(pull|issues)/(\d+)(?:/.*)?\Z")
_GDOC_PATH = re.compile(
    r"(?:/a/[^/]+)?/(document|spreadsheets|presentation)(?:/u/\d+)?/d/([\w-]{10,})(?:/.*)?\Z"
)
_GDOC_KINDS = {"document": "doc", "spreadsheets": "sheet", "presentation": "slides"}
_GH_TITLE = re.compile(
    r" · (Issue|Pull Request) #(\d+) · ([\w-]+/[\w.-]+)(?: · GitHub)?(?: [-–—] |\Z)"
)
_URL_TITLE = re.compile(r"\A((?:https?://)?(?:[\w-]+\.)+[a-z]{2,}(?::\d+)?/\S*)(?: [-–—] .*)?\Z")
_GDOC_TITLE = re.compile(r"\A(.+) - Google (Docs|Sheets|Slides)(?: [-–—] [^·]*)?\Z")


def row_entity(url: str | None, title: str) -> tuple[str, str] | None:
    """(kind, entity) of a pull request, issue or Google document a raw row shows: from
    its URL (a document by its id), else from its title (a document by its title)."""
    if url:
        try:
            u = urlsplit(url if "://" in url else "//" + url)
        except ValueError:
            return None
        host = site_of(url)
        m = _GH_PATH.match(u.path) if host == "github.com" else None
        if m:
            kind = "pull_request" if m.group(3) == "pull" else "issue"
            return kind, f"{m.group(1)}/{m.group(2)}#{m.group(4)}"
        m = _GDOC_PATH.match(u.path) if host == "docs.google.com" else None
        return (_GDOC_KINDS[m.group(1)], m.group(2)) if m else None
    m = _URL_TITLE.match(title)
    if m:  # the address shown as the title while a page loads
        return row_entity(m.group(1), "")
    m = _GH_TITLE.search(title)
    if m:
        kind = "pull_request" if m.group(1) == "Pull Request" else "issue"
        return kind, f"{m.group(3)}#{m.group(2)}"
    m = _GDOC_TITLE.match(title)
    if m:
        return {"Docs": "doc", "Sheets": "sheet"}.get(m.group(2), "slides"), m.group(1).strip()
    return None


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


def read_context(text: str, day: str) -> Knowledge:
    d = date.fromisoformat(day)
    p = parse_context(text)
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
    top = p.get("longest")
    if top:  # the longest frame, named even when no frame line fits the budget
        k.frames.append((top["app"], _clock(top["start"], d), float(top["active_s"])))
    k.views = {
        (v["kind"], str(v["entity"]).casefold()): _clock(v["first"], d) for v in p.get("viewed", [])
    }
    for f in p["frames"]:
        at = _clock(f["start"], d)
        for item in f["pages"]:
            ref = _page_item(item)
            if ref:
                k.pages.append((at, *ref))
    return k


def _page_item(item: str) -> tuple[str, str] | None:
    """(kind, entity folded) of a frame line's page item ``KIND NAME [×N]``; None for
    the ``+N`` of pages not shown."""
    kind, _, rest = item.partition(" ")
    if not rest:
        return None
    name = re.sub(r" ×\d+\Z", "", rest)
    if name.startswith('"'):
        name = json.loads(name)
    return kind, str(name).casefold()


# ---------------------------------------------------------------------------- JSON document


def read_json(text: str, day: str) -> Knowledge:
    d = date.fromisoformat(day)
    # The representation under test is the compiler's own JSON document, so its shape is
    # the Document type; the reader's field accesses are checked against it from here.
    doc = cast(Document, json.loads(text))
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
    first, last = cov["first"], cov["last"]  # both null, or both set
    if first and last:
        k.first, k.last = _adjust(_iso_minutes(first, d), _iso_minutes(last, d), away)
        k.breaks = _breaks([*gaps, *away], k.first, k.last, join=1.0 - 1e-6)
    k.frames = [
        (f["app"], _iso_minutes(f["start"], d), float(f["active_s"])) for f in doc["frames"]
    ]
    k.views = {
        (v["kind"], str(v["entity"]).casefold()): _iso_minutes(v["first"], d)
        for v in doc.get("viewed", [])
    }
    return k


# ---------------------------------------------------------------------------- raw rows


def read_raw(text: str, day: str) -> Knowledge:
    d = date.fromisoformat(day)
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    apps: dict[str, float] = {}
    sites: dict[str, float] = {}
    views: dict[tuple[str, str], float] = {}
    k = Knowledge(app_s=apps, site_s=sites, views=views)
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
            ref = row_entity(r.get("url"), r.get("title") or "")
            if ref:
                key = (ref[0], ref[1].casefold())
                views[key] = min(r["_m"], views.get(key, r["_m"]))
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


READERS = {"context": read_context, "json": read_json, "raw": read_raw}


def read(rep: str, text: str, day: str) -> Knowledge | None:
    """The reader's knowledge of a representation; None for one it cannot read (a
    summary written by a model)."""
    reader = READERS.get(rep)
    return reader(text, day) if reader else None
