"""ActivityWatch readers: the real corpora, a real aw-server-rust sqlite.db, bad input."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from collections import Counter
from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from actframes.errors import SourceError
from actframes.model import Capture, Snapshot, Span
from actframes.sources.activitywatch import AWExportSource, AWSqliteSource
from actframes.sources.activitywatch.capture import PIECE_ID_STRIDE
from actframes.sources.base import READ_MARGIN_MS

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
MHACKS = CORPORA / "activitywatch-mhacks-2023" / "aw-buckets-export.json"
NOCTILUCA = (
    CORPORA / "activitywatch-noctiluca-2020" / "aw-bucket-export_aw-watcher-window_mauro-pc.json"
)
MHACKS_WINDOW = "aw-watcher-window_LAPTOP-MCRJASPH"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# Wide enough to hold both corpora entirely.
ALL = (946_684_800_000, 4_000_000_000_000)
T0 = 1_700_000_000_000  # 2023-11-14T22:13:20Z


def corpus(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"corpus not present: {path}")
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def facts(snaps: list[Snapshot]) -> list[tuple[int, int | None, str, str, str | None, str]]:
    """Everything of a snapshot but its row id, in a canonical order."""
    return sorted((s.ts_ms, s.dur_ms, s.app, s.title, s.url, s.device) for s in snaps)


def inside(snaps: list[Snapshot], lo: int, hi: int) -> list[Snapshot]:
    return [s for s in snaps if lo <= s.ts_ms and s.ts_ms + (s.dur_ms or 0) <= hi]


def union_ms(spans: list[tuple[int, int]]) -> int:
    total, reach = 0, None
    for start, end in sorted(spans):
        if reach is None or start > reach:
            total += end - start
            reach = end
        elif end > reach:
            total += end - reach
            reach = end
    return total


# ---------------------------------------------------------------------------------------
# Synthetic exports


def iso(ms: int) -> str:
    return (EPOCH + timedelta(milliseconds=ms)).isoformat()


def ev(ms: int, dur_s: float | str, **data: Any) -> dict[str, Any]:
    return {"timestamp": iso(ms), "duration": dur_s, "data": data}


def bucket(bid: str, type_: str, host: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": bid, "type": type_, "client": "test", "hostname": host, "events": events}


def write_export(path: Path, *buckets: dict[str, Any]) -> Path:
    doc = {"buckets": {b["id"]: b for b in buckets}}
    # Newest first, as ActivityWatch writes them.
    for b in buckets:
        b["events"].sort(key=lambda e: str(e.get("timestamp")), reverse=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def read_all(path: Path) -> Capture:
    src = AWExportSource(path)
    try:
        return src.read(*ALL)
    finally:
        src.close()


# ---------------------------------------------------------------------------------------
# aw-server-rust sqlite.db, built with the schema its datastore migrations create (v1-v4)

AW_RUST_SCHEMA = """
CREATE TABLE IF NOT EXISTS buckets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT UNIQUE NOT NULL,
    type TEXT NOT NULL,
    client TEXT NOT NULL,
    hostname TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS bucket_id_index ON buckets(id);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bucketrow INTEGER NOT NULL,
    starttime INTEGER NOT NULL,
    endtime INTEGER NOT NULL,
    data TEXT NOT NULL,
    FOREIGN KEY (bucketrow) REFERENCES buckets(id)
);
CREATE INDEX IF NOT EXISTS events_bucketrow_index ON events(bucketrow);
CREATE INDEX IF NOT EXISTS events_starttime_index ON events(starttime);
CREATE INDEX IF NOT EXISTS events_endtime_index ON events(endtime);
ALTER TABLE buckets ADD COLUMN data TEXT DEFAULT '{}';
ALTER TABLE buckets RENAME COLUMN data TO data_deprecated;
ALTER TABLE buckets ADD COLUMN data TEXT NOT NULL DEFAULT '{}';
CREATE TABLE key_value (key TEXT PRIMARY KEY, value TEXT, last_modified NUMBER NOT NULL);
PRAGMA user_version = 4;
"""
# Later aw-server-rust versions swap the single-column event indexes for a composite one.
AW_RUST_V5 = """
DROP INDEX IF EXISTS events_bucketrow_index;
DROP INDEX IF EXISTS events_starttime_index;
DROP INDEX IF EXISTS events_endtime_index;
CREATE INDEX IF NOT EXISTS events_bucketrow_starttime_endtime_index
    ON events(bucketrow, starttime DESC, endtime);
