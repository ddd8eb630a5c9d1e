"""``actframes replay`` end to end, as a subprocess: dry runs, one-line usage and plan
errors with their exit codes, and real replays in Chromium against the local claims app
(skipped without Chromium unless ACTFRAMES_REQUIRE_BROWSER=1)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from actframes.routines.cdp import find_chromium

from ..builders import cli_env, run_cli
from .webapp import FIXED_POINTS, ClaimsApp, claim_routine, measure_points

CHROMIUM = find_chromium()
REQUIRED = os.environ.get("ACTFRAMES_REQUIRE_BROWSER") == "1"
needs_browser = pytest.mark.skipif(
    CHROMIUM is None and not REQUIRED,
    reason="no Chromium binary (apt-get install chromium, or set ACTFRAMES_CHROMIUM)",
)

SLOTS = {
    "first_name": "Philippa",
    "last_name": "Quartermaine",
    "student_id": "s2468024",
    "amount": "310.75",
    "date": "2026-04-30",
}
RID = "R0123456789"


def slot_args(slots: dict[str, str]) -> list[str]:
    return [a for k, v in slots.items() for a in ("--slot", f"{k}={v}")]


def write_plan(tmp_path: Path, routine: dict[str, Any]) -> Path:
    path = tmp_path / "routines.jsonl"
    other = dict(routine, id="R9999999999", title="another routine")
    path.write_text(json.dumps(other) + "\n" + json.dumps(routine) + "\n", encoding="utf-8")
    return path


def one_line_error(res: subprocess.CompletedProcess[str], code: int) -> str:
    assert res.returncode == code, (res.returncode, res.stdout, res.stderr)
    assert "Traceback" not in res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("actframes: error: "), res.stderr
    return lines[0]


def browser_env() -> dict[str, str]:
    # The test's browser only opens the test's own local app.
    return cli_env(ACTFRAMES_CHROMIUM_NO_SANDBOX="1")


def replay_in_browser(plan: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``actframes replay`` of RID from ``plan`` with SLOTS, in the test's Chromium."""
    assert CHROMIUM is not None
    return run_cli(
        "replay",
        RID,
        "--plan",
        str(plan),
        "--browser",
        CHROMIUM,
        *options,
        *slot_args(SLOTS),
        env=browser_env(),
    )


# ---------------------------------------------------------------- no browser needed


def test_dry_run_sends_nothing_and_shows_values(tmp_path: Path) -> None:
    plan = write_plan(tmp_path, claim_routine("http://127.0.0.1:9", FIXED_POINTS))
    # A browser that does not exist: a dry run never starts one.
    args = ["replay", RID, "--plan", str(plan), "--dry-run", "--browser", "/nonexistent"]
    res = run_cli(*args, *slot_args(SLOTS))
    assert res.returncode == 0 and res.stderr == "", res.stderr
    report = json.loads(res.stdout)
    assert report["status"] == "dry_run" and report["routine"] == RID
    assert report["slots"] == dict(sorted(SLOTS.items()))
    actions = [s["action"] for s in report["steps"]]
    assert "type “Philippa” into textbox “First name”" in actions
    assert report["steps"][-1]["would"] == "stop: destructive, needs --allow-destructive"
    md = run_cli(*args, *slot_args(SLOTS), "--format", "md", "--allow-destructive")
    assert md.returncode == 0
    assert md.stdout.startswith("# Replay of R0123456789 — Reimbursement claim\n")
    assert "| 13 | click button “Submit” | app, url, target, position | run |" in md.stdout
    # Same input, same bytes.
    assert run_cli(*args, *slot_args(SLOTS)).stdout == res.stdout


def test_missing_slots_are_named(tmp_path: Path) -> None:
    plan = write_plan(tmp_path, claim_routine("http://127.0.0.1:9", FIXED_POINTS))
    partial = {k: v for k, v in SLOTS.items() if k not in ("amount", "date")}
    res = run_cli("replay", RID, "--plan", str(plan), *slot_args(partial))
    line = one_line_error(res, 2)
    assert "missing slot value(s): amount, date" in line
    assert res.stdout == ""
    for value in partial.values():
        assert value not in res.stderr


@pytest.mark.parametrize(
    ("slot", "message"),
    [
        (["--slot", "frist_name=x"], "unknown slot(s): frist_name"),
        (["--slot", "first_name"], "--slot takes NAME=VALUE"),
        (["--slot", "=x"], "--slot takes NAME=VALUE"),
        (["--slot", "first_name=a", "--slot", "first_name=b"], "given twice"),
    ],
)
def test_bad_slot_options(tmp_path: Path, slot: list[str], message: str) -> None:
    plan = write_plan(tmp_path, claim_routine("http://127.0.0.1:9", FIXED_POINTS))
    res = run_cli("replay", RID, "--plan", str(plan), "--dry-run", *slot)
    assert message in one_line_error(res, 2)


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        (None, 1, "no such file"),
        ("{not json", 1, "line 1 is not JSON"),
        ('{"id": "R9999999999", "plan": []}', 2, f"no routine {RID} (it holds: R9999999999)"),
        (json.dumps({"id": RID, "plan": []}), 1, f"routine {RID} has no 'plan' steps"),
        (
            json.dumps({"id": RID, "plan": [{"n": 1, "op": "type", "app": "chromium"}]}),
            1,
            "plan step 1: type needs a target",
        ),
        ("[1, 2]", 2, f"no routine {RID}"),
    ],
)
def test_bad_plan_files(tmp_path: Path, content: str | None, code: int, message: str) -> None:
    path = tmp_path / "plan.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    res = run_cli("replay", RID, "--plan", str(path), "--dry-run")
    assert message in one_line_error(res, code)


