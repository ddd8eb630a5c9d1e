"""ActivityWatch users get ActivityWatch's own categories: a real aw-server, fed the way
its watchers feed it, answers its web UI's query with ``categorize(events, CLASSES)``
and ``merge_events_by_keys(events, ["$category"])``; the document's ``categories``,
compiled from the same events, agree per category within max(5 s, 0.5%) — with
ActivityWatch's default categories, with a web UI export given as ``--categories``, and
with rules that carry a ``priority``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from actframes.api import Store
from actframes.window import day_window
from tests.builders import run_cli

from . import scenarios as sc
from .server import AWServer

HOST = "host-categories"
DAY, TZ = "2026-11-18", "Europe/Berlin"
FIREFOX = sc.FIREFOX

# What a person did, in order: (seconds, app, title, the browser tab's url or None).
DAY_PLAN: tuple[tuple[int, str, str, str | None], ...] = (
    (240, "Code", "aw-server - Visual Studio Code", None),
    (300, FIREFOX, "acme/widget: Pull requests · GitHub — Mozilla Firefox",
     "https://github.com/acme/widget/pulls"),
    (180, "Alacritty", "vim notes.md", None),
    (150, "Alacritty", "nvim init.lua", None),
    (200, "Slack", "general | Acme - Slack", None),
    (120, "Slack", "#dev: GitHub PR merged - Slack", None),
    (90, "Slack", "Standup huddle - Slack", None),
    (600, FIREFOX, "A talk - YouTube — Mozilla Firefox", "https://www.youtube.com/watch?v=abc"),
    (150, "spotify", "Daft Punk - Around the World", None),
    (200, "Thunderbird", "Inbox - Mozilla Thunderbird", None),
    (900, "Blender", "Blender [/home/me/scene.blend]", None),
    (60, "Terminal", "bash", None),
    (180, FIREFOX, "Hacker News — Mozilla Firefox", "https://news.ycombinator.com/"),
    (120, FIREFOX, "reddit: the front page of the internet — Mozilla Firefox",
     "https://www.reddit.com/"),
    (200, FIREFOX, "Quarterly plan - Google Docs — Mozilla Firefox",
     "https://docs.google.com/document/d/1"),
    (150, "WINWORD.EXE", "C:\\Users\\me\\report.docx - Word", None),
    (240, "Code", "main.py - Code", None),
    (20, "Terminal", "bash", None),
    (200, "Telegram", "Saved Messages", None),
)  # fmt: skip


def categories_day() -> dict[str, Any]:
    """The plan from 09:00, with input throughout except while the talk plays (its sound:
    the web UI counts it) and for ten minutes in Blender (away: neither counts it)."""
    t = sc.at(DAY, "09:00:00", TZ)
    focus: list[list[Any]] = []
    tabs: list[list[Any]] = []
    quiet: list[tuple[int, int]] = []
    for dur_s, app, title, url in DAY_PLAN:
        end = t + dur_s * 1000
        focus.append([t, end, app, title])
        if url is not None:
            tabs.append([t, end, url, title.split(" — ")[0], "YouTube" in title])
        if "YouTube" in title:
            quiet.append((t + 30_000, end))
        if app == "Blender":
            quiet.append((t + 60_000, t + 660_000))
        t = end
    start, inputs = focus[0][0], []
    for q_start, q_end in quiet:
        inputs.append([start, q_start])
        start = q_end
    inputs.append([start, t])
    spec = {"on": [[focus[0][0], t]], "focus": focus, "input": inputs, "tabs": tabs, "seed": 21}
    return {"day": DAY, "tz": TZ, "hosts": {HOST: spec}}


def _implicit(name: list[str], k: int) -> dict[str, Any]:
    return {"id": k, "name": name, "rule": {"type": None}, "data": {"color": "#CCC"}}


# The web UI's export (Settings → Categorization, before category sets): ids, colours,
# the implicit parents with a null rule type, and rules the web UI has no form for.
EXPORT: dict[str, Any] = {
    "categories": [
        {"id": 0, "name": ["Work"], "data": {"color": "#0F0", "score": 10},
         "rule": {"type": "regex", "regex": "Google Docs|libreoffice"}},
        {"id": 1, "name": ["Work", "Programming"], "data": {"color": "#0A0"},
         "rule": {"type": "regex", "regex": r"GitHub|\bvim\b|Visual Studio Code"}},
        {"id": 2, "name": ["Work", "Programming", "Review"], "name_pretty": "Review",
         "depth": 2,
         "rule": {"type": "regex", "regex": "Pull requests", "select_keys": ["title"]}},
        # (A regex may not end in a backslash: the query language would read the
        # string's closing quote as escaped, and ActivityWatch answers 400.)
        {"id": 3, "name": ["Work", "Documents"],
         "rule": {"type": "regex", "regex": r"^C:\\Users\\\w+\\.+\.docx",
                  "select_keys": ["title"]}},
        {"id": 4, "name": ["Work", "Writing"],
         "rule": {"type": "regex", "regex": "Word", "select_keys": ["app"]}},
        {"id": 5, "name": ["Web"],
         "rule": {"type": "regex", "regex": ".", "select_keys": ["url"]}},
        {"id": 6, "name": ["Comms", "Chat"],
         "rule": {"type": "regex", "regex": "slack|telegram", "ignore_case": True}},
        {"id": 7, "name": ["Work", "Meetings"],
         "rule": {"type": "regex", "regex": "standup", "ignore_case": True}},
        {"id": 8, "name": ["Comms", "Mail"],
         "rule": {"type": "regex", "regex": "THUNDERBIRD", "ignore_case": True,
                  "select_keys": ["app"]}},
        {"id": 9, "name": ["Media", "Video"], "rule": {"type": "regex", "regex": "YouTube"}},
        {"id": 10, "name": ["Media", "Music"],
         "rule": {"type": "regex", "regex": "Spotify", "select_keys": ["app"]}},
        {"id": 11, "name": ["Breaks"], "rule": {"type": "regex", "regex": "YouTube|reddit"}},
        {"id": 12, "name": ["Shell"],
         "rule": {"type": "regex", "regex": "^bash$", "select_keys": ["title"]}},
        {"id": 13, "name": ["Design", "3D"],
         "rule": {"type": "regex", "regex": "blender", "select_keys": ["app"]}},
        {"id": 14, "name": ["Design"], "rule": {"type": "none"}, "data": {"color": "#F0F"}},
        {"id": 15, "name": ["Stuck"], "rule": {"type": "regex", "regex": ""}},
        _implicit(["Comms"], 16),
        _implicit(["Media"], 17),
        _implicit(["Uncategorized"], 18),
    ]
}  # fmt: skip

# A server's settings (``{"classes": [...]}``) whose rules rank by ``priority`` (or its
# alias ``weight``): above a deeper category, at zero, tied with a depth's own rank and
# with each other (the later rule wins).
PRIORITY: dict[str, Any] = {
    "classes": [
        {"name": ["Work"], "rule": {"type": "regex", "regex": "GitHub|Code", "priority": 25}},
        {"name": ["Work", "Programming"],
         "rule": {"type": "regex", "regex": "GitHub|Visual Studio Code"}},
        {"name": ["Shell"], "rule": {"type": "regex", "regex": "bash", "priority": 0}},
        {"name": ["Comms"], "rule": {"type": "regex", "regex": "Slack|Thunderbird",
                                     "select_keys": ["app"], "priority": 30}},
        {"name": ["Comms", "Alerts"],
         "rule": {"type": "regex", "regex": "GitHub", "select_keys": ["title"], "weight": 30}},
        {"name": ["Browsing"],
         "rule": {"type": "regex", "regex": "Firefox", "select_keys": ["app"], "priority": 5}},
        {"name": ["Media", "Video"], "rule": {"type": "regex", "regex": "YouTube"}},
        {"name": ["Media"], "rule": {"type": "regex", "regex": "YouTube|spotify", "priority": 20}},
        {"name": ["Reading", "News", "Tech"],
         "rule": {"type": "regex", "regex": "Hacker News", "priority": 1}},
        {"name": ["Work", "3D", "Blender"], "rule": {"type": "regex", "regex": "Blender",
                                                     "priority": 12}},
        {"name": ["Work", "3D"], "rule": {"type": "regex", "regex": "scene", "priority": 11}},
    ]
}  # fmt: skip


def classes_for_query(categories: list[dict[str, Any]]) -> list[list[Any]]:
    """The web UI's ``classes_for_query``: ``[name, rule]`` of every category whose rule
    type is not null, in order."""
    return [[c["name"], c["rule"]] for c in categories if c["rule"].get("type", "") is not None]


def theirs(server: AWServer, tmp: Path, categories: list[dict[str, Any]]) -> dict[str, float]:
    path = tmp / "classes.json"
    path.write_text(json.dumps(classes_for_query(categories)), encoding="utf-8")
    start, end = sc.day_bounds(DAY, TZ)
    return dict(
        json.loads(server._tool("categories", str(server.port), start, end, HOST, str(path)))
    )


def ours(doc: Any) -> dict[str, int]:
    return {e["name"]: e["active_s"] for e in doc["categories"]["entries"]}


def assert_close(mine: dict[str, int], aw: dict[str, float], what: str) -> None:
    names = set(mine) | {k for k, v in aw.items() if v >= 0.5}
    assert names, f"{what}: nothing compared"
    for name in sorted(names):
        a, b = mine.get(name, 0), aw.get(name, 0.0)
        assert abs(a - b) <= max(5.0, 0.005 * b), (
            f"{what} category {name!r}: ours {a} s, ActivityWatch {b:.1f} s\n"
            f"ours {sorted(mine.items())}\nActivityWatch {sorted(aw.items())}"
        )
    total = sum(aw.values())
    assert abs(sum(mine.values()) - total) <= max(5.0, 0.005 * total)
    assert total > 3600, f"{what}: the day was not credited ({total:.0f} s)"


@pytest.fixture(scope="module")
def fed(aw_server: AWServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server holding the day; its export."""
    aw_server.feed(categories_day())
    return aw_server.export(tmp_path_factory.mktemp("categories") / "export.json")


