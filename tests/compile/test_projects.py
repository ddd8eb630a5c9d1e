"""Projects on days whose truth is known by construction (SPEC.md §3b): every row says
which project it was for (or none), rows earn exactly their known durations (each under
the 90 s dwell cap, no gap over 300 s), so each project's seconds, the unassigned time,
the frames and the rows are known before anything is compiled."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from actframes.classify.aw_defaults import AW_DEFAULTS, DEFAULT_CATEGORIES
from actframes.classify.project_file import parse_projects
from actframes.classify.ruleset import RuleSet
from actframes.compile.pipeline import Options, compile_capture
from actframes.compile.ranges import expand
from actframes.model import Capture, InputEvent, Snapshot

from .caps import DAY, at, cap

B, D = "billing-api", "dashboard"
CODE, PYCHARM, TERM, KITTY = "Code", "pycharm", "gnome-terminal-server", "kitty"
CHROME, SLACK = "Google Chrome", "Slack"
GH_PR = "https://github.com/acme/billing-api/pull/3"
GL_ISSUE = "https://gitlab.com/acme/web/dashboard/-/issues/4"
JIRA = "https://acme.atlassian.net/browse/BILL-12"
DOC_BILLING = "https://docs.google.com/document/d/1abc/edit"
DOC_PARTY = "https://docs.google.com/document/d/2xyz/edit"
YOUTUBE = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"

USER_RULES = """\
[[project]]
name = "billing-api"
aliases = ["BILL", "billing-service"]
[[project.match]]
site = '^docs\\.google\\.com$'
title = 'billing design'
"""


class Step(NamedTuple):
    app: str
    title: str
    url: str | None
    secs: int  # the row's dwell: the next row follows this many seconds later
    truth: str | None  # the project it was for (its shown name); None: unassigned
    keys: int = 0


def rules(text: str = USER_RULES, name: str = "projects.toml") -> RuleSet:
    return RuleSet(
        parse_projects(text, name), f"built-in + {name}", DEFAULT_CATEGORIES, AW_DEFAULTS
    )


# Editor, terminal, code host, tracker and doc rows of two projects, and unrelated time.
MORNING: list[Step] = [
    Step(CODE, "main.py - billing-api - Visual Studio Code", None, 60, B, 5),
    Step(SLACK, "general (Channel) - Acme - Slack", None, 15, None, 2),  # folds into Code
    Step(CODE, "● invoice.py - billing-api - Visual Studio Code", None, 75, B, 3),
    Step(TERM, "alice@laptop: ~/src/billing-api", None, 40, B, 2),
    Step(TERM, "alice@laptop: ~/src/billing-api/tests", None, 30, B),
    Step(CHROME, "Fix rounding · Pull Request #3 · acme/billing-api", GH_PR, 50, B, 1),
    Step(CHROME, "[BILL-12] Fix rounding - Jira", JIRA, 45, B),
    Step(CHROME, "Billing design - Google Docs", DOC_BILLING, 80, B, 7),
    Step(SLACK, "general (Channel) - Acme - Slack", None, 35, None, 4),
    Step(PYCHARM, "dashboard – views.py", None, 85, D, 6),
    Step(PYCHARM, "dashboard – charts/line.py", None, 70, D),
    Step(TERM, "alice@laptop: ~/src/dashboard", None, 55, D, 1),
    Step(TERM, "alice@laptop: ~/tmp", None, 25, None),
    Step(TERM, "alice@laptop: ~/src/scratchpad", None, 30, None),
    Step(CHROME, "Broken chart (#4) · Issues · acme / web / dashboard · GitLab", GL_ISSUE, 65, D),
    Step(CHROME, "Never Gonna Give You Up - YouTube", YOUTUBE, 88, None, 1),
    Step(CHROME, "Party plan - Google Docs", DOC_PARTY, 40, None),
    Step(KITTY, "~/src/billing-service", None, 20, B),  # an alias, as a folder
    Step(CODE, "notes.md - Visual Studio Code", None, 30, None),  # a file, no folder
    Step(CODE, "Welcome - Visual Studio Code", None, 20, None, 1),
]
# The afternoon: the same places in another order and for other times.
AFTERNOON: list[Step] = [
    s._replace(secs=s.secs % 70 + 19, keys=(s.keys * 3) % 5) for s in reversed(MORNING)
]
WORKDAY = MORNING + AFTERNOON


def build(steps: Sequence[Step], start: float = 0.0) -> Capture:
    """Rows in order, each ``secs`` after the one before, its keys pressed inside it; a
    last row (which earns nothing) closes the day."""
    rows, events, t = [], [], start
    for rid, s in enumerate(steps, start=1):
        rows.append(Snapshot(rid, at(t), s.app, s.title, s.url))
        events += [InputEvent(rid * 100 + k, at(t + 1 + k), "key") for k in range(s.keys)]
        t += s.secs
    rows.append(Snapshot(len(steps) + 1, at(t), SLACK, "the end"))
    return cap(rows, events)


def compile_steps(steps: Sequence[Step], ruleset: RuleSet, min_active_s: int = 0) -> Any:
    return compile_capture(build(steps), DAY, Options(min_active_s, classify=ruleset))


def truth(steps: Sequence[Step]) -> dict[str | None, int]:
    """Milliseconds per project (None: unassigned), by construction."""
    out: dict[str | None, int] = {}
    for s in steps:
        out[s.truth] = out.get(s.truth, 0) + s.secs * 1000
    return out


def pieces(doc: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], bool]]:
    """(frame id, piece, whether it is the frame itself) for frames and interruptions."""
    for f in doc["frames"]:
        yield f["id"], f, True
        for i in f["interruptions"]:
            yield f["id"], i, False


def _order(label: str | None) -> tuple[bool, str]:
    return (label is None, label or "")


def main_label(rows: list[int], steps: Sequence[Step]) -> str | None:
    """The project holding most of the rows' credited time (ties: name order, none last);
    a piece without credited time: its first row's."""
    by: dict[str | None, int] = {}
    for r in rows:
        if r <= len(steps):
            by[steps[r - 1].truth] = by.get(steps[r - 1].truth, 0) + steps[r - 1].secs
    if not by:
        return steps[rows[0] - 1].truth if rows[0] <= len(steps) else None
    return min(by, key=lambda k: (-by[k], _order(k)))


