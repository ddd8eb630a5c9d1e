"""The recorder on a real Wayland compositor (headless sway): native foot and GTK windows
focused on a schedule with swaymsg, recorded by the real recorder and compiled by the real
``actframes day`` — frames in order, titles, active seconds within a second of the script,
an excluded app never in the store or its WAL, idle from the compositor, SIGKILL safety."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from actframes.window import local_day_of

from .wlsession import WaylandSession
from .xsession import day_doc, mid, now_ms, record_status, rows, sound_titles, started_ms, wait_for

SECRET_TITLE = "ledger-secret-4711"


def _day(db: Path) -> dict[str, object]:
    start = started_ms(db)
    day = local_day_of(start, "UTC")
    if local_day_of(now_ms(), "UTC") != day:
        pytest.skip("the session crossed midnight UTC")
    return day_doc(db, day)


def test_scripted_wayland_session(ws: WaylandSession, tmp_path: Path) -> None:
    db = tmp_path / "capture.db"
    config = tmp_path / "recorder.toml"
    config.write_text('[exclude]\napps = ["Secret*"]\n')
    ws.foot("AppAlpha", "alpha")
    gtk = ws.gtk("GTK on Wayland")
    ws.foot("SecretLedger", SECRET_TITLE)
    ws.focus("AppAlpha")

    # Away time is not what this test measures: a threshold far above its length.
    rec = ws.recorder(db, "--config", str(config), "--idle-seconds", "600",
                      "--heartbeat-seconds", "2")  # fmt: skip
    rec.wait_ready()
    t_start = started_ms(db)

    # What `record status` says about the session while it runs.
    status = record_status(db, ws.env)
    assert "Wayland display wayland-" in status and "(sway)" in status
    assert "backend wlroots" in status
    assert "away periods (org_kde_kwin_idle)" in status
    assert "not captured: input counts" in status  # no /dev/input on this machine
    assert "executable" in status.split("not captured:")[0]  # from sway's IPC

    ws.foot("AppBeta", "beta")  # a window opened while recording
    time.sleep(1.0)
    t_b = mid(lambda: ws.focus("AppBeta"))
    time.sleep(2.5)
    t_g = mid(lambda: ws.focus(gtk))
    time.sleep(1.5)
    t_s = mid(lambda: ws.focus("SecretLedger"))
    time.sleep(1.5)
    t_a = mid(lambda: ws.focus("AppAlpha"))
    time.sleep(1.5)
    t_stop = now_ms()
    assert rec.stop() == 0

    doc = _day(db)
    frames = doc["frames"]
    assert isinstance(frames, list)
    assert [f["app"] for f in frames] == [
        "AppAlpha", "AppBeta", "gtk_app.py", "[excluded]", "AppAlpha", "[stopped]"
    ]  # fmt: skip
    assert [f["titles"] for f in frames[:3]] == [["alpha"], ["beta"], ["GTK on Wayland"]]
    assert frames[3]["titles"] in ([], [""])
    expected = [t_b - t_start, t_g - t_b, t_s - t_g, t_a - t_s, t_stop - t_a]
    for frame, ms in zip(frames, expected, strict=False):
        assert abs(frame["active_s"] - ms / 1000) <= 1.0, (frame["app"], frame["active_s"], ms)

    # No input devices here: the document says input is unmeasured, not "zero keys".
    spots = doc["blind_spots"]
    assert isinstance(spots, list)
    assert any("input is unmeasured" in s for s in spots)
    assert not any("no away periods" in s for s in spots)

    # The excluded window's title and app id are nowhere in the files.
    for path in (db, db.with_name(db.name + "-wal")):
        if path.exists():
            data = path.read_bytes()
            assert SECRET_TITLE.encode() not in data and b"SecretLedger" not in data
    assert rows(db, "SELECT value FROM meta WHERE key = 'recorder'")[0][0].endswith("wlroots")
    assert "Traceback" not in rec.log.read_text()
    # sway's IPC named each window's process: the executable is written.
    exes = dict(rows(db, "SELECT app, exe FROM snapshots WHERE exe IS NOT NULL"))
    assert exes["AppAlpha"] == "foot" and exes["AppBeta"] == "foot"
    assert exes["gtk_app.py"].startswith("python3")
    assert "[excluded]" not in exes


def test_idle_from_the_compositor(ws: WaylandSession, tmp_path: Path) -> None:
    """sway's idle notice starts an away period back-dated by the threshold; input through
    the virtual keyboard (wtype) ends it."""
    db = tmp_path / "capture.db"
    ws.foot("AppIdle", "idle")
    ws.focus("AppIdle")
    rec = ws.recorder(db, "--idle-seconds", "2")
    rec.wait_ready()
    ws.type_text("ab")
    typed = now_ms()
    wait_for("an away period", lambda: rows(db, "SELECT 1 FROM afk"), 10)
    time.sleep(1.0)
    back = mid(lambda: ws.type_text("c"))
    wait_for(
        "the away period to end",
        lambda: rows(db, "SELECT 1 FROM afk WHERE end_ms < ?", (back + 1500,)),
        10,
    )
    assert rec.stop() == 0
    ((start_ms, end_ms),) = rows(db, "SELECT start_ms, end_ms FROM afk")
    assert abs(start_ms - typed) <= 600, (start_ms, typed)
    assert abs(end_ms - back) <= 600, (end_ms, back)


def test_sigkill_keeps_a_sound_store(ws: WaylandSession, tmp_path: Path) -> None:
    """A window renaming itself three times a second (every name a row) until SIGKILL:
    the store is sound and holds every name set well before the kill."""
    db = tmp_path / "capture.db"
    names = ws.runtime / "names.log"
    script = (
        f"i=0; while :; do i=$((i+1)); printf '\\033]2;t%d\\007' $i; "
        f'echo "$(date +%s%3N) t$i" >> {names}; sleep 0.3; done'
    )
    ws._spawn(["foot", "--app-id=AppBusy", "--title=t0", "sh", "-c", script],
              "foot-busy.log", ws.client_env)  # fmt: skip
    ws.wait_window("AppBusy")
    ws.focus("AppBusy")
    rec = ws.recorder(db, "--heartbeat-seconds", "1")
    rec.wait_ready()
    time.sleep(5.0)
    killed_at = now_ms()
    rec.kill()

    titles = sound_titles(db)
    done = [line.split() for line in names.read_text().splitlines() if line.strip()]
    # A name is logged when the shell asks for it; foot and sway take a moment more to
    # announce it (longer on a busy machine), so the margin is two seconds, not one.
    old = [title for ts, title in done if started_ms(db) < int(ts) < killed_at - 2000]
    assert len(old) >= 5, "the script did too little to test anything"
    assert [t for t in old if t not in titles] == []


def test_evdev_counts_are_owned_by_the_focused_window(ws: WaylandSession, tmp_path: Path) -> None:
    """A recorded device stream, read by the recorder (ACTFRAMES_INPUT_DEVICES names a
    FIFO in place of /dev/input/event*): presses land in the window focused when they
    came, the store says input was measured, no key identity is stored."""
    from .test_evdev_input import BTN_LEFT, KEY_A, KEY_ENTER, click, keystroke, wheel

    fifo = tmp_path / "event-fifo"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # a reader and writer: the FIFO never sees an end
    try:
        db = tmp_path / "capture.db"
        ws.foot("AppKeys", "keys")
        ws.foot("AppMouse", "mouse")
        ws.focus("AppKeys")
        env = {**ws.env, "ACTFRAMES_INPUT_DEVICES": str(fifo)}
        rec = ws.recorder(db, "--idle-seconds", "600", env=env)
        rec.wait_ready()
        os.write(writer, keystroke(KEY_A, repeats=3) * 6 + keystroke(KEY_ENTER))
        time.sleep(1.2)
        ws.focus("AppMouse")
        time.sleep(0.3)
        os.write(writer, click(BTN_LEFT) * 2 + wheel(3))
        time.sleep(1.2)
        assert rec.stop() == 0
    finally:
        os.close(writer)
    got = rows(
        db,
        "SELECT app, kind, sum(count) FROM input_events GROUP BY app, kind ORDER BY app, kind",
    )
    assert got == [("AppKeys", "key", 7), ("AppMouse", "click", 2), ("AppMouse", "scroll", 3)]
    assert rows(db, "SELECT count(*) FROM input_events WHERE x IS NOT NULL") == [(0,)]
    (detail,) = rows(db, "SELECT detail FROM recorder_state WHERE state = 'start'")[0]
    assert json.loads(detail)["input"] == "evdev"
    doc = _day(db)
    spots = doc["blind_spots"]
    assert isinstance(spots, list) and not any("input is unmeasured" in s for s in spots)


def test_the_compositor_going_away_ends_the_recorder_cleanly(
    ws: WaylandSession, tmp_path: Path
) -> None:
    """sway dies under the recorder: exit status 1 with one line saying so, the store
    sound and holding what was recorded, the end marked as an error."""
    db = tmp_path / "capture.db"
    ws.foot("AppLast", "last")
    ws.focus("AppLast")
    rec = ws.recorder(db)
    rec.wait_ready()
    time.sleep(0.8)
    ws.sway.kill()  # SIGKILL to the compositor (the process we started, by its pid)
    assert rec.proc.wait(15) == 1
    log = rec.log.read_text().strip().splitlines()
    assert "lost the Wayland display" in log[-1] and "Traceback" not in "\n".join(log)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT app FROM snapshots").fetchall()[:1] == [("AppLast",)]
        states = [r[0] for r in conn.execute("SELECT state FROM recorder_state ORDER BY id")]
    finally:
        conn.close()
    assert states == ["start", "error"]


def test_chromium_on_wayland_urls_from_accessibility(ws: WaylandSession, tmp_path: Path) -> None:
    """Chromium running natively on Wayland (Ozone), focused on sway: its process comes
    from sway's IPC, its URL from AT-SPI as on X11; its incognito window is skipped."""
    import functools
    import http.server
    import threading

    from actframes.capture.atspi import session_bus_a11y_address

    from .desktop_standins import session_bus
    from .test_x11_atspi import CHROMIUM_FLAGS, _chromium, _Quiet

    exe = _chromium()
    launcher = "/usr/libexec/at-spi-bus-launcher"
    root = tmp_path / "www"
    root.mkdir()
    (root / "a.html").write_text("<html><head><title>Wl Page A</title></head><body>A</body>")
    (root / "c.html").write_text("<html><head><title>Wl Hidden C</title></head><body>C</body>")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        bus = session_bus(tmp_path, ws.procs)
        env = {**ws.env, "DBUS_SESSION_BUS_ADDRESS": bus, "ACCESSIBILITY_ENABLED": "1"}
        ws.spawn([launcher, "--launch-immediately"], log="atspi.log", env=env)
        wait_for("the accessibility bus", lambda: session_bus_a11y_address(env), 15)
        runtime = tmp_path / "chromium-runtime"
        runtime.mkdir(mode=0o700)
        browser_env = {**env, "WAYLAND_DISPLAY": str(ws.runtime / ws.display),
                       "XDG_RUNTIME_DIR": str(runtime), "HOME": str(tmp_path)}  # fmt: skip
        flags = [*CHROMIUM_FLAGS, "--ozone-platform=wayland", f"--user-data-dir={tmp_path}/p"]
        db = tmp_path / "capture.db"
        rec = ws.recorder(db, "--heartbeat-seconds", "2", env=env)
        rec.wait_ready()
        ws.spawn([exe, *flags, f"{site}/a.html"], log="chromium.log", env=browser_env)
        ws.focus_titled("Wl Page A", 45)
        time.sleep(3.0)
        ws.spawn([exe, *flags, "--incognito", f"{site}/c.html"], log="chromium2.log",
                 env=browser_env)  # fmt: skip
        ws.focus_titled("Wl Hidden C", 30)
        time.sleep(3.0)
        assert rec.stop() == 0
    finally:
        server.shutdown()
        server.server_close()
    urls = {r[0] for r in rows(db, "SELECT url FROM snapshots WHERE url IS NOT NULL")}
    assert f"{site}/a.html" in urls, (urls, rows(db, "SELECT app, title FROM snapshots"))
    assert rows(db, "SELECT count(*) FROM snapshots WHERE app = '[private]'")[0][0] >= 1
    for path in (db, db.with_name(db.name + "-wal")):
        if path.exists():
            data = path.read_bytes()
            assert b"Wl Hidden C" not in data and b"c.html" not in data
