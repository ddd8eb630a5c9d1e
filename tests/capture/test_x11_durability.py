"""SIGKILL during heavy writing loses at most the last second and never corrupts the
store; SIGTERM flushes; the compiler reads the store while the recorder writes it."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from actframes.window import local_day_of

from .xsession import XSession, actframes_argv, now_ms, rows, sound_titles


def test_sigkill_during_heavy_writing(xs: XSession, tmp_path: Path) -> None:
    db = tmp_path / "capture.db"
    win = xs.xterm("Busy", "t0")
    xs.activate(win)
    rec = xs.recorder(db, "--heartbeat-seconds", "1", "--no-accessibility")
    rec.wait_ready()

    # Title changes (about 3 a second, under the 5-a-second row limit, so each must be a
    # row) and fast typing (each key a press), noting when each was done, until the kill.
    done: list[tuple[int, str, int]] = []  # (time it was done, title, keys typed so far)
    keys = 0
    t_end = time.monotonic() + 4.0
    i = 0
    while time.monotonic() < t_end:
        i += 1
        title = f"t{i}"
        xs.xdotool("set_window", "--name", title, str(win))
        xs.xdotool("type", "--delay", "8", "abcdefghij")
        keys += 10
        done.append((now_ms(), title, keys))
        time.sleep(0.2)
    killed_at = now_ms()
    rec.kill()

    # The file is sound ...
    titles = sound_titles(db)
    ((stored_keys,),) = rows(
        db, "SELECT coalesce(sum(count), 0) FROM input_events WHERE kind = 'key'"
    )
    # ... and holds everything done more than a second before the kill.
    old = [(t, title, k) for t, title, k in done if t < killed_at - 1000]
    assert len(old) >= 5, "the script did too little to test anything"
    missing = [title for _, title, _ in old if title not in titles]
    assert missing == []
    assert stored_keys >= old[-1][2]
    assert stored_keys <= keys  # never more than was typed


def test_sigterm_flushes_and_compiler_reads_while_recording(xs: XSession, tmp_path: Path) -> None:
    db = tmp_path / "capture.db"
    win = xs.xterm("Reader", "reading")
    xs.activate(win)
    rec = xs.recorder(db, "--no-accessibility")
    rec.wait_ready()
    xs.xdotool("type", "--delay", "20", "abcde")
    time.sleep(1.2)
    day = local_day_of(now_ms(), "UTC")
    # While the recorder runs (and holds the WAL), the compiler reads a consistent view.
    live = subprocess.run(
        actframes_argv("day", day, "--db", str(db), "--tz", "UTC"),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    doc = json.loads(live.stdout)
    assert [f["app"] for f in doc["frames"]] == ["Reader"]
    assert doc["frames"][0]["input"]["keys"] == 5
    # The key typed just before SIGTERM is flushed, and the stop is marked.
    xs.xdotool("key", "x")
    assert rec.stop() == 0
    assert rows(db, "SELECT sum(count) FROM input_events WHERE kind='key'") == [(6,)]
    assert rows(db, "SELECT app, reason FROM snapshots ORDER BY id DESC LIMIT 1") == [
        ("[stopped]", "stop")
    ]
    assert rows(db, "SELECT state FROM recorder_state ORDER BY id") == [("start",), ("stop",)]
    # A clean stop checkpoints the WAL into the main file.
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
