"""The replay engine's browser-free parts: slots, plan checks, destructive steps, the
dry run, plan files and the Markdown hand-off."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from actframes.errors import SourceError, UsageError
from actframes.routines.replay_dry_run import dry_run
from actframes.routines.replay_plan import (
    PlanError,
    is_browser_app,
    is_destructive,
    load_plan,
    validate,
)
from actframes.routines.replay_report import to_markdown
from actframes.routines.replay_slots import check_slots, fill, slot_names

from .webapp import FIXED_POINTS, claim_routine

BASE = "http://127.0.0.1:8123"
SLOTS = {
    "first_name": "Ada",
    "last_name": "Lovelace",
    "student_id": "s1234567",
    "amount": "120.50",
    "date": "2024-03-05",
}


def routine() -> dict[str, Any]:
    return claim_routine(BASE, FIXED_POINTS)


@pytest.mark.parametrize(
    ("app", "browser"),
    [
        ("chromium", True),
        ("Google-chrome", True),
        ("Microsoft Edge", True),
        ("msedge", True),
        ("Firefox", True),
        ("Brave Browser", True),
        ("SAP Fiori", True),
        ("Excel", False),
        ("Knowledge base", False),
        ("", False),
        (None, False),
    ],
)
def test_browser_apps(app: str | None, browser: bool) -> None:
    assert is_browser_app(app) is browser


@pytest.mark.parametrize(
    ("step", "destructive"),
    [
        ({"op": "click", "target": {"role": "button", "name": "Submit"}}, True),
        ({"op": "click", "target": {"role": "button", "name": "Send claim"}}, True),
        ({"op": "click", "target": {"role": "link", "name": "Delete account"}}, True),
        ({"op": "click", "target": {"role": "button", "name": "PAY NOW"}}, True),
        ({"op": "click", "target": {"role": "button", "name": "Place order"}}, True),
        ({"op": "click", "target": {"role": "button", "name": "Confirm payment"}}, True),
        ({"op": "click", "target": {"role": "button", "name": "Save draft"}}, False),
        ({"op": "click", "target": {"role": "button", "name": "Approve"}}, True),
        ({"op": "click", "target": {"role": "button", "name": "Sign in"}}, False),
        ({"op": "click", "target": {"role": "link", "name": "Ordered lists"}}, True),
        ({"op": "click", "target": {"role": "link", "name": "Bordered"}}, False),
        ({"op": "type", "target": {"role": "textbox", "name": "Submit"}}, False),
        ({"op": "navigate", "destructive": True}, True),
    ],
)
def test_destructive_steps(step: dict[str, Any], destructive: bool) -> None:
    assert is_destructive(step) is destructive


def test_fill_encodes_values_in_urls() -> None:
    slots = {"q": "a/b c?d", "name": "Zoë"}
    assert fill("http://h/s/{q}", slots, in_url=True) == "http://h/s/a%2Fb%20c%3Fd"
    assert fill("{name} {name}", slots) == "Zoë Zoë"
    assert fill("no {slots} here {0}", {"slots": "x"}) == "no x here {0}"


def test_slots_missing_and_unknown() -> None:
    r = routine()
    assert slot_names(r) == ["amount", "date", "first_name", "last_name", "student_id"]
    check_slots(r, SLOTS)
    with pytest.raises(UsageError, match=r"missing slot value\(s\): amount, date \("):
        check_slots(r, {k: v for k, v in SLOTS.items() if k not in ("amount", "date")})
    with pytest.raises(UsageError, match=r"unknown slot\(s\): frist_name"):
        check_slots(r, SLOTS | {"frist_name": "x"})
    # A placeholder in a URL needs a value even if the routine forgot to declare it.
    r["plan"][0]["url"] = BASE + "/claims/{claim_id}/edit"
    with pytest.raises(UsageError, match="claim_id"):
        check_slots(r, SLOTS)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("plan"), "no 'plan' steps"),
        (lambda r: r.update(plan=[]), "no 'plan' steps"),
        (lambda r: r.pop("id"), "no string 'id'"),
        (lambda r: r["plan"][2].pop("value"), "step 3: type needs a string 'value'"),
        (lambda r: r["plan"][1].pop("target"), "step 2: click needs a target"),
        (lambda r: r["plan"][0].pop("url"), "step 1: navigate needs a string 'url'"),
        (lambda r: r["plan"][1]["guards"][3].update(x="412"), "integer 'x'"),
        (lambda r: r["plan"][1]["guards"][3].update(tolerance=-1), "tolerance"),
        (lambda r: r["plan"][1]["guards"].append({"kind": "url"}), "string 'check'"),
        (lambda r: r["plan"][1].update(n="2"), "'n' must be an integer"),
    ],
)
def test_bad_plans(mutate: Any, message: str) -> None:
    r = routine()
    mutate(r)
    with pytest.raises(PlanError, match=message.replace("(", r"\(").replace(")", r"\)")):
        validate(r)


def test_dry_run() -> None:
    report = dry_run(routine(), SLOTS)
    assert report["status"] == "dry_run"
    assert report["slots"] == dict(sorted(SLOTS.items()))  # asked for: values shown
    steps = {s["n"]: s for s in report["steps"]}
    assert steps[1]["action"] == f"open {BASE}/claims/new"
    assert steps[1]["guards"] == ["app"]
    assert steps[3]["action"] == "type “Ada” into textbox “First name”"
    assert steps[3]["guards"] == ["app", "url", "target", "position"]
    assert steps[8]["would"].startswith("skip: a copy is satisfied by a slot")
    assert steps[10]["action"] == "paste “120.50” into textbox “Amount”"
    assert steps[13]["destructive"] is True
    assert steps[13]["would"] == "stop: destructive, needs --allow-destructive"
    allowed = dry_run(routine(), SLOTS, allow_destructive=True)
    assert allowed["steps"][-1]["would"] == "run"
    md = to_markdown(report)
    assert "Dry run: nothing was sent." in md and "type “Ada” into textbox" in md
    # Deterministic: same input, same bytes.
    assert json.dumps(report) == json.dumps(dry_run(routine(), SLOTS))


def test_dry_run_opens_start_url_and_stops_at_non_browser_step() -> None:
    r = routine()
    r["plan"] = r["plan"][1:]
    r["plan"].append(
        {"n": 50, "op": "click", "app": "Excel", "target": {"role": "cell", "name": "B2"}}
    )
    steps = dry_run(r, SLOTS)["steps"]
    assert steps[0] == {"n": 0, "op": "open", "action": f"open {BASE}/claims/new", "would": "run"}
    assert steps[-1]["would"].startswith("stop: not a browser step")


def test_dry_run_caused_navigate() -> None:
    r = routine()
    r["plan"].append(
        {
            "n": 14,
            "op": "navigate",
            "app": "chromium",
            "caused": True,
            "expect_after": {"url": "127.0.0.1:8123/claims/{id}"},
        }
    )
    step = dry_run(r, SLOTS, allow_destructive=True)["steps"][-1]
    assert step["action"] == "wait for 127.0.0.1:8123/claims/{id} (the previous step opens it)"
    assert step["would"] == "run"
    del r["plan"][-1]["caused"]
    with pytest.raises(PlanError, match="step 14: navigate needs a string 'url'"):
        validate(r)


def test_markdown_hand_off() -> None:
    report: dict[str, Any] = {
        "routine": "R0123456789",
        "title": "Reimbursement claim",
        "status": "stopped",
        "options": {"allow_destructive": False, "loose_position": False},
        "slots": ["first_name"],
        "steps": [{"n": 1, "op": "navigate", "url": BASE + "/claims/new", "status": "done"}],
        "stopped": {
            "n": 2,
            "op": "click",
            "target": {"role": "textbox", "name": "First | name"},
            "reason": "guard",
            "guard": "target",
            "message": "not found: no textbox named “First | name” on the page",
            "expected": {"role": "textbox", "name": "First | name"},
            "found": {"role": "textbox", "candidates": ["Given name"], "more": 0},
            "sent": False,
        },
        "not_run": [3, 4],
    }
    md = to_markdown(report)
    assert "**Stopped at step 2** (click textbox “First | name”): not found" in md
    assert "| 2 | click | textbox “First \\| name” | **stopped** |" in md
    assert "- reason: guard, guard `target`" in md
    assert "- sent: no" in md
    assert '"candidates": ["Given name"]' in md
    assert "- not run: steps 3, 4" in md
    # Page text cannot break out of its code span.
    report["stopped"]["found"]["candidates"] = ["a`b``c"]
    assert '- found: ```{"role": "textbox", "candidates": ["a`b``c"], "more": 0}```' in (
        to_markdown(report)
    )


def test_load_plan(tmp_path: Path) -> None:
    one = routine()
    other = dict(one, id="R9999999999")
    single = tmp_path / "one.json"
    single.write_text(json.dumps(one), encoding="utf-8")
    assert load_plan(single, one["id"]) == one
    lines = tmp_path / "routines.jsonl"
    lines.write_text(json.dumps(other) + "\n\n" + json.dumps(one) + "\n", encoding="utf-8")
    assert load_plan(lines, one["id"]) == one
    assert load_plan(lines, "R9999999999")["id"] == "R9999999999"
    with pytest.raises(UsageError, match=r"no routine RNOPE \(it holds: R0123456789, R99"):
        load_plan(lines, "RNOPE")
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "R1"}\n{not json\n', encoding="utf-8")
    with pytest.raises(SourceError, match="line 2 is not JSON"):
        load_plan(bad, "R1")
    with pytest.raises(SourceError, match="no such file"):
        load_plan(tmp_path / "absent.json", "R1")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SourceError, match="cannot be read"):
        load_plan(binary, "R1")


def test_slots_in_target_names_are_required_and_filled() -> None:
    routine = {
        "id": "R00000000aa",
        "title": "open an order",
        "length": 2,
        "start_url": "https://shop.test/orders",
        "slots": [{"name": "number", "step": 1, "kind": "number"}],
        "plan": [
            {
                "n": 1,
                "op": "click",
                "app": "Chromium",
                "target": {"role": "link", "name": "Order {number}"},
                "guards": [
                    {"check": "app", "app": "Chromium"},
                    {"check": "target", "role": "link", "name": "Order {number}"},
                ],
            },
            {
                "n": 2,
                "op": "copy",
                "app": "Excel",
                "target": {"role": "cell", "name": "B{row}"},
                "guards": [{"check": "app", "app": "Excel"}],
            },
        ],
        "script": [],
    }
    with pytest.raises(UsageError, match="number"):
        check_slots(routine, {})
    check_slots(routine, {"number": "10002"})  # {row} of a skipped Excel step is not needed
    report = dry_run(routine, {"number": "10002"})
    assert "Order 10002" in json.dumps(report, ensure_ascii=False)
