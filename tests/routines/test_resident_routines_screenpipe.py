"""Routines kept across calls on a screenpipe-style store: each day's steps kept by the
fingerprint of the raw rows its read keeps (``sources/screenpipe/steps_fingerprint``).
The routines served are the bytes of a cold mining whatever a writer did between calls
(appends, edits, moves, deletions of frames, input rows and element trees, in several
timestamp shapes, at the days' edges and on the day after the window), and a row added
to one day reads that day again, no other."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.day_steps_cache import DayStepsCache
from actframes.resident_routines import ResidentRoutines
from actframes.routines.store_mining import window_of
from actframes.simulate.writers import SCREENPIPE_SCHEMA, format_ts
from actframes.sources.actions import steps_fingerprints
from actframes.sources.watch import StoreWatch
from actframes.window import day_window

from .kept_mining import EDGE, RULES, cold, kept_follow_every_change, mining_bytes, warm

TZ = "Europe/Berlin"
ZONES = [TZ, "UTC"]
DAYS = ["2026-03-09", "2026-03-10", "2026-03-11"]
UNTIL = DAYS[-1]
PAGES = [
    "https://claims.example.test/new",
    "https://claims.example.test/form",
    "https://mail.example.test/",
]
# What screenpipe writes, and other shapes the reader parses (offsets, no 'T').
STYLES = ["iso_z_micro", "iso_z", "offset", "space"]


def _ts(ms: int, style: str = "iso_z_micro") -> str:
    return format_ts(ms, style, "America/New_York")


def _store(path: Path, tz: str) -> Path:
    """Three local days, each with the same round of pages three times: a frame per page
    (one in twenty with an element tree), a click on a named button and a typing burst,
    and a page opened just before each midnight."""
    conn = sqlite3.connect(path)
    conn.executescript(SCREENPIPE_SCHEMA)
    with conn:
        for day in DAYS:
            w = day_window(day, tz)
            _frame(conn, w.end_ms - 100_000, PAGES[2], "Chromium")
            for run in range(3):
                t = w.start_ms + 9 * 3_600_000 + run * 1_800_000
                for k, url in enumerate(PAGES):
                    fid = _frame(conn, t + k * 20_000, url, "Chromium")
                    conn.execute(
                        "INSERT INTO elements (frame_id, role, text, left_bound, top_bound,"
                        " width_bound, height_bound)"  # fractions, as screenpipe writes
                        " VALUES (?, 'AXButton', ?, 0.005, 0.01, 0.04, 0.02)",
                        (fid, f"Next {k}"),
                    )
                    _event(conn, t + k * 20_000 + 2_000, "click", "Chromium", k)
                    _event(conn, t + k * 20_000 + 5_000, "text", "Chromium", k)
    conn.close()
    return path


def _frame(conn: sqlite3.Connection, ms: int, url: str, app: str, style: str = "") -> int:
    cur = conn.execute(
        "INSERT INTO frames (timestamp, app_name, window_name, browser_url, focused,"
        " device_name) VALUES (?, ?, ?, ?, 1, 'monitor_0')",
        (_ts(ms, style or "iso_z_micro"), app, f"{app} page", url),
    )
    return int(cur.lastrowid or 0)


def _event(conn: sqlite3.Connection, ms: int, kind: str, app: str, k: int, style: str = "") -> None:
    named = kind == "click" and k != 2  # the third page's click names no target
    conn.execute(
        "INSERT INTO ui_events (timestamp, event_type, x, y, click_count, text_content,"
        " app_name, window_title, element_role, element_name) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            _ts(ms, style or "iso_z_micro"),
            kind,
            40 if kind == "click" else None,
            20 if kind == "click" else None,
            1 if kind == "click" else None,
            "x" * (k + 1) if kind == "text" else None,
            app,
            f"{app} page",
            "AXButton" if named else None,
            f"Next {k}" if named else None,
        ),
    )


_EVENT_EDITS: list[tuple[str, object]] = [
    ("element_name", "Submit"),
    ("element_role", "AXLink"),
    ("text_content", None),
    ("event_type", "click"),
    ("event_type", "clipboard"),
    ("window_title", "Code page"),
    ("browser_url", PAGES[2]),
    ("x", 400),
    ("y", 2.5),
    ("click_count", 0),
    ("modifiers", 2),
    ("app_name", "Code"),
    ("text_length", 9),
]


class _Writer:
    """Changes the store as plain committed SQL, the way a recorder would."""

    def __init__(self, path: Path, tz: str) -> None:
        self.conn, self.tz = sqlite3.connect(path), tz

    def do(
        self, what: str, table: str, day: int, secs: int, pick: float, k: int, style: str
    ) -> None:
        ts = day_window(DAYS[0], self.tz).start_ms + day * 86_400_000 + secs * 1_000
        ids = [r[0] for r in self.conn.execute(f"SELECT id FROM {table} ORDER BY id")]
        rid = ids[min(int(pick * len(ids)), len(ids) - 1)] if ids else None
        app = "Code" if k == 1 else "Chromium"
        with self.conn:
            if what == "append" and table == "frames":
                _frame(self.conn, ts, PAGES[k], app, style)
            elif what == "append" and table == "ui_events":
                _event(self.conn, ts, ("click", "text", "key")[k], app, k, style)
            elif what == "append" and rid is not None:  # a tree for another frame
                self.conn.execute(
                    "INSERT INTO elements (frame_id, role, text, left_bound, top_bound,"
                    " width_bound, height_bound) VALUES (?, 'AXLink', 'Back', 0, 0, 0.05, 0.06)",
                    (rid,),
                )
            elif rid is None:
                return
            elif what == "edit" and table == "frames":
                self.conn.execute(
                    "UPDATE frames SET browser_url = ?, app_name = ? WHERE id = ?",
                    (PAGES[k], app, rid),
                )
            elif what == "edit" and table == "ui_events":
                # Each column the steps read: target, typed length, kind, window, page,
                # point, look-up row or click, shortcut or clipboard operation.
                column, value = _EVENT_EDITS[(k * 7 + int(pick * 97)) % len(_EVENT_EDITS)]
                if column == "text_content":
                    value = "y" * (3 + int(pick * 5))
                self.conn.execute(f"UPDATE ui_events SET {column} = ? WHERE id = ?", (value, rid))
            elif what == "edit":
                self.conn.execute(
                    "UPDATE elements SET text = ?, width_bound = ? WHERE id = ?",
                    (f"Next {k}", 0.01 + k * 0.02, rid),
                )
            elif what == "move" and table != "elements":
                self.conn.execute(
                    f"UPDATE {table} SET timestamp = ? WHERE id = ?", (_ts(ts, style), rid)
                )
            elif what in ("move", "delete"):
                self.conn.execute(f"DELETE FROM {table} WHERE id = ?", (rid,))


def _cold(path: Path, days: int, tz: str = TZ) -> tuple[str, list[object]]:
    return cold(path, days, tz, UNTIL)


def _warm(kept: ResidentRoutines, days: int, tz: str = TZ) -> tuple[str, list[object]]:
    return warm(kept, days, tz, UNTIL)


ops = st.lists(
    st.tuples(
        st.sampled_from(["append", "edit", "move", "delete"]),
        st.sampled_from(["frames", "ui_events", "elements"]),
        st.integers(0, 3),
        EDGE,
        st.floats(0, 1),
        st.integers(0, 2),
        st.sampled_from(STYLES),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ZONES), ops)
def test_kept_days_mine_the_bytes_of_a_cold_mining(tz: str, changes: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _store(Path(tmp) / "store.db", tz)
        writer = _Writer(path, tz)
        try:
            kept_follow_every_change(path, tz, UNTIL, writer.do, changes)
        finally:
            writer.conn.close()


def test_the_fixture_has_routines(tmp_path: Path) -> None:
    path = _store(tmp_path / "store.db", TZ)
    assert len(json.loads(_cold(path, 3)[0])) >= 1


def test_a_row_added_today_reads_today_only(tmp_path: Path) -> None:
    path = _store(tmp_path / "store.db", TZ)
    watch = StoreWatch(path)
    kept = ResidentRoutines(path, None, lambda: watch.token())
    writer = _Writer(path, TZ)
    try:
        first = _warm(kept, 3)
        assert kept.stats == {"served": 0, "fingerprint": 0, "read": 3, "mined": 1}
        assert _warm(kept, 3) == first
        assert kept.stats == {"served": 3, "fingerprint": 0, "read": 3, "mined": 1}
        # A frame of a page seen again this afternoon: today is read again, its steps
        # change; the other two days keep theirs by fingerprint.
        writer.do("append", "frames", 2, 60_000, 0.0, 0, "iso_z_micro")
        assert _warm(kept, 3) == _cold(path, 3) != first
        assert kept.stats == {"served": 3, "fingerprint": 2, "read": 4, "mined": 2}
        # A scroll changes no step: today is read again, the mining stands.
        writer.conn.execute(
            "INSERT INTO ui_events (timestamp, event_type, app_name) VALUES (?, 'scroll', 'x')",
            (_ts(day_window(UNTIL, TZ).start_ms + 61_000_000),),
        )
        writer.conn.commit()
        assert _warm(kept, 3) == _cold(path, 3)
        assert kept.stats == {"served": 3, "fingerprint": 4, "read": 5, "mined": 2}
    finally:
        writer.conn.close()
        watch.close()


def test_each_day_moves_with_its_own_rows_only(tmp_path: Path) -> None:
    """The fingerprint of a day moves with a row inside it or its read margins, and with
    nothing else: not with a row of the next day's afternoon, though the next date's text
    lies in the index ranges the day's read searches (offsets reach a day)."""
    path = _store(tmp_path / "store.db", "UTC")
    spans = [(w.start_ms, w.end_ms) for w in (day_window(d, "UTC") for d in DAYS)]
    before = steps_fingerprints(path, "screenpipe", spans)
    assert None not in before and len(set(before)) == 3
    writer = _Writer(path, "UTC")
    try:
        writer.do("append", "ui_events", 2, 50_000, 0.0, 2, "iso_z_micro")
        after = steps_fingerprints(path, "screenpipe", spans)
        assert after[:2] == before[:2] and after[2] != before[2]
        # A row within the read margin after day 1 (a minute past its midnight) moves
        # day 1 too.
        writer.do("append", "frames", 2, 60, 0.0, 0, "iso_z_micro")
        again = steps_fingerprints(path, "screenpipe", spans)
        assert again[0] == before[0] and again[1] != after[1] and again[2] != after[2]
    finally:
        writer.conn.close()


