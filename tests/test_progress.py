"""Progress bars: on stderr when it is a terminal, never on stdout, nothing otherwise
(pipes, CI, the MCP server)."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from actframes import progress

from .builders import cli_env


def run_with_tty_stderr(args: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    """Run the CLI with stderr on a pseudo-terminal and stdout on a pipe."""
    master, slave = pty.openpty()
    # A terminal of 24 rows and 100 columns (a fresh pseudo-terminal has no size).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "actframes.cli", *args],
        stdout=subprocess.PIPE,
        stderr=slave,
        cwd=cwd,
        env=cli_env(TZ="UTC"),
    )
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    out = proc.stdout.read() if proc.stdout else b""
    code = proc.wait(timeout=300)
    os.close(master)
    return code, out, err


def test_demo_shows_a_bar_on_a_terminal_only(tmp_path: Path) -> None:
    (tmp_path / "tty").mkdir()
    (tmp_path / "pipe").mkdir()
    code, out, err = run_with_tty_stderr(["demo", "--days", "2"], tmp_path / "tty")
    assert code == 0, err
    assert b"demo, 2 days" in err and b"\r" in err  # a bar, redrawn in place
    assert b"demo, 2 days" not in out and b"\r" not in out
    piped = subprocess.run(
        [sys.executable, "-m", "actframes.cli", "demo", "--days", "2"],
        cwd=tmp_path / "pipe",
        env=cli_env(TZ="UTC"),
        capture_output=True,
        timeout=300,
    )
    assert piped.returncode == 0 and piped.stderr == b""
    # The output itself is the same either way (but for the folder it names).
    assert piped.stdout.replace(b"/pipe/", b"/tty/") == out


def test_off_when_quieted_or_asked() -> None:
    mp = pytest.MonkeyPatch()
    try:

        class Tty:
            def isatty(self) -> bool:
                return True

            def write(self, text: str) -> int:
                return len(text)

            def flush(self) -> None:
                pass

        mp.setattr(sys, "stderr", Tty())
        mp.setattr(progress, "_quiet", False)
        mp.delenv("ACTFRAMES_PROGRESS", raising=False)
        assert progress.enabled()
        mp.setenv("ACTFRAMES_PROGRESS", "0")
        assert not progress.enabled()
        mp.delenv("ACTFRAMES_PROGRESS")
        progress.quiet()  # what `actframes mcp` does first
        assert not progress.enabled()
        assert list(progress.bar([1, 2, 3], "x")) == [1, 2, 3]
    finally:
        mp.undo()
