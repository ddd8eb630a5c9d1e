"""get_context, get_day_summary and get_activity reach the store's thread in one hop: the
SDK awaits them on its event loop (coroutine tools), and they await the store's future,
instead of parking a worker thread of the SDK's on the store; get_activity's JSON text is
kept with its document while the day is unchanged. And the strict server's argument
names follow the tool list."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError

from actframes.api import compile_path
from actframes.capture import store
from actframes.emit.json_out import to_json
from actframes.mcp.server import build_server
from actframes.mcp.tools import NOTICE
from actframes.model import Snapshot

from ..test_golden import build

DAY, TZ = "2026-03-10", "Europe/Berlin"
NOW_MS = 1_773_158_400_000  # 2026-03-10T16:00:00Z


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("one-hop") / "g.db")


def _workers() -> set[str]:
    return {t.name for t in threading.enumerate() if t.name.startswith("AnyIO worker")}


def _calls(db: Path, tool: str, args: dict[str, Any], times: int) -> tuple[list[Any], set[str]]:
    """``tool`` called ``times`` on a fresh server in a fresh event loop: the results and
    the SDK's worker threads that loop started."""
    server = build_server(db, TZ, None, lambda: NOW_MS)
    before = _workers()

    async def main() -> tuple[list[Any], set[str]]:
        out = [await server.call_tool(tool, args) for _ in range(times)]
        return out, _workers() - before

    return anyio.run(main)


def test_get_context_runs_on_the_loop_and_the_store_thread_only(db: Path) -> None:
    results, started = _calls(db, "get_context", {"day": DAY}, 3)
    assert started == set()
    assert all(not r.is_error for r in results)
    assert results[0].content[0].text.startswith(NOTICE)
    assert results[0].content[0].text == f"{NOTICE}\n\n{results[0].structured_content['block']}"
    assert len({r.structured_content["block"] for r in results}) == 1


@pytest.mark.parametrize("tool", ["get_day_summary", "get_activity"])
def test_the_day_tools_run_on_the_loop_and_the_store_thread_only(db: Path, tool: str) -> None:
    results, started = _calls(db, tool, {"day": DAY}, 2)
    assert started == set()
    assert all(not r.is_error for r in results)
    assert results[0].content[0].text == results[1].content[0].text


def test_a_sync_tool_still_runs_in_a_worker_thread(db: Path) -> None:
    # The contrast that shows the check above can fail: a sync tool takes an SDK worker.
    results, started = _calls(db, "get_communications", {"day": DAY}, 1)
    assert started and not results[0].is_error


def test_get_activity_text_is_the_document_and_follows_the_store(tmp_path: Path) -> None:
    path = build(tmp_path / "live.db")
    server = build_server(path, TZ, None, lambda: NOW_MS)

    async def activity() -> tuple[str, Any]:
        got = await server.call_tool("get_activity", {"day": DAY})
        return got.content[0].text, got.structured_content["document"]

    async def main() -> list[tuple[str, Any]]:
        seen = [await activity(), await activity()]
        conn = store.open_store(path)
        store.write_snapshots(conn, [Snapshot(100, 1_773_134_000_000, "Code", "late.py")])
        conn.close()
        return [*seen, await activity()]

    (text1, doc1), (text2, _), (text3, doc3) = anyio.run(main)
    fresh = compile_path(path, DAY, TZ)
    assert text1 == text2 == f"{NOTICE}\n\n{to_json(doc1)}"
    assert text3 != text1 and doc3["coverage"]["rows"] == doc1["coverage"]["rows"] + 1
    assert text3 == f"{NOTICE}\n\n{to_json(fresh)}"


def test_get_context_errors_stay_one_line_tool_errors(tmp_path: Path) -> None:
    server = build_server(tmp_path / "absent.db", TZ, None, lambda: NOW_MS)

    async def main() -> str:
        with pytest.raises(ToolError) as err:
            await server.call_tool("get_context", {"day": DAY})
        return str(err.value)

    message = anyio.run(main)
    assert "no such file" in message and "absent.db" in message
    assert "\n" not in message and "Traceback" not in message


def test_argument_names_follow_tools_added_and_removed(db: Path) -> None:
    server = build_server(db, TZ, None, lambda: NOW_MS)

    def echo(word: str) -> str:
        """Say the word back."""
        return word

    async def main() -> list[str]:
        said = []
        with pytest.raises(ToolError, match="unknown argument budget"):
            await server.call_tool("get_context", {"day": DAY, "budget": 5})
        server.add_tool(echo)  # after the names were taken once
        with pytest.raises(ToolError, match=r"echo: unknown argument loud \(it takes: word\)"):
            await server.call_tool("echo", {"word": "hi", "loud": True})
        said.append((await server.call_tool("echo", {"word": "hi"})).content[0].text)
        server.remove_tool("echo")
        with pytest.raises(ToolError, match="Unknown tool"):
            await server.call_tool("echo", {"word": "hi"})
        return said

    assert anyio.run(main) == ["hi"]
