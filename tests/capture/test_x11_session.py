"""A scripted desktop session on a real X server, recorded by the real recorder and
compiled by the real ``actframes day``: frames in the scripted order, active seconds
within a second of the script, exact key and click counts, the AFK period."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from actframes.api import compile_path
from actframes.window import local_day_of

from .xsession import XSession, day_doc, now_ms, rows, wait_for

IDLE_S = 4  # the AFK threshold, lowered for the test (default 180)


def _stamp(action: Any) -> tuple[int, int]:
    """Run ``action`` and return the wall-clock ms before and after it."""
    before = now_ms()
    action()
    return before, now_ms()


def _mid(span: tuple[int, int]) -> int:
    return (span[0] + span[1]) // 2


def test_scripted_session(xs: XSession, tmp_path: Path) -> None:
    db = tmp_path / "capture.db"
    a = xs.xterm("AppAlpha", "alpha")
    b = xs.xterm("AppBeta", "beta")
    c = xs.xterm("AppGamma", "gamma")
    xs.activate(a)

    rec = xs.recorder(
        db, "--idle-seconds", str(IDLE_S), "--heartbeat-seconds", "2", "--no-accessibility"
    )
    rec.wait_ready()
    t_start = rows(db, "SELECT ts_ms FROM recorder_state WHERE state = 'start'")[0][0]

    # A: 12 keys, then stay (no input for less than the AFK threshold).
    time.sleep(1.0)
    xs.xdotool("type", "--delay", "40", "abcdefghijkl")
    time.sleep(2.0)
    # B: focus, 5 clicks inside it, 8 keys, a title change.
    t_b = _mid(_stamp(lambda: xs.activate(b)))
    xs.xdotool("mousemove", "--window", str(b), "40", "40")
    xs.xdotool("click", "--repeat", "5", "--delay", "80", "1")
    time.sleep(0.5)
    xs.xdotool("type", "--delay", "40", "qrstuvwx")
    time.sleep(0.5)
    xs.xdotool("set_window", "--name", "beta renamed", str(b))
    time.sleep(1.5)
    # C: 6 keys, then idle past the threshold (AFK, back-dated to the last key), then a key.
    t_c = _mid(_stamp(lambda: xs.activate(c)))
    time.sleep(0.5)
    last_key = _stamp(lambda: xs.xdotool("type", "--delay", "40", "123456"))[1]
    time.sleep(IDLE_S + 3.0)
    back = _stamp(lambda: xs.xdotool("key", "z"))
    time.sleep(1.5)
    t_stop = now_ms()
    assert rec.stop() == 0
    t_stopped = now_ms()

    day = local_day_of(t_start, "UTC")
    if local_day_of(t_stopped, "UTC") != day:
        pytest.skip("the session crossed midnight UTC")
    doc = day_doc(db, day)
    frames = doc["frames"]
    assert [f["app"] for f in frames] == ["AppAlpha", "AppBeta", "AppGamma", "[stopped]"]
    fa, fb, fc, _ = frames

    # Input: exact counts, every event attributed.
    assert fa["input"]["keys"] == 12 and fa["input"]["clicks"] == 0
    assert fb["input"]["keys"] == 8 and fb["input"]["clicks"] == 5
    assert fc["input"]["keys"] == 7 and fc["input"]["clicks"] == 0
    assert doc["coverage"]["unattributed_input"]["events"] == 0

    # Titles, in order, including the rename.
    assert fa["titles"] == ["alpha"]
    assert fb["titles"] == ["beta", "beta renamed"]

    # AFK: one period, from the last key before the pause to the key that ended it.
    afk = rows(db, "SELECT start_ms, end_ms FROM afk")
    assert len(afk) == 1
    start_ms, end_ms = afk[0]
    assert abs(start_ms - last_key) <= 500, (start_ms, last_key)
    assert back[0] - 200 <= end_ms <= back[1] + 500, (end_ms, back)

    # Active seconds within ±1 s of the script (AFK time is not active).
    expect_a = (t_b - t_start) / 1000
    expect_b = (t_c - t_b) / 1000
    expect_c = ((start_ms - t_c) + (t_stop - end_ms)) / 1000
    for frame, expected in ((fa, expect_a), (fb, expect_b), (fc, expect_c)):
        assert abs(frame["active_s"] - expected) <= 1.0, (frame["app"], frame["active_s"], expected)

    # The compiler reports the AFK period (its listing threshold lowered to this test's
    # scale; with default rules it lists away periods of five minutes and more).
    import actframes.compile.document as document

    saved = document.GAP_LIST_MIN_MS
    document.GAP_LIST_MIN_MS = 1_000
    try:
        away = compile_path(db, day, "UTC")["coverage"]["away"]
    finally:
        document.GAP_LIST_MIN_MS = saved
    assert len(away) == 1
    assert away[0]["s"] == round((end_ms - start_ms) / 1000)

    # Heartbeats on the static screen, and never more than 5 rows in any second.
    reasons = [r[0] for r in rows(db, "SELECT reason FROM snapshots ORDER BY id")]
    assert "heartbeat" in reasons and "typing" in reasons and "click" in reasons
    stamps = [r[0] for r in rows(db, "SELECT ts_ms FROM snapshots ORDER BY ts_ms")]
    assert all(stamps[i + 5] - stamps[i] >= 1000 for i in range(len(stamps) - 5))
    # Keys carry no identity: the input table has counts and click positions only.
    cols = {r[1] for r in rows(db, "PRAGMA table_info(input_events)")}
    assert cols == {"id", "ts_ms", "kind", "count", "device", "app", "x", "y"}
    assert (
        rows(db, "SELECT count(*) FROM input_events WHERE kind = 'key' AND x IS NOT NULL")[0][0]
        == 0
    )
    # The screen's size is recorded, for click resolution's tolerance ring.
    assert rows(db, "SELECT value FROM meta WHERE key = 'screen:'") == [("1280x800",)]
    # The clicks in B are steps with their positions.
    from actframes.steps.store_queries import steps_of_frame

    _, steps = steps_of_frame(db, None, "UTC", fb["id"], day)
    assert sum(1 for s in steps if s["op"] == "click") == 5


def test_no_window_manager_uses_the_input_focus(tmp_path: Path) -> None:
    """Without a window manager there is no _NET_ACTIVE_WINDOW: the input focus is used."""
    xs = XSession(tmp_path, wm=False)
    try:
        db = tmp_path / "capture.db"
        a = xs.xterm("NoWmOne", "first")
        b = xs.xterm("NoWmTwo", "second")
        xs.xdotool("windowfocus", "--sync", str(a))
        rec = xs.recorder(db, "--no-accessibility")
        rec.wait_ready()
        # The focus is polled here, not told: each step waits until the recorder has
        # written what it saw (under load its first look, or its look after a focus
        # change, can come late), so the keys are typed into a window it knows is focused.
        wait_for("the first window's row", lambda: snapshot_apps(db)[-1:] == ["NoWmOne"], 20)
        xs.xdotool("windowfocus", "--sync", str(b))
        wait_for("the second window's row", lambda: snapshot_apps(db)[-1:] == ["NoWmTwo"], 20)
        xs.xdotool("type", "--delay", "30", "abc")
        wait_for("the three keys' rows", lambda: key_count(db) >= 3, 20)
        assert rec.stop() == 0
    finally:
        xs.close()
    assert snapshot_apps(db)[:2] == ["NoWmOne", "NoWmTwo"]
    keys = rows(db, "SELECT app, sum(count) FROM input_events WHERE kind='key' GROUP BY app")
    assert keys == [("NoWmTwo", 3)]


def snapshot_apps(db: Path) -> list[str]:
    """The apps of the snapshot rows committed so far, in time order."""
    if not db.exists():
        return []
    return [r[0] for r in rows(db, "SELECT app FROM snapshots ORDER BY ts_ms, id")]


def key_count(db: Path) -> int:
    return int(rows(db, "SELECT coalesce(sum(count), 0) FROM input_events WHERE kind='key'")[0][0])


def test_xwayland_session_says_what_it_cannot_see(xs: XSession, tmp_path: Path) -> None:
    """Under Wayland with XWayland, X windows are recorded; time in a window the recorder
    cannot see (no X window focused) is written as '[wayland]', and the log says why."""
    db = tmp_path / "capture.db"
    env = {**xs.env, "WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}
    win = xs.xterm("XwlApp", "xwayland window")
    xs.activate(win)
    rec = xs.recorder(db, "--no-accessibility", env=env)
    rec.wait_ready()
    time.sleep(0.8)
    # Nothing focused: what a native Wayland window looks like from XWayland.
    xs.xdotool("windowminimize", "--sync", str(win))
    time.sleep(1.5)
    assert rec.stop() == 0
    apps = [r[0] for r in rows(db, "SELECT app FROM snapshots ORDER BY ts_ms, id")]
    assert apps[0] == "XwlApp" and "[wayland]" in apps
    log = rec.log.read_text()
    assert "Wayland session: only XWayland windows are visible" in log
    notes = rows(db, "SELECT detail FROM recorder_state WHERE state = 'start'")[0][0]
    assert json.loads(notes)["wayland"] is True
