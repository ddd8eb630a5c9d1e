"""A real X session for recorder tests: Xvfb (+ openbox), windows, xdotool, the recorder.

Every process started here runs in its own process group and is ended by its pid (its
group id) in teardown; nothing is ever killed by name. Waits are bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
GTK_APP = HERE / "gtk_app.py"
SYSTEM_PYTHON = "/usr/bin/python3"


# CI sets this so a lost install step fails the X tests instead of skipping them.
REQUIRE_X = bool(os.environ.get("ACTFRAMES_REQUIRE_X"))


def skip_or_fail(reason: str) -> None:
    if REQUIRE_X:
        pytest.fail(f"{reason} (ACTFRAMES_REQUIRE_X is set)")
    pytest.skip(reason)


# The Debian package of each program a session runs, so a skip says what to install.
PACKAGES = {
    "Xvfb": "xvfb",
    "xprop": "x11-utils",
    "dbus-daemon": "dbus",
    "/usr/libexec/at-spi-bus-launcher": "at-spi2-core",
    SYSTEM_PYTHON: "python3",
    "swaymsg": "sway",
    "setpriv": "util-linux",
    "unshare": "util-linux",
}


def install_hint(*tools: str) -> str:
    """What a skip says: the programs missing and the apt-get line that brings them."""
    packages = dict.fromkeys(PACKAGES.get(t, t) for t in tools)
    return f"needs {', '.join(tools)}: apt-get install {' '.join(packages)}"


def need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None and not Path(t).exists()]
    if missing:
        skip_or_fail(install_hint(*missing))
    for module in ("Xlib", "dbus_fast"):
        try:
            __import__(module)
        except ImportError:
            skip_or_fail(f"python module {module} missing: pip install -e '.[capture]'")


def wait_for(what: str, check: Callable[[], Any], timeout: float = 10.0, step: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(step)


def end_process(proc: subprocess.Popen[Any], grace: float = 3.0) -> None:
    """SIGTERM the process group we started (by its id), then SIGKILL if it lingers."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(grace)
    else:
        # The leader is gone; its group may still hold children (browsers, bus daemons).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


def spawn_into(
    procs: list[subprocess.Popen[Any]], argv: list[str], log: Path | None, env: dict[str, str]
) -> subprocess.Popen[Any]:
    """Start a process of the test's own user in a process group of its own (so it is
    ended by its id), its output appended to ``log`` or dropped, and add it to ``procs``."""
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        argv,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=out if log else subprocess.DEVNULL,
        start_new_session=True,
    )
    procs.append(proc)
    return proc


class XSession:
    def __init__(self, tmp: Path, *, wm: bool = True, xvfb_args: tuple[str, ...] = ()) -> None:
        # xprop tells when openbox manages the screen; one skip names all that is missing.
        need("Xvfb", "xdotool", "xterm", *(("openbox", "xprop") if wm else ()))
        self.tmp = tmp
        self.procs: list[subprocess.Popen[Any]] = []
        read_fd, write_fd = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24",
             "-nolisten", "tcp", "-noreset", *xvfb_args],
            pass_fds=(write_fd,),
            stdout=subprocess.DEVNULL,
            stderr=open(tmp / "xvfb.log", "wb"),  # noqa: SIM115 - lives with the process
            start_new_session=True,
        )  # fmt: skip
        os.close(write_fd)
        number = b""
        deadline = time.monotonic() + 15
        os.set_blocking(read_fd, False)
        while not number.endswith(b"\n"):
            if time.monotonic() > deadline or self.xvfb.poll() is not None:
                os.close(read_fd)
                end_process(self.xvfb)
                raise AssertionError("Xvfb did not start (see xvfb.log)")
            try:
                chunk = os.read(read_fd, 16)
            except BlockingIOError:
                time.sleep(0.02)
                continue
            number += chunk
        os.close(read_fd)
        self.display = ":" + number.decode().strip()
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_SESSION_TYPE")
        }
        self.env.update(
            DISPLAY=self.display,
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CONFIG_HOME=str(tmp / "config"),
            XDG_DATA_HOME=str(tmp / "data"),
            TZ="UTC",
            NO_AT_BRIDGE="1",  # GTK apps join the accessibility bus only where a test asks
        )
        self.wm: subprocess.Popen[Any] | None = None
        if wm:
            self.wm = self.spawn(["openbox", "--sm-disable"], log="openbox.log")
            wait_for("openbox", self._wm_ready, 15)

    # ---------------------------------------------------------------- processes

    def spawn(
        self, argv: list[str], *, log: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.Popen[Any]:
        return spawn_into(self.procs, argv, self.tmp / log if log else None, env or self.env)

    def close(self) -> None:
        for proc in reversed(self.procs):
            end_process(proc)
        end_process(self.xvfb)

    def _wm_ready(self) -> bool:
        out = self.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], check=False)
        return "window id" in out

    def run(self, argv: list[str], *, check: bool = True, timeout: float = 15) -> str:
        res = subprocess.run(
            argv, env=self.env, capture_output=True, text=True, timeout=timeout, check=False
        )
        if check and res.returncode != 0:
            raise AssertionError(f"{argv} failed ({res.returncode}): {res.stderr.strip()}")
        return res.stdout

    def xdotool(self, *args: str) -> str:
        return self.run(["xdotool", *args]).strip()

    # ---------------------------------------------------------------- windows

    def xterm(self, klass: str, title: str) -> int:
        self.spawn(["xterm", "-class", klass, "-T", title, "-geometry", "60x10"])
        # The window manager focuses a new window when it maps it, which under load can
        # come after the test has focused another one: wait for that here, so a later
        # activate() is never undone by it. Without one, nothing focuses it, and the
        # input focus can be given to it only once it is mapped (X answers BadMatch to a
        # window not yet viewable, which xterm names before it maps it): wait for that.
        if self.wm is not None:
            wid = self.wait_window(title)
            self.activate(wid)
        else:
            wid = self.wait_window(title, viewable=True)
        return wid

    def wait_window(self, title: str, timeout: float = 15, *, viewable: bool = False) -> int:
        """The id of the window named ``title`` (and mapped, when ``viewable``)."""
        only = ["--onlyvisible"] if viewable else []

        def find() -> int:
            out = self.run(["xdotool", "search", *only, "--name", f"^{title}$"], check=False)
            ids = [int(x) for x in out.split()]
            return ids[0] if ids else 0

        return int(wait_for(f"a window named {title!r}", find, timeout))

    def activate(self, wid: int) -> None:
        """Focus the window. Under load the window manager may take a while to act, and
        ``getactivewindow`` fails while no window is active: both are asked again until
        the window has the focus, not taken as failures."""

        def focused() -> bool:
            if self.run(["xdotool", "getactivewindow"], check=False).strip() == str(wid):
                return True
            self.run(["xdotool", "windowactivate", str(wid)], check=False)
            return False

        wait_for(f"focus on window {wid}", focused, 15, step=0.1)

    # ---------------------------------------------------------------- the recorder

    def recorder(self, db: Path, *args: str, env: dict[str, str] | None = None) -> Recorder:
        return Recorder(self, db, list(args), env or self.env)


