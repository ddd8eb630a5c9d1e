"""A real Wayland session for recorder tests: headless sway, foot and GTK windows, swaymsg.

sway refuses to run as root, so when the tests run as root the compositor and its clients
run as an unprivileged system user created for the purpose (``actframes-wl``); the
recorder runs as the test's own user (root reaches the user's socket). Every process
runs in its own process group and is ended by its id in teardown; waits are bounded.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .user_session import UserSession, skip_or_fail
from .xsession import GTK_APP, SYSTEM_PYTHON, install_hint, wait_for


def need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        skip_or_fail(install_hint(*missing))
    for module in ("pywayland", "Xlib"):
        try:
            __import__(module)
        except ImportError:
            skip_or_fail(f"python module {module} missing: pip install -e '.[capture]'")


class WaylandSession(UserSession):
    def __init__(self, tmp: Path) -> None:
        need("sway", "swaymsg", "foot", "wtype", "setpriv")
        super().__init__(tmp, "actframes-wl-")

    def _start(self) -> None:
        config = self.runtime / "sway.config"
        config.write_text(
            "output HEADLESS-1 resolution 1280x800\n"
            "focus_on_window_activation none\n"
            # New windows must not take the focus from the one the script focused.
            'no_focus [title=".*"]\n'
        )
        self.client_env = dict(self.base_env)
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
        self.env = self.recorder_env(self.display, "sway", SWAYSOCK=self.swaysock)

    def _socket(self) -> str | None:
        if self.sway.poll() is not None:
            raise AssertionError(f"sway exited: {(self.tmp / 'sway.log').read_text()[-2000:]}")
        found = sorted(p.name for p in self.runtime.glob("wayland-*") if not p.suffix)
        return found[0] if found else None

    def _ipc_socket(self) -> str | None:
        found = sorted(self.runtime.glob("sway-ipc.*.sock"))
        return str(found[0]) if found else None

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


@contextlib.contextmanager
def wayland_session(tmp: Path) -> Iterator[WaylandSession]:
    ws = WaylandSession(tmp)
    try:
        yield ws
    finally:
        ws.close()
