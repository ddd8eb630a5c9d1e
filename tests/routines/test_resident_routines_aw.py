"""Routines kept across calls on aw-server-rust's database: each day's steps kept by the
fingerprint of the events its read reaches (``sources/activitywatch/steps_fingerprint``). The
routines served are the bytes of a cold mining whatever a writer did between calls, and
a row added to one day reads that day again, no other; an export is mined whole."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.resident_routines import ResidentRoutines
from actframes.routines.store_mining import by_day
from actframes.sources.actions import steps_fingerprints
from actframes.sources.watch import StoreWatch
from actframes.window import day_window

from ..sources.test_activitywatch import AW_RUST_SCHEMA, AW_RUST_V5
from .kept_mining import EDGE, cold, kept_follow_every_change, warm

TZ = "Europe/Berlin"
ZONES = [TZ, "UTC"]
DAYS = ["2026-03-09", "2026-03-10", "2026-03-11"]
UNTIL = DAYS[-1]
PAGES = [
    "https://claims.example.test/new",
    "https://claims.example.test/form",
    "https://mail.example.test/",
]
NS = 1_000_000
WINDOW, WEB, AFK = 1, 2, 3  # bucket rows


def _store(path: Path, tz: str, v5: bool = False) -> Path:
    """Three local days, each with the same round of pages three times (a window event and
    a tab event per page, 20 s each), the person active all morning, and a page opened
    just before each midnight."""
    conn = sqlite3.connect(path)
    conn.executescript(AW_RUST_SCHEMA)
    for row, (name, kind) in enumerate(
        [
            ("aw-watcher-window_h", "currentwindow"),
            ("aw-watcher-web-chrome", "web.tab.current"),
            ("aw-watcher-afk_h", "afkstatus"),
        ],
        start=1,
    ):
        conn.execute(
            "INSERT INTO buckets (id, name, type, client, hostname, created)"
            " VALUES (?, ?, ?, 'aw', 'h', '2026-03-01T00:00:00Z')",
            (row, name, kind),
        )
    for day in DAYS:
        w = day_window(day, tz)
        _page(conn, w.end_ms - 100_000, 2)
        t0 = w.start_ms + 9 * 3_600_000
        _event(conn, AFK, t0 - 60_000, 3 * 3_600_000, {"status": "not-afk"})
        for run in range(3):
            for k in range(3):
                _page(conn, t0 + run * 1_800_000 + k * 20_000, k)
    if v5:
        conn.executescript(AW_RUST_V5)
    conn.commit()
    conn.close()
    return path


def _event(conn: sqlite3.Connection, bucket: int, ms: int, dur_ms: int, data: object) -> None:
    conn.execute(
        "INSERT INTO events (bucketrow, starttime, endtime, data) VALUES (?, ?, ?, ?)",
        (bucket, ms * NS, (ms + dur_ms) * NS, json.dumps(data, separators=(",", ":"))),
    )


def _page(conn: sqlite3.Connection, ms: int, k: int, app: str = "Google-chrome") -> None:
    _event(conn, WINDOW, ms, 20_000, {"app": app, "title": f"page {k}"})
    _event(conn, WEB, ms, 20_000, {"url": PAGES[k], "title": f"page {k}", "audible": False})


class _Writer:
    def __init__(self, path: Path, tz: str) -> None:
        self.conn, self.tz = sqlite3.connect(path), tz

    def do(self, what: str, bucket: int, day: int, secs: int, pick: float, k: int) -> None:
        ms = day_window(DAYS[0], self.tz).start_ms + day * 86_400_000 + secs * 1_000
        ids = [
            r[0]
            for r in self.conn.execute(
                "SELECT id FROM events WHERE bucketrow = ? ORDER BY id", (bucket,)
            )
        ]
        rid = ids[min(int(pick * len(ids)), len(ids) - 1)] if ids else None
        with self.conn:
            if what == "append" and bucket == AFK:
                _event(self.conn, AFK, ms, 600_000, {"status": ("afk", "not-afk")[k % 2]})
            elif what == "append":
                _page(self.conn, ms, k, "Code" if k == 1 else "Google-chrome")
            elif rid is None:
                return
            elif what == "edit":
                data = (
                    {"url": PAGES[k], "title": "edited", "audible": k == 2}
                    if bucket == WEB
                    else {"app": "Code", "title": "edited"}
                    if bucket == WINDOW
                    else {"status": "afk"}
                )
                self.conn.execute(
                    "UPDATE events SET data = ? WHERE id = ?", (json.dumps(data), rid)
                )
            elif what == "move":
                self.conn.execute(
                    "UPDATE events SET starttime = ?, endtime = ? + endtime - starttime"
                    " WHERE id = ?",
                    (ms * NS, ms * NS, rid),
                )
            elif what == "stretch":  # a heartbeat extends the last event
                self.conn.execute(
                    "UPDATE events SET endtime = endtime + ? WHERE id = ?", (secs * NS * 10, rid)
                )
            else:
                self.conn.execute("DELETE FROM events WHERE id = ?", (rid,))


def _cold(path: Path, days: int, tz: str = TZ) -> tuple[str, list[object]]:
    return cold(path, days, tz, UNTIL)


def _warm(kept: ResidentRoutines, days: int, tz: str = TZ) -> tuple[str, list[object]]:
    return warm(kept, days, tz, UNTIL)


ops = st.lists(
    st.tuples(
        st.sampled_from(["append", "edit", "move", "stretch", "delete"]),
        st.sampled_from([WINDOW, WEB, AFK]),
        st.integers(0, 3),
        EDGE,
        st.floats(0, 1),
        st.integers(0, 2),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(ZONES), st.booleans(), ops)
def test_kept_days_mine_the_bytes_of_a_cold_mining(tz: str, v5: bool, changes: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _store(Path(tmp) / "sqlite.db", tz, v5)
        writer = _Writer(path, tz)
        try:
            kept_follow_every_change(path, tz, UNTIL, writer.do, changes)
        finally:
            writer.conn.close()


def test_the_fixture_has_routines(tmp_path: Path) -> None:
    path = _store(tmp_path / "sqlite.db", TZ)
    assert by_day(path, None)
    assert json.loads(_cold(path, 3)[0])


def test_a_row_added_today_reads_today_only(tmp_path: Path) -> None:
    path = _store(tmp_path / "sqlite.db", TZ)
    watch = StoreWatch(path)
    kept = ResidentRoutines(path, None, lambda: watch.token())
    writer = _Writer(path, TZ)
    try:
        first = _warm(kept, 3)
        assert kept.stats == {"served": 0, "fingerprint": 0, "read": 3, "mined": 1}
        writer.do("append", WINDOW, 2, 36_900, 0.0, 0)  # a page at 10:15, active
        assert _warm(kept, 3) == _cold(path, 3) != first
        assert kept.stats == {"served": 0, "fingerprint": 2, "read": 4, "mined": 2}
        spans = [(w.start_ms, w.end_ms) for w in (day_window(d, TZ) for d in DAYS)]
        before = steps_fingerprints(path, "activitywatch", spans)
        writer.do("stretch", WINDOW, 0, 30, 0.05, 0)  # a morning event of day 0
        after = steps_fingerprints(path, "activitywatch", spans)
        assert after[0] != before[0] and after[1:] == before[1:]
    finally:
        writer.conn.close()
        watch.close()


def test_an_export_is_mined_whole(tmp_path: Path) -> None:
    export = tmp_path / "aw-buckets-export.json"
    export.write_text(json.dumps({"buckets": {}}), encoding="utf-8")
    assert not by_day(export, "activitywatch")