class Recorder:
    """``actframes record run`` in a subprocess, ready when its pidfile names it."""

    def __init__(self, xs: XSession, db: Path, args: list[str], env: dict[str, str]) -> None:
        self.db = db
        self.state = Path(env["XDG_STATE_HOME"]) / "actframes"
        self.log = xs.tmp / "recorder.log"
        self.proc = xs.spawn(
            record_argv("run", "--db", str(db), *args), log="recorder.log", env=env
        )

    def wait_ready(self, timeout: float = 20) -> None:
        from actframes.capture.daemon import running_pid

        def ready() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"the recorder exited early: {self.log.read_text()}")
            return running_pid(self.state) == self.proc.pid

        wait_for("the recorder to be ready", ready, timeout)

    def stop(self, timeout: float = 15) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def record_argv(*args: str) -> list[str]:
    """``actframes record ARGS``."""
    return [sys.executable, "-m", "actframes.cli", "record", *args]


def actframes_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "actframes.cli", *args]


def day_doc(db: Path, day: str) -> dict[str, Any]:
    """The document ``actframes day`` compiles from the store for a UTC day, as JSON."""
    out = subprocess.run(
        actframes_argv("day", day, "--db", str(db), "--tz", "UTC", "--format", "json"),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    return dict(json.loads(out))


def rows(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    conn = sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def sound_titles(db: Path) -> set[str]:
    """The snapshot titles of a store its recorder left, even by being killed (opened
    read-write: SQLite recovers a killed writer's WAL), once the file is checked sound."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return {r[0] for r in conn.execute("SELECT title FROM snapshots")}
    finally:
        conn.close()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def mid(action: Callable[[], object]) -> int:
    """Runs ``action`` (a focus change the test makes); the instant halfway through it."""
    before = now_ms()
    action()
    return (before + now_ms()) // 2


def started_ms(db: Path) -> int:
    """When the recorder's session began (its ``start`` state row)."""
    return int(rows(db, "SELECT ts_ms FROM recorder_state WHERE state = 'start'")[0][0])


def record_status(db: Path, env: dict[str, str]) -> str:
    """What ``actframes record status`` prints about the store's recorder."""
    out = subprocess.run(record_argv("status", "--db", str(db), "--tz", "UTC"), env=env,
                         capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
    assert out.returncode in (0, 3), out.stderr  # 3: no recorder running
    return out.stdout


@contextlib.contextmanager
def x_session(tmp: Path, **kw: Any) -> Iterator[XSession]:
    xs = XSession(tmp, **kw)
    try:
        yield xs
    finally:
        xs.close()
