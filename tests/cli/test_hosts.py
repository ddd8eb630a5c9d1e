"""Several machines in one ActivityWatch export: the document's ``hosts``, ``apps
--by-host``, and "—" (not 0) for input a source does not record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..builders import run_cli

DAY, TZ = "2026-11-13", "UTC"
T0 = "2026-11-13T09:00:00+00:00"


def _ev(offset_s: int, dur_s: int, **data: Any) -> dict[str, Any]:
    from datetime import datetime, timedelta

    ts = datetime.fromisoformat(T0) + timedelta(seconds=offset_s)
    return {"timestamp": ts.isoformat(), "duration": dur_s, "data": data}


def two_host_export(path: Path) -> Path:
    """The laptop is used for 10 minutes while the workstation's editor sits idle
    (AFK after 1 minute); then the workstation for 5 minutes."""
    buckets = {
        "aw-watcher-window_lap": {
            "type": "currentwindow",
            "hostname": "lap",
            "events": [_ev(0, 600, app="Terminal", title="bash")],
        },
        "aw-watcher-afk_lap": {
            "type": "afkstatus",
            "hostname": "lap",
            "events": [_ev(0, 600, status="not-afk"), _ev(600, 900, status="afk")],
        },
        "aw-watcher-window_desk": {
            "type": "currentwindow",
            "hostname": "desk",
            "events": [_ev(0, 900, app="Code", title="main.rs")],
        },
        "aw-watcher-afk_desk": {
            "type": "afkstatus",
            "hostname": "desk",
            "events": [
                _ev(0, 60, status="not-afk"),
                _ev(60, 540, status="afk"),
                _ev(600, 300, status="not-afk"),
            ],
        },
    }
    path.write_text(json.dumps({"buckets": buckets}), encoding="utf-8")
    return path


def test_the_document_has_a_ledger_per_host(tmp_path: Path) -> None:
    db = two_host_export(tmp_path / "aw.json")
    res = run_cli("day", DAY, "--db", str(db), "--tz", TZ, "--no-cache")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["hosts"] == [
        {"host": "desk", "active_s": 360, "ledger": [{"app": "Code", "active_s": 360}]},
        {"host": "lap", "active_s": 600, "ledger": [{"app": "Terminal", "active_s": 600}]},
    ]
    # The idle workstation earns nothing while the laptop is used.
    assert {e["app"]: e["active_s"] for e in doc["ledger"]} == {"Terminal": 600, "Code": 360}
    assert {f["device"] for f in doc["frames"]} == {"desk", "lap"}


def test_apps_by_host_and_unmeasured_input(tmp_path: Path) -> None:
    db = two_host_export(tmp_path / "aw.json")
    res = run_cli("apps", DAY, "--db", str(db), "--tz", TZ, "--by-host")
    assert res.returncode == 0, res.stderr
    lines = [line.split() for line in res.stdout.splitlines()]
    assert lines == [
        ["HOST", "APP", "SITE", "ACTIVE", "KEYS", "CLICKS"],
        ["desk", "Code", "-", "0:06:00", "—", "—"],
        ["desk", "TOTAL", "0:06:00"],
        ["lap", "Terminal", "-", "0:10:00", "—", "—"],
        ["lap", "TOTAL", "0:10:00"],
    ]
    whole = run_cli("apps", DAY, "--db", str(db), "--tz", TZ)
    assert [line.split() for line in whole.stdout.splitlines()] == [
        ["APP", "SITE", "ACTIVE", "KEYS", "CLICKS"],
        ["Terminal", "-", "0:10:00", "—", "—"],
        ["Code", "-", "0:06:00", "—", "—"],
        ["TOTAL", "0:16:00"],
    ]


def test_markdown_shows_unmeasured_input_as_a_dash(tmp_path: Path) -> None:
    db = two_host_export(tmp_path / "aw.json")
    res = run_cli("day", DAY, "--db", str(db), "--tz", TZ, "--format", "md", "--no-cache")
    assert res.returncode == 0, res.stderr
    assert "| Terminal |  | 10m | 600 | — | — |" in res.stdout
    assert " 0 keys" not in res.stdout
