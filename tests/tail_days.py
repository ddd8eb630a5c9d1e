"""What the incremental-today tests of every store family share: the day they grow, its
first rows, how late a "late" row is, and the fresh compile each answer must equal."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from actframes.api import compile_window
from actframes.emit.json_out import to_json
from actframes.model import InputEvent, Snapshot
from actframes.simulate import SimDay
from actframes.sources import open_source
from actframes.tail import CUT_SLACK_MS, CUT_STEP_MS
from actframes.window import day_window

DAY, TZ = "2026-03-10", "UTC"
T0 = 1_773_133_200_000  # 2026-03-10T09:00:00Z
WINDOW = day_window(DAY, TZ)

# "Late" rows are stamped before any cut the cache may hold (the cut trails the newest row
# by the slack, the cut's step and at most one writer's step of up to 400 s).
LATE_MS = CUT_SLACK_MS + CUT_STEP_MS + 401_000


def first_rows(n: int, apps: Sequence[str]) -> SimDay:
    """``n`` snapshots in the first three ``apps`` and ``n`` events, keys and clicks in
    every app already (a new event column is read whole)."""
    snaps = [Snapshot(i + 1, T0 + i * 7_000, apps[i % 3], f"t{i % 4}") for i in range(n)]
    events = [
        InputEvent(k + 1, T0 + 500 + k * 3_000, ("key", "click")[k % 2], apps[(k // 2) % len(apps)])
        for k in range(n)
    ]
    return SimDay(DAY, TZ, ("",), snaps, events, [])


def fresh(path: Path) -> str:
    """The document of ``WINDOW`` compiled from scratch, as JSON text."""
    src = open_source(path)
    try:
        return to_json(compile_window(src, WINDOW))
    finally:
        src.close()
