"""``actframes projects`` end to end on a real store: the timesheet as JSON, CSV and
Markdown agrees with each day's own document; --check-rules; the default projects file;
bad requests and files give one line and exit 2; the store is never changed."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from ..builders import cli_env, run_cli, sha256
from ..test_golden import build

DAY, NEXT, TZ = "2026-03-10", "2026-03-11", "Europe/Berlin"
RULES = """
[[project]]
name = "Team chat"
aliases = ["chat"]
[[project.match]]
app = "^slack$"

[[project]]
name = "never"
[[project.match]]
site = "nowhere\\\\.example"
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("projects") / "g.db")


@pytest.fixture()
def rules(tmp_path: Path) -> Path:
    p = tmp_path / "projects.toml"
    p.write_text(RULES, encoding="utf-8")
    return p


def _day(db: Path, rules: Path) -> dict[str, Any]:
    out = run_cli("day", DAY, "--db", str(db), "--tz", TZ, "--projects", str(rules))
    assert out.returncode == 0, out.stderr
    doc: dict[str, Any] = json.loads(out.stdout)
    return doc


def test_timesheet_formats_agree_with_the_days_documents(db: Path, rules: Path) -> None:
    before = sha256(db)
    doc = _day(db, rules)
    base = ["projects", "--since", DAY, "--until", NEXT, "--db", str(db), "--tz", TZ]
    got = run_cli(*base, "--projects", str(rules))
    assert got.returncode == 0, got.stderr
    sheet = json.loads(got.stdout)
    assert list(sheet)[:2] == ["since", "until"] and sheet["tz"] == TZ
    want = {e["name"]: e["active_s"] for e in doc["projects"]["entries"]}
    assert {p["name"]: p["days"] for p in sheet["projects"]} == {
        name: {DAY: s} for name, s in want.items()
    }
    assert sheet["unassigned_s"] == doc["projects"]["unassigned"]["active_s"]
    assert sheet["total_s"] == doc["coverage"]["active_s"]
    assert sheet["days"] == {DAY: doc["coverage"]["active_s"], NEXT: 0}
    # CSV: each day's rows add up to the day, hours to the day's hours to the hundredth.
    text = run_cli(*base, "--projects", str(rules), "--format", "csv").stdout
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["date", "project", "seconds", "hours"]
    body = rows[1:]
    assert {r[0] for r in body} == {DAY}
    assert sum(int(r[2]) for r in body) == doc["coverage"]["active_s"]
    hundredths = sum(int(r[3].replace(".", "")) for r in body)
    assert hundredths == (doc["coverage"]["active_s"] * 100 + 1800) // 3600
    assert [r[1] for r in body if r[1] == "(unassigned)"] == ["(unassigned)"]
    assert "Team chat" in {r[1] for r in body}
    md = run_cli(*base, "--projects", str(rules), "--format", "md").stdout
    assert md.startswith(f"# Timesheet {DAY} – {NEXT} ({TZ})")
    assert "| Team chat |" in md and "| **Total** |" in md
    # Same bytes again; the store untouched.
    assert run_cli(*base, "--projects", str(rules)).stdout == got.stdout
    assert sha256(db) == before


def test_the_default_projects_file_is_read(db: Path, tmp_path: Path) -> None:
    config = tmp_path / "config"
    (config / "actframes").mkdir(parents=True)
    (config / "actframes" / "projects.toml").write_text(RULES, encoding="utf-8")
    env = cli_env(XDG_CONFIG_HOME=str(config))
    out = run_cli("projects", DAY, "--db", str(db), "--tz", TZ, env=env)
    assert out.returncode == 0, out.stderr
    sheet = json.loads(out.stdout)
    assert sheet["rules"] == "built-in + projects.toml"
    assert "Team chat" in {p["name"] for p in sheet["projects"]}
    plain = json.loads(run_cli("projects", DAY, "--db", str(db), "--tz", TZ).stdout)
    assert plain["rules"] == "built-in"
    assert "Team chat" not in {p["name"] for p in plain["projects"]}


def test_check_rules_reports_a_rule_that_matches_nothing(db: Path, rules: Path) -> None:
    out = run_cli(
        "projects", DAY, "--db", str(db), "--tz", TZ, "--projects", str(rules), "--check-rules"
    )
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("projects.toml:2: project 'Team chat', match 1: ")
    assert lines[0].endswith(" rows") and not lines[0].endswith(": 0 rows")
    assert lines[1] == f"projects.toml:8: project 'never', match 1: matches no row in {DAY}"
    good = rules.with_name("good.toml")
    good.write_text(RULES.split('[[project]]\nname = "never"')[0], encoding="utf-8")
    ok = run_cli(
        "projects", DAY, "--db", str(db), "--tz", TZ, "--projects", str(good), "--check-rules"
    )
    assert ok.returncode == 0 and len(ok.stdout.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["projects", DAY, "--since", DAY], "not both"),
        (["projects", "--until", DAY], "--until needs --since"),
        (["projects", "--since", NEXT, "--until", DAY], "before --since"),
        (["projects", "--since", "2025-01-01", "--until", "2026-03-01"], "at most 366"),
        (["projects", "2026-02-30"], "no such date"),
        (["projects", DAY, "--projects", "/nonexistent/projects.toml"], "no such projects file"),
        (["projects", DAY, "--categories", "/nonexistent/c.json"], "no such categories file"),
    ],
)
def test_bad_requests_are_one_line_and_exit_2(db: Path, args: list[str], said: str) -> None:
    out = run_cli(*args, "--db", str(db), "--tz", TZ)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert said in out.stderr and out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr


def test_a_categories_export_is_applied(db: Path, tmp_path: Path) -> None:
    export = tmp_path / "aw-category-export.json"
    export.write_text(
        json.dumps(
            {
                "categories": [
                    {"id": 1, "name": ["Work"], "rule": {"type": None}, "data": {}},
                    {
                        "id": 2,
                        "name": ["Work", "Chat"],
                        "rule": {"type": "regex", "regex": "Slack"},
                    },
                    {
                        "id": 3,
                        "name": ["Work", "Code"],
                        "rule": {"type": "regex", "regex": "code", "ignore_case": True},
                    },
                ]
            }
        ),
        encoding="utf-8",
    )
    out = run_cli("day", DAY, "--db", str(db), "--tz", TZ, "--categories", str(export))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    cats = {e["name"]: e["active_s"] for e in doc["categories"]["entries"]}
    assert doc["categories"]["rules"] == "aw-category-export.json"
    assert set(cats) <= {"Work > Chat", "Work > Code", "Uncategorized"} and "Work > Chat" in cats
    slack = sum(e["active_s"] for e in doc["ledger"] if e["app"] == "Slack")
    assert cats["Work > Chat"] >= slack - 1
    assert sum(cats.values()) == doc["coverage"]["active_s"]
    for f in doc["frames"]:
        if f["app"] == "Slack":
            assert f["category"] == "Work > Chat"
