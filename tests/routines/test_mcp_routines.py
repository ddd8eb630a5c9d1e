"""The routine tools of the MCP server, through the SDK's client over stdio."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from actframes.simulate.workflows import simulate_workflows, write_workflows

T = TypeVar("T")
TZ = "Europe/Berlin"
UNTIL = "2026-03-09"


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("mcpr") / "workflows.db"
    return write_workflows(p, simulate_workflows("2026-03-02", 6, TZ, seed=3))


def with_client(db: Path, body: Callable[[Client], Awaitable[T]], *extra: str) -> T:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "actframes.cli", "mcp", "--db", str(db), "--tz", TZ, *extra],
    )

    async def main() -> T:
        async with Client(params, read_timeout_seconds=60) as client:
            return await body(client)

    return asyncio.run(main())


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


def test_list_and_get_routines(history: Path) -> None:
    async def body(c: Client) -> dict[str, Any]:
        out: dict[str, Any] = {"tools": sorted(t.name for t in (await c.list_tools()).tools)}
        out["list"] = await c.call_tool("list_routines", {"days": 7, "until": UNTIL})
        first = out["list"].structured_content["routines"][0]["id"]
        out["get"] = await c.call_tool("get_routine", {"routine_id": first, "until": UNTIL})
        out["missing"] = await c.call_tool("get_routine", {"routine_id": "R0000000000"})
        out["bad_days"] = await c.call_tool("list_routines", {"days": 0})
        out["bad_until"] = await c.call_tool("list_routines", {"until": "2026-02-30"})
        return out

    r = with_client(history, body)
    assert {"list_routines", "get_routine"} <= set(r["tools"])
    assert "replay_routine" not in r["tools"]  # only with the server's opt-in flag
    listed = r["list"].structured_content["routines"]
    assert listed and all(set(h) >= {"id", "title", "slots", "occurrences"} for h in listed)
    assert "Measured activity" in text(r["list"]) and listed[0]["id"] in text(r["list"])
    got = r["get"].structured_content["routine"]
    assert got["id"] == listed[0]["id"] and got["plan"] and got["script"]
    assert all(step["guards"] for step in got["plan"])
    for key in ("missing", "bad_days", "bad_until"):
        res = r[key]
        assert res.is_error, key
        assert "\n" not in text(res).strip()
    assert "R0000000000" in text(r["missing"])
