"""A real Wayland session for recorder tests: headless sway, foot and GTK windows, swaymsg.

sway refuses to run as root, so when the tests run as root the compositor and its clients
run as an unprivileged system user created for the purpose (``actframes-wl``); the
recorder runs as the test's own user (root reaches the user's socket). Every process
runs in its own process group and is ended by its id in teardown; waits are bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .xsession import (
    GTK_APP,
    SYSTEM_PYTHON,
    Recorder,
    end_process,
    install_hint,
    spawn_into,
    wait_for,
)

# CI sets this so a lost install step fails the Wayland tests instead of skipping them.
REQUIRE_WAYLAND = bool(os.environ.get("ACTFRAMES_REQUIRE_WAYLAND"))
USER = "actframes-wl"


def skip_or_fail(reason: str) -> None:
    if REQUIRE_WAYLAND:
        pytest.fail(f"{reason} (ACTFRAMES_REQUIRE_WAYLAND is set)")
    pytest.skip(reason)


def need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        skip_or_fail(install_hint(*missing))
    for module in ("pywayland", "Xlib"):
        try:
            __import__(module)
        except ImportError:
            skip_or_fail(f"python module {module} missing: pip install -e '.[capture]'")


def _as_user() -> list[str]:
    """The command prefix that runs a program as the unprivileged user (none if we are)."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
            capture_output=True,
        )
    entry = pwd.getpwnam(USER)
    return [
        "setpriv",
        f"--reuid={entry.pw_uid}",
        f"--regid={entry.pw_gid}",
        "--clear-groups",
        "--reset-env",
    ]