def test_typed_text_moves_the_fingerprint_by_its_length_only(tmp_path: Path) -> None:
    """Typed text is never hashed: a burst of the same length keeps the day's steps
    (counts of characters), one of another length changes them."""
    path = _store(tmp_path / "store.db", "UTC")
    spans = [(w.start_ms, w.end_ms) for w in (day_window(d, "UTC") for d in DAYS)]
    before = steps_fingerprints(path, "screenpipe", spans)
    conn = sqlite3.connect(path)
    try:
        rid = conn.execute(
            "SELECT id FROM ui_events WHERE event_type = 'text' ORDER BY id LIMIT 1"
        ).fetchone()[0]
        with conn:
            conn.execute("UPDATE ui_events SET text_content = 'z' WHERE id = ?", (rid,))
        assert steps_fingerprints(path, "screenpipe", spans) == before
        with conn:
            conn.execute("UPDATE ui_events SET text_content = 'zz' WHERE id = ?", (rid,))
        assert steps_fingerprints(path, "screenpipe", spans)[0] != before[0]
        # A NUL hides what follows it from SQLite's length(): the day has no fingerprint
        # (always read), the others keep theirs.
        with conn:
            conn.execute("UPDATE ui_events SET text_content = 'a' || char(0) WHERE id = ?", (rid,))
        got = steps_fingerprints(path, "screenpipe", spans)
        assert got[0] is None and got[1:] == before[1:]
    finally:
        conn.close()


