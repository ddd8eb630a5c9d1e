"""The resident cache on aw-server-rust's ``sqlite.db`` answers with the bytes a fresh
compile gives, whatever the server commits between calls: events appended, a heartbeat
lengthening an event (also one begun before the window), deletions, and buckets a
watcher creates once it first reports (ActivityWatch readers list the buckets, and each
one's longest event, when they open the file)."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.api import compile_window
from actframes.emit.json_out import to_json
from actframes.resident import ResidentCache
from actframes.sources import open_source
from actframes.window import day_window

from .sources.test_activitywatch import AW_RUST_SCHEMA

WINDOW = day_window("2026-03-10", "UTC")
T0_MS = 1_773_133_200_000  # 2026-03-10T09:00:00Z
NS = 1_000_000
APPS = ["Code", "Slack", "Firefox"]
BUCKETS = [  # (name, type, host): the first exists from the start
    ("aw-watcher-window_a", "currentwindow", "a"),
    ("aw-watcher-afk_a", "afkstatus", "a"),
    ("aw-watcher-window_b", "currentwindow", "b"),
]


class _Server:
    """Writes the file as aw-server-rust does (ns times, compact JSON data, committed)."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.executescript(AW_RUST_SCHEMA)
        self.rows: dict[str, int] = {}
        self.bucket(0)
        for i in range(12):
            self.event(0, T0_MS + i * 60_000, 60_000, i)
        self.conn.commit()

    def bucket(self, n: int) -> int:
        name, type_, host = BUCKETS[n]
        if name not in self.rows:
            self.rows[name] = int(
                self.conn.execute(
                    "INSERT INTO buckets (name, type, client, hostname, created, data)"
                    " VALUES (?, ?, 'test', ?, '2026-03-01T00:00:00Z', '{}')",
                    (name, type_, host),
                ).lastrowid
                or 0
            )
        return self.rows[name]

    def event(self, n: int, start_ms: int, dur_ms: int, k: int) -> None:
        data = (
            {"status": "not-afk" if k % 2 else "afk"}
            if BUCKETS[n][1] == "afkstatus"
            else {"app": APPS[k % 3], "title": f"t{k % 4}"}
        )
        self.conn.execute(
            "INSERT INTO events (bucketrow, starttime, endtime, data) VALUES (?, ?, ?, ?)",
            (self.bucket(n), start_ms * NS, (start_ms + dur_ms) * NS, json.dumps(data)),
        )

    def do(self, what: str, n: int, at_s: int, k: int) -> None:
        if what == "append":
            self.event(n, T0_MS + at_s * 1000, 30_000, k)
        elif what == "before_window":  # began yesterday, ended before the window
            self.event(n, T0_MS - 12 * 3_600_000 + at_s * 1000, 60_000, k)
        elif what == "heartbeat":  # the last event (of any bucket) grows by at_s * 10 s
            self.conn.execute(
                "UPDATE events SET endtime = endtime + ? WHERE id = (SELECT max(id) FROM events)",
                (at_s * 10_000 * NS,),
            )
        else:
            self.conn.execute(
                "DELETE FROM events WHERE id = (SELECT min(id) + ? FROM events)", (k,)
            )
        self.conn.commit()


def _fresh(path: Path) -> str:
    src = open_source(path)
    try:
        return to_json(compile_window(src, WINDOW))
    finally:
        src.close()


ops = st.lists(
    st.tuples(
        st.sampled_from(["append", "before_window", "heartbeat", "delete"]),
        st.integers(0, len(BUCKETS) - 1),
        st.integers(0, 7_200),
        st.integers(0, 5),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=25, deadline=None)
@given(ops)
def test_aw_server_rust_store_same_bytes_as_a_fresh_compile(
    steps: list[tuple[str, int, int, int]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sqlite.db"
        server = _Server(path)
        cache = ResidentCache(path)
        try:
            assert to_json(cache.document(WINDOW)) == _fresh(path)
            for step in steps:
                server.do(*step)
                for _ in range(2):  # the second call is served from memory
                    assert to_json(cache.document(WINDOW)) == _fresh(path)
        finally:
            server.conn.close()
            cache.close()
