"""The simulated workday generator and the writers that store it as real files."""

from __future__ import annotations

import json
import sqlite3
from bisect import bisect_right
from collections import Counter
from contextlib import closing
from dataclasses import replace
from datetime import date
from itertools import pairwise
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from actframes.model import CLICK, INPUT_KINDS, Span
from actframes.simulate import (
    TS_STYLES,
    SimDay,
    format_ts,
    simulate_day,
    simulate_days,
    write_aw_export,
    write_native,
    write_screenpipe,
)
from actframes.simulate.writers import LOOKUP_ID_BASE
from actframes.timeparse import parse_iso_ms
from actframes.window import day_window

DAY = "2026-03-10"
TZ = "Europe/Berlin"


@pytest.fixture(scope="module")
def sim() -> SimDay:
    return simulate_day(DAY, TZ)


@pytest.fixture(scope="module")
def sim2() -> SimDay:
    return simulate_day(DAY, TZ, seed=11, devices=("monitor_1", "monitor_2"))


def _small(day: SimDay, n: int = 300) -> SimDay:
    """The first n rows of a day and the events up to the last of them."""
    rows = day.snapshots[:n]
    last = rows[-1].ts_ms
    return replace(day, snapshots=rows, events=[e for e in day.events if e.ts_ms <= last])


def _in_span(ts: int, spans: list[Span]) -> bool:
    return any(s.start_ms <= ts < s.end_ms for s in spans)


# ---------------------------------------------------------------------------- generator


def test_same_seed_same_day(sim: SimDay) -> None:
    again = simulate_day(DAY, TZ)
    assert again.snapshots == sim.snapshots
    assert again.events == sim.events
    assert again.afk == sim.afk


def test_different_seeds_differ(sim: SimDay) -> None:
    other = simulate_day(DAY, TZ, seed=8)
    assert other.snapshots != sim.snapshots
    assert other.events != sim.events


@pytest.mark.parametrize("rows", [2600, 26000])
def test_row_count_near_target(rows: int) -> None:
    day = simulate_day(DAY, TZ, seed=3, rows=rows)
    assert abs(len(day.snapshots) - rows) <= rows * 15 // 100


def test_density_changes_rows_not_the_human_day(sim: SimDay) -> None:
    dense = simulate_day(DAY, TZ, rows=26000)
    assert dense.events == sim.events
    assert dense.afk == sim.afk


@pytest.mark.parametrize("day", ["sim", "sim2"])
def test_ids_unique_and_in_time_order(day: str, request: pytest.FixtureRequest) -> None:
    d: SimDay = request.getfixturevalue(day)
    assert [s.row_id for s in d.snapshots] == list(range(1, len(d.snapshots) + 1))
    assert [e.event_id for e in d.events] == list(range(1, len(d.events) + 1))
    assert all(a.ts_ms <= b.ts_ms for a, b in pairwise(d.snapshots))
    assert all(a.ts_ms <= b.ts_ms for a, b in pairwise(d.events))


def test_nothing_recorded_while_away(sim: SimDay) -> None:
    assert not any(_in_span(s.ts_ms, sim.afk) for s in sim.snapshots)
    assert not any(_in_span(e.ts_ms, sim.afk) for e in sim.events)