PRAGMA user_version = 5;
"""


def iso_to_ns(text: str) -> int:
    return (datetime.fromisoformat(text) - EPOCH) // timedelta(microseconds=1) * 1000


def seconds_to_ns(value: Decimal | int) -> int:
    return int((Decimal(value) * 10**9).to_integral_value(rounding=ROUND_HALF_UP))


def export_to_sqlite(export: Path, db: Path, *, v5: bool = False) -> Path:
    """Import an export the way aw-server-rust stores it: ns times, compact JSON data."""
    doc = json.loads(export.read_bytes(), parse_float=Decimal)
    conn = sqlite3.connect(db)
    conn.executescript(AW_RUST_SCHEMA)
    for bid, meta in doc["buckets"].items():
        cur = conn.execute(
            "INSERT INTO buckets (name, type, client, hostname, created, data)"
            " VALUES (?, ?, ?, ?, ?, '{}')",
            (bid, meta["type"], meta.get("client", ""), meta["hostname"], meta["created"]),
        )
        rows = []
        for e in meta["events"]:
            start = iso_to_ns(e["timestamp"])
            data = json.dumps(e["data"], separators=(",", ":"), ensure_ascii=False)
            rows.append((cur.lastrowid, start, start + seconds_to_ns(e["duration"]), data))
        conn.executemany(
            "INSERT INTO events (bucketrow, starttime, endtime, data) VALUES (?, ?, ?, ?)", rows
        )
    if v5:
        conn.executescript(AW_RUST_V5)
    conn.commit()
    conn.close()
    return db


# ---------------------------------------------------------------------------------------
# Real corpora


def test_mhacks_counts_match_source_md() -> None:
    path = corpus(MHACKS)
    raw = json.loads(path.read_bytes())["buckets"]
    assert len(raw[MHACKS_WINDOW]["events"]) == 2427
    assert len(raw["aw-watcher-afk_LAPTOP-MCRJASPH"]["events"]) == 71
    assert len(raw["aw-watcher-web-firefox"]["events"]) == 1280

    cap = read_all(path)
    assert cap.kind == "activitywatch"
    assert cap.rejected == []
    assert (cap.has_afk, cap.has_urls, cap.has_input) == (True, True, False)
    assert {s.device for s in cap.snapshots} == {"LAPTOP-MCRJASPH"}
    # Snapshots are the credited pieces of window events: each names its event's id,
    # has time (flooding drops empty events), and one host's pieces never overlap.
    raw_apps = Counter(e["data"]["app"] for e in raw[MHACKS_WINDOW]["events"])
    assert {s.app for s in cap.snapshots} <= set(raw_apps)
    assert {"firefox.exe", "Code.exe", "explorer.exe"} <= {s.app for s in cap.snapshots}
    assert all(isinstance(s.dur_ms, int) and s.dur_ms > 0 for s in cap.snapshots)
    # A later piece of an event carries the event's id plus a multiple of the stride.
    assert {s.row_id % PIECE_ID_STRIDE for s in cap.snapshots} <= set(range(1, 2428))
    assert len({s.row_id for s in cap.snapshots}) == len(cap.snapshots)  # distinct
    for a, b in zip(cap.snapshots, cap.snapshots[1:], strict=False):
        assert a.ts_ms + (a.dur_ms or 0) <= b.ts_ms


def test_mhacks_afk_is_the_merged_afk_events() -> None:
    path = corpus(MHACKS)
    raw = json.loads(path.read_bytes(), parse_float=Decimal)["buckets"]
    afk_events = [
        (iso_to_ns(e["timestamp"]) // 1_000_000, seconds_to_ns(e["duration"]))
        for e in raw["aw-watcher-afk_LAPTOP-MCRJASPH"]["events"]
        if e["data"]["status"] == "afk"
    ]
    expected = [(s, s + (d + 500_000) // 1_000_000) for s, d in afk_events]
    cap = read_all(path)
    # Away spans: recorded AFK time (copies with growing durations merged) in which no
    # piece was credited, so the compiler never cuts a piece again.
    assert 0 < len(cap.afk) < len(expected)
    for a, b in zip(cap.afk, cap.afk[1:], strict=False):
        assert a.end_ms <= b.start_ms
    away = [(a.start_ms, a.end_ms) for a in cap.afk]
    assert union_ms(away + expected) == union_ms(expected)  # within what was recorded
    for s in cap.snapshots:
        assert all(s.ts_ms + (s.dur_ms or 0) <= lo or hi <= s.ts_ms for lo, hi in away)
    assert union_ms(away) > 0.9 * union_ms(expected)


def test_mhacks_firefox_url_fusion() -> None:
    path = corpus(MHACKS)
    raw = json.loads(path.read_bytes())["buckets"]
    web_urls = {e["data"]["url"] for e in raw["aw-watcher-web-firefox"]["events"]}
    cap = read_all(path)
    firefox = [s for s in cap.snapshots if s.app == "firefox.exe"]
    with_url = [s for s in firefox if s.url is not None]
    # URLs come from the web bucket's events cut to Firefox's window events.
    assert len(with_url) > len(firefox) // 2
    assert {s.url for s in with_url} <= web_urls
    # Only Firefox gets URLs: Edge is a browser, but the only web bucket is Firefox's.
    assert all(s.url is None for s in cap.snapshots if s.app != "firefox.exe")
    # The repository page's time goes to that repository's pages.
    # By time, not by title: the web watcher lags a tab switch by a moment, so a few
    # seconds of a page's window can carry the previous tab's URL.
    github = [s for s in with_url if s.title.startswith("endersa1/MHacks — ")]
    right = sum(
        s.dur_ms or 0
        for s in github
        if (s.url or "").startswith("https://github.com/endersa1/MHacks")
    )
    assert right >= 0.95 * sum(s.dur_ms or 0 for s in github) > 0


def test_noctiluca_single_bucket_export() -> None:
    path = corpus(NOCTILUCA)
    raw = json.loads(path.read_bytes(), parse_float=Decimal)
    (events,) = [b["events"] for b in raw["buckets"].values()]
    cap = read_all(path)
    assert (cap.has_afk, cap.has_urls, cap.has_input) == (False, False, False)
    assert cap.afk == [] and cap.rejected == []
    assert {s.device for s in cap.snapshots} == {"mauro-pc"}
    # No AFK bucket: said in the notes, and the window time is credited as recorded
    # (flooded), so it is at least the events' own time.
    assert cap.notes == [
        "host 'mauro-pc' has no AFK bucket: its window time is credited as recorded"
    ]
    recorded = union_ms(
        [
            (s := iso_to_ns(e["timestamp"]) // 1_000_000, s + seconds_to_ns(e["duration"]) // 10**6)
            for e in events
        ]
    )
    credited = sum(s.dur_ms or 0 for s in cap.snapshots)
    assert recorded <= credited <= recorded + 5_000 * len(events)
    assert {"Firefox Developer Edition", "Code - Insiders"} <= {s.app for s in cap.snapshots}
    # No web bucket: browser rows have no URL.
    assert all(s.url is None for s in cap.snapshots)


@pytest.mark.parametrize("path", [MHACKS, NOCTILUCA], ids=["mhacks", "noctiluca"])
def test_ids_do_not_depend_on_event_order(path: Path, tmp_path: Path) -> None:
    doc = json.loads(corpus(path).read_bytes())
    rng = random.Random(7)
    for meta in doc["buckets"].values():
        rng.shuffle(meta["events"])
    shuffled = tmp_path / "shuffled.json"
    shuffled.write_text(json.dumps(doc), encoding="utf-8")
    original, copy = read_all(path), read_all(shuffled)
    assert copy.snapshots == original.snapshots
    assert copy.afk == original.afk


@pytest.mark.parametrize("path", [MHACKS, NOCTILUCA], ids=["mhacks", "noctiluca"])
def test_windowed_reads_agree_with_the_full_read(path: Path) -> None:
    src = AWExportSource(corpus(path))
    full = {(s.row_id, s.ts_ms): s for s in src.read(*ALL).snapshots}
    first = min(s.ts_ms for s in full.values())
    last = max(s.ts_ms for s in full.values())
    hour = 3_600_000
    seen: set[tuple[int, int]] = set()
    for start in range(first - first % hour, last + hour, hour):
        cap = src.read(start, start + hour)
        for s in cap.snapshots:
            assert full[(s.row_id, s.ts_ms)] == s  # the same facts whatever window
            end = s.ts_ms + (s.dur_ms or 0)
            assert s.ts_ms < start + hour + READ_MARGIN_MS and end >= start - READ_MARGIN_MS
        for a in cap.afk:
            assert start - READ_MARGIN_MS <= a.start_ms < a.end_ms <= start + hour + READ_MARGIN_MS
        seen |= {(s.row_id, s.ts_ms) for s in cap.snapshots}
    assert seen == set(full)


def test_reading_leaves_the_corpus_untouched() -> None:
    path = corpus(MHACKS)
    before = sha256(path)
    src = AWExportSource(path)
    src.read(*ALL)
    src.close()
    assert sha256(path) == before


# ---------------------------------------------------------------------------------------
# aw-server-rust sqlite.db


@pytest.fixture(scope="module", params=["v4", "v5"])
def mhacks_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("aw") / "sqlite.db"
    return export_to_sqlite(corpus(MHACKS), db, v5=request.param == "v5")


def test_sqlite_matches_the_json_export(mhacks_db: Path) -> None:
    before = sha256(mhacks_db)
    db, export = AWSqliteSource(mhacks_db), AWExportSource(MHACKS)
    try:
        from_db, from_json = db.read(*ALL), export.read(*ALL)
        # Times agree to the millisecond: both floor the start and round durations half up.
        assert facts(from_db.snapshots) == facts(from_json.snapshots)
        assert from_db.afk == from_json.afk
        assert from_db.rejected == [] == from_json.rejected
        assert (from_db.has_afk, from_db.has_urls, from_db.has_input) == (True, True, False)
        # Row ids are the events' own ids (the export has none: it numbers its own).
        (n,) = sqlite3.connect(mhacks_db).execute("SELECT max(id) FROM events").fetchone()
        assert {s.row_id % PIECE_ID_STRIDE for s in from_db.snapshots} <= set(range(1, n + 1))
        first = min(s.ts_ms for s in from_json.snapshots)
        for start in range(first, first + 18 * 3_600_000, 2_700_000):
            window = (start, start + 2_700_000)
            a, b = db.read(*window), export.read(*window)
            # The database is read per window, the export once: inside the window the
            # rules give the same pieces (flooding reaches 5 s; the read margin is more).
            assert facts(inside(a.snapshots, *window)) == facts(inside(b.snapshots, *window))
    finally:
        db.close()
        export.close()
    assert sha256(mhacks_db) == before


def test_sqlite_bad_rows_are_rejected(tmp_path: Path) -> None:
    db = tmp_path / "sqlite.db"
    conn = sqlite3.connect(db)
    conn.executescript(AW_RUST_SCHEMA)
    conn.execute(
        "INSERT INTO buckets (id, name, type, client, hostname, created)"
        " VALUES (1, 'aw-watcher-window_h', 'currentwindow', 'c', 'h', 'x')"
    )
    ns = T0 * 1_000_000
    rows = [
        (1, ns, ns + 1_500_000, '{"app":"a","title":"t"}'),  # 1.5 ms -> 2 ms (half up)
        (2, ns + 10**9, ns + 10**9 + 1_499_999, '{"app":"","title":"t"}'),
        (3, ns + 2 * 10**9, ns + 10**9, '{"app":"a","title":"t"}'),
        (4, ns + 3 * 10**9, ns + 3 * 10**9, "not json"),
        (5, ns + 4 * 10**9, ns + 4 * 10**9 + 1_499_999, '{"app":"b"}'),
    ]
    conn.executemany(
        "INSERT INTO events (id, bucketrow, starttime, endtime, data) VALUES (?, 1, ?, ?, ?)",
        rows,
    )
    conn.commit()
    conn.close()
    src = AWSqliteSource(db)
    cap = src.read(T0, T0 + 60_000)
    src.close()
    # 2 ms and 1 ms (half up), 3.998 s apart: flooding splits the gap at its midpoint.
    assert [(s.row_id, s.app, s.ts_ms - T0, s.dur_ms) for s in cap.snapshots] == [
        (1, "a", 0, 2 + 1_999),
        (5, "b", 2_001, 1_999 + 1),
    ]
    assert {(r.table, r.row, r.reason) for r in cap.rejected} == {
        ("aw-watcher-window_h", "2", "empty app"),
        ("aw-watcher-window_h", "3", "negative duration"),
        ("aw-watcher-window_h", "4", "data is not a JSON object"),
    }
    assert (cap.has_afk, cap.has_urls) == (False, False)


def test_sqlite_whole_file_problems(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE frames (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(SourceError, match=r"other\.db: not an aw-server-rust database"):
        AWSqliteSource(other)

    lacking = tmp_path / "lacking.db"
    conn = sqlite3.connect(lacking)
    conn.execute("CREATE TABLE buckets (id INTEGER, name TEXT, type TEXT, hostname TEXT)")
    conn.execute("CREATE TABLE events (id INTEGER, bucketrow INTEGER, starttime INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(
        SourceError, match=r"lacking\.db: table events lacks column\(s\) data, endtime"
    ):
        AWSqliteSource(lacking)

    no_window = tmp_path / "nowindow.db"
    conn = sqlite3.connect(no_window)
    conn.executescript(AW_RUST_SCHEMA)
    conn.commit()
    conn.close()
    with pytest.raises(SourceError, match="no window bucket"):
        AWSqliteSource(no_window)

    text = tmp_path / "text.db"
    text.write_text("hello", encoding="utf-8")
    with pytest.raises(SourceError, match=r"text\.db"):
        AWSqliteSource(text)


# ---------------------------------------------------------------------------------------
# Bad JSON input


def test_truncated_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_bytes(corpus(MHACKS).read_bytes()[:5000])
    with pytest.raises(SourceError) as exc:
        AWExportSource(path)
    message = str(exc.value)
    assert message.startswith(f"{path}: not JSON") and "\n" not in message


@pytest.mark.parametrize(
    ("doc", "reason"),
    [
        ({"events": []}, 'no "buckets" object'),
        ([1, 2], 'no "buckets" object'),
        ({"buckets": []}, 'no "buckets" object'),
        ({"buckets": {"b": bucket("b", "afkstatus", "h", [])}}, "no window bucket"),
        ({"buckets": {"b": {"type": "currentwindow", "events": 3}}}, "has no event list"),
    ],
)
def test_whole_file_problems_raise(tmp_path: Path, doc: object, reason: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SourceError, match=reason) as exc:
        AWExportSource(path)
    assert str(exc.value).startswith(str(path))


def test_missing_file_and_binary(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read"):
        AWExportSource(tmp_path / "nope.json")
    blob = tmp_path / "blob.json"
    blob.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SourceError, match="not JSON"):
        AWExportSource(blob)


def test_bad_rows_are_rejected_and_the_rest_reads(tmp_path: Path) -> None:
    good = [ev(T0 + i * 10_000, 10, app="code", title=f"f{i}") for i in range(5)]
    empty_app = ev(T0 + 60_000, 1, app="", title="nothing")
    null_app = ev(T0 + 61_000, 1, app=None, title="nothing")
    garbage = {"timestamp": "yesterday-ish", "duration": 1, "data": {"app": "x"}}
    negative = ev(T0 + 62_000, -1, app="x")
    too_old = ev(100_000, 1, app="x")
    bad_duration = ev(T0 + 63_000, "1", app="x")
    path = write_export(
        tmp_path / "e.json",
        bucket(
            "w",
            "currentwindow",
            "h",
            [*good, empty_app, null_app, garbage, negative, too_old, bad_duration],
        ),
    )
    cap = read_all(path)
    assert [s.title for s in cap.snapshots] == ["f0", "f1", "f2", "f3", "f4"]
    assert [s.row_id for s in cap.snapshots] == [1, 2, 3, 4, 5]
    reasons = Counter(r.reason.split(":")[0] for r in cap.rejected)
    assert reasons == {
        "empty app": 2,
        "bad timestamp": 2,
        "negative duration": 1,
        "bad duration": 1,
    }
    assert all(r.table == "w" and r.row.startswith("[") for r in cap.rejected)
    # A row with no usable time is reported by every read; one with a time, only near it.
    far = AWExportSource(path).read(T0 + 10 * 3_600_000, T0 + 11 * 3_600_000)
    assert Counter(r.reason.split(":")[0] for r in far.rejected) == {"bad timestamp": 2}


def test_times_and_durations_round_half_up_to_integer_ms(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    events = [
        # More than the flood pulsetime (5 s) apart, so each event keeps its own span.
        '{"timestamp": "2023-11-14T22:13:20.000001Z", "duration": 0.0005, "data": {"app": "a"}}',
        '{"timestamp": "2023-11-14T22:13:31Z", "duration": 1.2345, "data": {"app": "b"}}',
        '{"timestamp": "2023-11-14T22:13:42+01:00", "duration": 2.0004999, "data": {"app": "c"}}',
        '{"timestamp": "2023-11-14T22:13:53.9999Z", "duration": 3, "data": {"app": "d"}}',
    ]
    path.write_text(
        '{"buckets": {"w": {"type": "currentwindow", "hostname": null, "events": ['
        + ",".join(events)
        + "]}}}",
        encoding="utf-8",
    )
    cap = read_all(path)
    got = [(s.app, s.ts_ms, s.dur_ms, s.device) for s in cap.snapshots]
    assert got == [
        ("c", T0 + 22_000 - 3_600_000, 2_000, ""),
        ("a", T0, 1, ""),
        ("b", T0 + 11_000, 1_235, ""),
        ("d", T0 + 34_000, 3_000, ""),  # sub-ms digits round to the nearest ms
    ]


def test_explicit_ids_are_used_and_duplicates_rejected(tmp_path: Path) -> None:
    events = [
        {**ev(T0, 1, app="a"), "id": 40},
        {**ev(T0 + 1_000, 1, app="b"), "id": 41},
        {**ev(T0 + 2_000, 1, app="c"), "id": 40},
        ev(T0 + 3_000, 1, app="d"),
    ]
    cap = read_all(write_export(tmp_path / "i.json", bucket("w", "currentwindow", "h", events)))
    assert [(s.app, s.row_id) for s in cap.snapshots] == [("a", 40), ("b", 41), ("d", 42)]
    assert [(r.row, r.reason) for r in cap.rejected] == [("40", "duplicate id")]


def test_names_are_cleaned_and_titles_clipped(tmp_path: Path) -> None:
    events = [ev(T0, 1, app="\u200bfirefox.exe ", title="a\u200b\u00a0" + "x" * 400)]
    cap = read_all(write_export(tmp_path / "c.json", bucket("w", "currentwindow", "h", events)))
    (snap,) = cap.snapshots
    assert snap.app == "firefox.exe"
    assert len(snap.title) == 300 and snap.title.endswith("…")


# ---------------------------------------------------------------------------------------
# ActivityWatch's rules: URLs, hosts, AFK, audible (synthetic exports)


def web(ms: int, dur_s: float, url: str, title: str, audible: bool = False) -> dict[str, Any]:
    return ev(ms, dur_s, url=url, title=title, audible=audible, incognito=False, tabCount=1)


def pieces(cap: Capture) -> list[tuple[str, int, int, str, str | None]]:
    """(device, start, duration, app, url) relative to T0."""
    return [(s.device, s.ts_ms - T0, s.dur_ms or 0, s.app, s.url) for s in cap.snapshots]


def test_browser_time_is_split_by_the_web_events_overlapping_it(tmp_path: Path) -> None:
    path = write_export(
        tmp_path / "f.json",
        bucket(
            "aw-watcher-window_h",
            "currentwindow",
            "h",
            [
                ev(T0, 30, app="firefox.exe", title="Docs — Mozilla Firefox"),
                ev(T0 + 60_000, 10, app="code", title="x"),
            ],
        ),
        bucket(
            "aw-watcher-web-firefox",
            "web.tab.current",
            "unknown",
            [
                web(T0 - 5_000, 12, "https://other/", "Other"),
                web(T0 + 7_000, 10, "https://docs/", "Docs"),
                # 13 s with no web event, then one more: the gap keeps no URL.
                web(T0 + 30_000 - 1_000, 10, "https://late/", "Late"),
                web(T0 + 60_000, 10, "https://docs/", "Docs"),  # not a browser window
            ],
        ),
    )
    assert pieces(read_all(path)) == [
        ("h", 0, 7_000, "firefox.exe", "https://other/"),
        ("h", 7_000, 10_000, "firefox.exe", "https://docs/"),
        ("h", 17_000, 12_000, "firefox.exe", None),
        ("h", 29_000, 1_000, "firefox.exe", "https://late/"),
        ("h", 60_000, 10_000, "code", None),
    ]


def test_devices_and_per_host_per_browser_web_buckets(tmp_path: Path) -> None:
    path = write_export(
        tmp_path / "m.json",
        bucket(
            "aw-watcher-window_a",
            "currentwindow",
            "a",
            [
                ev(T0, 10, app="firefox.exe", title="Page — Mozilla Firefox"),
                ev(T0 + 10_000, 10, app="chrome.exe", title="Page - Google Chrome"),
            ],
        ),
        bucket(
            "aw-watcher-window_b",
            "currentwindow",
            "b",
            [
                ev(T0, 10, app="Google-chrome", title="Page - Google Chrome"),
                ev(T0 + 10_000, 10, app="msedge.exe", title="Page - Microsoft Edge"),
            ],
        ),
        bucket(
            "aw-watcher-web-firefox",
            "web.tab.current",
            "unknown",
            [web(T0, 20, "https://ff/", "Page")],
        ),
        bucket(
            "aw-watcher-web-chrome_b", "web.tab.current", "b", [web(T0, 20, "https://cr/", "Page")]
        ),
    )
    cap = read_all(path)
    got = sorted((s.device, s.app, s.url) for s in cap.snapshots)
    assert got == [
        ("a", "chrome.exe", None),  # the Chrome bucket belongs to host b
        ("a", "firefox.exe", "https://ff/"),  # a has no web bucket: the unknown host's
        ("b", "Google-chrome", "https://cr/"),
        ("b", "msedge.exe", None),  # Edge is not Chrome to the web UI
    ]


def afk_bucket(host: str, *spans: tuple[int, int, str]) -> dict[str, Any]:
    return bucket(
        f"aw-watcher-afk_{host}",
        "afkstatus",
        host,
        [ev(T0 + s * 1000, e - s, status=st) for s, e, st in spans],
    )


def test_each_host_is_cut_to_its_own_not_afk_time(tmp_path: Path) -> None:
    """The workstation's editor sits idle while the laptop is used: only the laptop's
    time counts, though the workstation's window never changed."""
    path = write_export(
        tmp_path / "two.json",
        bucket("aw-watcher-window_lap", "currentwindow", "lap", [ev(T0, 600, app="term")]),
        bucket("aw-watcher-window_desk", "currentwindow", "desk", [ev(T0, 600, app="editor")]),
        afk_bucket("lap", (0, 600, "not-afk")),
        afk_bucket("desk", (0, 60, "not-afk"), (60, 600, "afk")),
    )
    cap = read_all(path)
    assert sorted(pieces(cap)) == [
        ("desk", 0, 60_000, "editor", None),
        ("lap", 0, 600_000, "term", None),
    ]
    # The desk's AFK time overlaps the laptop's credited time: it is not "away".
    assert cap.afk == []
    assert cap.notes == []


