"""End to end: a claim routine recorded on three days, mined from the store by
``actframes routines``, replayed by ``actframes replay`` in a real Chromium against the
real local app — with new slot values on the unchanged app, and stopped by its guards,
with nothing submitted, on every perturbed version.

The recorded sessions are written as an accessibility-aware recorder stores them (a
screenpipe-style database: frames with the page URL, ui_events with the element's role
and name and the click's screen point), with the points measured in the unchanged app
in the same headless Chromium the replay launches. AT-SPI role names ("entry", "push
button") are used on purpose: the plan must still match Chromium's accessibility roles.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from actframes.routines.cdp import find_chromium
from actframes.simulate.writers import SCREENPIPE_SCHEMA, format_ts

from ..builders import run_cli
from .webapp import FIELDS, ClaimsApp, measure_points

CHROMIUM = find_chromium()
REQUIRED = os.environ.get("ACTFRAMES_REQUIRE_BROWSER") == "1"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not REQUIRED,
    reason="no Chromium binary (apt-get install chromium, or set ACTFRAMES_CHROMIUM)",
)

DAY0 = 1_772_442_000_000  # 2026-03-02T09:00:00Z
DAY_MS = 86_400_000
APP = "Chromium"
RECORDED = [
    {
        "first_name": f"John{k}",
        "last_name": "Doe",
        "student_id": f"s{900 + k}",
        "amount": f"{10 + k}.00",
        "date": f"2026-03-0{2 + k // 2}",
    }
    for k in range(6)
]
NEW = {
    "first_name": "Ada",
    "last_name": "Lovelace",
    "student_id": "s1234567",
    "amount": "120.50",
    "date": "2024-03-05",
}


@pytest.fixture(scope="module")
def points() -> dict[str, tuple[int, int]]:
    if CHROMIUM is None:
        pytest.fail("ACTFRAMES_REQUIRE_BROWSER=1, but no Chromium binary was found")
    return measure_points(CHROMIUM)


def record(path: Path, base: str, points: dict[str, tuple[int, int]]) -> Path:
    """Two claims a day on three days, with other work around them, as rows."""
    conn = sqlite3.connect(path)
    conn.executescript(SCREENPIPE_SCHEMA)
    frames: list[tuple[object, ...]] = []
    events: list[tuple[object, ...]] = []

    def frame(t: int, url: str, title: str, app: str = APP) -> None:
        frames.append((len(frames) + 1, 0, 0, format_ts(t), None, url, app, title, 1, "m0"))

    def event(
        t: int,
        kind: str,
        url: str | None,
        role: str | None,
        name: str | None,
        xy: tuple[int, int] | None = None,
        app: str = APP,
    ) -> None:
        x, y = xy if xy else (None, None)
        events.append(
            (
                len(events) + 1,
                format_ts(t),
                "s",
                None,
                kind,
                x,
                y,
                None,
                None,
                None,
                None,
                None,
                None,
                None,
                None,
                app,
                None,
                None,
                url,
                role,
                name,
                None,
                None,
                None,
                None,
                len(frames),
            )
        )

    n = 0
    for day in range(3):
        t = DAY0 + day * DAY_MS
        for _ in range(2):
            values = RECORDED[n]
            n += 1
            # Other work first: never the same twice.
            frame(t, "", f"notes {n}", app="Editor")
            event(t + 1000, "click", None, "page tab", f"notes-{n}.md", (300, 40), "Editor")
            t += 20_000
            form = base + "/claims/new"
            frame(t, form, "New claim")
            for field, label in FIELDS:
                t += 3_000
                event(t, "click", form, "entry", label, points[field])
                for _ in values[field]:
                    t += 150
                    event(t, "key", form, "entry", label)
            t += 2_000
            event(t, "click", form, "push button", "Submit", points["submit"])
            frame(t + 700, f"{base}/claims/{n}", f"Claim {n}")
            t += 60_000
    conn.executemany("INSERT INTO frames VALUES (?,?,?,?,?,?,?,?,?,?)", frames)
    conn.executemany(f"INSERT INTO ui_events VALUES ({','.join('?' * 26)})", events)
    conn.commit()
    conn.close()
    return path


def mined(db: Path) -> dict:
    r = run_cli("routines", "--db", str(db), "--tz", "UTC", "--all")
    assert r.returncode == 0, r.stderr
    routines = [json.loads(line) for line in r.stdout.splitlines()]
    claims = [
        x for x in routines if any(s.get("target", {}).get("name") == "Submit" for s in x["plan"])
    ]
    assert len(claims) == 1, [x["title"] for x in routines]
    return claims[0]


def replay(db: Path, routine_id: str, *extra: str) -> tuple[int, dict, str]:
    slots = [a for k, v in NEW.items() for a in ("--slot", f"{k}={v}")]
    r = run_cli(
        "replay",
        routine_id,
        "--db",
        str(db),
        "--tz",
        "UTC",
        "--all",
        *slots,
        *extra,
        env={**os.environ, "ACTFRAMES_CHROMIUM": CHROMIUM or ""},
    )
    return r.returncode, json.loads(r.stdout) if r.stdout.strip() else {}, r.stderr


def test_mined_routine_replays_with_new_values(
    tmp_path: Path, points: dict[str, tuple[int, int]]
) -> None:
    with ClaimsApp() as app:
        db = record(tmp_path / "rec.db", app.base, points)
        routine = mined(db)
        assert (routine["occurrences"], routine["days"]) == (6, 3)
        ops = [(s["op"], s.get("target", {}).get("name")) for s in routine["plan"]]
        # The user switched to the open form (an app switch, not a navigation): the
        # routine starts on the page, and replay opens it first.
        assert ops == [x for _, label in FIELDS for x in (("click", label), ("type", label))] + [
            ("click", "Submit"),
            ("navigate", None),
        ]
        assert routine["start_url"] == app.form_url
        assert [s["name"] for s in routine["slots"]] == [f for f, _ in FIELDS]
        assert routine["plan"][-1]["caused"] is True
        assert routine["plan"][-2]["destructive"] is True
        code, report, err = replay(db, routine["id"], "--allow-destructive")
        assert code == 0, (err, report)
        assert app.submissions == [NEW]
        # Again, with other values: the same plan, the new values.
        other = {**NEW, "first_name": "Grace", "amount": "7"}
        slots = [a for k, v in other.items() for a in ("--slot", f"{k}={v}")]
        r = run_cli(
            "replay",
            routine["id"],
            "--db",
            str(db),
            "--tz",
            "UTC",
            "--all",
            *slots,
            "--allow-destructive",
            env={**os.environ, "ACTFRAMES_CHROMIUM": CHROMIUM or ""},
        )
        assert r.returncode == 0, r.stderr
        assert app.submissions == [NEW, other]


def test_without_permission_nothing_is_submitted(
    tmp_path: Path, points: dict[str, tuple[int, int]]
) -> None:
    with ClaimsApp(log_events=True) as app:
        db = record(tmp_path / "rec.db", app.base, points)
        routine = mined(db)
        code, report, err = replay(db, routine["id"])
        assert code == 1 and "destructive" in err and report["stopped"]["n"] == 11
        assert app.submissions == []
        assert_only_done_steps_acted(app.events, routine, report)
        assert len(app.events) > 20  # the logger works: the fields were clicked and filled


# variant → (the step the guards stop at, the guard that fails)
PERTURBED = {
    "renamed_button": (11, "target"),
    "moved_field": (5, "position"),
    "changed_url": (1, "url"),
    "missing_element": (5, "target"),
}


@pytest.mark.parametrize("run", [1, 2, 3])  # every time, not once by luck
@pytest.mark.parametrize("variant", sorted(PERTURBED))
def test_guards_stop_every_perturbed_app(
    tmp_path: Path, points: dict[str, tuple[int, int]], variant: str, run: int
) -> None:
    with ClaimsApp(variant, log_events=True) as app:
        db = record(tmp_path / "rec.db", app.base, points)  # recorded before the change
        routine = mined(db)
        code, report, err = replay(db, routine["id"], "--allow-destructive")
        assert code == 1, (variant, report)
        assert app.submissions == []
        stopped = report["stopped"]
        step, guard = PERTURBED[variant]
        assert (stopped["n"], stopped["guard"]) == (step, guard), stopped
        assert "replay stopped at step" in err
        assert_only_done_steps_acted(app.events, routine, report)


LABEL_TO_FIELD = {label: field for field, label in FIELDS}


def assert_only_done_steps_acted(events: list[dict], routine: dict, report: dict) -> None:
    """The page saw exactly the clicks and inputs of the steps done before the stop, on
    their own fields, in order; no keystroke, paste or submit at all."""
    done = {s["n"] for s in report["steps"] if s.get("status") == "done"}
    assert all(n < report["stopped"]["n"] for n in done)
    expected: list[tuple[str, str]] = []
    for st in routine["plan"]:
        if st["n"] not in done or st["op"] not in ("click", "type"):
            continue
        field = LABEL_TO_FIELD.get(st["target"]["name"], "submit")
        if st["op"] == "click":
            expected += [("mousedown", field), ("mouseup", field), ("click", field)]
        else:
            expected += [("beforeinput", field), ("input", field)]
    keep = ("mousedown", "mouseup", "click", "beforeinput", "input")
    seen = [(e["type"], e["field"]) for e in events if e["type"] in keep]
    assert seen == expected
    assert not [e for e in events if e["type"] in ("keydown", "keyup", "keypress", "paste")]
    assert not [e for e in events if e["type"] == "submit"]


def mcp_call(db: Path, flags: tuple[str, ...], calls: list[tuple[str, dict]]) -> list:
    import asyncio
    import sys

    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "actframes.cli", "mcp", "--db", str(db), "--tz", "UTC", *flags],
        env={**os.environ, "ACTFRAMES_CHROMIUM": CHROMIUM or ""},
    )

    async def main() -> list:
        async with Client(params, read_timeout_seconds=120) as c:
            names = sorted(t.name for t in (await c.list_tools()).tools)
            return [names] + [await c.call_tool(name, args) for name, args in calls]

    return asyncio.run(main())


def test_mcp_replay_needs_the_servers_opt_in(
    tmp_path: Path, points: dict[str, tuple[int, int]]
) -> None:
    with ClaimsApp() as app:
        db = record(tmp_path / "rec.db", app.base, points)
        rid = mined(db)["id"]
        args = {"routine_id": rid, "slots": NEW, "until": "2026-03-04", "days": 3}
        (names,) = mcp_call(db, (), [])
        assert "replay_routine" not in names
        names, dry, safe, refused = mcp_call(
            db,
            ("--allow-replay",),
            [
                ("replay_routine", {**args, "dry_run": True}),
                ("replay_routine", args),
                ("replay_routine", {**args, "allow_destructive": True}),
            ],
        )
        assert "replay_routine" in names
        assert dry.structured_content["report"]["status"] == "dry_run"
        stopped = safe.structured_content["report"]["stopped"]
        assert stopped["n"] == 11 and stopped["reason"] == "destructive"
        assert refused.is_error and "--allow-destructive-replay" in refused.content[0].text
        assert app.submissions == []
        _, done = mcp_call(
            db,
            ("--allow-destructive-replay",),
            [("replay_routine", {**args, "allow_destructive": True})],
        )
        assert done.structured_content["report"]["status"] == "completed", done.content
        assert app.submissions == [NEW]
        # Slot values are sent to the page and nowhere else: not in the tool's answer.
        assert "Lovelace" not in done.content[0].text


def test_replay_finds_the_routine_with_the_same_rules(
    tmp_path: Path, points: dict[str, tuple[int, int]]
) -> None:
    db = record(tmp_path / "rec.db", "http://127.0.0.1:9", points)
    rid = mined(db)["id"]
    slots = [a for k, v in NEW.items() for a in ("--slot", f"{k}={v}")]
    base = ("replay", rid, "--db", str(db), "--tz", "UTC", "--all", "--dry-run", *slots)
    r = run_cli(*base, "--min-occurrences", "6")
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "dry_run"
    r = run_cli(*base, "--min-occurrences", "7")
    assert r.returncode == 2 and f"no routine {rid}" in r.stderr