def within(found_s: int, true_ms: int) -> bool:
    """Within max(5 s, 1%) of the truth, as issue #35 asks; in fact within a second, as
    the ledger's rounding gives."""
    diff = abs(found_s * 1000 - true_ms)
    return diff <= max(5000, true_ms / 100) and diff < 1000


def check_against_truth(doc: dict[str, Any], steps: Sequence[Step]) -> None:
    """Seconds, input, frames and rows of every project and of the unassigned time."""
    want = truth(steps)
    entries = {e["name"]: e for e in doc["projects"]["entries"]}
    un = doc["projects"]["unassigned"]
    assert set(entries) == {k for k in want if k is not None}
    for name, e in entries.items():
        assert within(e["active_s"], want[name]), (name, e["active_s"], want[name])
    assert within(un["active_s"], want.get(None, 0))
    # totals exact: the day's seconds, and the ledger's input
    active = doc["coverage"]["active_s"]
    assert sum(e["active_s"] for e in entries.values()) + un["active_s"] == active
    assert sum(e["active_s"] for e in doc["ledger"]) == active
    for kind in ("keys", "clicks"):
        ledger = sum(e[kind] for e in doc["ledger"])
        assert sum(e[kind] for e in entries.values()) + un[kind] == ledger
    # each piece's input goes to the project holding most of its time
    keys: dict[str | None, int] = {}
    frames: dict[str | None, list[str]] = {}
    for fid, p, own in pieces(doc):
        rows = expand(p["evidence"]["rows"])
        label = main_label(rows, steps)
        keys[label] = keys.get(label, 0) + p["input"]["keys"]
        for r in rows:
            if r <= len(steps):
                got = frames.setdefault(steps[r - 1].truth, [])
                if not got or got[-1] != fid:
                    got.append(fid)
        if own:  # the frame's project: the one holding most of its own time
            assert p.get("project") == label, (fid, p.get("project"), label)
    for name, e in [*entries.items(), (None, un)]:
        assert e["keys"] == keys.get(name, 0), name
        assert e["frames"] == frames.get(name, []), name
        credited = [r for r, s in enumerate(steps, start=1) if s.truth == name]
        assert expand(e["evidence"]["rows"]) == credited, name


def test_a_workday_of_two_projects() -> None:
    doc = compile_steps(WORKDAY, rules())
    check_against_truth(doc, WORKDAY)
    assert doc["projects"]["rules"] == "built-in + projects.toml"
    assert [e["name"] for e in doc["projects"]["entries"]] == [B, D]
    want = truth(WORKDAY)
    assert want[B] > want[D] > 0 and want[None] > 0
    # the Slack detour folded into the first Code frame: its time is unassigned, in it
    first = doc["frames"][0]
    assert first["app"] == CODE and first["project"] == B
    assert [i["evidence"]["rows"] for i in first["interruptions"]] == ["2"]
    assert first["id"] in doc["projects"]["unassigned"]["frames"]


