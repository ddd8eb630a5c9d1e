"""A source that records no input (ActivityWatch) is never told as "0 keys": every MCP
text says input is not recorded and its counts are null, while a store that records input
keeps its counts and its bytes. Through the SDK's own client over stdio, on ActivityWatch
export files, aw-server-rust SQLite files and the real corpus when present."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from ..sources.test_activitywatch import MHACKS, bucket, ev, export_to_sqlite, write_export
from ..test_golden import GOLDEN, build
from .test_mcp_server import DAY, TZ, text, with_client

T9 = 1_773_129_600_000  # 2026-03-10 09:00 in Europe/Berlin (08:00Z)
MHACKS_DAY = "2023-11-19"


def aw_export(path: Path) -> Path:
    """Half an hour in an editor, a browser and a chat, with the AFK watcher's not-afk time."""
    window = [
        ev(T9, 600, app="Code", title="model.py — actframes"),
        ev(T9 + 600_000, 900, app="Firefox", title="Fix proxy auth · PR #6712"),
        ev(T9 + 1_500_000, 300, app="Code", title="model.py — actframes"),
        ev(T9 + 1_800_000, 240, app="Slack", title="#eng - Acme - Slack"),
    ]
    afk = [ev(T9, 2040, status="not-afk")]
    buckets = [
        bucket("aw-watcher-window_desk", "currentwindow", "desk", window),
        bucket("aw-watcher-afk_desk", "afkstatus", "desk", afk),
    ]
    for b in buckets:
        b["created"] = "2026-03-01T00:00:00+00:00"
    return write_export(path, *buckets)


@pytest.fixture(params=["export", "aw-server-rust", "corpus"])
def aw_store(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    if request.param == "corpus":
        if not MHACKS.exists():
            pytest.skip(f"corpus not present: {MHACKS}")
        return MHACKS, MHACKS_DAY
    export = aw_export(tmp_path / "aw-buckets-export.json")
    if request.param == "export":
        return export, DAY
    return export_to_sqlite(export, tmp_path / "sqlite.db"), DAY


def cli_context(db: Path, day: str, command: str = "day", fmt: str = "context") -> str:
    args = [command, day, "--db", str(db), "--tz", TZ, "--format", fmt]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "actframes.cli",
            *args,
            *(["--no-cache"] if command == "day" else []),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout


def tools(db: Path, day: str) -> dict[str, Any]:
    async def body(c: Client) -> dict[str, Any]:
        out: dict[str, Any] = {}
        out["summary"] = await c.call_tool("get_day_summary", {"day": day})
        out["context"] = await c.call_tool("get_context", {"day": day})
        doc = (await c.call_tool("get_activity", {"day": day})).structured_content["document"]
        frame_id = max(doc["frames"], key=lambda f: f["active_s"])["id"]
        out["frame"] = await c.call_tool("get_frame", {"frame_id": frame_id, "day": day})
        out["comms"] = await c.call_tool("get_communications", {"day": day})
        return out

    return with_client(db, body)


def test_activitywatch_input_is_not_recorded_rather_than_zero(aw_store: tuple[Path, str]) -> None:
    db, day = aw_store
    r = tools(db, day)
    assert all(not res.is_error for res in r.values()), {k: text(v) for k, v in r.items()}

    summary = r["summary"].structured_content
    assert summary["ledger"] and summary["coverage"]["active_s"] > 0
    assert all(e["keys"] is None and e["clicks"] is None for e in summary["ledger"])
    assert "not recorded" in summary["input"]
    said = text(r["summary"])
    assert "input not recorded by this source" in said
    assert " keys" not in said and " clicks" not in said

    block = r["context"].structured_content["block"]
    assert "coverage " in block and " · input not recorded\n" in block
    assert "input not recorded by this source (- is unknown)" in block.splitlines()[1]
    assert "input events" not in block and "unattributed" not in block
    # The block is the one `actframes day --format context` prints.
    assert block == cli_context(db, day)

    found = r["frame"].structured_content
    assert found["frame"]["input"] is None and "not recorded" in found["input"]
    assert '"input": null' in text(r["frame"])

    surfaces = r["comms"].structured_content["communications"]["surfaces"]
    assert surfaces and all(s["input"] is None for s in surfaces)
    md = cli_context(db, day, "comms", "md")
    assert "input not recorded" in md and " keys" not in md


def test_a_store_that_records_input_keeps_its_counts_and_its_bytes(tmp_path: Path) -> None:
    db = build(tmp_path / "g.db")
    r = tools(db, DAY)
    summary = r["summary"].structured_content
    assert "input" not in summary
    code = next(e for e in summary["ledger"] if e["app"] == "Code")
    assert (code["keys"], code["clicks"]) == (4, 0)
    said = text(r["summary"])
    assert "- Code: 150 s, 4 keys, 0 clicks" in said and "not recorded" not in said
    block = r["context"].structured_content["block"]
    assert block == (GOLDEN / "context.txt").read_text(encoding="utf-8") == cli_context(db, DAY)
    found = r["frame"].structured_content
    assert "input" not in found and isinstance(found["frame"]["input"], dict)
    [slack] = r["comms"].structured_content["communications"]["surfaces"]
    assert slack["input"]["clicks"] == 2
