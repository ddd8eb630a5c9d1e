"""``actframes demo --days N``: a multi-day store ending yesterday whose routines,
patterns, steps and replay all have something to show, from the commands as a user
types them (the default window counts back from today)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.demo import demo_span
from actframes.simulate.workflows import simulate_workflows

from .builders import cli_env, run_cli

DAYS = 5


def _yesterdays() -> set[str]:
    # The test reads the clock like the command does; around midnight either day holds.
    now = datetime.now(UTC)
    return {(now - timedelta(days=1, minutes=m)).date().isoformat() for m in (-5, 0, 5)}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("demo")
    proc = run_cli("demo", "--days", str(DAYS), "--tz", "UTC", "--out", str(out / "d"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # not a terminal: no progress bar
    return out / "d" / "demo.db", proc.stdout


def env(db: Path) -> dict[str, str]:
    return cli_env(ACTFRAMES_DB=str(db), TZ="UTC")


def test_last_day_is_yesterday_and_the_defaults_find_it(demo: tuple[Path, str]) -> None:
    db, stdout = demo
    m = re.search(r"(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2}) \(UTC\)", stdout)
    assert m is not None
    assert m.group(2) in _yesterdays()
    assert (datetime.fromisoformat(m.group(2)) - datetime.fromisoformat(m.group(1))).days == 4
    apps = run_cli("apps", "yesterday", env=env(db))
    assert apps.returncode == 0, apps.stderr
    assert "Google Chrome" in apps.stdout and "TOTAL" in apps.stdout
    today = run_cli("apps", env=env(db))  # today holds nothing yet
    assert today.returncode == 0 and "Google Chrome" not in today.stdout


def test_routines_steps_patterns_and_replay_have_something_to_show(
    demo: tuple[Path, str],
) -> None:
    db, _ = demo
    res = run_cli("routines", env=env(db))
    assert res.returncode == 0, res.stderr
    routines = [json.loads(line) for line in res.stdout.splitlines()]
    assert routines and all(r["days"] >= 2 for r in routines)
    withslots = next(r for r in routines if r["slots"])
    dry = run_cli("replay", withslots["id"], "--dry-run", env=env(db))
    assert dry.returncode == 0, dry.stderr
    report = json.loads(dry.stdout)
    used = {s["name"] for s in withslots["slots"]}
    assert report["unfilled"] and set(report["unfilled"]) <= used
    assert any(step.get("unfilled") for step in report["steps"])
    pats = run_cli("patterns", "--format", "md", env=env(db))
    assert pats.returncode == 0, pats.stderr
    assert sum(line.startswith("- ") for line in pats.stdout.splitlines()) >= 3
    doc = json.loads(run_cli("day", "yesterday", "--no-cache", env=env(db)).stdout)
    frame = next(f["id"] for f in doc["frames"] if f["app"] == "Google Chrome")
    steps = run_cli("steps", frame, "--date", doc["window"]["day"], env=env(db))
    assert steps.returncode == 0, steps.stderr
    assert steps.stdout.strip()


def test_content_is_fixed_by_the_seed_and_dates_move() -> None:
    first_a, last_a = demo_span(3, "2026-12-01")
    assert (first_a, last_a) == ("2026-11-28", "2026-11-30")
    a = simulate_workflows(first_a, 3, "UTC", seed=7, every_day=True)
    b = simulate_workflows(demo_span(3, "2027-06-16")[0], 3, "UTC", seed=7, every_day=True)
    assert [d.day for d in b] == ["2027-06-13", "2027-06-14", "2027-06-15"]

    assert content(a) == content(b)
    assert content(a) != content(simulate_workflows(first_a, 3, "UTC", seed=8, every_day=True))


def content(days: list) -> list:  # type: ignore[type-arg]
    """What happened, without when: the part of the demo the seed alone decides."""
    return [
        [(x.kind, x.app, x.title, x.url, x.role, x.name, x.text) for x in d.actions] for d in days
    ]


REFERENCE = content(simulate_workflows("2026-11-29", 2, "UTC", seed=7, every_day=True))


@settings(max_examples=8, deadline=None)
@given(
    today=st.dates(min_value=datetime(2001, 1, 1).date(), max_value=datetime(2098, 1, 1).date()),
    tz=st.sampled_from(["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe"]),
)
def test_any_day_any_zone_the_same_content_ending_yesterday(today: object, tz: str) -> None:
    first, last = demo_span(2, str(today))
    assert last == (datetime.fromisoformat(str(today)) - timedelta(days=1)).date().isoformat()
    days = simulate_workflows(first, 2, tz, seed=7, every_day=True)
    assert [d.day for d in days] == [first, last]
    assert content(days) == REFERENCE


def test_fill_workday_moves_the_free_work_only_later() -> None:
    plain = simulate_workflows("2026-11-28", 3, "UTC", seed=7, every_day=True)
    filled = simulate_workflows("2026-11-28", 3, "UTC", seed=7, every_day=True, fill_workday=True)
    assert content(filled) == content(plain)
    for p, f in zip(plain, filled, strict=True):
        ts = [a.ts_ms for a in f.actions]
        assert ts == sorted(ts)
        assert f.actions[0].ts_ms == p.actions[0].ts_ms and f.actions[-1] == p.actions[-1]
        assert all(b.ts_ms >= a.ts_ms for a, b in zip(p.actions, f.actions, strict=True))

        # The longest stretch without an action shrinks: the day is spread, not split.
        def longest(acts: list) -> int:  # type: ignore[type-arg]
            return max(b.ts_ms - a.ts_ms for a, b in pairwise(acts))

        assert longest(f.actions) < longest(p.actions)
        assert longest(f.actions) <= 3_600_000 + 300_000
