"""ActivityWatch categories (SPEC.md §3b, "A row's category"): a bad categories file is
one line naming the file, the line and the field; an ActivityWatch store's own
categories (aw-server-rust's ``settings.classes``, a running server's settings) are
applied and said so; and the category picked for a window event is the one aw-core's
own ``categorize`` picks, on a table of tricky cases."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from actframes.api import Store
from actframes.classify.aw_categories import CategoryMatcher, categories_of, parse_categories
from actframes.classify.aw_defaults import DEFAULT_CATEGORIES
from actframes.errors import UsageError
from actframes.window import day_window
from tests.builders import run_cli
from tests.local_http import local_http
from tests.sources.test_activitywatch import export_to_sqlite

# ---------------------------------------------------------------------------------------
# A bad file: one line, its line, its field


def cat(name: Any, **rule: Any) -> dict[str, Any]:
    return {"name": name, "rule": {"type": "regex", **rule}}


def pretty(data: Any) -> str:
    return json.dumps(data, indent=2)


BAD: list[tuple[str, str, int, str]] = [
    # (case, file text, the line, what the message says)
    ("bad JSON", '{\n  "categories": [\n    {"name": ["A"]},,\n  ]\n}\n', 3, "not valid JSON"),
    ("not closed", '{"categories": [\n', 2, "not valid JSON"),
    ("bad regex", pretty({"categories": [cat(["A"], regex="a"), cat(["B"], regex="(")]}), 18,
     "category 2: field 'regex': bad regular expression"),
    ("regex not text", pretty([cat(["A"], regex=5)]), 8, "category 1: field 'regex': must be text"),
    # "Work" stands on line 5 too (the first category's name): the second category's is 13.
    ("name not a list",
     pretty({"categories": [cat(["Work"], regex="Work"), cat("Work", regex="y")]}), 13,
     "category 2: field 'name': must be a list of names"),
    ("name empty", pretty([cat([], regex="y")]), 3, "category 1: field 'name'"),
    ("name of numbers", pretty([cat([1, 2], regex="y")]), 3, "category 1: field 'name'"),
    ("priority a float", pretty({"classes": [cat(["A"], regex="a", priority=1),
                                             cat(["B"], regex="b", priority=1.5)]}),
     20, "category 2: field 'priority': must be an integer"),
    ("priority text", pretty([cat(["A"], regex="a", priority="5")]), 9, "field 'priority'"),
    ("priority a boolean", pretty([cat(["A"], regex="a", priority=True)]), 9, "field 'priority'"),
    ("weight text", pretty([cat(["A"], regex="a", weight="5")]), 9, "field 'weight'"),
    ("select_keys text", pretty([cat(["A"], regex="a", select_keys="app")]), 9,
     "field 'select_keys': must be a list"),
    ("rule not an object", pretty([{"name": ["A"], "rule": "GitHub"}]), 6, "field 'rule'"),
    ("category not an object", '[\n  {"name": ["A"], "rule": {}},\n  5\n]', 3,
     "category 2: is not an object"),
    ("no list", '{"buckets": {}}', 1, "no 'categories' or 'classes' list"),
    ("not a list", '{"categories": {"name": ["A"]}}', 1, "the categories must be a list"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "says"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_file_is_one_line_naming_its_line_and_field(text: str, line: int, says: str) -> None:
    with pytest.raises(UsageError) as got:
        parse_categories(text, "cats.json")
    message = str(got.value)
    assert "\n" not in message
    assert message.startswith(f"cats.json:{line}: "), message
    assert says in message


def test_good_files_in_every_shape_read_alike() -> None:
    """The web UI's export (old and with an ``id``), a server's settings, a bare list:
    one set of rules; implicit parents (rule type null) are left out, ``none`` kept."""
    listed = [
        {"id": 0, "name": ["Work"], "rule": {"type": None}, "data": {"color": "#0F0"}},
        {"id": 1, "name": ["Work", "Code"], "rule": {"type": "regex", "regex": r"\bvim\b",
                                                     "ignore_case": True, "priority": 3}},
        {"id": 2, "name": ["Media"], "rule": {"type": "none"}},
        {"id": 3, "name": ["Chat"], "rule": {"regex": "Slack", "select_keys": ["app"],
                                             "weight": 7}},
    ]  # fmt: skip
    shapes = [listed, {"categories": listed}, {"id": "work", "categories": listed}]
    shapes.append({"classes": listed, "theme": "dark"})
    got = {parse_categories(pretty(s), "c.json") for s in shapes}
    assert len(got) == 1
    (rules,) = got
    assert [(r.name, r.regex, r.ignore_case, r.select_keys, r.priority) for r in rules] == [
        (("Work", "Code"), r"\bvim\b", True, None, 3),
        (("Media",), "", False, None, None),
        (("Chat",), "Slack", False, ("app",), 7),
    ]


def test_the_cli_refuses_a_bad_file_with_exit_2(tmp_path: Path) -> None:
    store = write_export(tmp_path / "export.json")
    bad = tmp_path / "aw-category-export.json"
    bad.write_text(pretty({"categories": [cat(["A"], regex="a"), cat(["B"], regex="a[")]}))
    res = run_cli("day", DAY, "--db", str(store), "--tz", "UTC", "--categories", str(bad))
    assert res.returncode == 2, res.stderr
    (line,) = res.stderr.strip().splitlines()
    assert f"{bad}:18: category 2: field 'regex': bad regular expression" in line
    missing = tmp_path / "none.json"
    res = run_cli("day", DAY, "--db", str(store), "--tz", "UTC", "--categories", str(missing))
    assert res.returncode == 2 and "no such categories file" in res.stderr


# ---------------------------------------------------------------------------------------
# The store's own categories

DAY = "2026-11-18"
T0 = datetime(2026, 11, 18, 9, 0, tzinfo=UTC)
WINDOW_EVENTS = [  # (seconds from T0, seconds, app, title)
    (0, 600, "Code", "main.py - Code"),
    (600, 300, "Firefox", "acme/widget · GitHub — Mozilla Firefox"),
    (900, 120, "Slack", "general | Acme - Slack"),
]
# As the web UI saves them (since 2023 on the server): ids, colours, implicit parents as
# ``none`` (older web UIs: type null).
CLASSES = [
    {"id": 0, "name": ["Dev"], "rule": {"type": "regex", "regex": "Code|GitHub"},
     "data": {"color": "#0F0"}},
    {"id": 1, "name": ["Talk", "Chat"], "rule": {"type": "regex", "regex": "slack",
                                                "ignore_case": True}},
    {"id": 2, "name": ["Talk"], "rule": {"type": "none"}},
    {"id": 3, "name": ["Old"], "rule": {"type": None}},
]  # fmt: skip
OWN = {"Dev": 900, "Talk > Chat": 120}
DEFAULTS = {"Uncategorized": 600, "Work > Programming": 300, "Comms > IM": 120}


def write_export(path: Path) -> Path:
    events = [
        {
            "timestamp": (T0 + timedelta(seconds=s)).isoformat(),
            "duration": d,
            "data": {"app": app, "title": title},
        }
        for s, d, app, title in reversed(WINDOW_EVENTS)
    ]
    bucket = {
        "id": "aw-watcher-window_desk",
        "type": "currentwindow",
        "client": "aw-watcher-window",
        "hostname": "desk",
        "created": T0.isoformat(),
        "events": events,
    }
    path.write_text(json.dumps({"buckets": {bucket["id"]: bucket}}), encoding="utf-8")
    return path


def rust_db(tmp: Path, classes: str | None) -> Path:
    """An aw-server-rust ``sqlite.db`` of the day, keeping ``classes`` (JSON text) as its
    settings endpoint does: key ``settings.classes``, compact JSON."""
    db = export_to_sqlite(write_export(tmp / "export.json"), tmp / "sqlite.db")
    if classes is not None:
        with sqlite3.connect(db) as conn:
            conn.execute(
                "INSERT OR REPLACE INTO key_value(key, value, last_modified) VALUES (?, ?, ?)",
                ("settings.classes", classes, int(T0.timestamp())),
            )
        conn.close()
    return db


def categories(path: Path | str, categories: Path | None = None) -> tuple[str, dict[str, int]]:
    with Store(path, disk_cache=False, categories=categories) as store:
        doc = store.compile(day_window(DAY, "UTC"))
    got = doc["categories"]
    return got["rules"], {e["name"]: e["active_s"] for e in got["entries"]}


def test_aw_server_rust_keeps_its_own_categories(tmp_path: Path) -> None:
    db = rust_db(tmp_path, json.dumps(CLASSES, separators=(",", ":")))
    assert categories(db) == ("activitywatch server", OWN)
    # A file given wins over the store's own.
    given = tmp_path / "mine.json"
    given.write_text(json.dumps({"categories": [cat(["All"], regex=".")]}))
    assert categories(db, given) == ("mine.json", {"All": 1020})


@pytest.mark.parametrize(
    "classes",
    [None, "not json", '{"theme": "dark"}', json.dumps([{"name": "Dev", "rule": {}}])],
    ids=["no setting", "not JSON", "no list", "a bad category"],
)
def test_without_usable_store_categories_the_defaults(tmp_path: Path, classes: str | None) -> None:
    assert categories(rust_db(tmp_path, classes)) == ("activitywatch defaults", DEFAULTS)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """A running ActivityWatch server's REST answers for the day: buckets, events, and
    ``/api/0/settings`` as ``holder["settings"]`` says (404 when None, as aw-server 0.12
    answers)."""
    export = json.loads(write_export(tmp_path / "export.json").read_text())
    (bucket,) = export["buckets"].values()
    holder: dict[str, Any] = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:
            pass

        def do_GET(self) -> None:
            route = self.path.split("?", 1)[0]
            body: Any = None
            if route == "/api/0/buckets/":
                body = {bucket["id"]: {k: v for k, v in bucket.items() if k != "events"}}
            elif route == f"/api/0/buckets/{bucket['id']}/events":
                body = bucket["events"]
            elif route == "/api/0/settings" and holder.get("settings") is not None:
                body = holder["settings"]
            data = json.dumps(body).encode()
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    with local_http(Handler) as url:
        yield url, holder


def test_a_running_server_keeps_its_own_categories(served: tuple[str, dict[str, Any]]) -> None:
    url, holder = served
    holder["settings"] = {"classes": CLASSES, "startOfDay": "04:00"}
    assert categories(url) == ("activitywatch server", OWN)
    holder["settings"] = {"startOfDay": "04:00"}
    assert categories(url) == ("activitywatch defaults", DEFAULTS)
    holder["settings"] = None  # aw-server 0.12: no settings at all
    assert categories(url) == ("activitywatch defaults", DEFAULTS)


# ---------------------------------------------------------------------------------------
# The category aw-core itself picks (its ``categorize``, run by the ActivityWatch
# virtualenv the server tests make; skipped where it cannot be made)

TRICKY: list[dict[str, Any]] = [
    cat(["Work"], regex="GitHub", priority=25),  # above its deeper child
    cat(["Work", "Programming"], regex=r"GitHub|\bvim\b"),
    cat(["Meeting"], regex="Zoom", priority=-5),  # still above no match
    cat(["Tie", "A"], regex="tie"),
    cat(["Tie", "B"], regex="tie"),  # equal ranks: the later
    cat(["Ranked"], regex="both", priority=3, weight=50),  # priority over weight
    cat(["Weighed"], regex="both", weight=4),
    {"name": ["Typed none"], "rule": {"type": "none", "regex": "Typed"}},  # a regex is a regex
    cat(["Empty"], regex=""),  # never matches
    cat(["Mail", "App"], regex="Mail", select_keys=["app"]),
    cat(["Mail", "Any"], regex="Post", select_keys=[]),  # empty: every value
    cat(["Url"], regex=".", select_keys=["url"]),  # a window event has none
    cat(["Anchored"], regex="^GitHub$"),
    cat(["Lines"], regex="^second"),  # no MULTILINE
    cat(["Dot"], regex="a.b$"),  # no DOTALL
    cat(["Summer"], regex="été", ignore_case=True),
    cat(["Umlaut"], regex=r"\w+ü\b"),
    cat(["Windows"], regex=r"C:\\Temp\\"),
    cat(["Review"], regex="(?<=Pull )requests", select_keys=["title"]),
    cat(["Inline"], regex="(?i)inline"),
    cat(["Truthy"], regex="truthy", ignore_case="yes"),
    cat(["Deep", "er", "est"], regex="deep"),
    cat(["Shallow"], regex="deep", priority=30),  # ties the depth-3 rank: the later
    cat(["Zero"], regex="zero", priority=0),
    cat(["Music"], regex="SPOTIFY", ignore_case=True),
]
CASES: list[tuple[str, str]] = [
    ("Firefox", "acme/widget · GitHub — Mozilla Firefox"),
    ("Alacritty", "vim notes.md"), ("Alacritty", "nvim init.lua"), ("vim", ""),
    ("zoom.us", "Zoom Meeting"), ("Zoom", "GitHub review"),
    ("x", "tie"), ("tie", "tie"), ("x", "both"), ("Typed", ""),
    ("Mail", "Inbox"), ("Thunderbird", "Mail"), ("Post", ""), ("x", "Post"),
    ("GitHub", ""), ("x", "GitHub"), ("x", "first\nsecond"), ("x", "second\nfirst"),
    ("x", "a\nb"), ("x", "a b"), ("x", "ÉTÉ 2026"), ("x", "Grüß Gott, Müü"), ("x", "müü"),
    ("Explorer", "C:\\Temp\\x.txt"), ("Explorer", "C:Tempx"),
    ("Firefox", "Pull requests · acme"), ("requests", "Pull"),
    ("INLINE", ""), ("x", "TRUTHY"), ("x", "deep"), ("deep", "zero"), ("x", "zero"),
    ("spotify", "Song"), ("Spotify", "GitHub"), ("", ""), ("Code", "aw-server - Code"),
    ("kate", "notes"), ("Blender", "draw-io"), ("Slack", "#dev: GitHub PR merged"),
    ("Discord", "reddit thread"), ("Firefox", "YouTube — Facebook"),
]  # fmt: skip


def aw_core_picks(tmp_path: Path, classes: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    from tests.awserver.server import TOOL, AWUnavailable, ensure_venv

    try:
        python = ensure_venv()
    except AWUnavailable as exc:
        if os.environ.get("ACTFRAMES_REQUIRE_AW") == "1":
            pytest.fail(f"ACTFRAMES_REQUIRE_AW=1, but {exc}")
        pytest.skip(str(exc))
    spec = tmp_path / "cases.json"
    pairs = [[c["name"], c["rule"]] for c in classes if c["rule"].get("type", "") is not None]
    spec.write_text(json.dumps({"classes": pairs, "cases": CASES}), encoding="utf-8")
    res = subprocess.run(
        [str(python), str(TOOL), "pick", str(spec)], capture_output=True, text=True, timeout=300
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return [tuple(c) for c in json.loads(res.stdout)]


@pytest.mark.parametrize("which", ["tricky", "defaults", "both"])
def test_the_pick_is_aw_cores_own(tmp_path: Path, which: str) -> None:
    defaults = [
        cat(list(r.name), regex=r.regex, ignore_case=r.ignore_case) for r in DEFAULT_CATEGORIES
    ]
    classes = {"tricky": TRICKY, "defaults": defaults, "both": defaults + TRICKY}[which]
    theirs = aw_core_picks(tmp_path, classes)
    pick = CategoryMatcher(categories_of(classes, "cases")).pick
    ours = [pick(app, title) for app, title in CASES]
    wrong = [(c, o, t) for c, o, t in zip(CASES, ours, theirs, strict=True) if o != t]
    assert not wrong, "(app, title), ours, aw-core's:\n" + "\n".join(map(str, wrong))
    if which == "tricky":
        assert len(set(theirs)) >= 20  # the table reaches most of its rules
