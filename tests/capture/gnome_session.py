"""A real GNOME Shell for recorder tests: ``gnome-shell --headless --wayland`` (43, Debian
12) on private session and system buses, GTK windows, focus moved through the Shell's
``org.gnome.Shell.Eval``.

As with sway (``wlsession.py``), the buses, the Shell and its clients run as the
unprivileged user ``actframes-wl`` when the tests run as root; the recorder runs as the
test's own user and reaches that user's session bus (its policy admits every local
user) and Wayland socket. The user's home is the runtime folder, so dconf (the Shell's
settings) and the extensions live there and vanish with it.

What the Shell needs here, found by trying:

- A system bus: without one the Shell dies at startup (an exception in layout.js). A
  private one (``DBUS_SYSTEM_BUS_ADDRESS``) serves, on which logind, accountsservice,
  polkit and the rest are simply absent: the Shell logs their absence and carries on.
  Where ``/run/systemd/seats`` exists the Shell asks logind on that bus, which answers
  at once that there is none, so no mount namespace is needed to hide ``/run/systemd``;
  the machine's own system bus and logind are never asked.
- The actframes extension (``actframes record install-gnome-extension``, run with the
  user's ``XDG_DATA_HOME``) listed in ``org.gnome.shell enabled-extensions`` through
  dconf before the Shell starts; the Shell enables it at startup.
- ``Eval`` only answers in unsafe mode, and GNOME Shell 43 has no ``--unsafe-mode``
  option (44 added it): a second, test-only extension (``EVAL_EXTENSION``) turns unsafe
  mode on when it is enabled.
- ``--no-x11``: no Xwayland (the GTK windows are native Wayland clients).
- The startup animation opens the overview; a window mapped under it is not focused, so
  the session waits for the startup's end and closes the overview. The welcome dialog
  (a modal that would take the focus) is marked as shown.
- Idle: the screen lock and the session's idle delay are off, so nothing covers the
  windows; Mutter's idle monitor (``org.gnome.Mutter.IdleMonitor``) still counts.

Every process runs in its own process group and is ended by its id in teardown (the
services the session bus starts, dconf and the accessibility bus, are in the bus's
group); waits are bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .user_session import UserSession, need_desktop
from .xsession import SYSTEM_PYTHON, record_argv, wait_for

EXTENSION_UUID = "actframes-focus@actframes"
EVAL_UUID = "actframes-test-eval@actframes"
# GNOME Shell 43's extension form (44 has --unsafe-mode, 45 changed the format).
EVAL_EXTENSION = {
    "metadata.json": json.dumps(
        {
            "uuid": EVAL_UUID,
            "name": "actframes test: unsafe mode",
            "description": "Lets the tests drive the Shell through org.gnome.Shell.Eval.",
            "shell-version": ["43", "44"],
        }
    ),
    "extension.js": (
        "function init() {\n"
        "    return {\n"
        "        enable() { global.context.unsafe_mode = true; },\n"
        "        disable() { global.context.unsafe_mode = false; },\n"
        "    };\n"
        "}\n"
    ),
}

# Settings written through dconf before the Shell starts: the two extensions on, and
# nothing that would lock or blank the screen during a test.
SETTINGS = (
    ("org.gnome.shell", "enabled-extensions", f"['{EXTENSION_UUID}', '{EVAL_UUID}']"),
    ("org.gnome.shell", "welcome-dialog-last-shown-version", "'999'"),
    ("org.gnome.desktop.session", "idle-delay", "uint32 0"),
    ("org.gnome.desktop.screensaver", "lock-enabled", "false"),
    ("org.gnome.desktop.screensaver", "idle-activation-enabled", "false"),
)
_WRITE_SETTINGS = """
import sys
from gi.repository import Gio, GLib
for schema, key, value in zip(*[iter(sys.argv[1:])] * 3):
    Gio.Settings.new(schema).set_value(key, GLib.Variant.parse(None, value, None, None))
Gio.Settings.sync()
for schema, key, value in zip(*[iter(sys.argv[1:])] * 3):
    got = Gio.Settings.new(schema).get_value(key)
    assert got.equal(GLib.Variant.parse(got.get_type(), value, None, None)), (schema, key, got)
