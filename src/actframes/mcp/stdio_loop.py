"""The server's stdio driven by its event loop, not by worker threads.

The SDK's ``stdio_server`` reads stdin and writes stdout through files whose every line
read, write and flush runs in a worker thread: three thread hops a call, each a wake-up
that waits for a free core on a busy machine (about 0.5 ms of a call's median on a
loaded 2-core machine). When stdin and stdout are pipes or sockets, the same transport
(the SDK's framing, parsing and serialisation) is given streams the event loop reads and
writes itself. Anything else (a file, a terminal, stdout shared with stderr, another
platform) is served by the SDK's default.

As the SDK does, the wire is kept on private descriptors while serving: fd 0 reads the
null device and fd 1 writes to stderr, so stray output never reaches the client; both
are restored afterwards.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from mcp.server.stdio import stdio_server

from .strict import StrictServer

LINE_LIMIT = 1 << 30  # one JSON-RPC message per line, however long (the SDK sets none)


class LoopStdioServer(StrictServer):
    async def run_stdio_async(self) -> None:
        async with loop_stdio() as ends:
            if ends is None:
                await super().run_stdio_async()
                return
            async with stdio_server(*ends) as (read, write):  # type: ignore[arg-type]
                low = self._lowlevel_server
                await low.run(read, write, low.create_initialization_options())


class Lines:
    """stdin's lines as the SDK's transport iterates them (text, newline kept)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader

    def __aiter__(self) -> Lines:
        return self

    async def __anext__(self) -> str:
        line = await self.reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class Out:
    """stdout as the SDK's transport writes it: ``write`` buffers, ``flush`` drains."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer

    async def write(self, text: str) -> None:
        self.writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self.writer.drain()


def _wire(fd: int) -> tuple[int, int] | None:
    """The pipe or socket ``fd`` is (device, inode), or None for anything else."""
    st = os.fstat(fd)
    if stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode):
        return st.st_dev, st.st_ino
    return None


def loop_ready() -> bool:
    """stdin and stdout are pipes or sockets (and stdout is not stderr's), on POSIX."""
    if os.name != "posix":
        return False
    try:
        if sys.stdin.fileno() != 0 or sys.stdout.fileno() != 1:
            return False
        out = _wire(1)
        return _wire(0) is not None and out is not None and out != _wire(2)
    except (AttributeError, OSError, ValueError):
        return False


@asynccontextmanager
async def loop_stdio() -> AsyncIterator[tuple[Lines, Out] | None]:
    """The wire's two ends on the running loop, or None where ``loop_ready`` says no."""
    if not loop_ready():
        yield None
        return
    loop = asyncio.get_running_loop()
    keep_in, keep_out = os.dup(0), os.dup(1)  # put back on fd 0 and 1 afterwards
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    read_t, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(os.dup(0), "rb", buffering=0)
    )
    write_t, write_p = await loop.connect_write_pipe(
        lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()),
        os.fdopen(os.dup(1), "wb", buffering=0),
    )
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:
        yield Lines(reader), Out(asyncio.StreamWriter(write_t, write_p, None, loop))
    finally:
        read_t.close()
        write_t.close()
        for fd, kept in ((0, keep_in), (1, keep_out)):
            with suppress(OSError):
                os.set_blocking(kept, True)  # the loop made the wire non-blocking
                os.dup2(kept, fd)
            os.close(kept)
