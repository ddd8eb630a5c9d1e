"""Several days over MCP, through the SDK's own client over stdio: get_context and
get_activity over a span of days answer with the period (the same bytes as the period
made here from each day's own document), compare_to adds the comparison, and a warm
server follows a change to one day of the period."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from actframes.api import open_store
from actframes.compile.period import period_document
from actframes.compile.period_compare import compare
from actframes.emit.json_out import to_json
from actframes.emit.period_context import to_period_context
from actframes.periods import Span, day_windows
from actframes.simulate.workflows import simulate_workflows, write_workflows

from .test_mcp_server import text

TZ = "Europe/Berlin"
FIRST, LAST = "2026-11-16", "2026-11-29"  # two ISO weeks: 2026-W47 and 2026-W48
WEEK, PREVIOUS = Span("2026-11-23", "2026-11-29"), Span("2026-11-16", "2026-11-22")
WEEK_ARGS = {"since": WEEK.since, "until": WEEK.until}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    history = simulate_workflows(FIRST, 14, TZ, seed=7, every_day=True, fill_workday=True)
    return write_workflows(tmp_path_factory.mktemp("mcp-period") / "sp.db", history)


def _period(db: Path, span: Span) -> Any:
    """The period made here, day by day from each day's own document (no cache)."""
    with open_store(db, disk_cache=False) as store:
        docs = [store.compile(w) for w in day_windows(span, TZ)]
    return period_document(list(zip(span.days(), docs, strict=True)))


def _serve(db: Path, cache: Path, body: Callable[[Client], Awaitable[Any]]) -> Any:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "actframes.cli", "mcp", "--db", str(db), "--tz", TZ],
        env={"ACTFRAMES_CACHE": str(cache), "PATH": "/usr/bin:/bin"},
    )

    async def main() -> Any:
        async with Client(params, read_timeout_seconds=120) as client:
            return await body(client)

    return asyncio.run(main())


def _block(result: Any) -> str:
    block: str = result.structured_content["block"]
    return block


def test_a_span_of_days_is_the_period_of_its_days(db: Path, tmp_path: Path) -> None:
    week = {"since": WEEK.since, "until": WEEK.until}

    async def body(c: Client) -> dict[str, Any]:
        return {
            "context": await c.call_tool("get_context", week),
            "again": await c.call_tool("get_context", week),
            "small": await c.call_tool("get_context", {**week, "budget_tokens": 600}),
            "activity": await c.call_tool("get_activity", week),
            "one day": await c.call_tool("get_context", {"since": LAST, "until": LAST}),
            "day": await c.call_tool("get_context", {"day": LAST}),
            "compare": await c.call_tool("get_context", {**week, "compare_to": "previous"}),
            "named": await c.call_tool("get_activity", {**week, "compare_to": "2026-W47"}),
        }

    r = _serve(db, tmp_path / "cache", body)
    period = _period(db, WEEK)
    expected = to_period_context(period, 2000)
    got = r["context"].structured_content
    assert got["kind"] == "period" and got["budget_tokens"] == 2000
    assert got["window"] == period["window"]
    assert _block(r["context"]) == expected == _block(r["again"])
    assert _block(r["small"]) == to_period_context(period, 600)
    # every day of the week has its line, the block is said to be measured
    for d in period["days"]:
        assert f"\n- {d['day'][5:]} {d['weekday']} · " in expected
    assert text(r["context"]).endswith(expected)
    # get_activity: the period document, its JSON the text
    assert r["activity"].structured_content["period"] == period
    assert text(r["activity"]).endswith(to_json(period))
    # one whole day asked as a span is that day's own block
    assert _block(r["one day"]) == _block(r["day"])
    assert r["one day"].structured_content["kind"] == "day"
    # compare_to: both weeks per app, this minus the other
    want = compare(period, _period(db, PREVIOUS))
    assert r["compare"].structured_content["comparison"] == want
    assert _block(r["compare"]).startswith(expected)
    assert "\ncompare 2026-11-23..2026-11-29 (2026-11-23..2026-11-29) vs" in _block(r["compare"])
    for row in want["apps"]:
        assert row["diff_s"] == row["active_s"] - row["vs_s"]
    assert r["named"].structured_content["comparison"] == want


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"hours": 50, "compare_to": "previous"}, "compare_to needs whole days"),
        ({**WEEK_ARGS, "compare_to": "soon"}, "compare_to: not a period"),
        ({**WEEK_ARGS, "compare_to": "2026-W99"}, "no such ISO week"),
        ({"since": "2026-10-01", "until": "2026-11-29"}, "at most 31 days"),
    ],
)
def test_bad_period_arguments_are_one_line_tool_errors(
    db: Path, tmp_path: Path, args: dict[str, Any], message: str
) -> None:
    async def body(c: Client) -> Any:
        return await c.call_tool("get_context", args)

    got = _serve(db, tmp_path / "cache", body)
    assert got.is_error
    assert message in text(got) and "\n" not in text(got).strip()


def test_a_warm_period_follows_a_change_to_one_of_its_days(db: Path, tmp_path: Path) -> None:
    store = tmp_path / "sp.db"
    store.write_bytes(db.read_bytes())
    week = {"since": WEEK.since, "until": WEEK.until}

    async def body(c: Client) -> dict[str, Any]:
        before = await c.call_tool("get_context", week)
        # An edit in the past: the frames of the week's Wednesday are gone.
        with closing(sqlite3.connect(store)) as conn, conn:
            conn.execute("DELETE FROM frames WHERE timestamp LIKE '2026-11-25%'")
        after = await c.call_tool("get_context", week)
        return {"before": before, "after": after}

    r = _serve(store, tmp_path / "cache", body)
    assert _block(r["before"]) == to_period_context(_period(db, WEEK), 2000)
    fresh = to_period_context(_period(store, WEEK), 2000)
    assert _block(r["after"]) == fresh != _block(r["before"])
