"""The least any Python program spends on one day of a screenpipe-style store.

Usage: floor.py DB DAY ZONE

It starts the interpreter, imports what reading a store and writing a document need
(sqlite3, zoneinfo, json), places the local day, fetches the day's frames and counted
input events as raw rows — timestamps left as text, nothing parsed, compiled or checked —
and prints their counts as JSON. ``make bench`` times it beside the reference (the
``floor-*`` benchmarks): the reference's time over this one is the largest speed-up a
Python implementation could show on that database, whatever it does with the rows.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

# The counted input kinds, as the screenpipe reader counts them (written out, not imported
# from actframes: importing the package would be more than the floor).
COUNTED = (
    "key", "keydown", "key_press", "text", "click", "mouse_click", "scroll", "clipboard", "copy",
    "paste",
)  # fmt: skip


def main(db: str, day: str, zone: str) -> None:
    start = datetime.fromisoformat(day).replace(tzinfo=ZoneInfo(zone))
    # Date-prefix bounds a day wider on each side than the local day: any UTC offset.
    lo = (start - timedelta(days=1)).date().isoformat()
    hi = (start + timedelta(days=2)).date().isoformat()
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    frames = conn.execute(
        "SELECT id, timestamp, app_name, window_name, browser_url, focused FROM frames"
        " WHERE timestamp >= ? AND timestamp < ?",
        (lo, hi),
    ).fetchall()
    marks = ",".join("?" * len(COUNTED))
    events = conn.execute(
        "SELECT id, timestamp, event_type, app_name FROM ui_events"
        f" WHERE timestamp >= ? AND timestamp < ? AND event_type IN ({marks})"
        # a click's accessibility look-up row is not a click
        " AND NOT (event_type = 'click' AND click_count IS 0)",
        (lo, hi, *COUNTED),
    ).fetchall()
    sys.stdout.write(json.dumps({"frames": len(frames), "events": len(events)}) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
