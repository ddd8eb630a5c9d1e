"""Blind spots from the recorder's own word: a session whose ``start`` row says it could
not count input (or see away time) makes the documents of its time say so, and only of
its time."""

from __future__ import annotations

import json
from pathlib import Path

from actframes.api import compile_path
from actframes.capture.store import open_store

DAY0 = 1_796_083_200_000  # 2026-12-01T00:00Z
H = 3_600_000
UNMEASURED = "this source records no key or click counts: input is unmeasured"
NO_AWAY = "this source records no away periods: absence shows only as gaps"


def _store(path: Path, sessions: list[tuple[int, dict[str, str]]]) -> None:
    conn = open_store(path)
    with conn:
        for start, notes in sessions:
            conn.execute(
                "INSERT INTO recorder_state (ts_ms, state, detail) VALUES (?, 'start', ?)",
                (start, json.dumps({"pid": 1, **notes})),
            )
            for i in range(3):
                conn.execute(
                    "INSERT INTO snapshots (ts_ms, app, title, reason) VALUES (?,?,?,?)",
                    (start + i * 60_000, "foot", f"t{i}", "focus"),
                )
    conn.close()


def _spots(db: Path, day: str) -> list[str]:
    return list(compile_path(db, day, "UTC")["blind_spots"])


def test_an_x11_session_measures_everything(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    _store(db, [(DAY0 + 9 * H, {"display": ":0", "wm": "true"})])
    spots = _spots(db, "2026-12-01")
    assert UNMEASURED not in spots and NO_AWAY not in spots


def test_a_wayland_session_without_devices(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    _store(
        db, [(DAY0 + 9 * H, {"backend": "wlroots", "input": "none", "afk": "ext-idle-notify-v1"})]
    )
    spots = _spots(db, "2026-12-01")
    assert UNMEASURED in spots and NO_AWAY not in spots


def test_only_sessions_touching_the_window_count(tmp_path: Path) -> None:
    """Day 1: an X11 session; day 2 morning: one with neither input nor idle; day 3: the
    day-2 session is over (a newer measured one started before day 3)."""
    db = tmp_path / "c.db"
    _store(
        db,
        [
            (DAY0 + 9 * H, {"display": ":0"}),
            (DAY0 + 33 * H, {"backend": "wlroots", "input": "none", "afk": "none"}),
            (DAY0 + 47 * H, {"backend": "wlroots", "input": "evdev", "afk": "org_kde_kwin_idle"}),
        ],
    )
    assert UNMEASURED not in _spots(db, "2026-12-01")
    day2 = _spots(db, "2026-12-02")
    assert UNMEASURED in day2 and NO_AWAY in day2
    day3 = _spots(db, "2026-12-03")
    assert UNMEASURED not in day3 and NO_AWAY not in day3
