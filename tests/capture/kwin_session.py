"""A real KDE Plasma compositor for recorder tests: headless KWin (``kwin_wayland
--virtual``) on a private session bus, GTK windows, focus moved by KWin scripts.

As with sway (``wlsession.py``), the bus, the compositor and its clients run as the
unprivileged user ``actframes-wl`` when the tests run as root; the recorder runs as the
test's own user and reaches that user's bus (``user_session.BUS_CONFIG`` admits it) and
Wayland socket. ``kwin_wayland`` carries a file capability (``cap_sys_nice``) that a
container may refuse at exec ("Operation not permitted"): a copy of the binary, which
has none, runs instead. KWin prints what the test's scripts ``print`` to its log, which
is how the test reads the windows KWin has and which one is active.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from .user_session import UserSession, need_desktop
from .xsession import SYSTEM_PYTHON
from .xsession import wait_for as _wait_for

# Lists the windows, or activates the one whose caption is given (KWin 6 says "windows",
# 5.27 "clients"), and prints what it found with a marker the test looks for.
_SCRIPT = """
const all = workspace.windowList ? workspace.windowList() : workspace.clientList();
const active = () => workspace.activeWindow !== undefined ? workspace.activeWindow
                                                           : workspace.activeClient;
const wanted = %(caption)s;
for (const w of all) {
    if (wanted !== null && w.caption === wanted) {
        if (workspace.activeWindow !== undefined) workspace.activeWindow = w;
        else workspace.activeClient = w;
    }
}
let line = "";
for (const w of all) line += (w === active() ? "*" : "") + w.caption + "\\u241f";
print("%(marker)s" + line);
"""
_WINDOWS = re.compile(r"(actframes-test-\d+)(.*)")


def kwin_version() -> str:
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", "kwin-wayland"],
        capture_output=True,
        text=True,
        check=False,
    )
    return out.stdout.strip() or "unknown"


class KWinSession(UserSession):
    def __init__(self, tmp: Path) -> None:
        need_desktop("kwin_wayland", "dbus-daemon", "gdbus", "setpriv")
        super().__init__(tmp, "actframes-kwin-", 0o711)  # the recorder reaches the sockets

    def _start(self) -> None:
        kwin = self.runtime / "kwin_wayland"
        shutil.copyfile(shutil.which("kwin_wayland") or "", kwin)  # without its capability
        kwin.chmod(0o755)
        self.bus_address = f"unix:path={self._bus('session')}"
        self.client_env = {**self.base_env, "DBUS_SESSION_BUS_ADDRESS": self.bus_address}
        self.log = self.tmp / "kwin.log"
        self.display = "wayland-actframes"
        self.kwin = self._spawn(
            [str(kwin), "--virtual", "--width", "1280", "--height", "800",
             "--socket", self.display],
            "kwin.log",
            {**self.client_env, "KWIN_COMPOSE": "Q", "QT_QPA_PLATFORM": "offscreen"},
        )  # fmt: skip
        _wait_for("the KWin socket", self._socket, 30)
        _wait_for("KWin on the bus", self._kwin_on_bus, 30, step=0.2)
        self.client_env["WAYLAND_DISPLAY"] = self.display
        self._scripts = 0
        self.env = self.recorder_env(self.display, "KDE",
                                     DBUS_SESSION_BUS_ADDRESS=self.bus_address)  # fmt: skip

    def _socket(self) -> bool:
        if self.kwin.poll() is not None:
            raise AssertionError(f"kwin_wayland exited: {self.log.read_text()[-2000:]}")
        return (self.runtime / self.display).exists()

    def _kwin_on_bus(self) -> bool:
        """KWin's scripting object is on the bus (it comes a moment after KWin's name)."""
        try:
            found = self.gdbus("org.kde.KWin", "/Scripting",
                               "org.freedesktop.DBus.Introspectable.Introspect")  # fmt: skip
        except AssertionError:
            return False
        return "org.kde.kwin.Scripting" in found

    # ---------------------------------------------------------------- KWin over D-Bus

    def gdbus(self, dest: str, path: str, method: str, *args: str) -> str:
        res = subprocess.run(
            ["gdbus", "call", "--session", "-d", dest, "-o", path, "-m", method, *args],
            env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": self.bus_address},
            capture_output=True,
            text=True,
            timeout=15,
            check=False,
        )
        if res.returncode != 0:
            raise AssertionError(f"gdbus {method} {args}: {res.stderr.strip()}")
        return res.stdout.strip()

    def _script(self, caption: str | None) -> list[str]:
        """Runs a script that activates ``caption`` (None: only looks); returns the
        captions it saw, the active one prefixed with ``*``."""
        self._scripts += 1
        marker = f"actframes-test-{self._scripts}"
        path = self.runtime / f"{marker}.js"
        wanted = "null" if caption is None else '"' + caption.replace('"', '\\"') + '"'
        path.write_text(_SCRIPT % {"caption": wanted, "marker": marker + " "})
        path.chmod(0o644)
        scripting = ("org.kde.KWin", "/Scripting")
        out = self.gdbus(*scripting, "org.kde.kwin.Scripting.loadScript", str(path), marker)
        number = int(out.strip("(,)"))
        try:
            # KWin 6 names the script's object /Scripting/Script<n>, 5.27 /<n>.
            for obj in (f"/Scripting/Script{number}", f"/{number}"):
                with contextlib.suppress(AssertionError):
                    self.gdbus("org.kde.KWin", obj, "org.kde.kwin.Script.run")
                    break
            else:
                raise AssertionError(f"KWin would not run the test's script {path}")

            def printed() -> tuple[list[str]] | None:  # (a tuple: true even with no window)
                for line in self.log.read_text(errors="replace").splitlines():
                    m = _WINDOWS.search(line)
                    if m and m.group(1) == marker:
                        return ([c for c in m.group(2).strip().split("\u241f") if c],)
                return None

            found: tuple[list[str]] = _wait_for(f"KWin script {marker}", printed, 10, 0.05)
            return found[0]
        finally:
            self.gdbus(*scripting, "org.kde.kwin.Scripting.unloadScript", marker)

    def windows(self) -> list[str]:
        return self._script(None)

    def focus(self, caption: str) -> None:
        def active() -> bool:
            return f"*{caption}" in self._script(caption)

        _wait_for(f"focus on {caption!r}", active, 10, step=0.1)

    def gtk(self, app: str, title: str) -> None:
        """A GTK 3 window on Wayland whose app id (KWin's resource class) is ``app``;
        returns once KWin lists it."""
        env = {**self.client_env, "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"}
        self._spawn([SYSTEM_PYTHON, str(self._program(app)), title], f"gtk-{app}.log", env)
        listed = lambda: any(c.lstrip("*") == title for c in self.windows())  # noqa: E731
        _wait_for(f"a window titled {title!r}", listed, 20, step=0.2)


@contextlib.contextmanager
def kwin_session(tmp: Path) -> Iterator[KWinSession]:
    ks = KWinSession(tmp)
    try:
        yield ks
    finally:
        ks.close()
