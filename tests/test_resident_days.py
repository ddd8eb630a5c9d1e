"""The resident cache over several days at once (a period's days): after a writer changed
one day, the days whose rows are as they were are served by one batched look at their
rows' fingerprints, and every answer is still the bytes of a fresh compile."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.api import compile_window
from actframes.cache import DocCache
from actframes.emit.json_out import to_json
from actframes.model import Snapshot
from actframes.resident import ResidentCache
from actframes.simulate import SimDay, write_screenpipe
from actframes.simulate.writers import format_ts
from actframes.sources import open_source
from actframes.window import day_window

TZ = "UTC"
DAYS = ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12"]
WINDOWS = [day_window(d, TZ) for d in DAYS]
T0 = 1_773_046_800_000  # 2026-03-09T09:00:00Z
DAY_MS = 86_400_000
APPS = ["Code", "Slack", "Google Chrome"]


def _days() -> list[SimDay]:
    out = []
    for k, day in enumerate(DAYS):
        base = T0 + k * DAY_MS
        snaps = [
            Snapshot(k * 100 + i + 1, base + i * 9_000, APPS[(i + k) % 3], f"t{i % 4}")
            for i in range(25)
        ]
        out.append(SimDay(day, TZ, ("",), snaps, [], []))
    return out


def _fresh(path: Path) -> list[str]:
    with open_source(path) as src:
        return [to_json(compile_window(src, w)) for w in WINDOWS]


def _write(conn: sqlite3.Connection, what: str, day: int, at: int, app: int) -> None:
    ids = [r[0] for r in conn.execute("SELECT id FROM frames ORDER BY id")]
    with conn:
        if what == "append":
            conn.execute(
                "INSERT INTO frames (id, video_chunk_id, offset_index, timestamp, name,"
                " app_name, window_name, focused, device_name) VALUES (?,1,0,?,'v.mp4',?,?,1,'')",
                (ids[-1] + 1, format_ts(T0 + day * DAY_MS + at * 1_000), APPS[app], "added"),
            )
            return
        day_ids = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM frames WHERE timestamp >= ? AND timestamp < ? ORDER BY id",
                (format_ts(T0 + day * DAY_MS - 3_600_000), format_ts(T0 + (day + 1) * DAY_MS)),
            )
        ]
        if not day_ids:
            return
        rid = day_ids[at % len(day_ids)]
        if what == "edit":
            conn.execute("UPDATE frames SET app_name = ? WHERE id = ?", (APPS[app], rid))
        else:
            conn.execute("DELETE FROM frames WHERE id = ?", (rid,))


steps = st.lists(
    st.tuples(
        st.sampled_from(["append", "edit", "delete"]),
        st.integers(0, len(DAYS) - 1),
        st.integers(0, 30_000),
        st.integers(0, 2),
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=20, deadline=None)
@given(steps, st.booleans())
def test_days_at_once_are_the_bytes_of_a_fresh_compile(
    ops: list[tuple[str, int, int, int]], on_disk: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write_screenpipe(Path(tmp) / "sp.db", _days())
        disk = DocCache(Path(tmp) / "cache") if on_disk else None
        cache = ResidentCache(path, disk=disk)
        conn = sqlite3.connect(path)
        try:
            assert [to_json(d) for d in cache.documents(WINDOWS)] == _fresh(path)
            for op in ops:
                _write(conn, *op)
                want = _fresh(path)
                for _ in range(2):  # the second call is served from memory
                    assert [to_json(d) for d in cache.documents(WINDOWS)] == want
                    made = cache.render_many_future(
                        WINDOWS, None, "json", lambda docs: [to_json(d) for d in docs]
                    ).result()
                    assert made == want
        finally:
            conn.close()
            cache.close()


def test_after_an_append_the_other_days_are_served_by_their_rows_fingerprints(
    tmp_path: Path,
) -> None:
    path = write_screenpipe(tmp_path / "sp.db", _days())
    cache = ResidentCache(path)
    conn = sqlite3.connect(path)
    try:
        before = cache.documents(WINDOWS)
        cache.documents(WINDOWS)  # the rows' fingerprints are noted by now
        _write(conn, "append", 3, 600, 1)  # a row on the last day
        counts = dict(cache.stats)
        after = cache.documents(WINDOWS)
        # Most are served on their rows' fingerprints (a neighbour of the changed day may be
        # read and digested instead); none is compiled, the last day continued from its tail.
        assert cache.stats["fingerprint"] - counts["fingerprint"] >= 2
        assert cache.stats["compiled"] == counts["compiled"]
        assert all(a is b for a, b in zip(after[:3], before[:3], strict=True))  # as kept
        assert after[3] is not before[3]
        assert [to_json(d) for d in after] == _fresh(path)
        # An edit of a past day: that day alone is read again.
        _write(conn, "edit", 1, 3, 2)
        counts = dict(cache.stats)
        again = cache.documents(WINDOWS)
        # The store's fingerprint covers a day's UTC date with its neighbours' edges: the
        # day after is served on it, the day before is read and digested, none compiled.
        assert cache.stats["fingerprint"] - counts["fingerprint"] >= 1
        assert cache.stats["compiled"] - counts["compiled"] == 1  # the edited day alone
        assert again[1] is not after[1]
        assert all(again[k] is after[k] for k in (0, 2, 3))
        assert [to_json(d) for d in again] == _fresh(path)
    finally:
        conn.close()
        cache.close()
