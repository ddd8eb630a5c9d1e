"""Days of watcher input for the oracle tests: what a person did, span by span, which
``awtool.py feed`` turns into the heartbeats ActivityWatch's watchers would send.

Each scenario names its day and zone, and one machine per host: ``on`` (watchers
running), ``focus`` [start, end, app, title], ``input`` [start, end] (keyboard or mouse
in use), ``tabs`` [start, end, url, title, audible] (the browser's active tab).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

FIREFOX = "Firefox"
SITES = (
    ("https://docs.python.org/3/library/", "Python docs"),
    ("https://github.com/acme/widget/pulls", "Pull requests"),
    ("https://www.youtube.com/watch?v=abc", "A talk"),
    ("https://news.ycombinator.com/", "Hacker News"),
)


def at(day: str, hhmmss: str, tz: str, fold: int = 0) -> int:
    """Local wall time to epoch ms (``fold`` picks the second of a repeated hour)."""
    local = datetime.fromisoformat(f"{day}T{hhmmss}").replace(tzinfo=ZoneInfo(tz), fold=fold)
    return int(local.timestamp() * 1000)


def _work(start: int, end: int, seed: int, *, idle_at: int | None = None) -> dict[str, Any]:
    """A stretch of ordinary work: an editor, a terminal in short bursts, the browser on a
    few sites; input throughout except one idle break (longer than the AFK timeout)."""
    rng = random.Random(seed)
    focus: list[list[Any]] = []
    tabs: list[list[Any]] = []
    t = start
    while t < end:
        kind = rng.choice(("code", "code", "term", "web", "web"))
        if kind == "term":
            dur = rng.randrange(4_000, 25_000)  # bursts: where flooding matters most
            focus.append([t, min(t + dur, end), "Terminal", "bash"])
        elif kind == "code":
            dur = rng.randrange(30_000, 400_000)
            focus.append([t, min(t + dur, end), "Code", f"file{rng.randrange(5)}.py - Code"])
        else:
            dur = rng.randrange(20_000, 300_000)
            url, title = SITES[rng.randrange(len(SITES))]
            focus.append([t, min(t + dur, end), FIREFOX, f"{title} — Mozilla Firefox"])
            tabs.append([t, min(t + dur, end), url, title, False])
        t += dur
    inputs = [[start, end]]
    if idle_at is not None:
        inputs = [[start, idle_at], [idle_at + 600_000, end]]
    return {"on": [[start, end]], "focus": focus, "input": inputs, "tabs": tabs, "seed": seed}


def ordinary(host: str) -> dict[str, Any]:
    day, tz = "2026-11-10", "Europe/Berlin"
    s, e = at(day, "09:00:00", tz), at(day, "09:45:00", tz)
    spec = _work(s, e, 1, idle_at=at(day, "09:20:00", tz))
    return {"day": day, "tz": tz, "hosts": {host: spec}}


def dst_spring(host: str) -> dict[str, Any]:
    day, tz = "2026-03-29", "Europe/Berlin"  # 02:00 -> 03:00
    s, e = at(day, "01:40:00", tz), at(day, "03:20:00", tz)
    return {"day": day, "tz": tz, "hosts": {host: _work(s, e, 2)}}


def dst_autumn(host: str) -> dict[str, Any]:
    day, tz = "2026-10-25", "Europe/Berlin"  # 03:00 -> 02:00: the hour twice
    s, e = at(day, "02:40:00", tz), at(day, "02:20:00", tz, fold=1)
    return {"day": day, "tz": tz, "hosts": {host: _work(s, e, 3)}}


def across_midnight(host: str) -> dict[str, Any]:
    day, tz = "2026-06-12", "America/New_York"
    s, e = at(day, "23:35:00", tz), at("2026-06-13", "00:25:00", tz)
    return {"day": day, "next_day": "2026-06-13", "tz": tz, "hosts": {host: _work(s, e, 4)}}


def overlapping(host: str) -> dict[str, Any]:
    """Ordinary work on a machine whose clock is stepped back twice (NTP): heartbeats
    then start before the last event ended, and window events overlap."""
    day, tz = "2026-11-11", "UTC"
    s, e = at(day, "14:00:00", tz), at(day, "14:30:00", tz)
    spec = _work(s, e, 5)
    spec["clock_steps"] = [[s + 600_000, -3_000], [s + 1_200_000, -7_000]]
    return {"day": day, "tz": tz, "hosts": {host: spec}}


def video_with_sound(host: str) -> dict[str, Any]:
    """Fifteen minutes of a video with sound and no input, after some typing."""
    day, tz = "2026-11-12", "Europe/London"
    s = at(day, "20:00:00", tz)
    v, e = s + 300_000, s + 300_000 + 900_000
    url, title = SITES[2]
    spec = {
        "on": [[s, e + 240_000]],
        "focus": [
            [s, v, "Code", "notes.md - Code"],
            [v, e, FIREFOX, f"{title} — Mozilla Firefox"],
            [e, e + 240_000, "Code", "notes.md - Code"],
        ],
        "input": [[s, v + 2_000]],
        "tabs": [[v, e, url, title, True]],
        "seed": 6,
    }
    return {"day": day, "tz": tz, "hosts": {host: spec}}


def two_hosts(laptop: str, desk: str) -> dict[str, Any]:
    """A laptop used while the workstation's editor sits idle, then the other way round;
    the laptop also has the browser."""
    day, tz = "2026-11-13", "Europe/Berlin"
    s, m, e = at(day, "09:00:00", tz), at(day, "09:20:00", tz), at(day, "09:45:00", tz)
    lap = _work(s, m, 7)
    lap["on"] = [[s, e]]
    lap["focus"].append([m, e, "Code", "idle.py - Code"])
    desk_spec: dict[str, Any] = {
        "on": [[s, e]],
        "focus": [[s, m, "Code", "main.rs - Code"], *_work(m, e, 8)["focus"]],
        "input": [[m, e]],
        "tabs": [],
        "seed": 9,
    }
    return {"day": day, "tz": tz, "hosts": {laptop: lap, desk: desk_spec}}


def no_afk_bucket(host: str) -> dict[str, Any]:
    day, tz = "2026-11-14", "UTC"
    s, e = at(day, "08:00:00", tz), at(day, "08:25:00", tz)
    spec = _work(s, e, 10, idle_at=s + 600_000)
    spec["afk"] = False
    return {"day": day, "tz": tz, "hosts": {host: spec}}


# Places as a browser reports them: ports that are not the default, a port written
# although it is the default, the browser's own pages, an extension, a local file, a page's
# source, a data URL, an IPv6 address.
PLACES = (
    ("http://localhost:5600/#/activity", "ActivityWatch"),
    ("http://localhost:8501/", "Dashboard · Streamlit"),
    ("http://localhost/", "It works!"),
    ("https://example.com:443/x", "Example Domain"),
    ("https://x.org:8443/admin", "Admin"),
    ("http://[::1]:8080/", "Directory listing"),
    ("about:newtab", "New Tab"),
    ("about:blank", "localhost:3000/"),
    ("about:preferences#privacy", "Settings"),
    ("file:///home/me/report.html", "report.html"),
    ("moz-extension://3f2b9c1e-0a4d-4e7b-9c55-1d2e3f405162/onetab.html", "OneTab"),
    ("view-source:https://github.com/acme/widget", "Source of github.com/acme/widget"),
    ("data:text/plain,hello", "data:text/plain,hello"),
)


def places(host: str) -> dict[str, Any]:
    """The browser on places of every kind, in turns of 70 s to 3 min (the web watcher
    reports a tab every minute: each gets some time), between the editor."""
    day, tz = "2026-11-16", "Europe/Berlin"
    s, e = at(day, "10:00:00", tz), at(day, "11:00:00", tz)
    rng = random.Random(11)
    focus: list[list[Any]] = []
    tabs: list[list[Any]] = []
    t, i = s, 0
    while t < e:
        dur = rng.randrange(70_000, 180_000)
        if i % 3 == 2:
            focus.append([t, min(t + dur, e), "Code", "places.py - Code"])
        else:
            url, title = PLACES[(i - i // 3) % len(PLACES)]
            focus.append([t, min(t + dur, e), FIREFOX, f"{title} — Mozilla Firefox"])
            tabs.append([t, min(t + dur, e), url, title, False])
        t, i = t + dur, i + 1
    spec = {"on": [[s, e]], "focus": focus, "input": [[s, e]], "tabs": tabs, "seed": 11}
    return {"day": day, "tz": tz, "hosts": {host: spec}}


def day_bounds(day: str, tz: str) -> tuple[str, str]:
    """The local day [00:00, next 00:00) as ISO times with their offsets."""
    z = ZoneInfo(tz)
    start = datetime.fromisoformat(day).replace(tzinfo=z)
    end = (start + timedelta(days=1)).replace(tzinfo=z)
    return start.isoformat(), end.isoformat()
