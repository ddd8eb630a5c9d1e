"""Warm MCP servers: ``get_context`` latency on a server that already answered once.

Used by ``benchmarks/run.py`` (benchmarks ``warm-*`` and ``today-append``). Ours is
``actframes mcp`` driven by the official SDK client over stdio; the reference's server
(``aframes mcp``, line-delimited JSON-RPC on stdio) is driven with plain pipes. Both
are timed from the request to the whole answer.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

WARM_CALLS = 3  # untimed: imports, vocabulary, the first compile


class RefServer:
    """The reference's hand-rolled MCP server on a database, one request at a time."""

    def __init__(self, aframes: Path, db: Path, tz: str) -> None:
        env = {**os.environ, "TZ": tz, "AFRAMES_DB": str(db)}
        self.proc = subprocess.Popen(
            [str(aframes), "mcp", "--db", str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        self.next_id = 0
        self.call("initialize", {"protocolVersion": "2024-11-05", "capabilities": {}})

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        req = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        if "error" in answer:
            raise RuntimeError(f"reference server: {answer['error']}")
        return answer

    def context(self, hours: float) -> None:
        self.call("tools/call", {"name": "get_context", "arguments": {"hours": hours}})

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def measure(
    db: Path,
    tz: str,
    args: dict[str, Any],
    runs: int,
    cache_dir: Path,
    ref: Callable[[], None] | None = None,
    between: Callable[[], None] | None = None,
    server_cpu: list[float] | None = None,
    client_cpu: list[float] | None = None,
) -> tuple[list[float], list[float]]:
    """Latencies (s) of ``runs`` get_context calls on our warm server, and of the
    reference's call ``ref`` in alternating pairs when given. ``between`` runs before
    each of our calls, untimed (a writer's step). ``server_cpu`` receives our server's
    CPU time (user + system, s) per timed call, on average, where the system tells it
    (Linux): unlike the latency, it hardly moves with the machine's load. ``client_cpu``
    receives this process's CPU time per timed call of ours, on average: the official
    client's own part of each call (building the request, parsing and checking the
    answer), which an agent waits for too."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "actframes.cli", "mcp", "--db", str(db), "--tz", tz],
        env={**os.environ, "ACTFRAMES_CACHE": str(cache_dir)},
    )

    async def run() -> tuple[list[float], list[float]]:
        ours: list[float] = []
        theirs: list[float] = []
        mine: list[float] = []  # this process's CPU in each of our calls
        async with Client(server, read_timeout_seconds=120) as client:

            async def one() -> None:
                if between is not None:
                    between()
                c0, t0 = time.process_time(), time.perf_counter()
                result = await client.call_tool("get_context", args)
                ours.append(time.perf_counter() - t0)
                mine.append(time.process_time() - c0)
                if result.is_error:
                    raise RuntimeError(f"get_context failed: {result.content}")

            def other() -> None:
                assert ref is not None
                t0 = time.perf_counter()
                ref()
                theirs.append(time.perf_counter() - t0)

            for _ in range(WARM_CALLS):
                await client.call_tool("get_context", args)
                if ref is not None:
                    ref()
            cpu_before = _children_cpu_s("actframes.cli")
            for i in range(runs):
                if ref is None:
                    await one()
                elif i % 2 == 0:
                    await one()
                    other()
                else:
                    other()
                    await one()
            cpu_after = _children_cpu_s("actframes.cli")
            if server_cpu is not None and cpu_before is not None and cpu_after is not None:
                server_cpu.append((cpu_after - cpu_before) / runs)
            if client_cpu is not None:
                client_cpu.append(sum(mine) / runs)
        return ours, theirs

    return asyncio.run(run())


def _children_cpu_s(marker: str) -> float | None:
    """CPU time (user + system, s) of this process's children whose command line holds
    ``marker``, from /proc (in clock ticks: only sums over many calls are meaningful);
    None where there is no /proc."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != os.getpid():  # the parent's pid
                continue
            if marker not in (entry / "cmdline").read_bytes().decode(errors="replace"):
                continue
        except (OSError, IndexError, ValueError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


class Appender:
    """A recorder's stand-in: one more row at the end of today every ``step`` call, in
    the store's own table (screenpipe-style ``frames`` or native ``snapshots``), each
    committed on its own connection, as the recorder does."""

    def __init__(self, db: Path, family: str, start_ms: int) -> None:
        self.conn = sqlite3.connect(db, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.family = family
        self.ts = start_ms
        self.lock = threading.Lock()

    def step(self) -> None:
        from actframes.simulate.writers import format_ts

        self.ts += 1_000
        if self.family == "native":
            self.conn.execute(
                "INSERT INTO snapshots (ts_ms, device, app, title) VALUES (?, '', 'Code', 'x')",
                (self.ts,),
            )
        else:
            self.conn.execute(
                "INSERT INTO frames (video_chunk_id, offset_index, timestamp, name, app_name,"
                " window_name, focused, device_name) VALUES (1, 0, ?, 'v.mp4', 'Code', 'x', 1, '')",
                (format_ts(self.ts),),
            )

    def close(self) -> None:
        self.conn.close()