def test_same_section_whatever_frames_are_hidden() -> None:
    """Projects, like the ledger, are counted before any filtering: hidden frames are
    still named in the entries."""
    shown = compile_steps(WORKDAY, rules())
    hidden = compile_steps(WORKDAY, rules(), min_active_s=60)
    assert hidden["omitted"]["frames"] > 0
    assert hidden["projects"] == shown["projects"]
    assert hidden["categories"] == shown["categories"]


def test_without_user_rules_the_tracker_key_and_the_doc_are_their_own() -> None:
    """Built-in rules only: BILL is a project of its own, the Google Doc names none, and
    a folder named only by an alias is no project."""
    steps = [
        s._replace(truth="BILL")
        if s.url == JIRA
        else s._replace(truth=None)
        if s.url == DOC_BILLING or s.title == "~/src/billing-service"
        else s
        for s in WORKDAY
    ]
    doc = compile_steps(steps, rules("", "empty.toml"))
    check_against_truth(doc, steps)
    assert [e["name"] for e in doc["projects"]["entries"]] == [B, D, "BILL"]


def test_user_rules_override_the_built_ins() -> None:
    """A rule that claims billing-api's GitHub rows for another project wins over the
    repository the URL names; the rest of billing-api stays billing-api."""
    text = USER_RULES + (
        '\n[[project]]\nname = "Platform"\n[[project.match]]\n'
        "site = 'github\\.com'\nurl = 'acme/billing-api'\n"
    )
    steps = [s._replace(truth="Platform") if s.url == GH_PR else s for s in WORKDAY]
    doc = compile_steps(steps, rules(text))
    check_against_truth(doc, steps)
    assert "Platform" in {e["name"] for e in doc["projects"]["entries"]}


def test_a_rule_can_claim_an_editors_rows() -> None:
    """The first rule in file order wins, before what the title names."""
    text = (
        '[[project]]\nname = "Pair work"\n[[project.match]]\napp = "^code$"\ntitle = "invoice"\n'
        + USER_RULES
    )
    steps = [s._replace(truth="Pair work") if "invoice.py" in s.title else s for s in WORKDAY]
    doc = compile_steps(steps, rules(text))
    check_against_truth(doc, steps)


def test_two_vscode_windows_alternating_in_one_frame() -> None:
    """Same app, no site: one frame; each window's project gets its own seconds, and
    the frame is the project that held most of it."""
    a = Step(CODE, "api.py - billing-api - Visual Studio Code", None, 30, B, 2)
    b = Step(CODE, "App.tsx - dashboard - Visual Studio Code", None, 40, D, 1)
    steps = [a, b, a, b, a, b]
    doc = compile_steps(steps, rules())
    check_against_truth(doc, steps)
    frame, _last = doc["frames"]
    assert frame["project"] == D and frame["active_s"] == 210
    by = {e["name"]: e for e in doc["projects"]["entries"]}
    assert (by[B]["active_s"], by[D]["active_s"]) == (90, 120)
    assert by[B]["frames"] == by[D]["frames"] == [frame["id"]]
    assert (by[B]["evidence"]["rows"], by[D]["evidence"]["rows"]) == ("1,3,5", "2,4,6")
    assert (by[D]["keys"], by[B]["keys"]) == (9, 0)  # the frame's input: its project's


def test_a_tie_goes_to_the_first_name() -> None:
    a = Step(CODE, "api.py - zeta - Visual Studio Code", None, 30, "zeta")
    b = Step(CODE, "App.tsx - alpha - Visual Studio Code", None, 30, "alpha")
    doc = compile_steps([a, b], rules())
    check_against_truth(doc, [a, b])
    assert doc["frames"][0]["project"] == "alpha"
    assert [e["name"] for e in doc["projects"]["entries"]] == ["alpha", "zeta"]


