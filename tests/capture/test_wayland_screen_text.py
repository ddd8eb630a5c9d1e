"""``record --screen-text`` in a real Wayland session (headless sway): a native GTK 3
window's label is read over the accessibility bus, as on X11, kept beside its snapshot
and found by ``actframes search``."""

from __future__ import annotations

import time
from pathlib import Path

from actframes.capture.atspi import session_bus_a11y_address

from .desktop_standins import session_bus
from .test_x11_screen_text import TEXT_APP, _need_gtk, _search
from .wlsession import WaylandSession
from .xsession import SYSTEM_PYTHON, need, rows, wait_for

LAUNCHER = "/usr/libexec/at-spi-bus-launcher"


def test_a_gtk_label_is_kept_under_wayland(ws: WaylandSession, tmp_path: Path) -> None:
    need(LAUNCHER, "dbus-daemon")
    _need_gtk()
    bus = session_bus(tmp_path, ws.procs)
    env = {**ws.env, "DBUS_SESSION_BUS_ADDRESS": bus, "ACCESSIBILITY_ENABLED": "1"}
    env.pop("NO_AT_BRIDGE", None)
    ws.spawn([LAUNCHER, "--launch-immediately"], log="atspi.log", env=env)
    wait_for("the accessibility bus", lambda: session_bus_a11y_address(env), 15)
    runtime = tmp_path / "gtk-runtime"
    runtime.mkdir(mode=0o700)
    gtk_env = {**env, "WAYLAND_DISPLAY": str(ws.runtime / ws.display),
               "XDG_RUNTIME_DIR": str(runtime), "GDK_BACKEND": "wayland"}  # fmt: skip
    ws.spawn([SYSTEM_PYTHON, str(TEXT_APP), "Wayland Text Probe"], log="gtk.log", env=gtk_env)
    ws.wait_window("gtk_text_app.py")
    ws.focus("gtk_text_app.py")
    db = tmp_path / "capture.db"
    rec = ws.recorder(db, "--heartbeat-seconds", "1", "--screen-text", env=env)
    rec.wait_ready()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not rows(db, "SELECT 1 FROM screen_text"):
        time.sleep(0.3)
    assert rec.stop() == 0
    kept = rows(db, "SELECT kind, text FROM screen_text")
    assert kept, (tmp_path / "gtk.log").read_text()[-2000:]
    assert all(kind == "accessibility" for kind, _ in kept)
    assert any("Quarterly zebra forecast" in text for _, text in kept), kept
    hits = _search(db, "zebra forecast")
    assert hits and "«zebra»" in hits[0]["snippet"], hits