def test_a_host_without_afk_bucket_is_credited_as_recorded(tmp_path: Path) -> None:
    path = write_export(
        tmp_path / "noafk.json",
        bucket("aw-watcher-window_lap", "currentwindow", "lap", [ev(T0, 600, app="term")]),
        bucket("aw-watcher-window_desk", "currentwindow", "desk", [ev(T0, 600, app="editor")]),
        afk_bucket("desk", (0, 60, "not-afk"), (60, 600, "afk")),
    )
    cap = read_all(path)
    # The desk's AFK periods never cut the laptop.
    assert sorted(pieces(cap)) == [
        ("desk", 0, 60_000, "editor", None),
        ("lap", 0, 600_000, "term", None),
    ]
    assert cap.notes == ["host 'lap' has no AFK bucket: its window time is credited as recorded"]


@pytest.mark.parametrize("audible_active", [True, False])
def test_audible_browser_time_is_active_by_default(tmp_path: Path, audible_active: bool) -> None:
    path = write_export(
        tmp_path / "video.json",
        bucket(
            "aw-watcher-window_h",
            "currentwindow",
            "h",
            [ev(T0, 900, app="Firefox", title="Talk — Mozilla Firefox")],
        ),
        bucket(
            "aw-watcher-web-firefox_h",
            "web.tab.current",
            "h",
            [web(T0, 900, "https://www.youtube.com/watch?v=1", "Talk", audible=True)],
        ),
        afk_bucket("h", (0, 180, "not-afk"), (180, 900, "afk")),
    )
    src = AWExportSource(path, audible_active=audible_active)
    cap = src.read(*ALL)
    expected = 900_000 if audible_active else 180_000
    assert pieces(cap) == [("h", 0, expected, "Firefox", "https://www.youtube.com/watch?v=1")]
    assert cap.afk == ([] if audible_active else [Span(T0 + 180_000, T0 + 900_000)])


