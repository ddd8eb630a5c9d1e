"""stdio on the server's event loop (``mcp/stdio_loop.py``): taken when stdin and stdout
are pipes apart from stderr, the SDK's default otherwise; either way the wire carries
only the protocol (what a tool prints goes to stderr) and long lines pass whole."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from ..test_golden import build

DAY, TZ = "2026-03-10", "Europe/Berlin"

# A server with one more tool that writes to stdout and reads stdin, as a careless
# library might while the server serves.
NOISY = """
import sys
from actframes.mcp.server import build_server

server = build_server(sys.argv[1], "Europe/Berlin", None, lambda: 1_773_158_400_000)

def shout(word: str) -> str:
    '''Print the word, read a line, say the word back.'''
    print("stray " + word, flush=True)
    return word + " " + repr(sys.stdin.readline())

server.add_tool(shout)
server.run()
"""

READY = (
    "import sys; from actframes.mcp.stdio_loop import loop_ready; "
    "print(loop_ready(), file=sys.stderr)"
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("stdio") / "g.db")


def test_what_a_tool_prints_goes_to_stderr_not_to_the_wire(db: Path, tmp_path: Path) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-c", NOISY, str(db)])
    errlog = tmp_path / "stderr.txt"

    async def main() -> list[Any]:
        with errlog.open("w") as err:
            async with Client(stdio_client(params, errlog=err), read_timeout_seconds=60) as c:
                return [
                    await c.call_tool("shout", {"word": "hello"}),
                    await c.call_tool("get_context", {"day": DAY}),
                    await c.call_tool("shout", {"word": "again"}),
                ]

    first, context, again = asyncio.run(main())
    assert [first.content[0].text, again.content[0].text] == ["hello ''", "again ''"]
    assert not context.is_error and "Code" in context.structured_content["block"]
    assert errlog.read_text().splitlines()[:2] == ["stray hello", "stray again"]


@pytest.mark.parametrize(
    ("stdin", "stdout", "stderr", "ready"),
    [
        ("pipe", "pipe", "pipe", "True"),
        ("file", "pipe", "pipe", "False"),
        ("pipe", "file", "pipe", "False"),
        ("pipe", "pipe", "stdout", "False"),  # stray output would share the wire's pipe
    ],
)
def test_the_loop_serves_pipes_apart_from_stderr_only(
    tmp_path: Path, stdin: str, stdout: str, stderr: str, ready: str
) -> None:
    (tmp_path / "in.txt").write_text("")
    with (tmp_path / "in.txt").open("rb") as fin, (tmp_path / "out.txt").open("wb") as fout:
        done = subprocess.run(
            [sys.executable, "-c", READY],
            stdin=fin if stdin == "file" else subprocess.PIPE,
            stdout=fout if stdout == "file" else subprocess.PIPE,
            stderr=subprocess.STDOUT if stderr == "stdout" else subprocess.PIPE,
            timeout=60,
            check=True,
        )
    said = done.stdout if stderr == "stdout" else done.stderr
    assert said.decode().strip() == ready


def _session(lines: list[dict[str, Any]]) -> bytes:
    first = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    rest = [{"jsonrpc": "2.0", "method": "notifications/initialized"}, *lines]
    return b"".join(json.dumps(m).encode() + b"\n" for m in [first, *rest])


def _two_answers(proc: subprocess.Popen[bytes], out: Path | None) -> list[Any]:
    """The first two lines the server writes (to its pipe, or to the file ``out``)."""
    if out is None:
        assert proc.stdout is not None
        return [json.loads(proc.stdout.readline()) for _ in range(2)]
    deadline = time.monotonic() + 60
    while out.read_bytes().count(b"\n") < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    return [json.loads(line) for line in out.read_bytes().splitlines()[:2]]


# Stdout a file: served by the SDK's default (stdin stays open until both answers are
# out: at the end of input the SDK cancels the requests in flight, as its callers are gone).
@pytest.mark.parametrize("stdout", ["pipe", "file"])
def test_a_line_longer_than_a_pipe_buffer_is_read_whole(
    db: Path, tmp_path: Path, stdout: str
) -> None:
    long_query = "é" * 150_000  # 300 kB of UTF-8 on one line
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "get_context", "arguments": {"day": DAY, "budget": long_query}},
    }
    cmd = [sys.executable, "-m", "actframes.cli", "mcp", "--db", str(db), "--tz", TZ]
    out = tmp_path / "out.jsonl" if stdout == "file" else None
    with (tmp_path / "out.jsonl").open("wb") as fout:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=fout if out is not None else subprocess.PIPE
        )
        assert proc.stdin is not None
        proc.stdin.write(_session([call]))
        proc.stdin.flush()
        answers = _two_answers(proc, out)
        proc.stdin.close()  # end of input: the server ends
        assert proc.wait(timeout=60) == 0
    assert answers[0]["id"] == 1 and answers[0]["result"]["serverInfo"]["name"] == "actframes"
    result = answers[1]["result"]
    assert answers[1]["id"] == 2 and result["isError"]
    assert "get_context: unknown argument budget" in result["content"][0]["text"]
