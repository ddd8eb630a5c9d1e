"""The recorder on a real KDE Plasma compositor (headless KWin, ``kwin_wayland --virtual``):
three GTK windows focused on a schedule by KWin scripts, recorded through the recorder's own KWin
script and compiled by the real ``actframes day`` — visits in order, per-window seconds
within the schedule's, no ``[none]`` time while a window has the focus (issue: real KWin
sends the process id as int32, which the recorder once refused, recording a day of
``[none]``)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from actframes.window import local_day_of

from .kwin_session import KWinSession, kwin_version
from .xsession import day_doc, mid, now_ms, record_status, rows, started_ms, wait_for


def test_three_windows_on_a_schedule(ks: KWinSession, tmp_path: Path) -> None:
    db = tmp_path / "capture.db"
    ks.gtk("AppAlpha", "alpha on KWin")
    ks.gtk("AppBeta", "beta on KWin")
    ks.gtk("AppGamma", "gamma on KWin")
    ks.focus("alpha on KWin")
    rec = ks.recorder(db, "--idle-seconds", "600", "--heartbeat-seconds", "2")
    rec.wait_ready()
    t_start = started_ms(db)

    status = record_status(db, ks.env)
    assert "KWin script" in status, status
    assert "silent" not in status, status

    time.sleep(5)
    t_b = mid(lambda: ks.focus("beta on KWin"))
    time.sleep(5)
    t_g = mid(lambda: ks.focus("gamma on KWin"))
    time.sleep(4)
    t_stop = now_ms()
    assert rec.stop() == 0

    day = local_day_of(t_start, "UTC")
    if local_day_of(t_stop, "UTC") != day:
        pytest.skip("the session crossed midnight UTC")
    frames = day_doc(db, day)["frames"]
    assert [f["app"] for f in frames] == ["AppAlpha", "AppBeta", "AppGamma", "[stopped]"], (
        kwin_version(), frames)  # fmt: skip
    assert [f["titles"] for f in frames[:3]] == [["alpha on KWin"], ["beta on KWin"],
                                                 ["gamma on KWin"]]  # fmt: skip
    expected = [t_b - t_start, t_g - t_b, t_stop - t_g]
    for frame, ms in zip(frames, expected, strict=False):
        assert abs(frame["active_s"] - ms / 1000) <= 1.5, (frame["app"], frame["active_s"], ms)
    # KWin's script named each window's process: the executable is written.
    exes = dict(rows(db, "SELECT app, exe FROM snapshots WHERE exe IS NOT NULL"))
    assert all(exes[a].startswith("python3") for a in ("AppAlpha", "AppBeta", "AppGamma"))
    assert "Traceback" not in rec.log.read_text()


def test_idle_from_kwin(ks: KWinSession, tmp_path: Path) -> None:
    """KWin 5.27 offers ext-idle-notify-v1: with no input, the away period begins when
    the idle threshold has passed, back-dated to the last input (here: the start). (Its
    end needs input, which no client can give KWin here: it offers no virtual keyboard
    protocol to ordinary clients, so the period ends with the recorder.)"""
    db = tmp_path / "capture.db"
    ks.gtk("AppIdle", "idle on KWin")
    ks.focus("idle on KWin")
    rec = ks.recorder(db, "--idle-seconds", "2")
    rec.wait_ready()
    t_start = started_ms(db)
    wait_for("an away period", lambda: rows(db, "SELECT start_ms FROM afk"), 15)
    assert rec.stop() == 0
    ((start, end),) = rows(db, "SELECT start_ms, end_ms FROM afk")
    assert t_start <= start <= t_start + 1_500, start - t_start
    assert end > start
    notes = json.loads(rows(db, "SELECT detail FROM recorder_state WHERE state='start'")[0][0])
    assert notes["backend"] == "kde" and notes["afk"] == "ext-idle-notify-v1"