def test_away_is_recorded_afk_time_no_host_was_credited(tmp_path: Path) -> None:
    path = write_export(
        tmp_path / "afk.json",
        bucket("w", "currentwindow", "a", [ev(T0, 400, app="x")]),
        bucket(
            "afk_a",
            "afkstatus",
            "a",
            [
                ev(T0, 100, status="not-afk"),
                ev(T0 + 100_000, 100, status="afk"),
                ev(T0 + 100_000, 120, status="afk"),  # a heartbeat copy, longer
                ev(T0 + 220_000, 60, status="not-afk"),
                ev(T0 + 280_000, 0, status="afk"),  # empty
            ],
        ),
    )
    cap = read_all(path)
    assert pieces(cap) == [("a", 0, 100_000, "x", None), ("a", 220_000, 60_000, "x", None)]
    assert cap.afk == [Span(T0 + 100_000, T0 + 220_000)]


def test_empty_window_read(tmp_path: Path) -> None:
    path = write_export(
        tmp_path / "e.json", bucket("w", "currentwindow", "h", [ev(T0, 1, app="x")])
    )
    cap = AWExportSource(path).read(T0 + 86_400_000, T0 + 2 * 86_400_000)
    assert cap.snapshots == [] and cap.afk == [] and cap.rejected == []
    assert (cap.has_afk, cap.has_urls) == (False, False)