class WaylandSession:
    def __init__(self, tmp: Path) -> None:
        need("sway", "swaymsg", "foot", "wtype", "setpriv")
        self.tmp = tmp
        self.procs: list[subprocess.Popen[Any]] = []
        self.prefix = _as_user()
        # The runtime folder must belong to the compositor's user, so it cannot live under
        # the test's own (root-only) tmp folder.
        self.runtime = Path(tempfile.mkdtemp(prefix="actframes-wl-"))
        if self.prefix:
            entry = pwd.getpwnam(USER)
            os.chown(self.runtime, entry.pw_uid, entry.pw_gid)
        os.chmod(self.runtime, 0o700)
        config = self.runtime / "sway.config"
        config.write_text(
            "output HEADLESS-1 resolution 1280x800\n"
            "focus_on_window_activation none\n"
            # New windows must not take the focus from the one the script focused.
            'no_focus [title=".*"]\n'
        )
        self.client_env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.runtime),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "LANG": "C.UTF-8",
        }
        sway_env = {
            **self.client_env,
            "WLR_BACKENDS": "headless",
            "WLR_LIBINPUT_NO_DEVICES": "1",
            "WLR_RENDERER": "pixman",
            "WLR_HEADLESS_OUTPUTS": "1",
        }
        self.sway = self._spawn(["sway", "--config", str(config)], "sway.log", sway_env)
        self.display = wait_for("the sway socket", self._socket, 20)
        self.client_env["WAYLAND_DISPLAY"] = self.display
        self.swaysock = wait_for("the sway IPC socket", self._ipc_socket, 10)
        # The recorder's environment: a Wayland session on sway, without X11.
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY")
        }
        self.env.update(
            WAYLAND_DISPLAY=self.display,
            XDG_RUNTIME_DIR=str(self.runtime),
            XDG_SESSION_TYPE="wayland",
            XDG_CURRENT_DESKTOP="sway",
            SWAYSOCK=self.swaysock,
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CONFIG_HOME=str(tmp / "config"),
            XDG_DATA_HOME=str(tmp / "data"),
            TZ="UTC",
        )

    def _socket(self) -> str | None:
        if self.sway.poll() is not None:
            raise AssertionError(f"sway exited: {(self.tmp / 'sway.log').read_text()[-2000:]}")
        found = sorted(p.name for p in self.runtime.glob("wayland-*") if not p.suffix)
        return found[0] if found else None

    def _ipc_socket(self) -> str | None:
        found = sorted(self.runtime.glob("sway-ipc.*.sock"))
        return str(found[0]) if found else None

    def _spawn(self, argv: list[str], log: str, env: dict[str, str]) -> subprocess.Popen[Any]:
        out = open(self.tmp / log, "ab")  # noqa: SIM115 - lives with the process
        # setpriv --reset-env keeps only a few variables: pass ours through env(1).
        cmd = [*self.prefix, "env", *(f"{k}={v}" for k, v in env.items()), *argv]
        proc = subprocess.Popen(
            cmd if self.prefix else argv,
            env=None if self.prefix else env,
            cwd=self.runtime,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in reversed(self.procs):
            end_process(proc)
        shutil.rmtree(self.runtime, ignore_errors=True)

    # ---------------------------------------------------------------- windows

    def swaymsg(self, *args: str) -> Any:
        res = subprocess.run(
            ["swaymsg", "-s", self.swaysock, "-r", *args],
            capture_output=True,
            text=True,
            timeout=15,
            check=False,
        )
        if res.returncode != 0:
            raise AssertionError(f"swaymsg {args} failed: {res.stdout} {res.stderr}")
        return json.loads(res.stdout) if res.stdout.strip() else None

    def windows(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []

        def walk(node: dict[str, Any]) -> None:
            if node.get("app_id") or node.get("window_properties"):
                out.append(node)
            for child in node.get("nodes", []) + node.get("floating_nodes", []):
                walk(child)

        walk(self.swaymsg("-t", "get_tree"))
        return out

    def foot(self, app_id: str, title: str) -> None:
        """A terminal with a fixed app id and title (it runs ``sleep``, so nothing renames it)."""
        self._spawn(
            ["foot", f"--app-id={app_id}", f"--title={title}", "sleep", "600"],
            f"foot-{app_id}.log",
            self.client_env,
        )
        self.wait_window(app_id)

    def gtk(self, title: str) -> str:
        """A GTK 3 window on Wayland; its app id is the program's name, ``gtk_app.py``."""
        env = {**self.client_env, "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"}
        self._spawn([SYSTEM_PYTHON, str(GTK_APP), title], "gtk.log", env)
        return str(self.wait_window("gtk_app.py")["app_id"])

    def wait_window(self, app_id: str, timeout: float = 20) -> dict[str, Any]:
        def find() -> dict[str, Any] | None:
            return next((w for w in self.windows() if w.get("app_id") == app_id), None)

        return dict(wait_for(f"a window with app_id {app_id!r}", find, timeout, step=0.1))

    def focus(self, app_id: str) -> None:
        self.swaymsg(f"[app_id={app_id}] focus")

        def focused() -> bool:
            return any(w.get("focused") and w.get("app_id") == app_id for w in self.windows())

        wait_for(f"focus on {app_id}", focused, 10)

    def focus_titled(self, prefix: str, timeout: float = 20) -> None:
        """Focus the window whose title starts with ``prefix`` once it exists."""

        def find() -> dict[str, Any] | None:
            return next((w for w in self.windows() if w.get("name", "").startswith(prefix)), None)

        node = wait_for(f"a window titled {prefix!r}", find, timeout, step=0.2)
        self.swaymsg(f"[con_id={node['id']}] focus")

        def focused() -> bool:
            return any(w.get("focused") and w.get("id") == node["id"] for w in self.windows())

        wait_for(f"focus on {prefix!r}", focused, 10)

    def type_text(self, text: str) -> None:
        """Keys through the virtual keyboard protocol (input as far as sway is concerned)."""
        res = subprocess.run(
            [*self.prefix, "env", *(f"{k}={v}" for k, v in self.client_env.items()), "wtype", text]
            if self.prefix
            else ["wtype", text],
            env=None if self.prefix else self.client_env,
            capture_output=True,
            timeout=15,
            check=False,
        )
        if res.returncode != 0:
            raise AssertionError(f"wtype failed: {res.stderr!r}")

    # ---------------------------------------------------------------- the recorder

    def recorder(self, db: Path, *args: str, env: dict[str, str] | None = None) -> Recorder:
        return Recorder(self, db, list(args), env or self.env)  # type: ignore[arg-type]

    def spawn(
        self, argv: list[str], *, log: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.Popen[Any]:
        """A process of the test's own user (the recorder), like ``XSession.spawn``."""
        return spawn_into(self.procs, argv, self.tmp / log if log else None, env or self.env)


@contextlib.contextmanager
def wayland_session(tmp: Path) -> Iterator[WaylandSession]:
    ws = WaylandSession(tmp)
    try:
        yield ws
    finally:
        ws.close()
