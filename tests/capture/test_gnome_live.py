"""The recorder on a real GNOME Shell (43, ``gnome-shell --headless --wayland``): two GTK
windows focused on a schedule through the Shell's ``Eval``, recorded through the actframes
Shell extension (installed by ``actframes record install-gnome-extension``) and compiled
by the real ``actframes day`` — visits in order, per-window seconds within the
schedule's, no ``[none]`` time while a window has the focus; away time from Mutter's
idle monitor."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from actframes.window import local_day_of

from .gnome_session import GnomeSession, shell_version
from .xsession import day_doc, mid, now_ms, record_status, rows, started_ms, wait_for

ALPHA = "alpha on GNOME"
BETA = "beta on GNOME"


def test_two_windows_on_a_schedule(gs: GnomeSession, tmp_path: Path) -> None:
    """A 0-6 s, B 6-11 s, A 11-15 s."""
    db = tmp_path / "capture.db"
    gs.gtk(ALPHA, "AppAlpha")
    gs.gtk(BETA, "AppBeta")
    gs.focus(ALPHA)
    rec = gs.recorder(db, "--idle-seconds", "600", "--heartbeat-seconds", "2")
    rec.wait_ready()
    t_start = started_ms(db)

    # What `record status` says about the session while it runs.
    status = record_status(db, gs.env)
    assert "backend gnome (GNOME Shell extension)" in status, status
    assert "(gnome)" in status and "silent" not in status, status
    assert "away periods (org.gnome.Mutter.IdleMonitor)" in status, status

    time.sleep(max(0.0, 6 - (now_ms() - t_start) / 1000))
    t_b = mid(lambda: gs.focus(BETA))
    time.sleep(max(0.0, 11 - (now_ms() - t_start) / 1000))
    t_a = mid(lambda: gs.focus(ALPHA))
    time.sleep(max(0.0, 15 - (now_ms() - t_start) / 1000))
    t_stop = now_ms()
    assert rec.stop() == 0

    day = local_day_of(t_start, "UTC")
    if local_day_of(t_stop, "UTC") != day:
        pytest.skip("the session crossed midnight UTC")
    frames = day_doc(db, day)["frames"]
    # B's 5 s between two visits to A folds into A's frame as an interruption (a return
    # within 20 s: SPEC "Flicker fold"); the visits themselves are in the rows, in order.
    assert [f["app"] for f in frames] == ["AppAlpha", "[stopped]"], (shell_version(), frames)
    (alpha,) = frames[:1]
    assert alpha["titles"] == [ALPHA]
    assert [i["app"] for i in alpha["interruptions"]] == ["AppBeta"], alpha
    visits = [r[:2] for r in rows(db, "SELECT app, title, reason FROM snapshots ORDER BY id")
              if r[2] != "heartbeat"]  # fmt: skip
    assert visits == [("AppAlpha", ALPHA), ("AppBeta", BETA), ("AppAlpha", ALPHA),
                      ("[stopped]", "")], visits  # fmt: skip
    expected = {"AppAlpha": (t_b - t_start) + (t_stop - t_a), "AppBeta": t_a - t_b}
    got = {"AppAlpha": alpha["active_s"], "AppBeta": alpha["interruptions"][0]["active_s"]}
    for app, ms in expected.items():
        assert abs(got[app] - ms / 1000) <= 1.5, (app, got[app], ms)
    # A window had the focus throughout: not a moment of [none] (nor [silent]).
    apps = {r[0] for r in rows(db, "SELECT app FROM snapshots")}
    assert apps == {"AppAlpha", "AppBeta", "[stopped]"}, apps
    # The extension named each window's process: the executable is written.
    exes = dict(rows(db, "SELECT app, exe FROM snapshots WHERE exe IS NOT NULL"))
    assert all(exes[a].startswith("python3") for a in ("AppAlpha", "AppBeta")), exes
    assert "Traceback" not in rec.log.read_text()


def test_idle_from_mutter(gs: GnomeSession, tmp_path: Path) -> None:
    """Mutter's idle watch starts an away period back-dated by the threshold; a key from a
    virtual keyboard inside the Shell (Mutter's user-active watch) ends it."""
    db = tmp_path / "capture.db"
    gs.gtk(ALPHA, "AppIdle")
    rec = gs.recorder(db, "--idle-seconds", "2")
    rec.wait_ready()
    gs.press_key()
    typed = now_ms()
    assert gs.idle_ms() < 1000  # the key counts as input for Mutter
    wait_for("an away period", lambda: rows(db, "SELECT 1 FROM afk"), 10)
    time.sleep(1.0)
    back = mid(gs.press_key)
    wait_for(
        "the away period to end",
        lambda: rows(db, "SELECT 1 FROM afk WHERE end_ms < ?", (back + 1500,)),
        10,
    )
    assert rec.stop() == 0
    ((start_ms, end_ms),) = rows(db, "SELECT start_ms, end_ms FROM afk")
    assert abs(start_ms - typed) <= 600, (start_ms, typed)
    assert abs(end_ms - back) <= 600, (end_ms, back)
    assert "Traceback" not in rec.log.read_text()
