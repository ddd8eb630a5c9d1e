"""A bad environment gives a clear one-line error and a non-zero exit, never a hang: no
DISPLAY, Wayland, no X server, an X server without RECORD, a read-only or full disk."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from .xsession import XSession, install_hint, need, record_argv

TIMEOUT = 30  # any hang fails the test instead of the suite


def _run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=TIMEOUT)


def _one_line_error(res: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert res.returncode != 0
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    line = lines[0]
    assert line.startswith("actframes: error: "), line
    assert "Traceback" not in res.stderr
    for needle in needles:
        assert needle in line, line
    return line


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    import os

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE")
    }
    env.update(XDG_STATE_HOME=str(tmp / "state"), XDG_CONFIG_HOME=str(tmp / "config"))
    env.update(extra)
    return env


def test_no_display(tmp_path: Path) -> None:
    need()  # the capture extra
    res = _run(record_argv("run", "--db", str(tmp_path / "c.db")), _env(tmp_path))
    _one_line_error(res, "DISPLAY is not set")
    assert not (tmp_path / "c.db").exists()


def test_wayland_without_a_compositor(tmp_path: Path) -> None:
    """A Wayland session whose compositor is not there: one line naming the display, and
    no store is created."""
    need()
    env = _env(tmp_path, WAYLAND_DISPLAY="wayland-0", XDG_SESSION_TYPE="wayland",
               XDG_RUNTIME_DIR=str(tmp_path))  # fmt: skip
    res = _run(record_argv("run", "--db", str(tmp_path / "c.db")), env)
    _one_line_error(res, "Wayland display wayland-0")
    assert not (tmp_path / "c.db").exists()


def test_wayland_asked_for_x11_without_xwayland(tmp_path: Path) -> None:
    need()
    env = _env(tmp_path, WAYLAND_DISPLAY="wayland-0", XDG_SESSION_TYPE="wayland")
    res = _run(record_argv("run", "--backend", "x11", "--db", str(tmp_path / "c.db")), env)
    _one_line_error(res, "Wayland", "XWayland windows only")


def test_no_x_server_there(tmp_path: Path) -> None:
    need()
    res = _run(record_argv("run", "--db", str(tmp_path / "c.db")), _env(tmp_path, DISPLAY=":4242"))
    _one_line_error(res, "cannot open X11 display :4242")


def test_x_server_without_record(tmp_path: Path) -> None:
    xs = XSession(tmp_path, wm=False, xvfb_args=("-extension", "RECORD"))
    try:
        res = _run(record_argv("run", "--db", str(tmp_path / "c.db")), xs.env)
    finally:
        xs.close()
    _one_line_error(res, "RECORD extension")


def _need_unshare() -> None:
    if shutil.which("unshare") is None:
        pytest.skip(install_hint("unshare"))
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=16k tmpfs /mnt"],
        capture_output=True,
        timeout=TIMEOUT,
    )
    if probe.returncode != 0:
        pytest.skip("needs user namespaces that may mount a tmpfs (unshare -rm): not allowed here")


def _in_tmpfs(mount: Path, options: str, argv: list[str]) -> list[str]:
    """``argv`` run with a fresh tmpfs mounted over ``mount`` (in its own namespace)."""
    script = f'mount -t tmpfs -o {options} tmpfs "{mount}" && exec "$@"'
    return ["unshare", "-rm", "sh", "-c", script, "sh", *argv]


def test_read_only_store(xs: XSession, tmp_path: Path) -> None:
    _need_unshare()
    mount = tmp_path / "ro"
    mount.mkdir()
    argv = _in_tmpfs(mount, "ro,size=1m", record_argv("run", "--db", str(mount / "c.db")))
    _one_line_error(_run(argv, xs.env), "cannot", "c.db", "read-only")


def test_full_disk_at_start(xs: XSession, tmp_path: Path) -> None:
    _need_unshare()
    mount = tmp_path / "tiny"
    mount.mkdir()
    argv = _in_tmpfs(mount, "size=8k", record_argv("run", "--db", str(mount / "c.db")))
    _one_line_error(_run(argv, xs.env), "c.db", "full")


def test_disk_fills_while_recording(xs: XSession, tmp_path: Path) -> None:
    _need_unshare()
    mount = tmp_path / "small"
    mount.mkdir()
    win = xs.xterm("Filler", "fill 0")
    xs.activate(win)
    argv = _in_tmpfs(
        mount,
        "size=320k",  # (a fresh store of schema 4 is ~80 kB with its WAL; room to record)
        record_argv("run", "--db", str(mount / "c.db"), "--no-accessibility"),
    )
    proc = subprocess.Popen(argv, env=xs.env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        i = 0
        while proc.poll() is None and time.monotonic() < deadline:
            i += 1
            xs.xdotool("set_window", "--name", f"fill {i} " + "x" * 200, str(win))
            xs.xdotool("type", "--delay", "1", "abcdefghijklmnop")
        assert proc.poll() is not None, "the recorder did not stop on a full disk"
        err = proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
    assert proc.returncode == 1
    last = err.strip().splitlines()[-1]
    assert last.startswith("actframes: error: cannot write the store"), err
    assert "full" in last and "Traceback" not in err
    assert "recording" in err, "it must fail while recording, not at start"


def test_x_server_goes_away_while_recording(xs: XSession, tmp_path: Path) -> None:
    from .xsession import end_process, rows

    db = tmp_path / "c.db"
    win = xs.xterm("Doomed", "doomed")
    xs.activate(win)
    rec = xs.recorder(db, "--no-accessibility")
    rec.wait_ready()
    xs.xdotool("type", "--delay", "10", "abc")
    time.sleep(1.0)
    end_process(xs.xvfb)
    code = rec.proc.wait(TIMEOUT)
    assert code == 1
    last = rec.log.read_text().strip().splitlines()[-1]
    assert last.startswith("actframes: error: lost the X11 display"), last
    # What was recorded before is kept, and the store is sound.
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert rows(db, "SELECT sum(count) FROM input_events WHERE kind='key'") == [(3,)]
    assert rows(db, "SELECT state FROM recorder_state ORDER BY id")[-1] == ("error",)