def test_away_periods_shape(sim: SimDay) -> None:
    minutes = sorted((a.end_ms - a.start_ms) // 60_000 for a in sim.afk)
    assert len(minutes) == 4
    assert minutes[0] >= 5 and minutes[1] <= 15  # two short breaks
    assert minutes[2] >= 30  # the long away period
    assert 40 <= minutes[3] <= 50  # lunch


@pytest.mark.parametrize(
    ("day", "tz"),
    [(DAY, "UTC"), (DAY, "Pacific/Kiritimati"), ("2026-03-08", "America/Los_Angeles")],
)
def test_everything_inside_the_local_day(day: str, tz: str) -> None:
    d = simulate_day(day, tz, rows=800)
    w = day_window(day, tz)
    stamps = [s.ts_ms for s in d.snapshots] + [e.ts_ms for e in d.events]
    assert all(w.start_ms <= t < w.end_ms for t in stamps)
    first_local = format_ts(d.snapshots[0].ts_ms, "offset", tz)[11:16]
    assert "08:30" <= first_local <= "09:00"


def test_realistic_content(sim: SimDay) -> None:
    apps = Counter(s.app for s in sim.snapshots)
    assert {"Code", "Google Chrome", "Slack"} <= set(apps)
    hosts = {urlsplit(s.url).netloc for s in sim.snapshots if s.url}
    assert "github.com" in hosts
    assert len(hosts) >= 4
    assert Counter(e.kind for e in sim.events).keys() == set(INPUT_KINDS)
    same_ts = sum(a.ts_ms == b.ts_ms for a, b in pairwise(sim.snapshots))
    assert same_ts >= 1


def test_flickers_and_title_changes(sim: SimDay) -> None:
    changes: list[tuple[tuple[str, str, str | None], int]] = []
    for s in sim.snapshots:
        key = (s.app, s.title, s.url)
        if not changes or changes[-1][0] != key:
            changes.append((key, s.ts_ms))
    flickers = [
        i
        for i in range(len(changes) - 2)
        if changes[i][0] == changes[i + 2][0] and changes[i + 2][1] - changes[i + 1][1] <= 15_000
    ]
    assert len(flickers) >= 3
    retitled = [a for a, b in pairwise(changes) if a[0][0] == b[0][0]]
    assert len(retitled) >= 10


def test_input_app_mostly_the_focused_one(sim: SimDay) -> None:
    times = [s.ts_ms for s in sim.snapshots]
    stale = sum(e.app != sim.snapshots[bisect_right(times, e.ts_ms) - 1].app for e in sim.events)
    assert 0 < stale < len(sim.events) * 3 // 100


def test_second_monitor_is_its_own_quieter_stream(sim2: SimDay) -> None:
    per_device = Counter(s.device for s in sim2.snapshots)
    assert set(per_device) == {"monitor_1", "monitor_2"}
    assert per_device["monitor_2"] < per_device["monitor_1"]
    assert {e.device for e in sim2.events} <= {"monitor_1", "monitor_2"}


def test_days_continue_ids_and_weekends_are_lighter() -> None:
    days = simulate_days("2026-03-13", 3, TZ, seed=5, rows_per_day=1000)  # Fri, Sat, Sun
    assert [d.day for d in days] == ["2026-03-13", "2026-03-14", "2026-03-15"]
    ids = [s.row_id for d in days for s in d.snapshots]
    assert ids == list(range(1, len(ids) + 1))
    events = [e.event_id for d in days for e in d.events]
    assert events == list(range(1, len(events) + 1))
    assert len(days[1].snapshots) < len(days[0].snapshots) // 2
    alone = simulate_day("2026-03-13", TZ, seed=5, rows=1000)
    assert [s.ts_ms for s in alone.snapshots] == [s.ts_ms for s in days[0].snapshots]
    assert date.fromisoformat(days[1].day).weekday() == 5


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        simulate_day(DAY, TZ, rows=0)
    with pytest.raises(ValueError):
        simulate_day(DAY, TZ, devices=("a", "a"))


# ---------------------------------------------------------------------------- writers


def _count(db: Path, table: str) -> int:
    with closing(sqlite3.connect(db)) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_native_store_reopens(tmp_path: Path, sim2: SimDay) -> None:
    db = write_native(tmp_path / "native.db", sim2)
    assert _count(db, "snapshots") == len(sim2.snapshots)
    assert _count(db, "input_events") == len(sim2.events)
    assert _count(db, "afk") == len(sim2.afk)
    with closing(sqlite3.connect(db)) as conn:
        first = conn.execute("SELECT id, ts_ms, device, app FROM snapshots ORDER BY id").fetchone()
    s = sim2.snapshots[0]
    assert first == (s.row_id, s.ts_ms, s.device, s.app)


def test_screenpipe_db_reopens(tmp_path: Path, sim: SimDay) -> None:
    """Written as screenpipe writes: typing as text rows (no app) and shortcut key rows,
    each click then its look-up row, clipboard operations by modifiers, no paste type."""
    db = write_screenpipe(tmp_path / "sp.db", sim)
    assert _count(db, "frames") == len(sim.snapshots)
    clicks = sum(1 for e in sim.events if e.kind == CLICK)
    assert _count(db, "ui_events") == len(sim.events) + clicks
    assert _count(db, "elements") > 0
    with closing(sqlite3.connect(db)) as conn:
        kinds = dict(conn.execute("SELECT event_type, count(*) FROM ui_events GROUP BY 1"))
        lookups = conn.execute("SELECT count(*) FROM ui_events WHERE click_count = 0").fetchone()
        ops = dict(
            conn.execute(
                "SELECT modifiers, count(app_name) FROM ui_events"
                " WHERE event_type = 'clipboard' GROUP BY 1"
            )
        )
        text_apps = conn.execute(
            "SELECT count(app_name), sum(text_length = length(text_content))"
            " FROM ui_events WHERE event_type = 'text'"
        ).fetchone()
        indexes = {
            r[0] for r in conn.execute("SELECT tbl_name FROM sqlite_master WHERE type='index'")
        }
    assert set(kinds) == {"text", "key", "click", "scroll", "clipboard"}
    assert lookups == (clicks,)
    assert set(ops) == {ord("c"), ord("v")} and ops[ord("c")] == 0 and ops[ord("v")] > 0
    assert text_apps == (0, kinds["text"])
    assert {"frames", "ui_events"} <= indexes


@pytest.mark.parametrize("style", TS_STYLES)
def test_screenpipe_timestamps_parse_back(tmp_path: Path, sim: SimDay, style: str) -> None:
    small = _small(sim)
    db = write_screenpipe(tmp_path / f"{style}.db", small, ts_style=style)
    with closing(sqlite3.connect(db)) as conn:
        frames = conn.execute("SELECT id, timestamp FROM frames ORDER BY id").fetchall()
        events = conn.execute(
            "SELECT id, timestamp FROM ui_events WHERE id < ? ORDER BY id", (LOOKUP_ID_BASE,)
        ).fetchall()
    assert [parse_iso_ms(t) for _, t in frames] == [s.ts_ms for s in small.snapshots]
    assert [parse_iso_ms(t) for _, t in events] == [e.ts_ms for e in small.events]


def test_timestamp_styles_look_as_documented() -> None:
    ms = 1_773_130_443_123  # 2026-03-10T08:14:03.123Z
    assert format_ts(ms) == "2026-03-10T08:14:03.123000+00:00"
    assert format_ts(ms, "iso_z") == "2026-03-10T08:14:03.123Z"
    assert format_ts(ms, "space") == "2026-03-10 08:14:03.123"
    assert format_ts(ms, "offset", TZ) == "2026-03-10T09:14:03.123+01:00"
    with pytest.raises(ValueError):
        format_ts(ms, "rfc2822")


def test_aw_export_shape(tmp_path: Path, sim2: SimDay) -> None:
    path = write_aw_export(tmp_path / "aw.json", sim2, hostname="box")
    buckets = json.loads(path.read_text())["buckets"]
    assert set(buckets) == {"aw-watcher-window_box", "aw-watcher-afk_box", "aw-watcher-web-chrome"}
    window = buckets["aw-watcher-window_box"]["events"]
    stamps = [e["timestamp"] for e in window]
    assert stamps == sorted(stamps, reverse=True)
    assert all(e["timestamp"].endswith("+00:00") and e["duration"] >= 0 for e in window)
    assert sum(e["duration"] for e in window) > 6 * 3600
    statuses = Counter(e["data"]["status"] for e in buckets["aw-watcher-afk_box"]["events"])
    assert statuses == {"afk": len(sim2.afk), "not-afk": len(sim2.afk) + 1}
    web = buckets["aw-watcher-web-chrome"]["events"]
    assert web and {"url", "title", "audible", "incognito", "tabCount"} == set(web[0]["data"])


def test_writers_refuse_to_overwrite(tmp_path: Path, sim: SimDay) -> None:
    target = tmp_path / "exists.db"
    target.write_bytes(b"keep me")
    with pytest.raises(FileExistsError):
        write_screenpipe(target, sim)
    assert target.read_bytes() == b"keep me"
