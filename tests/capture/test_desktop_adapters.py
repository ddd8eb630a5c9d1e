"""The KDE and GNOME adapters' D-Bus contract on a real session bus (dbus-daemon), against
stand-ins that speak what KWin and the GNOME Shell extension speak: the real recorder
(`actframes record run`) records the focus they report, in order, with titles and the
executable, never an excluded app, and away time from Mutter's idle watches or, on KDE,
from the compositor (a headless sway standing in for KWin's Wayland side)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from actframes.capture.atspi import session_bus_a11y_address
from actframes.capture.desktop_bus import KWIN_PLUGIN, KWIN_SCRIPT
from actframes.capture.window_info import exe_name

from .desktop_standins import KWinStandIn, ShellStandIn, session_bus
from .user_session import skip_or_fail
from .wlsession import WaylandSession
from .xsession import (
    GTK_APP,
    SYSTEM_PYTHON,
    Recorder,
    end_process,
    install_hint,
    now_ms,
    record_argv,
    record_status,
    rows,
    wait_for,
)

SECRET = "vault-secret-8812"


class _Host:
    """What ``xsession.Recorder`` needs: a tmp folder and a spawn that ends by pid."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.procs: list[subprocess.Popen[Any]] = []

    def spawn(self, argv: list[str], *, log: str | None = None,
              env: dict[str, str] | None = None) -> subprocess.Popen[Any]:  # fmt: skip
        out = open(self.tmp / (log or "out.log"), "ab")  # noqa: SIM115
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=out, start_new_session=True)  # fmt: skip
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in reversed(self.procs):
            end_process(proc)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[_Host]:
    if shutil.which("dbus-daemon") is None:
        skip_or_fail(install_hint("dbus-daemon"))
    h = _Host(tmp_path)
    try:
        yield h
    finally:
        h.close()


