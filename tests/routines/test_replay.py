"""Guarded replay in a real Chromium against a real local web app (no mocks).

The claim routine's click points are measured once in the unchanged app, as a recorder
would have seen them. On the unchanged app the replay fills and submits the form with
new slot values; on each perturbed version it stops at the right step naming the failed
guard, and both the server (no claim received) and an in-page event log (no click or
keystroke on any other field, nothing at or after the failing step) show that nothing
wrong was sent. Skipped, with the reason, when no Chromium is installed, unless
ACTFRAMES_REQUIRE_BROWSER=1 (then it fails).
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from actframes.errors import UsageError
from actframes.routines.cdp import Browser, find_chromium
from actframes.routines.cdp_start import start_browser
from actframes.routines.replay import replay
from actframes.routines.replay_report import to_markdown

from .webapp import (
    FIELDS,
    PROBE_JS,
    READ_PROBE_JS,
    READ_VALUES_JS,
    ClaimsApp,
    claim_routine,
    measure_points,
    step_of,
)

CHROMIUM = find_chromium()
# CI sets ACTFRAMES_REQUIRE_BROWSER=1 after installing Chromium, so a lost install step
# fails there instead of passing as skipped.
REQUIRED = os.environ.get("ACTFRAMES_REQUIRE_BROWSER") == "1"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not REQUIRED,
    reason="no Chromium binary (apt-get install chromium, or set ACTFRAMES_CHROMIUM)",
)

Points = dict[str, tuple[int, int]]

SLOT_SETS: list[dict[str, str]] = [
    {
        "first_name": "Ada",
        "last_name": "Lovelace",
        "student_id": "s1234567",
        "amount": "120.50",
        "date": "2024-03-05",
    },
    {
        "first_name": "Zoë",
        "last_name": "Ångström-Øst",
        "student_id": "s7654321",
        "amount": "1,250.00",
        "date": "2025-12-31",
    },
    {
        "first_name": "Seán",
        "last_name": "O'Brien & Sons <x>",
        "student_id": "s0000042",
        "amount": "7",
        "date": "2026-01-02",
    },
]
SLOTS = SLOT_SETS[0]
LABEL_TO_FIELD = {label: field for field, label in FIELDS}


def launch() -> Browser:
    if CHROMIUM is None:
        pytest.fail("ACTFRAMES_REQUIRE_BROWSER=1, but no Chromium binary was found")
    # No sandbox: these browsers only open pages of the test's own local app. Started as
    # the replay driver starts its browser (once more when a fresh one never answers).
    return start_browser(CHROMIUM, sandbox=False)


@pytest.fixture(scope="module")
def points() -> Points:
    """Each field's and the button's centre in the unchanged app, in screen pixels."""
    if CHROMIUM is None:
        pytest.fail("ACTFRAMES_REQUIRE_BROWSER=1, but no Chromium binary was found")
    return measure_points(CHROMIUM)


@pytest.fixture()
def browser() -> Iterator[Browser]:
    b = launch()
    try:
        # The probe: every input-ish event in every page of this tab, logged in the page.
        b.send("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE_JS})
        yield b
    finally:
        b.close()


def probe(browser: Browser) -> list[dict[str, str]]:
    log: list[dict[str, str]] = browser.evaluate(READ_PROBE_JS)
    return log


def expected_events(routine: dict[str, Any], done: list[int]) -> list[tuple[str, str]]:
    """The click and input events the done steps cause, in order, by field id."""
    out: list[tuple[str, str]] = []
    for step in routine["plan"]:
        if step["n"] not in done or step["op"] not in ("click", "type", "paste"):
            continue
        name = step["target"]["name"]
        field = LABEL_TO_FIELD.get(name, "submit")
        if step["op"] == "click":
            out += [("mousedown", field), ("mouseup", field), ("click", field)]
        else:
            out += [("beforeinput", field), ("input", field)]
    return out


def acted(log: list[dict[str, str]]) -> list[tuple[str, str]]:
    keep = ("mousedown", "mouseup", "click", "beforeinput", "input")
    return [(e["type"], e["field"]) for e in log if e["type"] in keep]


def assert_nothing_wrong_sent(
    app: ClaimsApp, browser: Browser, routine: dict[str, Any], report: dict[str, Any]
) -> None:
    """Server: no claim. Page: exactly the clicks and inputs of the steps done before the
    stop, on their own fields; no keystroke, paste or submit at all."""
    assert app.submissions == []
    done = [s["n"] for s in report["steps"] if s["status"] == "done"]
    assert all(n < report["stopped"]["n"] for n in done)
    log = probe(browser)
    assert acted(log) == expected_events(routine, done)
    assert not [e for e in log if e["type"] in ("keydown", "keyup", "keypress", "paste")]
    assert not [e for e in log if e["type"] == "submit"]
    done_fields = {
        LABEL_TO_FIELD.get(s["target"]["name"], "submit")
        for s in report["steps"]
        if s["status"] == "done" and "target" in s
    }
    assert {e["field"] for e in log if e["type"] != "change"} <= done_fields
    # What the fields hold: the done steps' slot values, every other field empty.
    values = browser.evaluate(READ_VALUES_JS)
    typed = {
        LABEL_TO_FIELD[s["target"]["name"]]
        for s in report["steps"]
        if s["status"] == "done" and s["op"] in ("type", "paste")
    }
    for field, value in values.items():
        assert value == (SLOTS[field] if field in typed else ""), field


# ---------------------------------------------------------------- the unchanged app


@pytest.mark.parametrize("slots", SLOT_SETS, ids=["ada", "zoe", "sean"])
def test_replay_submits_new_values(browser: Browser, points: Points, slots: dict[str, str]) -> None:
    with ClaimsApp() as app:
        routine = claim_routine(app.base, points)
        report = replay(routine, slots, browser, allow_destructive=True)
        assert report["status"] == "completed", report["stopped"]
        assert report["stopped"] is None and report["not_run"] == []
        assert app.submissions == [slots]
        # The browser waited for the submit's navigation: it shows the confirmation.
        assert browser.evaluate("document.getElementById('claim-number').textContent") == (
            "CL-0001"
        )
    steps = {s["n"]: s for s in report["steps"]}
    assert [s["n"] for s in report["steps"]] == [s["n"] for s in routine["plan"]]
    assert steps[8]["status"] == "skipped" and "slot" in steps[8]["reason"]  # Excel copy
    for n, s in steps.items():
        if s["op"] in ("click", "type", "paste"):
            assert s["guards"] == {
                "app": "held",
                "url": "held",
                "target": "held",
                "position": "held",
            }, n
    # Every event the page saw came from a step, in order, on the step's own field.
    done = [s["n"] for s in report["steps"] if s["status"] == "done"]
    log = probe(browser)
    assert acted([e for e in log if e["path"] == "/claims/new"]) == expected_events(routine, done)
    assert [e["type"] for e in log if e["type"] == "submit"] == ["submit"]
    assert not [e for e in log if e["type"] in ("keydown", "keyup", "keypress", "paste")]
    # Privacy: the report names the slots but holds none of their values.
    text = json.dumps(report, ensure_ascii=False)
    assert report["slots"] == sorted(slots)
    for value in slots.values():
        if len(value) > 1:
            assert value not in text


def test_replay_replaces_what_a_field_holds(browser: Browser, points: Points) -> None:
    """A second run on a form the browser refilled still submits exactly the slots."""
    with ClaimsApp() as app:
        routine = claim_routine(app.base, points)
        browser.navigate(app.form_url)
        browser.evaluate("document.getElementById('first_name').value = 'stale text'")
        # Start on the filled page: no navigate and no start page that would reload it.
        routine["plan"] = routine["plan"][1:]
        routine["start_url"] = None
        report = replay(routine, SLOTS, browser, allow_destructive=True)
        assert report["status"] == "completed", report["stopped"]
        assert app.submissions == [SLOTS]


# ---------------------------------------------------------------- perturbed apps


@pytest.mark.parametrize(
    ("variant", "op", "name", "guard"),
    [
        ("renamed_button", "click", "Submit", "target"),
        ("moved_field", "click", "Student ID", "position"),
        ("changed_url", "navigate", None, "url"),
        ("missing_element", "click", "Student ID", "target"),
        ("duplicate_label", "click", "Amount", "target"),
        ("covered_button", "click", "Submit", "hit"),
    ],
)
def test_perturbed_app_stops_before_anything_wrong(
    browser: Browser,
    points: Points,
    variant: str,
    op: str,
    name: str | None,
    guard: str,
) -> None:
    with ClaimsApp(variant) as app:
        routine = claim_routine(app.base, points)
        report = replay(routine, SLOTS, browser, allow_destructive=True)
        stop = report["stopped"]
        assert report["status"] == "stopped"
        expected_n = 1 if name is None else step_of(routine, op, name)
        assert (stop["n"], stop["op"], stop["reason"], stop["guard"]) == (
            expected_n,
            op,
            "guard",
            guard,
        )
        assert report["not_run"] == [s["n"] for s in routine["plan"] if s["n"] > expected_n]
        # The guard failed before the step acted (a navigate's check comes after it).
        assert stop["sent"] is (op == "navigate")
        assert_nothing_wrong_sent(app, browser, routine, report)
    found = stop["found"]
    if variant == "renamed_button":
        assert "not found" in stop["message"]
        assert found["candidates"] == ["Send claim"]
    elif variant == "missing_element":
        assert "not found" in stop["message"]
        assert found["candidates"] == ["First name", "Last name", "Amount", "Date"]
    elif variant == "duplicate_label":
        assert "ambiguous" in stop["message"] and found["matches"] == 2
    elif variant == "moved_field":
        x, y = points["student_id"]
        box = found["box"]
        assert box["y"] > y + stop["expected"]["tolerance"]  # it went down the form
        assert box["x"] <= x < box["x"] + box["width"]
    elif variant == "changed_url":
        assert stop["expected"]["template"].endswith("/claims/new")
        assert found["template"].endswith("/reimbursement/new-claim")
    elif variant == "covered_button":
        assert found["element"] == "div#banner"
    md = to_markdown(report)
    assert f"Stopped at step {expected_n}" in md and "## Hand-off" in md


def test_loose_position_is_weaker(browser: Browser, points: Points) -> None:
    """--loose-position lets the moved field through: role, name and URL still hold."""
    with ClaimsApp("moved_field") as app:
        routine = claim_routine(app.base, points)
        report = replay(routine, SLOTS, browser, allow_destructive=True, loose_position=True)
        assert report["status"] == "completed", report["stopped"]
        assert app.submissions == [SLOTS]
    click = next(s for s in report["steps"] if s["op"] == "click")
    assert click["guards"]["position"] == "skipped"


# ---------------------------------------------------------------- destructive steps


@pytest.mark.parametrize("marked", [True, False], ids=["marked", "by-name"])
def test_destructive_step_needs_permission(browser: Browser, points: Points, marked: bool) -> None:
    with ClaimsApp() as app:
        routine = claim_routine(app.base, points, mark_destructive=marked)
        report = replay(routine, SLOTS, browser)
        stop = report["stopped"]
        submit = step_of(routine, "click", "Submit")
        assert (stop["n"], stop["reason"], stop["sent"]) == (submit, "destructive", False)
        assert "--allow-destructive" in stop["message"]
        assert ("marked destructive" if marked else "its name says so") in stop["message"]
        # Every step before it ran: the form is filled, the claim not sent.
        assert [s["n"] for s in report["steps"]] == list(range(1, submit))
        assert app.submissions == []
        log = probe(browser)
        assert not [e for e in log if e["field"] == "submit" or e["type"] == "submit"]
        values = browser.evaluate(READ_VALUES_JS)
        assert values == SLOTS


# ---------------------------------------------------------------- other stops


def test_http_error_stops_and_masks_slot_values(browser: Browser) -> None:
    """A navigate answered with 404 stops; the URL in the hand-off shows the slot's name,
    not its value."""
    with ClaimsApp() as app:
        routine = {
            "id": "R00000000aa",
            "title": "Look a student up",
            "slots": [{"name": "student_id", "step": 1, "kind": "url"}],
            "plan": [
                {
                    "n": 1,
                    "op": "navigate",
                    "app": "Chromium",
                    "url": app.base + "/students/{student_id}",
                    "guards": [{"check": "app", "app": "Chromium"}],
                }
            ],
        }
        report = replay(routine, {"student_id": "zephyrine"}, browser)
    stop = report["stopped"]
    assert (stop["n"], stop["guard"]) == (1, "load")
    assert stop["found"]["status"] == 404
    assert stop["found"]["url"] == app.base + "/students/{student_id}"
    assert "zephyrine" not in json.dumps(report)


def test_non_browser_step_hands_off(browser: Browser, points: Points) -> None:
    with ClaimsApp() as app:
        routine = claim_routine(app.base, points)
        routine["plan"].insert(
            3,
            {
                "n": 99,
                "op": "click",
                "app": "Excel",
                "target": {"role": "cell", "name": "B2"},
                "guards": [{"check": "app", "app": "Excel"}],
            },
        )
        report = replay(routine, SLOTS, browser, allow_destructive=True)
        stop = report["stopped"]
        assert (stop["n"], stop["guard"], stop["found"]) == (99, "app", {"app": "Excel"})
        assert [s["n"] for s in report["steps"]] == [1, 2, 3]
        assert app.submissions == []


@pytest.mark.parametrize("lands", [True, False], ids=["lands", "elsewhere"])
def test_caused_navigate_awaits_the_page(browser: Browser, points: Points, lands: bool) -> None:
    """A navigate marked ``caused`` (the submit's doing) sends nothing: it waits for the
    page and checks where it landed."""
    with ClaimsApp() as app:
        routine = claim_routine(app.base, points)
        host = app.base.split("://", 1)[1]
        expected = host + ("/claims/{id}" if lands else "/claims/{id}/receipt")
        routine["plan"].append(
            {
                "n": 14,
                "op": "navigate",
                "app": "chromium",
                "guards": [{"check": "app", "app": "chromium"}],
                "caused": True,
                "expect_after": {"url": expected},
            }
        )
        report = replay(routine, SLOTS, browser, allow_destructive=True)
        assert app.submissions == [SLOTS]  # one claim: the wait sent nothing
    if lands:
        assert report["status"] == "completed", report["stopped"]
        assert report["steps"][-1] == {
            "n": 14,
            "op": "navigate",
            "app": "chromium",
            "caused": True,
            "guards": {"app": "held", "expect_after.url": "held"},
            "status": "done",
        }
    else:
        stop = report["stopped"]
        assert (stop["n"], stop["guard"], stop["sent"]) == (14, "url", False)
        assert stop["found"]["template"] == host + "/claims/{id}"


def test_start_url_is_opened_first(browser: Browser, points: Points) -> None:
    """A plan that begins on its start page, not with a navigate, opens start_url."""
    with ClaimsApp() as app:
        routine = claim_routine(app.base, points)
        routine["plan"] = routine["plan"][1:]
        report = replay(routine, SLOTS, browser, allow_destructive=True)
        assert report["status"] == "completed", report["stopped"]
        assert report["steps"][0] == {"n": 0, "op": "open", "url": app.form_url, "status": "done"}
        assert app.submissions == [SLOTS]


def test_missing_slot_sends_nothing(browser: Browser, points: Points) -> None:
    with ClaimsApp() as app:
        routine = claim_routine(app.base, points)
        partial = {k: v for k, v in SLOTS.items() if k != "amount"}
        with pytest.raises(UsageError, match=r"missing slot value.*amount"):
            replay(routine, partial, browser, allow_destructive=True)
        assert app.submissions == []
    assert browser.evaluate("location.href") == "about:blank"


def test_report_is_deterministic(points: Points) -> None:
    """Two replays of the same routine on the same app give the same report."""
    reports = []
    with ClaimsApp("missing_element") as app:
        routine = claim_routine(app.base, points)
        for _ in range(2):
            b = launch()
            try:
                reports.append(replay(copy.deepcopy(routine), SLOTS, b))
            finally:
                b.close()
    assert json.dumps(reports[0]) == json.dumps(reports[1])