def test_bad_browser_path(tmp_path: Path) -> None:
    plan = write_plan(tmp_path, claim_routine("http://127.0.0.1:9", FIXED_POINTS))
    not_exe = tmp_path / "chromium"
    not_exe.write_text("", encoding="utf-8")
    res = run_cli("replay", RID, "--plan", str(plan), "--browser", str(not_exe), *slot_args(SLOTS))
    assert "not an executable file" in one_line_error(res, 2)


def test_store_lookup_errors_are_one_line(tmp_path: Path) -> None:
    """Without --plan the routine is mined from the store; a missing store is one line."""
    res = run_cli("replay", RID, "--db", str(tmp_path / "absent.db"), "--tz", "UTC")
    assert res.returncode in (1, 2)
    one_line_error(res, res.returncode)


# ---------------------------------------------------------------- in a real browser


@pytest.fixture(scope="module")
def points() -> dict[str, tuple[int, int]]:
    if CHROMIUM is None:
        pytest.fail("ACTFRAMES_REQUIRE_BROWSER=1, but no Chromium binary was found")
    return measure_points(CHROMIUM)


@needs_browser
def test_cli_replay_completes(tmp_path: Path, points: dict[str, tuple[int, int]]) -> None:
    assert CHROMIUM is not None
    with ClaimsApp() as app:
        plan = write_plan(tmp_path, claim_routine(app.base, points))
        res = replay_in_browser(plan, "--allow-destructive")
        assert res.returncode == 0, (res.stdout, res.stderr)
        assert app.submissions == [SLOTS]
    report = json.loads(res.stdout)
    assert report["status"] == "completed" and report["stopped"] is None
    assert res.stderr == ""
    for value in SLOTS.values():  # privacy: values go to the page only
        assert value not in res.stdout


@needs_browser
def test_cli_replay_hands_off(tmp_path: Path, points: dict[str, tuple[int, int]]) -> None:
    """Without --allow-destructive: the form is filled, Submit is not clicked, exit 1, a
    Markdown hand-off on stdout and one line on stderr."""
    assert CHROMIUM is not None
    with ClaimsApp() as app:
        plan = write_plan(tmp_path, claim_routine(app.base, points))
        res = replay_in_browser(plan, "--format", "md")
        assert app.submissions == []
    assert res.returncode == 1, (res.stdout, res.stderr)
    assert "**Stopped at step 13** (click button “Submit”)" in res.stdout
    assert "## Hand-off" in res.stdout and "- reason: destructive" in res.stdout
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("actframes: replay stopped at step 13: ")
    for value in SLOTS.values():
        assert value not in res.stdout + res.stderr


@needs_browser
def test_cli_replay_perturbed(tmp_path: Path, points: dict[str, tuple[int, int]]) -> None:
    assert CHROMIUM is not None
    with ClaimsApp("missing_element") as app:
        plan = write_plan(tmp_path, claim_routine(app.base, points))
        res = replay_in_browser(plan, "--allow-destructive")
        assert app.submissions == []
    assert res.returncode == 1
    stop = json.loads(res.stdout)["stopped"]
    assert (stop["n"], stop["guard"], stop["sent"]) == (6, "target", False)
    assert stop["found"]["candidates"] == ["First name", "Last name", "Amount", "Date"]


def browser_pids(profile: Path) -> list[int]:
    """Processes (not zombies) started with this profile."""
    flag = f"--user-data-dir={profile}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if flag in (entry / "cmdline").read_bytes():
                    pids.append(int(entry.name))
            except OSError:
                continue  # gone meanwhile
    return pids


@needs_browser
def test_sigterm_ends_the_browser(tmp_path: Path) -> None:
    """A replay terminated while a page loads still ends its browser's process group."""
    assert CHROMIUM is not None
    profile = tmp_path / "profile"
    with ClaimsApp() as app:
        routine = {
            "id": RID,
            "plan": [{"n": 1, "op": "navigate", "app": "chromium", "url": app.base + "/slow"}],
        }
        plan = tmp_path / "plan.json"
        plan.write_text(json.dumps(routine), encoding="utf-8")
        args = ["replay", RID, "--plan", str(plan), "--browser", CHROMIUM]
        proc = subprocess.Popen(
            [sys.executable, "-m", "actframes.cli", *args, "--user-data-dir", str(profile)],
            env=browser_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert app.slow_requests.wait(30), "the replay never asked for the page"
            assert browser_pids(profile)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while browser_pids(profile) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert browser_pids(profile) == []
    assert profile.is_dir()  # a profile the user gave is kept
