"""A store that another process locks while the MCP server is serving it: the tool's
error says the store is locked (busy), names the file and asks for a retry, in one line,
and the next call after the lock is released is served. Through the SDK's own client over
stdio, a real writer holding an exclusive lock on a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from actframes.simulate import simulate_day, write_screenpipe

from ..test_golden import build
from .test_mcp_server import DAY, TZ, text, with_client

NEXT_DAY = "2026-03-11"


def _screenpipe(path: Path) -> Path:
    return write_screenpipe(path, simulate_day(DAY, TZ, seed=3, rows=200))


STORES = {"native": build, "screenpipe": _screenpipe}


@pytest.mark.parametrize("family", sorted(STORES))
@pytest.mark.parametrize("tool", ["get_day_summary", "get_context"])
def test_a_lock_taken_between_calls_says_busy_and_names_the_store(
    tmp_path: Path, family: str, tool: str
) -> None:
    db = STORES[family](tmp_path / "store.db")
    holder = sqlite3.connect(db, isolation_level=None)
    # A rollback journal: a writer's exclusive lock keeps readers out (WAL would not).
    assert holder.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"

    async def body(c: Client) -> tuple[Any, Any, Any]:
        first = await c.call_tool(tool, {"day": DAY})
        holder.execute("BEGIN EXCLUSIVE")
        try:  # a day not read yet: the server must read the store, mid-lock
            busy = await c.call_tool(tool, {"day": NEXT_DAY})
        finally:
            holder.execute("ROLLBACK")
        again = await c.call_tool(tool, {"day": NEXT_DAY})
        return first, busy, again

    try:
        first, busy, again = with_client(db, body)
    finally:
        holder.close()
    assert not first.is_error and not again.is_error
    assert busy.is_error
    said = text(busy).strip()
    assert "\n" not in said and "cannot read" not in said
    assert said.endswith(f"{db}: locked by another process; try again"), said


@pytest.mark.parametrize("family", sorted(STORES))
def test_a_store_locked_from_the_start_says_busy_and_names_the_store(
    tmp_path: Path, family: str
) -> None:
    """The lock is held before the server opens the store and through its first read."""
    db = STORES[family](tmp_path / "store.db")
    holder = sqlite3.connect(db, isolation_level=None)
    assert holder.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
    holder.execute("BEGIN EXCLUSIVE")

    async def body(c: Client) -> Any:
        return await c.call_tool("get_context", {"day": DAY})

    try:
        busy = with_client(db, body)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    said = text(busy).strip()
    assert busy.is_error and "\n" not in said and "cannot read" not in said
    assert said.endswith(f"{db}: locked by another process; try again"), said
