"""A real ActivityWatch server (the Python ``aw-server`` from PyPI) for the oracle tests.

It lives in its own virtualenv (aw-server 0.12 pins old Flask, Werkzeug and peewee), made
once and kept in the user's cache folder, keyed by the pinned requirements. The server runs
on 127.0.0.1 on a free port, in testing mode, with its data in a folder of its own, and is
stopped by its PID. ``awtool.py`` (run by that virtualenv) feeds it and asks it queries.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

REQUIREMENTS = (
    "aw-server==0.12.0",
    "aw-client==0.5.15",
    "aw-core==0.5.18",
    "peewee<4",
    "Flask<2.3",
    "Werkzeug<3",
)
TOOL = Path(__file__).with_name("awtool.py")


class AWUnavailable(RuntimeError):
    """The ActivityWatch virtualenv could not be made (no network, no venv module)."""


def venv_dir() -> Path:
    """ACTFRAMES_AW_VENV, else a folder of the user's cache that outlives a test session
    (the tests' own XDG_CACHE_HOME is temporary)."""
    if os.environ.get("ACTFRAMES_AW_VENV"):
        return Path(os.environ["ACTFRAMES_AW_VENV"])
    key = hashlib.sha256("\n".join(REQUIREMENTS).encode()).hexdigest()[:12]
    return Path.home() / ".cache" / "actframes-tests" / f"aw-venv-{key}"


def ensure_venv() -> Path:
    """The virtualenv's python, made (once) when missing. AWUnavailable says what is
    missing: the venv module, a writable cache folder, or PyPI (the network)."""
    root = venv_dir()
    python = root / "bin" / "python"
    stamp = root / ".complete"
    if stamp.exists():
        return python
    steps = [
        (
            [sys.executable, "-m", "venv", "--clear", str(root)],
            f"cannot make a virtualenv in {root} (needs the venv module: apt-get install"
            " python3-venv, and a writable folder: else set ACTFRAMES_AW_VENV)",
        ),
        (
            [str(python), "-m", "pip", "install", "-q", *REQUIREMENTS],
            f"cannot pip install {' '.join(REQUIREMENTS)} into {root} (needs PyPI, that is"
            " the network; or ACTFRAMES_AW_VENV naming a virtualenv that has them)",
        ),
    ]
    for argv, why in steps:
        try:
            res = subprocess.run(argv, capture_output=True, text=True, timeout=900)
        except (OSError, subprocess.SubprocessError) as exc:
            raise AWUnavailable(f"{why}: {exc}") from exc
        if res.returncode != 0:
            lines = (res.stderr or res.stdout).strip().splitlines()
            raise AWUnavailable(f"{why}: {lines[-1] if lines else res.returncode}")
    try:
        stamp.write_text("ok\n")
    except OSError as exc:
        raise AWUnavailable(f"cannot write {stamp}: {exc}") from exc
    return python


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_dir() -> tempfile.TemporaryDirectory[str]:
    """A folder for a server's data: on tmpfs where /dev/shm is a folder we may write (the
    server commits every heartbeat), else in the default temporary folder (a chroot, or a
    container where /dev/shm is root's)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        try:
            return tempfile.TemporaryDirectory(prefix="actframes-aw-", dir=shm)
        except OSError:  # full, read-only, or refused despite its mode
            pass
    return tempfile.TemporaryDirectory(prefix="actframes-aw-")


class AWServer:
    """One running aw-server; ``stop()`` ends it by its PID."""

    def __init__(self, python: Path) -> None:
        self.python = python
        self._tmp = server_dir()
        self.home = Path(self._tmp.name)
        self.env = {
            **os.environ,
            "XDG_DATA_HOME": str(self.home / "data"),
            "XDG_CACHE_HOME": str(self.home / "cache"),
            "XDG_CONFIG_HOME": str(self.home / "config"),
        }
        self._fed: set[str] = set()
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        server = python.parent / "aw-server"
        self._log = (self.home / "server.log").open("wb")
        self.proc = subprocess.Popen(
            [str(server), "--testing", "--host", "127.0.0.1", "--port", str(self.port)],
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self._wait_ready()

    @property
    def db_path(self) -> Path:
        return self.home / "data" / "activitywatch" / "aw-server" / "peewee-sqlite-testing.v2.db"

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"aw-server exited: {self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/0/info", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"aw-server did not answer: {self.log_tail()}")

    def log_tail(self) -> str:
        try:
            return (self.home / "server.log").read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    def _tool(self, *args: str) -> str:
        res = subprocess.run(
            [str(self.python), str(TOOL), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if res.returncode != 0:
            raise RuntimeError(f"awtool {args[0]} failed: {res.stderr[-2000:]}")
        return res.stdout

    def feed(self, scenario: dict[str, Any]) -> None:
        """Send a scenario's heartbeats; one already sent to this server is not sent again
        (tests share the days a module's server holds)."""
        text = json.dumps(scenario, sort_keys=True)
        if text in self._fed:
            return
        path = self.home / "scenario.json"
        path.write_text(text)
        self._tool("feed", str(self.port), str(path))
        self._fed.add(text)

    def oracle(self, start_iso: str, end_iso: str, host: str, *, audible: bool = True) -> Any:
        args = ["query", str(self.port), start_iso, end_iso, host]
        return json.loads(self._tool(*args, *([] if audible else ["--no-audible"])))

    def import_export(self, path: Path) -> None:
        """POST an export to the server's import endpoint (buckets it lacks are made)."""
        req = urllib.request.Request(
            f"{self.url}/api/0/import",
            data=path.read_bytes(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=300) as r:
            r.read()

    def export(self, dest: Path) -> Path:
        with urllib.request.urlopen(f"{self.url}/api/0/export", timeout=60) as r:
            dest.write_bytes(r.read())
        return dest

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()

    def cleanup(self) -> None:
        self.stop()
        self._tmp.cleanup()
