"""``actframes routines`` and ``actframes bench routines`` as a user runs them: real
SQLite stores from the simulator, subprocesses, exit codes, determinism, read-only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from actframes.simulate.workflows import simulate_workflows, write_workflows

from ..builders import cli_env, run_cli, run_cli_bytes, sha256

TZ = "Europe/Berlin"


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("wf") / "workflows.db"
    return write_workflows(p, simulate_workflows("2026-03-02", 6, TZ, seed=3))


def routines_json(db: Path, *extra: str) -> list[dict]:
    r = run_cli("routines", "--db", str(db), "--tz", TZ, "--until", "2026-03-09", *extra)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_routines_of_the_simulated_week(history: Path) -> None:
    before = sha256(history)
    found = routines_json(history, "--days", "7")
    assert sha256(history) == before  # opened read-only, never written
    by_site = {r["sites"][0]: r for r in found if len(r["sites"]) == 1}
    assert {"timesheet.acme.test", "github.com", "ci.acme.test"} <= set(by_site)
    for r in found:
        assert r["length"] >= 3 and r["occurrences"] >= 3 and r["days"] >= 2
        assert r["specific_targets"] >= 2
        assert len(r["evidence"]) == r["occurrences"]
        assert all(s["guards"][0]["check"] == "app" for s in r["plan"])
    review = by_site["github.com"]
    assert any(s["kind"] == "url" for s in review["slots"])  # the pull request number
    assert any(s.get("destructive") for s in review["plan"])  # "Submit review"
    # Privacy: typed text is stored in this history but never shown without opt-in.
    text = json.dumps(found)
    assert "examples" not in text


def test_include_text_shows_examples(history: Path) -> None:
    found = routines_json(history, "--days", "7", "--include-text")
    assert any("examples" in s for r in found for s in r["slots"])


def test_same_bytes_every_run_and_any_machine_zone(history: Path) -> None:
    args = ("routines", "--db", str(history), "--tz", TZ, "--until", "2026-03-09", "--days", "7")
    a = run_cli_bytes(*args)
    b = run_cli_bytes(*args, env=cli_env(TZ="Pacific/Auckland", LC_ALL="C"))
    assert a.returncode == 0 and a.stdout == b.stdout and a.stdout


def test_rules_are_options(history: Path) -> None:
    strict = routines_json(history, "--days", "7", "--min-occurrences", "6")
    loose = routines_json(history, "--days", "7")
    assert all(r["occurrences"] >= 6 for r in strict)
    assert len(strict) < len(loose)
    assert routines_json(history, "--days", "1") == []  # one day: never on two days


def test_markdown(history: Path) -> None:
    r = run_cli(
        "routines", "--db", str(history), "--tz", TZ, "--until", "2026-03-09", "--format", "md"
    )
    assert r.returncode == 0 and r.stdout.startswith("# Routines (")
    assert "guards: app" in r.stdout and "(destructive)" in r.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--days", "0"), "--days must be at least 1"),
        (("--min-length", "1"), "--min-length must be at least 2"),
        (("--min-occurrences", "1"), "--min-occurrences must be at least 2"),
        (("--max-length", "2"), "--max-length must be at least --min-length"),
        (("--until", "2026-13-01"), "2026-13-01"),
        (("--days", "3", "--until", "0001-01-01"), "0001-01-01"),
        (("--all", "--days", "3"), "--all mines the whole store"),
    ],
)
def test_usage_errors(history: Path, args: tuple[str, ...], message: str) -> None:
    r = run_cli("routines", "--db", str(history), "--tz", TZ, *args)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_missing_store_is_a_one_line_error(tmp_path: Path) -> None:
    r = run_cli("routines", "--db", str(tmp_path / "none.db"), "--tz", TZ, "--days", "3")
    assert r.returncode == 1 and "none.db" in r.stderr and "Traceback" not in r.stderr


def test_bench_routines_on_a_small_history(tmp_path: Path) -> None:
    r = run_cli("bench", "routines", "--out", str(tmp_path / "b"), "--sim-days", "6")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("# Routines: R and h")
    (res,) = json.loads((tmp_path / "b" / "routines.json").read_text())
    assert res["days"] == 6 and res["routines"] > 0
    hi = res["h_in_sample"]
    assert 0 < hi["delegable_steps"] <= hi["raw_steps"] <= hi["steps"]
    assert res["h_out_of_sample"]["split"].startswith("days: train 2026-03-02..2026-03-04")
    rr = res["r"]["r_operational"]
    assert 1 < rr["min"] <= rr["median"] <= rr["max"]
    assert res["r"]["r_ceiling"]["median"] > rr["median"]
    assert len(res["per_routine"]) == res["routines"]
    assert {s["param"] for s in res["sensitivity"]} == {
        "screen",
        "screenshots",
        "context",
        "history",
        "reasoning",
    }
    assert res["cost_model"]["image_tokens"] == 1590
    assert (tmp_path / "b" / "routines.md").read_text() == r.stdout


def test_bench_routines_usage_errors(tmp_path: Path) -> None:
    r = run_cli("bench", "routines", "--out", str(tmp_path), "--screen", "wide")
    assert r.returncode == 2 and "WIDTHxHEIGHT" in r.stderr
    r = run_cli("bench", "routines", "--out", str(tmp_path), "--no-sim")
    assert r.returncode == 2 and "nothing to measure" in r.stderr
    r = run_cli("bench", "routines", "--no-sim", "--uilog", str(tmp_path / "x.csv"))
    assert r.returncode == 2 and "x.csv" in r.stderr
    r = run_cli("bench", "routines", "--holdout-days", "0")
    assert r.returncode == 2 and "--holdout-days must be at least 1" in r.stderr


def test_a_store_without_targets_says_so(tmp_path: Path) -> None:
    import sqlite3

    from actframes.simulate.writers import SCREENPIPE_SCHEMA

    db = tmp_path / "empty.db"
    conn = sqlite3.connect(db)
    conn.executescript(SCREENPIPE_SCHEMA)
    conn.close()
    r = run_cli("routines", "--db", str(db), "--tz", TZ, "--all")
    assert r.returncode == 0 and r.stdout == ""
    assert "no action steps" in r.stderr