def test_folders_name_only_known_projects() -> None:
    """A folder is a project only when one of its names is a project the window names
    elsewhere, or a user rule's name or alias; the innermost such name wins."""
    text = USER_RULES + '\n[[project]]\nname = "infra"\n'
    steps = [
        Step(CODE, "main.py - billing-api - Visual Studio Code", None, 40, B),
        Step(PYCHARM, "dashboard – views.py", None, 40, D),
        Step(TERM, "alice@laptop: ~/src/billing-api/vendor/dashboard", None, 30, D),
        Step(TERM, "alice@laptop: ~/src/dashboard/docs", None, 30, D),
        Step(TERM, "alice@laptop: ~/src/infra/terraform", None, 30, "infra"),
        Step(TERM, "alice@laptop: ~/src/Billing_Service", None, 30, B),
        Step(TERM, "alice@laptop: ~/src/webshop", None, 30, None),
        Step(TERM, "alice@laptop: ~/tmp", None, 30, None),
        Step(TERM, "alice@laptop: ~", None, 30, None),
        Step(KITTY, "vim src/main.rs", None, 30, None),
        Step("nvim", "main.py (~/src/dashboard) - NVIM", None, 30, D),
    ]
    doc = compile_steps(steps, rules(text))
    check_against_truth(doc, steps)


def test_a_folder_alone_makes_no_project() -> None:
    steps = [
        Step(TERM, "alice@laptop: ~/src/billing-api", None, 60, None, 3),
        Step(KITTY, "~/src/dashboard: make test", None, 60, None),
    ]
    doc = compile_steps(steps, rules(""))
    check_against_truth(doc, steps)
    assert doc["projects"]["entries"] == []
    assert "project" not in doc["frames"][0]


def test_the_spelling_holding_most_time_names_the_project() -> None:
    steps = [
        Step(CODE, "main.py - Billing API - Visual Studio Code", None, 80, "Billing API"),
        Step(CHROME, "PR", GH_PR, 30, "Billing API"),  # "billing-api": one project
        Step(TERM, "alice@laptop: ~/src/billing_api", None, 30, "Billing API"),
    ]
    doc = compile_steps(steps, rules(""))
    check_against_truth(doc, steps)
    # a tie between spellings: the first in code-point order
    steps = [steps[0]._replace(secs=30), *steps[1:]]
    doc = compile_steps(steps, rules(""))
    assert [e["name"] for e in doc["projects"]["entries"]] == ["Billing API"]
    steps = [s._replace(truth=B) for s in steps]
    doc = compile_steps(steps, rules())  # a user rule's name wins over every spelling
    check_against_truth(doc, steps)


def test_a_rule_matches_case_insensitively_and_by_search() -> None:
    text = '[[project]]\nname = "Chat"\n[[project.match]]\napp = "SLACK"\ntitle = "general"\n'
    steps = [
        Step(SLACK, "general (Channel) - Acme - Slack", None, 50, "Chat"),
        Step(SLACK, "random (Channel) - Acme - Slack", None, 50, None),
        Step(CHROME, "general", "https://app.slack.com/client/T1/C2", 50, None),
    ]
    doc = compile_steps(steps, rules(text))
    check_against_truth(doc, steps)


def test_an_empty_day() -> None:
    doc: dict[str, Any] = dict(compile_capture(cap([]), DAY, Options(classify=rules())))
    none = {"active_s": 0, "keys": 0, "clicks": 0, "frames": [], "evidence": {"rows": ""}}
    assert doc["projects"] == {
        "rules": "built-in + projects.toml",
        "entries": [],
        "unassigned": none,
    }
    assert doc["categories"] == {"rules": AW_DEFAULTS, "entries": []}


def test_a_project_named_by_rows_that_earned_nothing_is_known() -> None:
    """A project is found anywhere in the window: a row before a session gap, or the
    day's last row, earns nothing, yet names a project its folders then stand for."""
    editor = "main.py - billing-api - Visual Studio Code"
    c = cap(
        [
            Snapshot(1, at(0), CODE, editor),  # a session gap follows: earns nothing
            Snapshot(2, at(400), TERM, "alice@laptop: ~/src/billing-api"),
            Snapshot(3, at(460), TERM, "alice@laptop: ~/src/dashboard"),
            Snapshot(4, at(520), PYCHARM, "dashboard – views.py"),  # the last row
        ]
    )
    doc = compile_capture(c, DAY, Options(classify=rules("")))
    entry = {"active_s": 60, "keys": 0, "clicks": 0, "frames": ["F2"]}
    assert doc["projects"]["entries"] == [
        {"name": B, **entry, "evidence": {"rows": "2"}},
        {"name": D, **entry, "evidence": {"rows": "3"}},
    ]
    assert doc["projects"]["unassigned"]["active_s"] == 0
    assert [f.get("project") for f in doc["frames"]] == [B, B, D]