def _env(tmp: Path, bus: str, desktop: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS")}  # fmt: skip
    env.update(
        DBUS_SESSION_BUS_ADDRESS=bus, XDG_SESSION_TYPE="wayland", XDG_CURRENT_DESKTOP=desktop,
        WAYLAND_DISPLAY="wayland-99", XDG_RUNTIME_DIR=str(tmp),
        XDG_STATE_HOME=str(tmp / "state"), XDG_CONFIG_HOME=str(tmp / "config"), TZ="UTC",
    )  # fmt: skip
    env.update(extra)
    return env


def _config(tmp: Path) -> Path:
    path = tmp / "recorder.toml"
    path.write_text('[exclude]\napps = ["KeePass*"]\n')
    return path


def _snapshots(db: Path) -> list[tuple[str, str, str | None]]:
    return [tuple(r) for r in rows(db, "SELECT app, title, exe FROM snapshots ORDER BY id")]


def _no_secret(db: Path) -> None:
    for path in (db, db.with_name(db.name + "-wal")):
        if path.exists():
            data = path.read_bytes()
            assert SECRET.encode() not in data and b"KeePass" not in data


def test_gnome_extension_contract(host: _Host, tmp_path: Path) -> None:
    bus = session_bus(tmp_path, host.procs)
    shell = ShellStandIn(bus)
    try:
        me = os.getpid()
        shell.focus = ["11", "Org.Gnome.Nautilus", "Home", me]
        db = tmp_path / "capture.db"
        env = _env(tmp_path, bus, "ubuntu:GNOME")
        rec = Recorder(
            host,
            db,
            [
                "--config",
                str(_config(tmp_path)),
                "--idle-seconds",
                "2",
                "--heartbeat-seconds",
                "30",
            ],
            env,
        )  # type: ignore[arg-type]
        rec.wait_ready()
        # The recorder asked for the focus once and set an idle watch of --idle-seconds.
        assert ("/org/actframes/Shell", "GetFocus", []) in shell.calls
        assert "idle 2000" in shell.watches.values()
        status = subprocess.run(
            record_argv("status", "--db", str(db), "--tz", "UTC"),
            env=env, capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
        assert "backend gnome (GNOME Shell extension)" in status.stdout, status.stdout
        assert "away periods (org.gnome.Mutter.IdleMonitor)" in status.stdout
        assert "executable" in status.stdout.split("not captured:")[0]
        time.sleep(0.6)
        shell.set_focus("12", "firefox", "News — Mozilla Firefox", me)
        time.sleep(0.6)
        shell.set_focus("12", "firefox", "Mail — Mozilla Firefox", me)  # a title change
        time.sleep(0.6)
        shell.set_focus("13", "KeePassXC", SECRET, me)
        time.sleep(0.6)
        shell.set_focus("", "", "", 0)  # nothing focused (the overview, say)
        time.sleep(1.0)
        shell.set_focus("11", "Org.Gnome.Nautilus", "Home", me)
        time.sleep(0.6)
        idle_at = now_ms()
        shell.fire("idle")
        wait_for("an active watch", lambda: "active" in shell.watches.values(), 5)
        time.sleep(0.8)
        back_at = now_ms()
        shell.fire("active")
        wait_for(
            "the away period to end",
            lambda: rows(db, "SELECT 1 FROM afk WHERE end_ms <= ?", (back_at + 500,)),
            5,
        )
        assert rec.stop() == 0
    finally:
        shell.close()
    exe = exe_name(os.getpid())
    assert _snapshots(db) == [
        ("Org.Gnome.Nautilus", "Home", exe),
        ("firefox", "News — Mozilla Firefox", exe),
        ("firefox", "Mail — Mozilla Firefox", exe),
        ("[excluded]", "", None),
        ("[none]", "", None),
        ("Org.Gnome.Nautilus", "Home", exe),
        ("[stopped]", "", None),
    ]
    _no_secret(db)
    ((start, end),) = rows(db, "SELECT start_ms, end_ms FROM afk")
    assert abs(start - (idle_at - 2000)) <= 400 and abs(end - back_at) <= 400
    notes = json.loads(rows(db, "SELECT detail FROM recorder_state WHERE state='start'")[0][0])
    assert notes["backend"] == "gnome" and notes["afk"] == "org.gnome.Mutter.IdleMonitor"


def test_gnome_without_the_extension_says_so(host: _Host, tmp_path: Path) -> None:
    bus = session_bus(tmp_path, host.procs)
    res = subprocess.run(
        record_argv("run", "--db", str(tmp_path / "c.db")),
        env=_env(tmp_path, bus, "GNOME"), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert res.returncode == 1
    (line,) = res.stderr.strip().splitlines()
    assert "GNOME Shell extension is not running" in line
    assert "actframes record install-gnome-extension" in line
    assert not (tmp_path / "c.db").exists()


def test_kwin_script_contract(host: _Host, tmp_path: Path, ws: WaylandSession) -> None:
    """The recorder loads its KWin script, runs it, takes the script's calls, and unloads
    it on stop; idle comes from the compositor's Wayland idle protocol."""
    bus = session_bus(tmp_path, host.procs)
    kwin = KWinStandIn(bus)
    try:
        kwin.loaded[KWIN_PLUGIN] = "/stale/script.js"  # left by a killed recorder
        me = os.getpid()
        db = tmp_path / "capture.db"
        env = _env(tmp_path, bus, "KDE", WAYLAND_DISPLAY=ws.display,
                   XDG_RUNTIME_DIR=str(ws.runtime))  # fmt: skip
        rec = Recorder(host, db, ["--config", str(_config(tmp_path)), "--idle-seconds", "2"], env)  # type: ignore[arg-type]
        wait_for("the script to run", lambda: kwin.running, 15)
        assert kwin.loaded == {KWIN_PLUGIN: str(KWIN_SCRIPT)}
        kwin.activate("{a1}", "konsole", "~ : bash", me)
        rec.wait_ready()
        time.sleep(0.5)
        ws.type_text("x")  # input, so the compositor is not idle yet
        kwin.activate("{b2}", "org.kde.dolphin", "Documents — Dolphin", me)
        time.sleep(0.5)
        kwin.activate("{c3}", "KeePassXC", SECRET, me)
        time.sleep(0.5)
        kwin.activate("{a1}", "konsole", "make test : bash", me)
        typed = now_ms()
        ws.type_text("y")
        wait_for("an away period", lambda: rows(db, "SELECT 1 FROM afk"), 10)
        assert rec.stop() == 0
        assert kwin.loaded == {}  # unloaded on stop
    finally:
        kwin.close()
    exe = exe_name(os.getpid())
    assert _snapshots(db)[:5] == [
        ("konsole", "~ : bash", exe),
        ("org.kde.dolphin", "Documents — Dolphin", exe),
        ("[excluded]", "", None),
        ("konsole", "make test : bash", exe),
        ("[stopped]", "", None),
    ]
    _no_secret(db)
    ((start, _end),) = rows(db, "SELECT start_ms, end_ms FROM afk")
    assert abs(start - typed) <= 600
    notes = json.loads(rows(db, "SELECT detail FROM recorder_state WHERE state='start'")[0][0])
    assert notes["backend"] == "kde" and notes["afk"] == "org_kde_kwin_idle"


def test_the_shipped_kwin_script_speaks_the_contract() -> None:
    """kwin_focus.js calls the name, object, interface and method the recorder serves,
    with four arguments (id, class, caption, pid), for KWin 6 and KWin 5.27."""
    from actframes.capture import desktop_bus as contract

    js = KWIN_SCRIPT.read_text()
    assert f'"{contract.RECORDER_NAME}"' in js and f'"{contract.RECORDER_PATH}"' in js
    assert f'"{contract.RECORDER_IFACE}"' in js
    calls = re.findall(r'callDBus\(SERVICE, PATH, IFACE, "WindowActivated",([^;]*)\);', js,
                       re.S)  # fmt: skip
    assert len(calls) == 2 and all(c.count(",") == 3 for c in calls), calls
    assert "workspace.windowActivated" in js and "workspace.clientActivated" in js


def test_accessibility_on_wayland(host: _Host, tmp_path: Path, ws: WaylandSession) -> None:
    """AT-SPI works on Wayland as on X11 once the shell names the focused window's
    process: a GTK 3 window running natively on Wayland (sway) is read for its elements,
    never its text field's value."""
    launcher = "/usr/libexec/at-spi-bus-launcher"
    if not Path(launcher).exists():
        skip_or_fail(install_hint(launcher))
    bus = session_bus(tmp_path, host.procs)
    env = _env(tmp_path, bus, "GNOME")
    host.spawn([launcher, "--launch-immediately"], log="atspi.log", env=env)
    wait_for("the accessibility bus", lambda: session_bus_a11y_address(env), 15)
    runtime = tmp_path / "gtk-runtime"
    runtime.mkdir(mode=0o700)
    gtk_env = {**env, "GDK_BACKEND": "wayland", "XDG_RUNTIME_DIR": str(runtime),
               "WAYLAND_DISPLAY": str(ws.runtime / ws.display), "HOME": str(tmp_path)}  # fmt: skip
    gtk = host.spawn([SYSTEM_PYTHON, str(GTK_APP), "Gtk Wayland Probe"], log="gtk.log",
                     env=gtk_env)  # fmt: skip
    ws.wait_window("gtk_app.py")
    shell = ShellStandIn(bus, idle_monitor=False)
    try:
        shell.focus = ["5", "gtk_app.py", "Gtk Wayland Probe", gtk.pid]
        db = tmp_path / "capture.db"
        rec = Recorder(host, db, [], env)  # type: ignore[arg-type]
        rec.wait_ready()
        wait_for("the window's elements", lambda: rows(db, "SELECT 1 FROM elements"), 15)
        assert rec.stop() == 0
    finally:
        shell.close()
    named = {(r[0], r[1]) for r in rows(db, "SELECT role, name FROM elements")}
    assert {("push button", "Save report"), ("push button", "Discard")} <= named
    assert ("frame", "Gtk Wayland Probe") in named
    for path in (db, db.with_name(db.name + "-wal")):
        if path.exists():
            assert b"secret-value-4711" not in path.read_bytes()
    notes = json.loads(rows(db, "SELECT detail FROM recorder_state WHERE state='start'")[0][0])
    assert notes["accessibility"] is True and notes["afk"] == "none"


def test_screensaver_is_the_last_resort(host: _Host, tmp_path: Path) -> None:
    """Without Mutter's idle monitor, away time is the screen saver's active time."""
    bus = session_bus(tmp_path, host.procs)
    shell = ShellStandIn(bus, idle_monitor=False, screensaver=True)
    try:
        shell.focus = ["1", "org.gnome.TextEditor", "notes", os.getpid()]
        db = tmp_path / "capture.db"
        env = _env(tmp_path, bus, "GNOME")
        rec = Recorder(host, db, ["--idle-seconds", "60"], env)  # type: ignore[arg-type]
        rec.wait_ready()
        time.sleep(0.5)
        on = now_ms()
        shell.saver(True)
        time.sleep(1.0)
        off = now_ms()
        shell.saver(False)
        wait_for(
            "the away period to end",
            lambda: rows(db, "SELECT 1 FROM afk WHERE end_ms <= ?", (off + 500,)),
            5,
        )
        assert rec.stop() == 0
    finally:
        shell.close()
    ((start, end),) = rows(db, "SELECT start_ms, end_ms FROM afk")
    assert abs(start - on) <= 300 and abs(end - off) <= 300
    notes = json.loads(rows(db, "SELECT detail FROM recorder_state WHERE state='start'")[0][0])
    assert notes["afk"] == "org.freedesktop.ScreenSaver"


@pytest.mark.parametrize(("pid_type", "pid"), [("i", 1), ("u", 1), ("x", 1), ("d", 1.0)])
def test_every_type_a_script_engine_gives_a_pid_is_a_window_report(
    host: _Host, tmp_path: Path, pid_type: str, pid: float
) -> None:
    """KWin 5.27's callDBus sends the JavaScript number as int32; KWin 6 may send uint32,
    int64 or a double: each is taken, with the process's executable."""
    bus = session_bus(tmp_path, host.procs)
    kwin = KWinStandIn(bus)
    me = os.getpid()
    try:
        db = tmp_path / "capture.db"
        rec = Recorder(host, db, [], _env(tmp_path, bus, "KDE"))  # type: ignore[arg-type]
        wait_for("the script to run", lambda: kwin.running, 15)
        kwin.activate("{a1}", "konsole", "~ : bash", me if pid_type != "d" else float(me),
                      pid_type)  # fmt: skip
        rec.wait_ready()
        wait_for("the window's row", lambda: rows(db, "SELECT 1 FROM snapshots"), 10)
        assert rec.stop() == 0
    finally:
        kwin.close()
    assert _snapshots(db)[0] == ("konsole", "~ : bash", exe_name(me))


def _has_row(db: Path, app: str) -> bool:
    return bool(rows(db, "SELECT 1 FROM snapshots WHERE app = ?", (app,)))


def test_a_refused_window_source_is_said_and_recorded_as_silent(
    host: _Host, tmp_path: Path
) -> None:
    """A script whose every report is refused (here: a pid of a type no script engine
    sends) leaves the recorder blind: the log and ``record status`` say so at once and
    the rows say ``[silent]``, which earns no time; a report that is taken ends it."""
    bus = session_bus(tmp_path, host.procs)
    kwin = KWinStandIn(bus)
    me = os.getpid()
    env = _env(tmp_path, bus, "KDE")
    try:
        db = tmp_path / "capture.db"
        rec = Recorder(host, db, ["--heartbeat-seconds", "1"], env)  # type: ignore[arg-type]
        wait_for("the script to run", lambda: kwin.running, 15)
        kwin.activate("{a1}", "konsole", "~ : bash", True, "b", refused=True)
        rec.wait_ready()
        wait_for("the silent row", lambda: _has_row(db, "[silent]"), 10)
        status = record_status(db, env)
        assert "window source silent: the KWin script's window reports are refused (1)" in status
        time.sleep(1.5)
        kwin.activate("{a1}", "konsole", "~ : bash", me)
        wait_for("the window's row", lambda: _has_row(db, "konsole"), 10)
        assert "silent" not in record_status(db, env)
        time.sleep(1.2)
        assert rec.stop() == 0
    finally:
        kwin.close()
    assert "window source silent: the KWin script's window reports are refused" in (
        rec.log.read_text())  # fmt: skip
    apps = [a for a, _, _ in _snapshots(db)]
    assert apps[0] == "[silent]" and "konsole" in apps and "[none]" not in apps
    states = [s for (s,) in rows(db, "SELECT state FROM recorder_state ORDER BY id")]
    assert states == ["start", "silent", "reporting", "stop"]


def test_silence_is_found_after_a_minute_without_reports(host: _Host, tmp_path: Path) -> None:
    """A window source that never reports (a script KWin loaded but never ran, say) is
    silent once a minute has passed since the start, by the screen's own clock."""
    from actframes.capture.desktop_bus import DesktopBusScreen
    from actframes.capture.window_reports import SILENT_AFTER_MS

    bus = session_bus(tmp_path, host.procs)
    kwin = KWinStandIn(bus)
    clock = [1_000_000]
    env = _env(tmp_path, bus, "KDE", WAYLAND_DISPLAY="wayland-absent")
    screen = DesktopBusScreen("kde", env, lambda: clock[0], 1_000)
    try:
        assert screen.silence(clock[0]) is None
        assert screen.silence_due_ms() == clock[0] + SILENT_AFTER_MS
        clock[0] += SILENT_AFTER_MS
        assert screen.silence(clock[0]) == "no window report from the KWin script in 60 s"
        kwin.activate("", "", "", 0)  # "no window has the focus" is a report too
        wait_for("the report", lambda: screen.reports, 5)
        assert screen.silence(clock[0]) is None and screen.silence_due_ms() is None
    finally:
        screen.close()
        kwin.close()