def test_default_categories_match_activitywatch(
    aw_server: AWServer, fed: Path, tmp_path: Path
) -> None:
    """No file, and a server without settings (aw-server 0.12): ActivityWatch's default
    categories, read from the export and from the running server alike."""
    from actframes.classify.aw_defaults import DEFAULT_CATEGORIES

    window = day_window(DAY, TZ)
    with Store(fed, disk_cache=False) as store:
        doc = store.compile(window)
    with Store(aw_server.url, disk_cache=False) as store:
        rest = store.compile(window)
    assert doc["categories"]["rules"] == rest["categories"]["rules"] == "activitywatch defaults"
    assert ours(doc) == ours(rest)
    defaults = [{"name": list(r.name), "rule": {"type": "regex", "regex": r.regex,
                 "ignore_case": r.ignore_case}} for r in DEFAULT_CATEGORIES]  # fmt: skip
    aw = theirs(aw_server, tmp_path, defaults)
    assert_close(ours(doc), aw, "defaults")
    # The day reaches most of them (a tie: GitHub in Slack is chat, the later rule).
    assert {
        "Work", "Work > Programming", "Work > Programming > ActivityWatch", "Work > 3D",
        "Media > Video", "Media > Music", "Media > Social Media", "Comms > IM",
        "Comms > Email", "Uncategorized",
    } <= set(aw)  # fmt: skip


