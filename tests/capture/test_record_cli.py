"""``actframes record start | status | pause | resume | stop`` on a real X server: the
background recorder, its pidfile and log in the XDG state folder, and pause honoured."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from .xsession import XSession, record_argv, rows, wait_for


def _record(xs: XSession, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        record_argv(*args), env=xs.env, capture_output=True, text=True, timeout=60
    )


def test_background_lifecycle(xs: XSession, tmp_path: Path) -> None:
    db = tmp_path / "capture.db"
    state = tmp_path / "state" / "actframes"
    win = xs.xterm("LifeApp", "life")
    xs.activate(win)

    res = _record(xs, "status", "--db", str(db))
    assert res.returncode == 3
    assert "recorder: not running" in res.stdout and "not created yet" in res.stdout

    res = _record(xs, "start", "--db", str(db), "--heartbeat-seconds", "1", "--no-accessibility")
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("recording (pid ")
    pid = int(res.stdout.split("pid ")[1].split(")")[0])
    assert (state / "recorder.pid").read_text().strip() == str(pid)

    again = _record(xs, "start", "--db", str(db))
    assert again.returncode == 1
    assert again.stderr.strip() == f"actframes: error: a recorder is already running (pid {pid})"

    xs.xdotool("type", "--delay", "20", "abcd")
    time.sleep(1.5)
    res = _record(xs, "status", "--db", str(db), "--tz", "UTC")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert f"recorder: running (pid {pid})" in out
    assert "today: " in out and "(4 presses)" in out
    assert "last row: " in out and "store: " in out and "kB" in out
    assert "session: X11 display :" in out and "window manager" in out
    assert str(state / "recorder.log") in out

    # Paused: nothing but [paused] rows, no input counted.
    assert _record(xs, "pause").stdout.strip() == "paused"
    wait_for(
        "the pause row",
        lambda: rows(db, "SELECT count(*) FROM snapshots WHERE app='[paused]'")[0][0] > 0,
        10,
    )
    xs.xdotool("type", "--delay", "20", "zzzz")
    xs.xdotool("set_window", "--name", "during pause", str(win))
    time.sleep(1.0)
    assert "paused" in _record(xs, "status", "--db", str(db)).stdout
    xs.xdotool("set_window", "--name", "after pause", str(win))
    time.sleep(0.3)
    assert _record(xs, "resume").stdout.strip() == "resumed"
    time.sleep(1.0)
    xs.xdotool("type", "--delay", "20", "ok")
    time.sleep(1.2)

    res = _record(xs, "stop")
    assert res.returncode == 0 and res.stdout.strip() == f"stopped (pid {pid})"
    assert not (state / "recorder.pid").exists()
    assert _record(xs, "stop").stdout.strip() == "no recorder was running"

    assert rows(db, "SELECT sum(count) FROM input_events WHERE kind='key'") == [(6,)]
    titles = {r[0] for r in rows(db, "SELECT title FROM snapshots")}
    assert "during pause" not in titles and "after pause" in titles
    states = [r[0] for r in rows(db, "SELECT state FROM recorder_state ORDER BY id")]
    assert states == ["start", "pause", "resume", "stop"]
    log = (state / "recorder.log").read_text()
    assert "paused" in log and "resumed" in log and "stopped (SIGTERM)" in log


def test_start_reports_a_failure_instead_of_a_pid(tmp_path: Path) -> None:
    import os

    from .xsession import need

    need()

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(XDG_STATE_HOME=str(tmp_path / "state"), XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    res = subprocess.run(
        record_argv("start", "--db", str(tmp_path / "c.db")),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 1
    assert res.stderr.startswith("actframes: error: no X11 display")
    assert len(res.stderr.strip().splitlines()) == 1


def test_bad_config_is_a_usage_error(tmp_path: Path) -> None:
    import os

    cfg = tmp_path / "bad.toml"
    cfg.write_text('[exclude]\ntitles = ["(unclosed"]\n')
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    res = subprocess.run(
        record_argv("run", "--config", str(cfg), "--db", str(tmp_path / "c.db")),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2
    assert res.stderr.startswith(f"actframes: error: {cfg}: title pattern '(unclosed'")


def test_keep_days_prunes_old_rows_at_start(xs: XSession, tmp_path: Path) -> None:
    from actframes.capture.store import open_store

    from .xsession import now_ms

    db = tmp_path / "capture.db"
    conn = open_store(db)
    with conn:
        old, recent = now_ms() - 10 * 86_400_000, now_ms() - 86_400_000
        for ts in (old, recent):
            conn.execute("INSERT INTO snapshots (ts_ms, app) VALUES (?, 'Old')", (ts,))
            conn.execute("INSERT INTO input_events (ts_ms, kind) VALUES (?, 'key')", (ts,))
    conn.close()
    win = xs.xterm("KeepApp", "keep")
    xs.activate(win)
    rec = xs.recorder(db, "--keep-days", "7", "--no-accessibility")
    rec.wait_ready()
    assert rec.stop() == 0
    assert rows(db, "SELECT ts_ms FROM snapshots WHERE app = 'Old'") == [(recent,)]
    assert rows(db, "SELECT count(*) FROM input_events") == [(1,)]
    assert "retention: deleted 2 rows older than 7 days" in rec.log.read_text()
