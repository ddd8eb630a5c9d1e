"""`today` and `yesterday` as a tool's `day` or `until`, resolved in the server's zone
when the call comes, through the SDK's own client over stdio."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from mcp import Client

from actframes.capture import store
from actframes.model import Snapshot

from ..test_golden import build
from .test_mcp_server import TZ, text, with_client


def local_date() -> date:
    """The server's local date, read apart from the server (its zone is ``TZ``)."""
    return datetime.now(ZoneInfo(TZ)).date()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The golden day, and a row one minute ago so that today has something in it."""
    path = build(tmp_path_factory.mktemp("mcp-words") / "g.db")
    conn = store.open_store(path)
    now = int(datetime.now(ZoneInfo(TZ)).timestamp() * 1000)
    store.write_snapshots(conn, [Snapshot(5000, now - 60_000, "Code", "today.py")])
    conn.close()
    return path


def test_today_and_yesterday_are_the_servers_local_days(db: Path) -> None:
    async def body(c: Client) -> tuple[date, dict[str, Any], date]:
        before = local_date()
        out: dict[str, Any] = {}
        out["summary"] = await c.call_tool("get_day_summary", {"day": "today"})
        out["context"] = await c.call_tool("get_context", {"day": "Today"})
        out["activity"] = await c.call_tool("get_activity", {"day": "yesterday"})
        out["comms"] = await c.call_tool("get_communications", {"day": "YESTERDAY"})
        out["search"] = await c.call_tool(
            "search_activity", {"query": "code", "days": 1, "until": "today"}
        )
        out["patterns"] = await c.call_tool("get_patterns", {"days": 2, "until": "yesterday"})
        out["routines"] = await c.call_tool("list_routines", {"days": 3, "until": "today"})
        out["frame"] = await c.call_tool("get_frame", {"frame_id": "F999", "day": "yesterday"})
        out["prompt"] = await c.get_prompt("recap_day", {"day": "today"})
        out["resource"] = await c.read_resource("actframes://day/yesterday")
        after = local_date()
        # The same days asked for by their dates, for the bytes to compare with.
        for d in {before, after}:
            out[f"summary {d}"] = await c.call_tool("get_day_summary", {"day": d.isoformat()})
            y = (d - timedelta(days=1)).isoformat()
            out[f"activity {y}"] = await c.call_tool("get_activity", {"day": y})
        return before, out, after

    before, r, after = with_client(db, body)
    for key in ("summary", "context", "activity", "comms", "search", "patterns", "routines"):
        assert not r[key].is_error, (key, text(r[key]))
    days = {before.isoformat(), after.isoformat()}  # a call across midnight is either
    yesterdays = {(d - timedelta(days=1)).isoformat() for d in (before, after)}

    summary = r["summary"].structured_content
    today = summary["window"]["day"]
    assert today in days
    assert summary == r[f"summary {today}"].structured_content
    if today == after.isoformat() == before.isoformat():
        assert summary["coverage"]["rows"] == 1  # the row written a minute ago
    assert r["context"].structured_content["window"]["day"] in days
    doc = r["activity"].structured_content["document"]
    assert doc["window"]["day"] in yesterdays
    assert doc == r[f"activity {doc['window']['day']}"].structured_content["document"]
    assert r["comms"].structured_content["communications"]["window"]["day"] in yesterdays
    assert {h["day"] for h in r["search"].structured_content["hits"]} <= days
    assert r["patterns"].structured_content["last"] in yesterdays
    assert any(f"Recap what I did on {d}," in r["prompt"].messages[0].content.text for d in days)
    assert json.loads(r["resource"].contents[0].text)["window"]["day"] in yesterdays
    assert r["frame"].is_error
    assert any(f"no frame F999 in day {y}" in text(r["frame"]) for y in yesterdays)


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        (
            "get_day_summary",
            {"day": "tomorrow"},
            "day: not a date (YYYY-MM-DD, today or yesterday)",
        ),
        ("get_context", {"day": "2026-13-45"}, "day: no such date: '2026-13-45'"),
        ("get_activity", {"day": " today"}, "day: not a date"),
        ("get_frame", {"frame_id": "F1", "day": "now"}, "day: not a date"),
        ("search_activity", {"query": "x", "until": "last week"}, "until: not a date"),
        ("get_patterns", {"until": "2026-02-30"}, "until: no such date"),
        ("list_routines", {"until": "todays"}, "until: not a date"),
    ],
)
def test_a_bad_day_is_a_one_line_error_naming_the_argument(
    db: Path, tool: str, args: dict[str, Any], message: str
) -> None:
    async def body(c: Client) -> Any:
        return await c.call_tool(tool, args)

    bad = with_client(db, body)
    assert bad.is_error and message in text(bad) and "\n" not in text(bad).strip()


def test_the_schemas_say_which_days_are_taken(db: Path) -> None:
    async def body(c: Client) -> dict[str, dict[str, Any]]:
        return {t.name: t.input_schema for t in (await c.list_tools()).tools}

    schemas = with_client(db, body)
    described = {
        (tool, name): p
        for tool, s in schemas.items()
        for name, p in s["properties"].items()
        if name in ("day", "until") and "today or yesterday" in str(p)
    }
    takes_day = {(tool, "day") for tool, s in schemas.items() if "day" in s["properties"]}
    assert takes_day and takes_day <= set(described)
    for tool in ("search_activity", "get_patterns", "list_routines", "get_routine"):
        assert (tool, "until") in described
