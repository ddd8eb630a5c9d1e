"""Projects over MCP, through the SDK's own client over stdio: get_projects per day with
frame ids, the context block's projects lines, and the server reading --projects."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from ..test_golden import build
from .test_mcp_server import DAY, TZ, text

RULES = """
[[project]]
name = "Team chat"
[[project.match]]
app = "^slack$"
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("mcp-projects") / "g.db")


def _serve(db: Path, rules: Path, body: Any) -> Any:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "actframes.cli", "mcp", "--db", str(db), "--tz", TZ, "--projects", str(rules)],
    )

    async def main() -> Any:
        async with Client(params, read_timeout_seconds=60) as client:
            return await body(client)

    return asyncio.run(main())


def test_get_projects_and_the_block_agree_with_the_document(db: Path, tmp_path: Path) -> None:
    rules = tmp_path / "projects.toml"
    rules.write_text(RULES, encoding="utf-8")

    async def body(c: Client) -> dict[str, Any]:
        return {
            "tools": {t.name for t in (await c.list_tools()).tools},
            "projects": await c.call_tool("get_projects", {"day": DAY}),
            "span": await c.call_tool("get_projects", {"since": DAY, "until": "2026-03-11"}),
            "both": await c.call_tool("get_projects", {"day": DAY, "since": DAY}),
            "context": await c.call_tool("get_context", {"day": DAY, "budget_tokens": 300}),
            "activity": await c.call_tool("get_activity", {"day": DAY}),
        }

    r = _serve(db, rules, body)
    assert "get_projects" in r["tools"]
    doc = r["activity"].structured_content["document"]
    got = r["projects"].structured_content
    names = {p["name"]: p for p in got["projects"]}
    # The user's rule claims Slack; the built-ins find the workspace and the repository.
    assert set(names) == {e["name"] for e in doc["projects"]["entries"]}
    assert {"Team chat", "actframes", "requests"} <= set(names)
    for e in doc["projects"]["entries"]:
        day = names[e["name"]]["days"][DAY]
        assert day == {"active_s": e["active_s"], "frames": e["frames"]}
    total = sum(p["active_s"] for p in got["projects"]) + got["unassigned"]["active_s"]
    assert total == got["total_s"] == doc["coverage"]["active_s"]
    assert got["rules"] == "built-in + projects.toml"
    # A span: the second day holds nothing here, and is listed with nothing.
    span = r["span"].structured_content
    assert span["since"] == DAY and span["until"] == "2026-03-11"
    assert span["total_s"] == got["total_s"]
    assert r["both"].is_error and "not both" in text(r["both"])
    # The block keeps the projects with the ledger even at a small budget.
    block = r["context"].structured_content["block"]
    assert "projects (project · active · input · frames) · rules built-in + projects.toml" in block
    assert "\n- Team chat · " in block and "\ncategories (category · active · input)" in block


def test_a_bad_rules_file_stops_the_server_with_one_line(db: Path, tmp_path: Path) -> None:
    bad = tmp_path / "projects.toml"
    bad.write_text('[[project]]\nname = "x"\n[[project.match]]\nwhere = "y"\n', encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "actframes.cli", "mcp", "--db", str(db), "--projects", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert f"{bad}:4: project 'x': match 1: unknown field 'where'" in proc.stderr
