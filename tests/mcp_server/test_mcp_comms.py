"""get_communications and get_frame's query, through the SDK's own client over stdio."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from ..test_golden import build
from .test_mcp_server import DAY, text, with_client


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("mcp-comms") / "g.db")


def test_get_communications_and_frame_by_words(db: Path) -> None:
    async def body(c: Client) -> dict[str, Any]:
        out: dict[str, Any] = {}
        out["tools"] = {t.name: t for t in (await c.list_tools()).tools}
        out["comms"] = await c.call_tool("get_communications", {"day": DAY})
        out["frame"] = await c.call_tool(
            "get_frame", {"query": "proxy auth", "day": DAY, "include_steps": True}
        )
        out["nothing"] = await c.call_tool("get_frame", {"query": "zebra", "day": DAY})
        out["both"] = await c.call_tool("get_frame", {"query": "proxy", "frame_id": "F5"})
        out["activity"] = await c.call_tool("get_activity", {"day": DAY})
        return out

    r = with_client(db, body)
    assert "get_communications" in r["tools"]
    assert "query" in r["tools"]["get_frame"].input_schema["properties"]
    comms = r["comms"]
    assert not comms.is_error
    assert "\n[actframes comms · day 2026-03-10" in text(comms)
    view = comms.structured_content["communications"]
    doc = r["activity"].structured_content["document"]
    [slack] = view["surfaces"]
    assert slack["active_s"] == next(e["active_s"] for e in doc["ledger"] if e["app"] == "Slack")
    found = r["frame"]
    assert not found.is_error
    got = found.structured_content
    assert got["frame"]["id"] == got["matches"][0]["id"] == "F5"
    assert got["matches"][0]["day"] == DAY and got["steps"]
    assert r["nothing"].is_error and "no frame in day" in text(r["nothing"])
    assert r["both"].is_error and "one of them" in text(r["both"])