def test_an_exported_categories_file_matches_activitywatch(
    aw_server: AWServer, fed: Path, tmp_path: Path
) -> None:
    """``--categories FILE`` with the web UI's export: select_keys, ignore_case, a regex
    with ``\\b`` and with backslashes, equal ranks (the later rule wins), an empty regex,
    a ``none`` rule and implicit parents (left out, as the web UI leaves them out)."""
    path = tmp_path / "aw-category-export.json"
    path.write_text(json.dumps(EXPORT, indent=2), encoding="utf-8")
    res = run_cli("day", DAY, "--db", str(fed), "--tz", TZ, "--categories", str(path), "--no-cache")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["categories"]["rules"] == path.name
    aw = theirs(aw_server, tmp_path, EXPORT["categories"])
    assert_close(ours(doc), aw, "export")
    assert {
        "Work > Programming", "Work > Programming > Review", "Work > Documents",
        "Work > Meetings", "Comms > Chat", "Comms > Mail", "Media > Video", "Breaks",
        "Shell", "Work", "Uncategorized",
    } <= set(aw)  # fmt: skip
    assert not {"Media > Music", "Design > 3D", "Design", "Stuck", "Work > Writing", "Web"} & set(
        aw
    )


def test_priorities_match_activitywatch(aw_server: AWServer, fed: Path, tmp_path: Path) -> None:
    """Rules with ``priority`` (aw-core 0.5.18): the highest rank wins whatever the depth,
    ``weight`` is its other name, and equal ranks go to the later rule."""
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(PRIORITY), encoding="utf-8")
    window = day_window(DAY, TZ)
    with Store(fed, disk_cache=False, categories=path) as store:
        doc = store.compile(window)
    assert doc["categories"]["rules"] == "settings.json"
    aw = theirs(aw_server, tmp_path, PRIORITY["classes"])
    assert_close(ours(doc), aw, "priority")
    assert {
        "Work", "Shell", "Comms", "Comms > Alerts", "Browsing", "Media",
        "Work > 3D > Blender", "Uncategorized",
    } <= set(aw)  # fmt: skip
    assert not {"Work > Programming", "Media > Video", "Reading > News > Tech"} & set(aw)
