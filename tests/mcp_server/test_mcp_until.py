"""The MCP tools' `since`/`until`: a bare date is a whole local day, `until` one included
(23 or 25 hours at a DST change); the windows ``Service.window`` resolves for
get_context, get_activity and get_communications, and get_communications end to end
through the SDK's own client over stdio."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.server.mcpserver.exceptions import ToolError

from actframes.mcp.library import Service
from actframes.window import MAX_SPAN_DAYS, Window

from ..builders import ms
from ..test_until_inclusive import BERLIN, build_days, channels, local
from .test_mcp_server import TZ, text, with_client

NOW = local("2026-10-26", BERLIN, 12)  # noon of the day after the 25-hour one
HOUR = 3_600_000


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_days(tmp_path_factory.mktemp("mcp-until") / "days.db")


@pytest.fixture
def svc(db: Path) -> Iterator[Service]:
    service = Service(db, BERLIN, None, lambda: NOW)
    try:
        yield service
    finally:
        service.close()


@pytest.mark.parametrize(
    ("since", "until", "start", "end"),
    [
        ("2026-10-24", "2026-10-25", "2026-10-24T00:00+02:00", "2026-10-26T00:00+01:00"),
        ("2026-10-25", "2026-10-25", "2026-10-25T00:00+02:00", "2026-10-26T00:00+01:00"),
        ("2026-03-29", "2026-03-29", "2026-03-29T00:00+01:00", "2026-03-30T00:00+02:00"),
        ("yesterday", "yesterday", "2026-10-25T00:00+02:00", "2026-10-26T00:00+01:00"),
        ("2026-10-20", "yesterday", "2026-10-20T00:00+02:00", "2026-10-26T00:00+01:00"),
        ("2026-10-25", "2026-10-25T23:05", "2026-10-25T00:00+02:00", "2026-10-25T23:05+01:00"),
        ("2026-10-01", "2026-10-31", "2026-10-01T00:00+02:00", "2026-11-01T00:00+01:00"),
    ],
)
@pytest.mark.parametrize(
    "tool",
    [
        {"default_hours": 2},  # get_context
        {},  # get_activity, get_communications
    ],
)
def test_the_tools_windows(
    svc: Service, tool: dict[str, Any], since: str, until: str, start: str, end: str
) -> None:
    got = svc.window(since=since, until=until, **tool)
    assert got == Window(ms(start), ms(end), BERLIN)


def test_the_25_hour_day_and_the_limit(svc: Service) -> None:
    one = svc.window(since="2026-10-25", until="2026-10-25")
    assert one.end_ms - one.start_ms == 25 * HOUR
    with pytest.raises(ToolError, match=f"^a window may span at most {MAX_SPAN_DAYS} days$"):
        svc.window(since="2026-10-01", until="2026-11-01")
    with pytest.raises(ToolError, match=r"^until must be after since$"):
        svc.window(since="2026-10-25", until="2026-10-24")


def test_get_communications_until_a_date_over_stdio(db: Path) -> None:
    assert TZ == BERLIN  # the server of with_client runs in this zone

    async def body(c: Client) -> dict[str, Any]:
        calls = {
            "two": {"since": "2026-10-24", "until": "2026-10-25"},
            "one": {"since": "2026-10-25", "until": "2026-10-25"},
            "clock": {"since": "2026-10-25", "until": "2026-10-25T23:05"},
            "month": {"since": "2026-10-01", "until": "2026-10-31"},
            "too_long": {"since": "2026-10-01", "until": "2026-11-01"},
            "same_instant": {"since": "2026-10-25T09:00", "until": "2026-10-25T09:00"},
        }
        return {k: await c.call_tool("get_communications", a) for k, a in calls.items()}

    r = with_client(db, body)
    for name in ("two", "one", "clock", "month"):
        assert not r[name].is_error, text(r[name])
    view = {k: r[k].structured_content["communications"] for k in ("two", "one", "clock", "month")}
    assert view["two"]["window"]["end"] == "2026-10-26T00:00:00+01:00"
    assert channels(view["two"]) == {"first (Acme)", "repeated (Acme)", "lastday (Acme)"}
    assert view["one"]["window"]["start"] == "2026-10-25T00:00:00+02:00"
    assert channels(view["one"]) == {"repeated (Acme)", "lastday (Acme)"}
    assert "lastday (Acme)" in text(r["one"]) and "after (Acme)" not in text(r["one"])
    assert view["clock"]["window"]["end"] == "2026-10-25T23:05:00+01:00"
    assert len(channels(view["month"])) == 5
    assert r["too_long"].is_error
    refusal = text(r["too_long"])  # one line, as the SDK reports a tool error
    assert refusal.endswith(f": a window may span at most {MAX_SPAN_DAYS} days")
    assert "\n" not in refusal
    assert r["same_instant"].is_error and "until must be after since" in text(r["same_instant"])
