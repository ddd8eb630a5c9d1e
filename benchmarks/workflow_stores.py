"""The routines benchmark's stores: the simulated history of steps (``actframes.simulate.
workflows``: office routines with variants among free work, every calendar day) written as
a screenpipe-style database (``write_workflows``, each typing burst one ``text`` row, as
screenpipe writes it) and as a native store.

The native store is written as the X11 recorder would write it: a snapshot per page or
window change and every few seconds of activity, a snapshot with the window's element
tree at each click (the recorder walks the tree when the user clicks), and counted input
events with their points. A native store never holds typed text: a typing burst is its
key presses only. Used by ``benchmarks/run.py`` (``routines-28d``, ``routines-28d-sp``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from actframes.capture.store import open_store
from actframes.simulate.workflows import StepDay, UIAction, simulate_workflows, write_workflows
from actframes.simulate.writers import new_file

FIRST_DAY, DAYS, TZ, SEED = "2026-02-09", 28, "UTC", 7
LAST_DAY = "2026-03-08"  # the 28th day from FIRST_DAY

# Counted kinds of the native store, by the simulated action's kind (text: the key
# presses before it are already counted).
_KINDS = {"click": "click", "key": "key", "scroll": "scroll", "clipboard": "copy", "paste": "paste"}
# The clicked element's box around the point the click aimed at (clicks land a few
# pixels off it).
_BOX_W, _BOX_H = 60, 24


def build(path: Path, family: str) -> Path:
    """The history in a ``family`` store (native or screenpipe) at ``path``."""
    days = simulate_workflows(FIRST_DAY, DAYS, TZ, seed=SEED, every_day=True, fill_workday=True)
    assert days[-1].day == LAST_DAY
    if family == "native":
        return write_workflows_native(path, days)
    # screenpipe writes a typing burst as one ``text`` row (its ``key`` rows are
    # shortcuts, SPEC.md §1.2): the key presses before each burst are not rows of their own.
    return write_workflows(path, [d._replace(actions=_bursts(d.actions)) for d in days])


def _bursts(actions: list[UIAction]) -> list[UIAction]:
    return [a for a in actions if a.kind != "key"]


def write_workflows_native(path: str | Path, days: list[StepDay]) -> Path:
    p = new_file(path)
    conn = open_store(p)
    try:
        with conn:
            for day in days:
                _write_day(conn, day)
    finally:
        conn.close()
    return p


def _write_day(conn: sqlite3.Connection, day: StepDay) -> None:
    last: tuple[str, str, str | None] | None = None
    last_t = 0
    for a in day.actions:
        ctx = (a.app, a.title, a.url)
        if a.kind == "click" and a.x is not None and a.y is not None:
            _snapshot_with_tree(conn, a)
            last, last_t = ctx, a.ts_ms
        elif ctx != last or a.ts_ms - last_t >= 5_000:
            _snapshot(conn, a)
            last, last_t = ctx, a.ts_ms
        kind = _KINDS.get(a.kind)
        if kind is not None:
            conn.execute(
                "INSERT INTO input_events (ts_ms, kind, count, device, app, x, y)"
                " VALUES (?, ?, 1, '', ?, ?, ?)",
                (a.ts_ms, kind, a.app, a.x, a.y),
            )


def _snapshot(conn: sqlite3.Connection, a: UIAction) -> int:
    cur = conn.execute(
        "INSERT INTO snapshots (ts_ms, device, app, title, url, reason) VALUES (?, '', ?, ?, ?, ?)",
        (a.ts_ms, a.app, a.title, a.url, "focus"),
    )
    return int(cur.lastrowid or 0)


def _snapshot_with_tree(conn: sqlite3.Connection, a: UIAction) -> None:
    sid = _snapshot(conn, a)
    x, y = a.x or 0, a.y or 0
    conn.execute(
        "INSERT INTO elements (snapshot_id, ts_ms, parent, depth, role, name, x, y, w, h)"
        " VALUES (?, ?, NULL, 0, 'window', ?, 0, 0, 1920, 1080)",
        (sid, a.ts_ms, a.title),
    )
    if a.role is not None:
        conn.execute(
            "INSERT INTO elements (snapshot_id, ts_ms, parent, depth, role, name, x, y, w, h)"
            " VALUES (?, ?, NULL, 1, ?, ?, ?, ?, ?, ?)",
            (sid, a.ts_ms, a.role, a.name or "", x - _BOX_W // 2, y - _BOX_H // 2, _BOX_W, _BOX_H),
        )
