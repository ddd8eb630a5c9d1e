"""What the real-compositor sessions share (sway ``wlsession.py``, KWin ``kwin_session.py``,
GNOME Shell ``gnome_session.py``): the unprivileged user the compositor and its clients
run as when the tests run as root (sway refuses root; KWin and GNOME Shell are run as a
user would run them), the runtime folder that user owns, processes started in it as that
user, private D-Bus buses that admit the recorder too, and GTK windows.

The recorder runs as the test's own user (root reaches the user's sockets). Every process
runs in its own process group and is ended by its id in teardown; waits are bounded.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from .xsession import GTK_APP, SYSTEM_PYTHON, Recorder, end_process, install_hint, spawn_into
from .xsession import wait_for as _wait_for

# CI sets this so a lost install step fails the Wayland tests instead of skipping them.
REQUIRE_WAYLAND = bool(os.environ.get("ACTFRAMES_REQUIRE_WAYLAND"))
USER = "actframes-wl"

# A bus that admits every local user: the recorder (root in CI) talks to the compositor's
# user's bus, as it would to its own in a real session.
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>{kind}</type>
  <listen>unix:path={path}</listen>
  <auth>EXTERNAL</auth>
  {services}
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def skip_or_fail(reason: str) -> None:
    if REQUIRE_WAYLAND:
        pytest.fail(f"{reason} (ACTFRAMES_REQUIRE_WAYLAND is set)")
    pytest.skip(reason)


def need_desktop(*tools: str) -> None:
    """The tools, GTK for the system python3 and dbus-fast, or a skip saying what to
    install (a failure in CI)."""
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
        skip_or_fail("GTK for python3 missing: apt-get install python3-gi gir1.2-gtk-3.0")
    try:
        __import__("dbus_fast")
    except ImportError:
        skip_or_fail("python module dbus_fast missing: pip install -e '.[capture]'")


def as_user() -> list[str]:
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


class UserSession:
    """A runtime folder owned by the session's user, and the processes started in it."""

    env: dict[str, str]  # the recorder's environment, set by each session

    def __init__(self, tmp: Path, prefix: str, mode: int = 0o700) -> None:
        self.tmp = tmp
        self.procs: list[subprocess.Popen[Any]] = []
        self.prefix = as_user()
        # The runtime folder must belong to the compositor's user, so it cannot live under
        # the test's own (root-only) tmp folder.
        self.runtime = Path(tempfile.mkdtemp(prefix=prefix))
        self.owner = pwd.getpwnam(USER) if self.prefix else None
        if self.owner is not None:
            os.chown(self.runtime, self.owner.pw_uid, self.owner.pw_gid)
        os.chmod(self.runtime, mode)
        self.base_env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.runtime),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "LANG": "C.UTF-8",
        }
        try:
            self._start()
        except BaseException:  # nothing is left running, nor the folder
            self.close()
            raise

    def _start(self) -> None:
        """The session's own processes (the compositor, its buses)."""

    def _spawn(self, argv: list[str], log: str, env: dict[str, str]) -> subprocess.Popen[Any]:
        """``argv`` as the session's user, in the runtime folder, its output in ``log``."""
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

    def _bus(self, kind: str, services: str = "") -> Path:
        """A private ``kind`` (session or system) bus in the runtime folder: its socket."""
        path = self.runtime / f"{kind}_bus"
        config = self.runtime / f"{kind}.conf"
        config.write_text(BUS_CONFIG.format(kind=kind, path=path, services=services))
        config.chmod(0o644)
        self._spawn(["dbus-daemon", f"--config-file={config}", "--nofork", "--nopidfile"],
                    f"dbus-{kind}.log", self.base_env)  # fmt: skip
        _wait_for(f"the {kind} bus", path.exists, 10)
        return path

    def _program(self, app: str) -> Path:
        """The GTK test window program under the name ``app``, which GTK makes the
        window's app id (the user may not read the test's checkout: a copy)."""
        program = self.runtime / app
        shutil.copyfile(GTK_APP, program)
        program.chmod(0o644)
        return program

    def close(self) -> None:
        for proc in reversed(self.procs):
            end_process(proc)
        shutil.rmtree(self.runtime, ignore_errors=True)

    # ---------------------------------------------------------------- the recorder

    def recorder(self, db: Path, *args: str, env: dict[str, str] | None = None) -> Recorder:
        return Recorder(self, db, list(args), env or self.env)  # type: ignore[arg-type]

    def spawn(
        self, argv: list[str], *, log: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.Popen[Any]:
        """A process of the test's own user (the recorder), like ``XSession.spawn``."""
        return spawn_into(self.procs, argv, self.tmp / log if log else None, env or self.env)

    def recorder_env(self, display: str, desktop: str, **extra: str) -> dict[str, str]:
        """The recorder's environment: a Wayland session of ``desktop``, without X11."""
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "SWAYSOCK")
        }
        env.update(
            WAYLAND_DISPLAY=display,
            XDG_RUNTIME_DIR=str(self.runtime),
            XDG_SESSION_TYPE="wayland",
            XDG_CURRENT_DESKTOP=desktop,
            XDG_STATE_HOME=str(self.tmp / "state"),
            XDG_CONFIG_HOME=str(self.tmp / "config"),
            XDG_DATA_HOME=str(self.tmp / "data"),
            TZ="UTC",
        )
        env.update(extra)
        return env
