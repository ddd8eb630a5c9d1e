"""Projects and categories over arbitrary captures (SPEC.md §3b): their seconds and input
add up to the day's, each credited row is counted once, and the same rows, rules and
options give the same bytes in any order of rows and on every compile."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.classify.aw_defaults import AW_DEFAULTS, DEFAULT_CATEGORIES, default_rules
from actframes.classify.project_file import parse_projects
from actframes.classify.ruleset import RuleSet
from actframes.compile.pipeline import Options, compile_capture
from actframes.compile.ranges import expand
from actframes.emit.json_out import to_json
from actframes.model import INPUT_KINDS, Capture, InputEvent, Snapshot, Span

from .caps import T0, cap
from .test_properties import WIN, captures

# (app, title, url): rows of projects as editors, terminals, hosts and trackers name
# them, folders known and unknown, and unrelated time.
POOL: list[tuple[str, str, str | None]] = [
    ("Code", "main.py - billing-api - Visual Studio Code", None),
    ("Code", "App.tsx - dashboard — Visual Studio Code", None),
    ("Code", "notes.md - Visual Studio Code", None),
    ("Code", "Welcome - Visual Studio Code", None),
    ("pycharm", "dashboard – views.py", None),
    ("Xcode", "BillingApp — ContentView.swift", None),
    ("gnome-terminal-server", "alice@laptop: ~/src/billing-api", None),
    ("gnome-terminal-server", "alice@laptop: ~/src/dashboard/web", None),
    ("gnome-terminal-server", "alice@laptop: ~/tmp", None),
    ("kitty", "~/src/infra: make plan", None),
    ("nvim", "main.py (~/src/billing-service) - NVIM", None),
    ("Google Chrome", "PR", "https://github.com/acme/billing-api/pull/3"),
    ("Google Chrome", "Issue", "https://gitlab.com/acme/web/dashboard/-/issues/4"),
    ("Google Chrome", "[BILL-12] Fix - Jira", "https://acme.atlassian.net/browse/BILL-12"),
    ("Google Chrome", "ENG-4 Fix", "https://linear.app/acme/issue/ENG-4/fix"),
    ("Google Chrome", "Billing design - Google Docs", "https://docs.google.com/document/d/1/edit"),
    ("Google Chrome", "Party - Google Docs", "https://docs.google.com/document/d/2/edit"),
    ("Google Chrome", "Fix · Pull Request #9 · acme/dashboard", None),
    ("Google Chrome", "Video - YouTube", "https://www.youtube.com/watch?v=x"),
    ("Slack", "general (Channel) - Acme - Slack", None),
    ("Spotify", "Spotify Premium", None),
    ("[none]", "", None),
]
RULE_FILES = [
    "",
    '[[project]]\nname = "billing-api"\naliases = ["BILL", "billing-service"]\n'
    "[[project.match]]\nsite = 'docs\\.google\\.com'\ntitle = 'billing'\n",
    '[[project]]\nname = "Platform"\naliases = ["infra"]\n'
    "[[project.match]]\nurl = 'github\\.com/acme/'\n[[project.match]]\napp = 'slack'\n",
]


def ruleset(k: int) -> RuleSet:
    if k == 0:
        return default_rules()
    name = f"rules{k}.toml"
    return RuleSet(
        parse_projects(RULE_FILES[k], name), f"built-in + {name}", DEFAULT_CATEGORIES, AW_DEFAULTS
    )


@st.composite
def project_captures(draw: st.DrawFn) -> Capture:
    n = draw(st.integers(min_value=0, max_value=50))
    snaps: list[Snapshot] = []
    t = T0 - draw(st.integers(min_value=0, max_value=900_000))
    for rid in range(1, n + 1):
        t += draw(st.sampled_from([0, 500, 3_000, 15_000, 25_000, 60_000, 95_000, 301_000]))
        app, title, url = draw(st.sampled_from(POOL))
        snaps.append(Snapshot(rid, t, app, title, url, draw(st.sampled_from(["", "", "right"]))))
    lo, hi = T0 - 900_000, (t if snaps else T0) + 60_000
    m = draw(st.integers(min_value=0, max_value=40))
    events = [
        InputEvent(
            eid,
            draw(st.integers(min_value=lo, max_value=hi)),
            draw(st.sampled_from(INPUT_KINDS)),
            draw(st.sampled_from([None, None, "Code", "Slack", "Google Chrome"])),
            draw(st.sampled_from([None, "", "right"])),
            draw(st.integers(min_value=1, max_value=3)),
        )
        for eid in range(1, m + 1)
    ]
    afk = []
    if draw(st.booleans()):
        a = draw(st.integers(min_value=lo, max_value=hi))
        afk.append(Span(a, a + draw(st.integers(min_value=1_000, max_value=900_000))))
    return cap(snaps, events, afk, has_afk=bool(afk))


def compile_(c: Capture, k: int, min_active_s: int = 0) -> dict[str, Any]:
    return compile_capture(c, WIN, Options(min_active_s, classify=ruleset(k)))  # type: ignore[return-value]


def check_sums(doc: dict[str, Any]) -> None:
    active = doc["coverage"]["active_s"]
    projects, un = doc["projects"]["entries"], doc["projects"]["unassigned"]
    categories = doc["categories"]["entries"]
    assert sum(e["active_s"] for e in projects) + un["active_s"] == active
    assert sum(e["active_s"] for e in categories) == active
    for kind in ("keys", "clicks"):
        ledger = sum(e[kind] for e in doc["ledger"])
        assert sum(e[kind] for e in projects) + un[kind] == ledger
        assert sum(e[kind] for e in categories) == ledger
    # every credited row in exactly one project (or none) and one category
    project_rows = [r for e in [*projects, un] for r in expand(e["evidence"]["rows"])]
    category_rows = [r for e in categories for r in expand(e["evidence"]["rows"])]
    assert len(project_rows) == len(set(project_rows))
    assert sorted(project_rows) == sorted(category_rows)
    assert len({e["name"] for e in projects}) == len(projects)
    assert [e["active_s"] for e in projects] == sorted(
        (e["active_s"] for e in projects), reverse=True
    )
    # a frame's project and category are the sections' (a frame that earned nothing
    # is named by its first row's)
    names, kinds = {e["name"] for e in projects}, {e["name"] for e in categories}
    for f in doc["frames"]:
        assert f.get("project", None) in names | {None} or f["active_s"] == 0
        assert f["category"] in kinds or f["active_s"] == 0


def shuffled(c: Capture, rnd: random.Random) -> Capture:
    out = Capture(
        c.kind, list(c.snapshots), list(c.events), list(c.afk), [],
        has_input=c.has_input, has_afk=c.has_afk,
    )  # fmt: skip
    rnd.shuffle(out.snapshots)
    rnd.shuffle(out.events)
    rnd.shuffle(out.afk)
    return out


@settings(max_examples=150, deadline=None)
@given(project_captures(), st.integers(0, len(RULE_FILES) - 1))
def test_projects_and_categories_add_up_to_the_day(c: Capture, k: int) -> None:
    check_sums(compile_(c, k))


@settings(max_examples=60, deadline=None)
@given(captures())
def test_add_up_on_the_general_captures_too(c: Capture) -> None:
    check_sums(compile_(c, 0))
    check_sums(compile_(c, 2))


@settings(max_examples=100, deadline=None)
@given(project_captures(), st.integers(0, len(RULE_FILES) - 1), st.randoms(use_true_random=False))
def test_same_bytes_for_any_order_and_every_compile(c: Capture, k: int, rnd: random.Random) -> None:
    first = to_json(compile_(c, k))
    assert to_json(compile_(c, k)) == first  # compiled twice (warm caches)
    assert to_json(compile_(shuffled(c, rnd), k)) == first
    assert to_json(compile_capture(c, WIN, Options(classify=ruleset(k)))) == first


@settings(max_examples=60, deadline=None)
@given(project_captures(), st.integers(0, len(RULE_FILES) - 1), st.sampled_from([30, 60, 300]))
def test_filtering_never_changes_the_sections(c: Capture, k: int, min_active_s: int) -> None:
    full, filtered = compile_(c, k), compile_(c, k, min_active_s)
    assert filtered["projects"] == full["projects"]
    assert filtered["categories"] == full["categories"]
