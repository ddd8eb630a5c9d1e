"""Where the time of ``history-61d-sp`` goes, beside the least a reader can spend.

    python benchmarks/history_floor.py DB [START DAYS]

For each of DAYS days from START (UTC; defaults: the history benchmark's 61 days from
2026-01-05) it times, in this one process:

- the floor: fetching the day's stored rows as SQLite holds them (ids, timestamp text, event
  type and app of ``ui_events``; id, timestamp text, app, title, URL and focus of
  ``frames``), each column comma-joined in C by one query per table over the day's UTC
  date prefix — nothing parsed, grouped, checked or hashed. A reader that must know the
  rows to know whether the day changed (screenpipe-style stores keep no change counter)
  cannot spend less;
- the screenpipe reader's ``read`` of the day, and the capture digest the cache compares.

It prints one JSON line: CPU seconds (this process, every thread) and wall seconds of each.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from datetime import date, timedelta
from pathlib import Path

from actframes.compile.provenance import capture_digest
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.window import day_window

FLOOR_SQL = (
    "SELECT group_concat(id), group_concat(timestamp), group_concat(event_type),"
    " group_concat(app_name) FROM ui_events WHERE timestamp >= ? AND timestamp < ?",
    "SELECT group_concat(id), group_concat(timestamp), group_concat(app_name),"
    " group_concat(window_name), group_concat(browser_url), group_concat(focused)"
    " FROM frames WHERE timestamp >= ? AND timestamp < ?",
)


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def main(argv: list[str]) -> int:
    db = Path(argv[0])
    start = date.fromisoformat(argv[1] if len(argv) > 1 else "2026-01-05")
    days = [start + timedelta(days=i) for i in range(int(argv[2]) if len(argv) > 2 else 61)]
    conn = sqlite3.connect(f"file:{db.resolve()}?mode=ro", uri=True)
    cpu0, wall0 = _clock()
    for d in days:
        bounds = (d.isoformat(), (d + timedelta(days=1)).isoformat())
        for sql in FLOOR_SQL:
            conn.execute(sql, bounds).fetchone()
    cpu1, wall1 = _clock()
    conn.close()
    read_cpu = digest_cpu = 0.0
    src = ScreenpipeSource(db)
    try:
        for d in days:
            w = day_window(d.isoformat(), "UTC")
            t0 = time.process_time()
            cap = src.read(w.start_ms, w.end_ms)
            t1 = time.process_time()
            capture_digest(cap)
            read_cpu += t1 - t0
            digest_cpu += time.process_time() - t1
    finally:
        src.close()
    _, wall2 = _clock()
    out = {
        "days": len(days),
        "floor_cpu_s": round(cpu1 - cpu0, 3),
        "floor_wall_s": round(wall1 - wall0, 3),
        "read_cpu_s": round(read_cpu, 3),
        "digest_cpu_s": round(digest_cpu, 3),
        "read_and_digest_wall_s": round(wall2 - wall1, 3),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