"""

# Windows the Shell manages, as [title, app (WM class), focused].
_WINDOWS_JS = (
    "global.get_window_actors().map(a => a.meta_window)"
    ".filter(w => w.get_window_type() === 0)"  # Meta.WindowType.NORMAL
    ".map(w => [w.get_title(), w.get_wm_class(), w.has_focus()])"
)


def shell_version() -> str:
    out = subprocess.run(
        ["gnome-shell", "--version"], capture_output=True, text=True, timeout=10, check=False
    )
    return out.stdout.strip() or "unknown"


class GnomeSession(UserSession):
    def __init__(self, tmp: Path) -> None:
        need_desktop("gnome-shell", "dbus-daemon", "setpriv")
        # The runtime folder is also the user's home.
        super().__init__(tmp, "actframes-gnome-")

    def _start(self) -> None:
        self.bus = self._bus("session", "<standard_session_servicedirs/>")
        self.system_bus = self._bus("system")
        self.bus_address = f"unix:path={self.bus}"
        self.client_env = {
            **self.base_env,
            "DBUS_SESSION_BUS_ADDRESS": self.bus_address,
            "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.system_bus}",
        }
        self._install_extensions(self.owner)
        self._user_run([SYSTEM_PYTHON, "-c", _WRITE_SETTINGS,
                        *(x for setting in SETTINGS for x in setting)])  # fmt: skip
        self.log = self.tmp / "gnome-shell.log"
        self.display = "wayland-actframes"
        self.shell = self._spawn(
            ["gnome-shell", "--headless", "--wayland", "--no-x11",
             "--wayland-display", self.display, "--virtual-monitor", "1280x800"],
            "gnome-shell.log",
            {**self.client_env, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME",
             "GSETTINGS_BACKEND": "dconf"},
        )  # fmt: skip
        wait_for("the GNOME Shell socket", self._socket, 30)
        self.client_env["WAYLAND_DISPLAY"] = self.display
        # Eval answers once the test's extension has turned unsafe mode on, the
        # actframes one is enabled with it: wait for both. The Shell then opens the
        # overview as its startup animation; a window mapped under it gets no focus:
        # wait for the animation's end and close the overview.
        wait_for("GNOME Shell's Eval", self._eval_ready, 30, step=0.2)
        wait_for("the actframes extension", self._extension_ready, 10, step=0.1)
        started = "Main.layoutManager._startingUp === false"
        wait_for("the Shell's startup", lambda: self.eval(started), 30, step=0.1)
        closed = "Main.overview.visible ? (Main.overview.hide(), false) : true"
        wait_for("the overview to close", lambda: self.eval(closed), 10, step=0.1)
        self.env = self.recorder_env(self.display, "GNOME",
                                     DBUS_SESSION_BUS_ADDRESS=self.bus_address)  # fmt: skip

    def _install_extensions(self, owner: pwd.struct_passwd | None) -> None:
        """``actframes record install-gnome-extension`` into the user's data folder, and
        the test's Eval extension next to it."""
        data = self.runtime / ".local" / "share"
        res = subprocess.run(
            record_argv("install-gnome-extension"),
            env={**os.environ, "HOME": str(self.runtime), "XDG_DATA_HOME": str(data)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if res.returncode != 0:
            raise AssertionError(f"install-gnome-extension failed: {res.stdout}{res.stderr}")
        extensions = data / "gnome-shell" / "extensions"
        assert (extensions / EXTENSION_UUID / "extension.js").exists(), res.stdout
        (extensions / EVAL_UUID).mkdir()
        for name, text in EVAL_EXTENSION.items():
            (extensions / EVAL_UUID / name).write_text(text)
        if owner is not None:
            for path in [self.runtime / ".local", *(self.runtime / ".local").rglob("*")]:
                os.chown(path, owner.pw_uid, owner.pw_gid)

    def _user_run(self, argv: list[str]) -> None:
        env = self.client_env
        cmd = [*self.prefix, "env", *(f"{k}={v}" for k, v in env.items()), *argv]
        res = subprocess.run(
            cmd if self.prefix else argv,
            env=None if self.prefix else env,
            cwd=self.runtime,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if res.returncode != 0:
            raise AssertionError(f"{argv[:2]} failed: {res.stdout}{res.stderr}")

    def _socket(self) -> bool:
        if self.shell.poll() is not None:
            raise AssertionError(f"gnome-shell exited: {self.log.read_text()[-3000:]}")
        return (self.runtime / self.display).exists()

    def _eval_ready(self) -> bool:
        if self.shell.poll() is not None:
            raise AssertionError(f"gnome-shell exited: {self.log.read_text()[-3000:]}")
        try:
            ok, _ = self._eval_raw("1")
        except LookupError:
            return False  # org.gnome.Shell not on the bus yet
        return ok

    def _extension_ready(self) -> bool:
        owner = self.call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "NameHasOwner", "s",
                          ("org.actframes.Shell",))  # fmt: skip
        return bool(owner[0])

    # ---------------------------------------------------------------- the Shell over D-Bus

    def call(self, dest: str, path: str, iface: str, member: str, sig: str = "",
             body: tuple[Any, ...] = (), timeout: float = 10) -> list[Any]:  # fmt: skip
        """One D-Bus call on the session bus (as the test's own user); a D-Bus error
        reply raises ``LookupError``."""
        from dbus_fast import Message, MessageType
        from dbus_fast.aio import MessageBus

        async def go() -> list[Any]:
            bus = await MessageBus(bus_address=self.bus_address).connect()
            try:
                msg = Message(destination=dest, path=path, interface=iface, member=member,
                              signature=sig, body=list(body))  # fmt: skip
                reply = await asyncio.wait_for(bus.call(msg), timeout)
            finally:
                bus.disconnect()
            if reply is None or reply.message_type == MessageType.ERROR:
                raise LookupError(f"{member}: {reply.error_name if reply else 'no reply'}")
            return list(reply.body)

        return asyncio.run(asyncio.wait_for(go(), timeout + 5))

    def _eval_raw(self, code: str) -> tuple[bool, str]:
        ok, out = self.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell",
                            "Eval", "s", (code,))  # fmt: skip
        return bool(ok), str(out)

    def eval(self, code: str) -> Any:
        """What ``code`` evaluates to inside GNOME Shell (JSON-decoded; None: undefined)."""
        ok, out = self._eval_raw(code)
        if not ok:
            raise AssertionError(f"Eval({code!r}) failed: {out}")
        return json.loads(out) if out else None

    # ---------------------------------------------------------------- windows

    def windows(self) -> list[tuple[str, str, bool]]:
        """The Shell's normal windows: (title, app, focused)."""
        return [(str(t), str(a), bool(f)) for t, a, f in self.eval(_WINDOWS_JS)]

    def gtk(self, title: str, app: str = "gtk_app.py") -> None:
        """A GTK 3 window on Wayland titled ``title`` whose app id (GNOME's WM class) is
        ``app``: the program's name, so the window program is run under that name.
        Returns once the Shell has it, focused."""
        env = {**self.client_env, "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"}
        self._spawn([SYSTEM_PYTHON, str(self._program(app)), title], f"gtk-{app}.log", env)
        # The Shell focuses a new window when it maps it: wait for that too, so that it
        # never takes the focus from a window the test focuses later.
        focused = lambda: any(f and t == title for t, _, f in self.windows())  # noqa: E731
        wait_for(f"a focused window titled {title!r}", focused, 20, step=0.1)

    def focus(self, title: str) -> None:
        """Activate the window titled ``title`` and wait until the Shell says it has the
        focus."""
        code = (
            "(() => { const w = global.get_window_actors().map(a => a.meta_window)"
            f".find(w => w.get_title() === {json.dumps(title)});"
            " if (!w) return false; w.activate(global.get_current_time()); return true; })()"
        )

        def focused() -> bool:
            if any(f and t == title for t, _, f in self.windows()):
                return True
            self.eval(code)
            return False

        wait_for(f"focus on {title!r}", focused, 10, step=0.05)

    def press_key(self) -> None:
        """A press and release of Shift through a virtual keyboard inside the Shell: input
        as far as Mutter's idle monitor is concerned (Shift types nothing)."""
        self.eval(
            "(() => { const C = imports.gi.Clutter;"
            " global._actframesKeyboard ??= C.get_default_backend().get_default_seat()"
            ".create_virtual_device(C.InputDeviceType.KEYBOARD_DEVICE);"
            " const t = C.get_current_event_time() * 1000;"
            " global._actframesKeyboard.notify_keyval(t, C.KEY_Shift_L, C.KeyState.PRESSED);"
            " global._actframesKeyboard.notify_keyval(t, C.KEY_Shift_L, C.KeyState.RELEASED);"
            " })()"
        )

    def idle_ms(self) -> int:
        """How long Mutter's idle monitor says the session has had no input."""
        monitor = ("org.gnome.Mutter.IdleMonitor", "/org/gnome/Mutter/IdleMonitor/Core",
                   "org.gnome.Mutter.IdleMonitor")  # fmt: skip
        return int(self.call(*monitor, "GetIdletime")[0])


@contextlib.contextmanager
def gnome_session(tmp: Path) -> Iterator[GnomeSession]:
    gs = GnomeSession(tmp)
    try:
        yield gs
    finally:
        gs.close()
