"""Exclusions on a real X server: an excluded app's window and a window whose title
matches an excluded pattern never reach the store — not its title, not its class, not
in the WAL, not in the log."""

from __future__ import annotations

import time
from pathlib import Path

from .xsession import XSession, rows

CONFIG = """
[exclude]
apps = ["Secret*"]
titles = ["(?i)top secret"]
hosts = ["bank.example"]
"""


def test_excluded_windows_never_reach_the_store(xs: XSession, tmp_path: Path) -> None:
    cfg = tmp_path / "config" / "actframes" / "recorder.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text(CONFIG)
    db = tmp_path / "capture.db"
    plain = xs.xterm("PlainApp", "plain work")
    secret = xs.xterm("SecretKeeper", "vault-7731")
    other = xs.xterm("NotesApp", "notes")
    xs.activate(plain)
    rec = xs.recorder(db, "--heartbeat-seconds", "1", "--no-accessibility")
    rec.wait_ready()
    time.sleep(0.6)
    xs.activate(secret)
    xs.xdotool("type", "--delay", "20", "hunter")
    time.sleep(1.5)
    xs.activate(other)
    xs.xdotool("type", "--delay", "20", "ok")
    time.sleep(0.6)
    # The notes window gets a title matching an excluded pattern, is used, then renamed.
    xs.xdotool("set_window", "--name", "TOP SECRET plans-9924", str(other))
    time.sleep(0.6)
    xs.xdotool("type", "--delay", "20", "abc")
    time.sleep(1.5)
    xs.xdotool("set_window", "--name", "notes again", str(other))
    time.sleep(0.8)
    xs.activate(plain)
    time.sleep(0.6)
    # Read the live WAL before the clean stop folds it into the main file.
    wal = db.with_name(db.name + "-wal")
    live = wal.read_bytes() if wal.exists() else b""
    assert rec.stop() == 0

    files = [db.read_bytes(), live, rec.log.read_bytes()]
    for blob in files:
        low = blob.lower()
        for secret_text in (b"secretkeeper", b"vault-7731", b"top secret", b"plans-9924"):
            assert secret_text not in low

    apps = [r[0] for r in rows(db, "SELECT app FROM snapshots ORDER BY ts_ms, id")]
    runs = [a for i, a in enumerate(apps) if i == 0 or apps[i - 1] != a]
    assert runs == [
        "PlainApp", "[excluded]", "NotesApp", "[excluded]", "NotesApp", "PlainApp", "[stopped]"
    ]  # fmt: skip
    excluded = rows(
        db, "SELECT title, url, window, exe, monitor FROM snapshots WHERE app='[excluded]'"
    )
    assert excluded and all(r == ("", None, None, None, None) for r in excluded)
    # No input is counted for excluded windows; the allowed ones keep their counts.
    keys = dict(rows(db, "SELECT app, sum(count) FROM input_events GROUP BY app"))
    assert keys == {"NotesApp": 2}