def test_days_on_disk_serve_a_later_process_without_typed_text(tmp_path: Path) -> None:
    path = _store(tmp_path / "store.db", TZ)
    cache = DayStepsCache(tmp_path / "cache")
    start, end = window_of(TZ, 3, UNTIL)

    def run(include_text: bool = False) -> tuple[tuple[str, list[object]], dict[str, int]]:
        kept = ResidentRoutines(path, None, lambda: None, disk=cache)
        return mining_bytes(kept.mining(TZ, start, end, RULES, include_text)), kept.stats

    first, stats = run()
    assert first == _cold(path, 3) and stats["read"] == 3 and stats["disk"] == 0
    again, stats = run()
    assert again == first and stats["read"] == 0 and stats["disk"] == 3
    _Writer(path, TZ).do("append", "frames", 2, 60_000, 0.0, 0, "iso_z")
    changed, stats = run()
    assert changed == _cold(path, 3) != first
    assert stats["read"] == 1 and stats["disk"] == 2
    for entry in cache.root.iterdir():
        entry.unlink()
    with_text, stats = run(include_text=True)
    assert "xxx" in with_text[0]  # the typed text is in the plan's values...
    assert list(cache.root.iterdir()) == []  # ...and in no file


def test_typed_text_is_kept_in_no_memory(tmp_path: Path) -> None:
    """A mining with typed text is read and mined afresh: neither its days nor its
    routines stay in a long-lived process."""
    path = _store(tmp_path / "store.db", TZ)
    watch = StoreWatch(path)
    kept = ResidentRoutines(path, None, lambda: watch.token())
    start, end = window_of(TZ, 3, UNTIL)
    try:
        first = kept.mining(TZ, start, end, RULES, include_text=True)
        again = kept.mining(TZ, start, end, RULES, include_text=True)
        assert "xxx" in json.dumps(first.routines) and again is not first
        assert mining_bytes(again) == mining_bytes(first)
        assert kept.stats == {"served": 0, "fingerprint": 0, "read": 0, "mined": 2}
        assert not kept._days and not kept._minings
    finally:
        watch.close()
