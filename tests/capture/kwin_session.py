"""A real KDE Plasma compositor for recorder tests: headless KWin (``kwin_wayland
--virtual``) on a private session bus, GTK windows, focus moved by KWin scripts.

As with sway (``wlsession.py``), the bus, the compositor and its clients run as the
unprivileged user ``actframes-wl`` when the tests run as root; the recorder runs as the
test's own user and reaches that user's bus (the bus admits it: ``BUS_CONFIG``) and
Wayland socket. ``kwin_wayland`` carries a file capability (``cap_sys_nice``) that a
container may refuse at exec ("Operation not permitted"): a copy of the binary, which
has none, runs instead. KWin prints what the test's scripts ``print`` to its log, which
is how the test reads the windows KWin has and which one is active.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .wlsession import USER, _as_user, skip_or_fail
from .xsession import GTK_APP, SYSTEM_PYTHON, Recorder, end_process, install_hint, spawn_into
from .xsession import wait_for as _wait_for

# A session bus that admits every local user: the recorder (root in CI) talks to the
# compositor's user's bus, as it would to its own in a real session.
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={path}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

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


def need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        skip_or_fail(install_hint(*missing))
    if not Path(SYSTEM_PYTHON).exists():
        skip_or_fail(install_hint("python3"))
    probe = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gtk', '3.0')"],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        skip_or_fail(
            "python3-gi and gir1.2-gtk-3.0 missing: apt-get install python3-gi gir1.2-gtk-3.0"
        )
    try:
        __import__("dbus_fast")
    except ImportError:
        skip_or_fail("python module dbus_fast missing: pip install -e '.[capture]'")


def kwin_version() -> str:
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", "kwin-wayland"],
        capture_output=True,
        text=True,
        check=False,
    )
    return out.stdout.strip() or "unknown"


class KWinSession:
    def __init__(self, tmp: Path) -> None:
        need("kwin_wayland", "dbus-daemon", "gdbus", "setpriv")
        self.tmp = tmp
        self.procs: list[subprocess.Popen[Any]] = []
        self.prefix = _as_user()
        self.runtime = Path(tempfile.mkdtemp(prefix="actframes-kwin-"))
        owner = pwd.getpwnam(USER) if self.prefix else None
        if owner is not None:
            os.chown(self.runtime, owner.pw_uid, owner.pw_gid)
        os.chmod(self.runtime, 0o711)  # the recorder (root) reaches the sockets inside
        kwin = self.runtime / "kwin_wayland"
        shutil.copyfile(shutil.which("kwin_wayland") or "", kwin)  # without its capability
        kwin.chmod(0o755)
        self.bus = self.runtime / "bus"
        config = self.runtime / "bus.conf"
        config.write_text(BUS_CONFIG.format(path=self.bus))
        config.chmod(0o644)
        self.bus_address = f"unix:path={self.bus}"
        base = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.runtime),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "LANG": "C.UTF-8",
        }
        self._spawn(["dbus-daemon", f"--config-file={config}", "--nofork"], "dbus.log", base)
        _wait_for("the session bus", self.bus.exists, 10)
        self.client_env = {**base, "DBUS_SESSION_BUS_ADDRESS": self.bus_address}
        self.log = self.tmp / "kwin.log"
        self.kwin = self._spawn(
            [str(kwin), "--virtual", "--width", "1280", "--height", "800",
             "--socket", "wayland-actframes"],
            "kwin.log",
            {**self.client_env, "KWIN_COMPOSE": "Q", "QT_QPA_PLATFORM": "offscreen"},
        )  # fmt: skip
        self.display = "wayland-actframes"
        _wait_for("the KWin socket", self._socket, 30)
        _wait_for("KWin on the bus", self._kwin_on_bus, 30, step=0.2)
        self.client_env["WAYLAND_DISPLAY"] = self.display
        self._scripts = 0
        # The recorder's environment: a Plasma Wayland session, without X11.
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "SWAYSOCK")
        }
        self.env.update(
            WAYLAND_DISPLAY=self.display,
            XDG_RUNTIME_DIR=str(self.runtime),
            XDG_SESSION_TYPE="wayland",
            XDG_CURRENT_DESKTOP="KDE",
            DBUS_SESSION_BUS_ADDRESS=self.bus_address,
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CONFIG_HOME=str(tmp / "config"),
            XDG_DATA_HOME=str(tmp / "data"),
            TZ="UTC",
        )

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

    def _spawn(self, argv: list[str], log: str, env: dict[str, str]) -> subprocess.Popen[Any]:
        out = open(self.tmp / log, "ab")  # noqa: SIM115 - lives with the process
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
        """A GTK 3 window on Wayland whose app id (KWin's resource class) is ``app``: the
        program's name, so the test's window program is run under that name. Returns
        once KWin lists the window."""
        env = {**self.client_env, "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"}
        program = self.runtime / app
        shutil.copyfile(GTK_APP, program)  # (the user may not read the test's checkout)
        program.chmod(0o644)
        self._spawn([SYSTEM_PYTHON, str(program), title], f"gtk-{app}.log", env)
        listed = lambda: any(c.lstrip("*") == title for c in self.windows())  # noqa: E731
        _wait_for(f"a window titled {title!r}", listed, 20, step=0.2)

    # ---------------------------------------------------------------- the recorder

    def recorder(self, db: Path, *args: str, env: dict[str, str] | None = None) -> Recorder:
        return Recorder(self, db, list(args), env or self.env)  # type: ignore[arg-type]

    def spawn(
        self, argv: list[str], *, log: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.Popen[Any]:
        """A process of the test's own user (the recorder), like ``XSession.spawn``."""
        return spawn_into(self.procs, argv, self.tmp / log if log else None, env or self.env)


@contextlib.contextmanager
def kwin_session(tmp: Path) -> Iterator[KWinSession]:
    ks = KWinSession(tmp)
    try:
        yield ks
    finally:
        ks.close()
