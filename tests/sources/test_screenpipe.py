"""The screenpipe-style reader on real SQLite files: schemas old and new, every ISO
timestamp shape, rows placed by instant (never by string), and strictly read-only."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from actframes.api import compile_path
from actframes.errors import SourceError
from actframes.model import CLICK, COPY, KEY, PASTE, SCROLL, Snapshot
from actframes.sources import open_source
from actframes.sources.base import connect_ro
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.timeparse import TimestampError, check_range, parse_iso_ms
from actframes.window import day_window

from ..builders import iso, ms, screenpipe_db, sha256, sqlite_db

DAY = "2026-03-10"
T0 = ms("2026-03-10T09:00:00+00:00")
WIN = day_window(DAY, "UTC")


def _frames(n: int = 12, step_s: int = 40, start: int = T0) -> list[tuple[Any, ...]]:
    """A small realistic stream: editor, browser (with URLs), terminal, on two monitors."""
    apps = [
        ("Code", "store.py — actframes", None),
        (
            "Google Chrome",
            "sqlite3 — Python docs",
            "https://docs.python.org/3/library/sqlite3.html",
        ),
        ("Google Chrome", "Issues · actframes", "https://www.github.com/acme/actframes/issues/12"),
        ("Terminal", "pytest -q", None),
    ]
    rows = []
    for i in range(n):
        app, title, url = apps[(i // 2) % len(apps)]
        dev = "monitor_0" if i % 5 else "monitor_1"
        rows.append((i + 1, start + i * step_s * 1000, app, title, url, dev))
    return rows


def _stored(rows: list[tuple[Any, ...]], styles: list[str]) -> list[tuple[Any, ...]]:
    return [(r[0], iso(r[1], styles[i % len(styles)]), *r[2:]) for i, r in enumerate(rows)]


EVENTS = [
    (1, "2026-03-10T09:00:05Z", "key", "Code"),
    (2, "2026-03-10T09:00:06.5Z", "keydown", "Code"),
    (3, "2026-03-10T09:01:25+00:00", "click", "Google Chrome"),
    (4, "2026-03-10 09:01:26", "mouse_click", "Google Chrome"),
    (5, "2026-03-10T14:32:00+05:30", "scroll", "Google Chrome"),
    (6, "2026-03-10T01:03:00-08:00", "CLIPBOARD", "Google Chrome"),
    (7, "2026-03-10T09:04:00Z", "paste", "Terminal"),
    (8, "2026-03-10T09:04:01Z", "mouse_move", "Terminal"),  # not an input count
    (9, "2026-03-10T09:04:02Z", "text", "Terminal"),  # a typing burst: its characters count
    (10, "2026-03-10T09:04:03Z", "focus", "Terminal"),
]


# ---------------------------------------------------------------- schemas


@pytest.mark.parametrize("schema", ["new", "old", "noid_pk"])
def test_schemas_read(tmp_path: Path, schema: str) -> None:
    rows = _frames()
    db = screenpipe_db(tmp_path / "sp.db", _stored(rows, ["Z"]), schema=schema)
    src = open_source(db)
    try:
        assert isinstance(src, ScreenpipeSource)
        cap = src.read(WIN.start_ms, WIN.end_ms)
    finally:
        src.close()
    assert cap.kind == "screenpipe"
    assert [s.row_id for s in cap.snapshots] == [r[0] for r in rows]
    assert [s.ts_ms for s in cap.snapshots] == [r[1] for r in rows]
    assert cap.rejected == []
    if schema == "old":
        # no browser_url, no device_name columns: absent, not an error
        assert {s.url for s in cap.snapshots} == {None}
        assert {s.device for s in cap.snapshots} == {""}
    else:
        assert cap.snapshots[2] == Snapshot(
            3, rows[2][1], "Google Chrome", "sqlite3 — Python docs", rows[2][4], ""
        )


def test_new_schema_events(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", _stored(_frames(), ["Z"]), EVENTS)
    src = ScreenpipeSource(db)
    try:
        cap = src.read(WIN.start_ms, WIN.end_ms)
    finally:
        src.close()
    assert cap.has_input
    got = [(e.event_id, e.ts_ms, e.kind, e.app) for e in cap.all_events()]
    assert got == [
        (1, ms("2026-03-10T09:00:05+00:00"), KEY, "Code"),
        (2, ms("2026-03-10T09:00:06.500+00:00"), KEY, "Code"),
        (3, ms("2026-03-10T09:01:25+00:00"), CLICK, "Google Chrome"),
        (4, ms("2026-03-10T09:01:26+00:00"), CLICK, "Google Chrome"),
        (5, ms("2026-03-10T09:02:00+00:00"), SCROLL, "Google Chrome"),
        (6, ms("2026-03-10T09:03:00+00:00"), COPY, "Google Chrome"),
        (7, ms("2026-03-10T09:04:00+00:00"), PASTE, "Terminal"),
        (9, ms("2026-03-10T09:04:02+00:00"), KEY, "Terminal"),
    ]


def test_old_schema_document(tmp_path: Path) -> None:
    """No ui_events, no URLs: the document says so instead of claiming zero input."""
    rows = _frames()
    new = compile_path(screenpipe_db(tmp_path / "new.db", _stored(rows, ["Z"])), DAY, "UTC")
    old_db = screenpipe_db(tmp_path / "old.db", _stored(rows, ["Z"]), schema="old")
    old = compile_path(old_db, DAY, "UTC")
    assert old["source"]["kind"] == "screenpipe"
    assert old["coverage"]["rows"] == len(rows)
    assert any("input is unmeasured" in b for b in old["blind_spots"])
    assert not any("input is unmeasured" in b for b in new["blind_spots"])
    assert all("site" not in e for e in old["ledger"])
    # A store without a browser_url column cannot carry URLs: that is a blind spot.
    assert any("no URLs" in b for b in old["blind_spots"])
    assert not any("no URLs" in b for b in new["blind_spots"])


def test_minimal_frames_table(tmp_path: Path) -> None:
    """Only frames(id, timestamp, app_name): everything optional is absent."""
    db = sqlite_db(
        tmp_path / "min.db",
        "CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, app_name TEXT);",
        {"frames": [(1, "2026-03-10T09:00:00Z", "Code"), (2, "2026-03-10T09:01:00Z", "Code")]},
    )
    doc = compile_path(db, DAY, "UTC")
    assert doc["coverage"]["active_s"] == 60
    assert doc["frames"][0]["titles"] == []
    assert doc["coverage"]["input_events"] == 0


def test_unreadable_events_table_is_treated_as_absent(tmp_path: Path) -> None:
    db = sqlite_db(
        tmp_path / "odd.db",
        "CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, app_name TEXT);"
        "CREATE TABLE ui_events (id INTEGER PRIMARY KEY, ts TEXT, what TEXT);",
        {"frames": [(1, "2026-03-10T09:00:00Z", "Code")], "ui_events": [(1, "x", "y")]},
    )
    src = ScreenpipeSource(db)
    try:
        cap = src.read(WIN.start_ms, WIN.end_ms)
    finally:
        src.close()
    assert not cap.has_input
    assert cap.all_events() == []
    assert len(cap.snapshots) == 1


def test_events_without_app_column(tmp_path: Path) -> None:
    db = sqlite_db(
        tmp_path / "ev.db",
        "CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, app_name TEXT);"
        "CREATE TABLE ui_events (id INTEGER PRIMARY KEY, timestamp TEXT, event_type TEXT);",
        {
            "frames": [(1, "2026-03-10T09:00:00Z", "Code"), (2, "2026-03-10T09:01:00Z", "Code")],
            "ui_events": [(1, "2026-03-10T09:00:10Z", "key"), (2, "2026-03-10T09:00:20Z", "click")],
        },
    )
    doc = compile_path(db, DAY, "UTC")
    assert doc["frames"][0]["input"]["keys"] == 1
    assert doc["frames"][0]["input"]["clicks"] == 1
    assert doc["frames"][0]["evidence"]["events"] == "1-2"


@pytest.mark.parametrize(
    ("script", "needle"),
    [
        (
            "CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, window_name TEXT);",
            "app_name",
        ),
        ("CREATE TABLE frames (id INTEGER PRIMARY KEY, app_name TEXT);", "timestamp"),
        ("CREATE TABLE frames (timestamp TEXT, app_name TEXT);", "id"),
    ],
)
def test_missing_required_column(tmp_path: Path, script: str, needle: str) -> None:
    db = sqlite_db(tmp_path / "bad.db", script)
    with pytest.raises(SourceError) as info:
        ScreenpipeSource(db)
    msg = str(info.value)
    assert "\n" not in msg
    assert str(db) in msg
    assert needle in msg


def test_forced_on_a_file_without_frames(tmp_path: Path) -> None:
    db = sqlite_db(tmp_path / "x.db", "CREATE TABLE notes (id INTEGER, body TEXT);")
    with pytest.raises(SourceError, match="frames"):
        open_source(db, "screenpipe")


# ---------------------------------------------------------------- timestamps

STYLES = [
    "Z",
    "+00:00",
    "+05:30",
    "-08:00",
    "naive",
    "Z/space",
    "+05:30/space",
    "-08:00/space",
    "naive/space",
    "Z/f3",
    "+00:00/f6",
    "+05:30/f9",
    "-08:00/f1",
    "naive/f9",
    "Z/space/f9",
    "-08:00/space/f3",
]


def _doc_bytes(path: Path, day: str = DAY, tz: str = "UTC") -> str:
    return json.dumps(compile_path(path, day, tz), sort_keys=False)


@pytest.mark.parametrize("style", STYLES)
def test_every_iso_shape_gives_the_same_instants(tmp_path: Path, style: str) -> None:
    rows = _frames()
    db = screenpipe_db(tmp_path / "sp.db", _stored(rows, [style]))
    src = ScreenpipeSource(db)
    try:
        cap = src.read(WIN.start_ms, WIN.end_ms)
    finally:
        src.close()
    assert [(s.row_id, s.ts_ms) for s in cap.snapshots] == [(r[0], r[1]) for r in rows]


@pytest.mark.parametrize("tz", ["UTC", "Asia/Kolkata", "America/Los_Angeles"])
def test_every_iso_shape_gives_the_same_document(tmp_path: Path, tz: str) -> None:
    # Instants with milliseconds (multiples of 100 ms so one fraction digit is exact).
    rows = [(r[0], r[1] + (r[0] * 300) % 1000, *r[2:]) for r in _frames(n=40, step_s=17)]
    day = "2026-03-10"
    ref = _doc_bytes(screenpipe_db(tmp_path / "ref.db", _stored(rows, ["Z/f3"])), day, tz)
    ref = _without_naive_note(ref, 0)
    frac_styles = [s for s in STYLES if "/f" in s]
    for i, style in enumerate(frac_styles):
        db = screenpipe_db(tmp_path / f"s{i}.db", _stored(rows, [style]))
        naive = 40 if style.startswith("naive") else 0
        assert _without_naive_note(_doc_bytes(db, day, tz), naive) == ref, style
    # every row in a different shape, in one store
    mixed = screenpipe_db(tmp_path / "mixed.db", _stored(rows, frac_styles))
    naive = sum(1 for i in range(40) if frac_styles[i % len(frac_styles)].startswith("naive"))
    assert _without_naive_note(_doc_bytes(mixed, day, tz), naive) == ref


def _without_naive_note(doc_text: str, naive: int) -> str:
    """The document without its note of timestamps read as UTC, checked to count ``naive``."""
    doc = json.loads(doc_text)
    notes = [b for b in doc["blind_spots"] if "no UTC offset" in b]
    assert notes == (
        [f"{naive} stored timestamp(s) carry no UTC offset: they were read as UTC"] if naive else []
    )
    doc["blind_spots"] = [b for b in doc["blind_spots"] if b not in notes]
    doc["source"]["digest"] = None  # (the digest covers the reader's notes too)
    return json.dumps(doc, sort_keys=False)


def test_whole_second_shapes_mixed_in_one_store(tmp_path: Path) -> None:
    rows = _frames(n=30)
    ref_db = screenpipe_db(tmp_path / "ref.db", _stored(rows, ["Z"]))
    ref = _without_naive_note(_doc_bytes(ref_db), 0)
    mixed = _doc_bytes(screenpipe_db(tmp_path / "mixed.db", _stored(rows, STYLES)))
    naive = sum(1 for i in range(30) if STYLES[i % len(STYLES)].startswith("naive"))
    assert _without_naive_note(mixed, naive) == ref
    assert json.loads(ref)["coverage"]["rows"] == 30


# Date-shaped texts near the window, valid and not: the reader must agree with
# parse_iso_ms on each (whatever it parses in SQL and whatever in Python).
AGREEMENT = [
    "2026-03-10T09:14:03Z",
    "2026-03-10T09:14:03z",
    "2026-03-10 09:14:03",
    "2026-03-10T09:14",
    "2026-03-10T09:14:03.5Z",
    "2026-03-10T09:14:03.1235Z",
    "2026-03-10T09:14:03.12349999Z",
    "2026-03-10T09:14:03.9995Z",
    "2026-03-10T09:14:03.999999999-08:00",
    "2026-03-10T09:14:03,5Z",
    "2026-03-10T14:44:03+0530",
    "2026-03-10T14:14:03+05",
    "2026-03-10 09:14:03 UTC",
    "2026-03-10 09:14:03.5 +05:30",
    "2026-03-10T23:14:03+14:00",
    "2026-03-09T21:14:03-12:00",
    "2026-03-10T23:59:60Z",  # leap second
    "2026-03-10T24:00:00Z",  # hour 24: not a time
    "2026-03-10T23:60:00Z",
    "2026-03-10T09:14:03+05:60",
    "2026-03-10T09:14:03+24:00",
    "2026-03-10T09:14:03Z trailing",
    "2026-03-10T9:14:03Z",
    "2026-03-10Tnoon",
    "2026-03-10",
    "2026-03-11T00:00:00.000+00:00",
]


def test_reader_agrees_with_parse_iso_ms(tmp_path: Path) -> None:
    frames = [(i + 1, text, "Code", text) for i, text in enumerate(AGREEMENT)]
    src = ScreenpipeSource(screenpipe_db(tmp_path / "sp.db", frames))
    try:
        cap = src.read(WIN.start_ms, WIN.end_ms)
    finally:
        src.close()
    got = {s.row_id: s.ts_ms for s in cap.snapshots}
    rejected = {int(r.row) for r in cap.rejected}
    for rid, text, *_ in frames:
        try:
            expected: int | None = parse_iso_ms(text)
            check_range(expected)
        except TimestampError:
            expected = None
        if expected is None:
            assert rid in rejected and rid not in got, text
        else:
            assert got.get(rid) == expected, text


def test_impossible_dates_are_rejected_not_rolled_over(tmp_path: Path) -> None:
    """SQLite's date functions turn 2026-02-30 into March 2; the reader must not."""
    frames = [
        (1, "2026-03-01T09:00:00Z", "Code", "ok"),
        (2, "2026-02-29T10:00:00Z", "Code", "no leap day in 2026"),
        (3, "2026-02-30T10:00:00Z", "Code", "no Feb 30"),
        (4, "2026-02-31 10:00:00", "Code", "no Feb 31"),
        (5, "2026-03-01T09:01:00Z", "Code", "ok"),
    ]
    db = screenpipe_db(tmp_path / "sp.db", frames)
    for day in ("2026-03-01", "2026-03-02", "2026-03-03"):
        doc = compile_path(db, day, "UTC")
        assert [f["titles"] for f in doc["frames"]] == ([["ok"]] if day == "2026-03-01" else [])
    doc = compile_path(db, "2026-03-01", "UTC")
    assert doc["rejected_rows"] == [
        {"table": "frames", "reason": "no such date", "count": 3, "rows": "2-4"}
    ]


def test_rows_are_placed_by_instant_not_by_string(tmp_path: Path) -> None:
    frames = [
        # 2026-03-11T04:30Z: belongs to UTC day 2026-03-11, though its text says 03-10
        (1, "2026-03-10T23:30:00-05:00", "Code", "late", None, "m"),
        (2, "2026-03-11T04:31:00Z", "Code", "late", None, "m"),
        # 2026-03-10T20:00Z: belongs to UTC day 2026-03-10, though its text says 03-11
        (3, "2026-03-11T01:00:00+05:00", "Terminal", "evening", None, "m"),
        (4, "2026-03-10T20:01:00.000Z", "Terminal", "evening", None, "m"),
    ]
    db = screenpipe_db(tmp_path / "sp.db", frames)
    d10 = compile_path(db, "2026-03-10", "UTC")
    d11 = compile_path(db, "2026-03-11", "UTC")
    assert [(f["id"], f["app"], f["start"]) for f in d10["frames"]] == [
        ("F3", "Terminal", "2026-03-10T20:00:00+00:00")
    ]
    assert d10["frames"][0]["active_s"] == 60
    assert [(f["id"], f["app"], f["start"]) for f in d11["frames"]] == [
        ("F1", "Code", "2026-03-11T04:30:00+00:00")
    ]
    assert d11["frames"][0]["active_s"] == 60
    # The same rows seen from Bogotá (UTC-5): 04:30Z is 23:30 on 03-10 local.
    bog = compile_path(db, "2026-03-10", "America/Bogota")
    assert {f["id"] for f in bog["frames"]} == {"F1", "F3"}
    assert bog["frames"][-1]["start"] == "2026-03-10T23:30:00-05:00"


def test_string_order_is_not_time_order(tmp_path: Path) -> None:
    """Sorted as text these rows are in the wrong order; by instant they alternate apps."""
    frames = [
        (1, "2026-03-10T10:00:00+02:00", "A", "a"),  # 08:00Z
        (2, "2026-03-10T08:01:00Z", "B", "b"),  # 08:01Z
        (3, "2026-03-10T04:02:00-04:00", "A", "a"),  # 08:02Z
        (4, "2026-03-10 08:03:00", "B", "b"),  # 08:03Z
    ]
    doc = compile_path(screenpipe_db(tmp_path / "sp.db", frames), DAY, "UTC")
    assert [f["app"] for f in doc["frames"]] == ["A", "B", "A", "B"]
    assert [f["active_s"] for f in doc["frames"]] == [60, 60, 60, 0]


def test_rows_near_the_window_edge_in_far_offsets(tmp_path: Path) -> None:
    frames = [
        (1, "2026-03-10T13:59:00+14:00", "Code", "x"),  # 2026-03-09T23:59Z
        (2, "2026-03-09T12:00:30-12:00", "Code", "x"),  # 2026-03-10T00:00:30Z
        (3, "2026-03-11T13:59:30+14:00", "Code", "x"),  # 2026-03-10T23:59:30Z
        (4, "2026-03-10T12:00:00-12:00", "Code", "x"),  # 2026-03-11T00:00Z
    ]
    doc = compile_path(screenpipe_db(tmp_path / "sp.db", frames), DAY, "UTC")
    # Row 1 holds 23:59:00..00:00:30, clipped at midnight: 30 s. Row 2 is followed by
    # a session gap: 0 s. Row 3 holds 30 s up to midnight. Row 4 is the next day.
    assert doc["coverage"]["active_s"] == 30 + 0 + 30
    assert doc["coverage"]["rows"] == 3
    assert doc["coverage"]["first"] == "2026-03-10T00:00:00+00:00"
    assert doc["coverage"]["last"] == "2026-03-11T00:00:00+00:00"


def test_row_order_in_the_file_does_not_matter(tmp_path: Path) -> None:
    rows = _stored(_frames(n=40, step_s=13), STYLES)
    shuffled = list(rows)
    random.Random(5).shuffle(shuffled)
    a = _doc_bytes(screenpipe_db(tmp_path / "a.db", rows, EVENTS))
    b = _doc_bytes(screenpipe_db(tmp_path / "b.db", shuffled, list(reversed(EVENTS))))
    assert a == b


def test_equal_timestamps_broken_by_row_id(tmp_path: Path) -> None:
    frames = [
        (20, "2026-03-10T09:00:00Z", "B", "b", None, "m"),
        (10, "2026-03-10T09:00:00+00:00", "A", "a", None, "m"),
        (30, "2026-03-10T09:01:00Z", "A", "a", None, "m"),
    ]
    doc = compile_path(screenpipe_db(tmp_path / "sp.db", frames), DAY, "UTC")
    # by (time, id): 10 (A), 20 (B), 30 (A)
    assert doc["frames"][0]["id"] == "F10"


# ---------------------------------------------------------------- read-only


def test_compile_leaves_the_file_untouched(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", _stored(_frames(), STYLES), EVENTS)
    before = sha256(db)
    compile_path(db, DAY, "UTC")
    compile_path(db, "2026-03-11", "Asia/Kolkata")
    assert sha256(db) == before
    assert not Path(str(db) + "-wal").exists()
    assert not Path(str(db) + "-journal").exists()


def test_wal_with_a_live_writer(tmp_path: Path) -> None:
    """The recorder is still running: its -wal holds rows not yet checkpointed."""
    db = screenpipe_db(tmp_path / "sp.db", _stored(_frames(n=4), ["Z"]), wal=True)
    writer = sqlite3.connect(db)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.executemany(
            "INSERT INTO frames (id, timestamp, app_name, window_name) VALUES (?,?,?,?)",
            [
                (5, "2026-03-10T09:03:00Z", "Slack", "general"),
                (6, "2026-03-10T09:04:00Z", "Slack", "x"),
            ],
        )
        writer.commit()
        wal = Path(str(db) + "-wal")
        assert wal.exists() and wal.stat().st_size > 0
        before = sha256(db)
        doc = compile_path(db, DAY, "UTC")
        assert sha256(db) == before
        assert doc["coverage"]["rows"] == 6  # rows still in the -wal are read
    finally:
        writer.close()


def test_wal_left_behind_by_a_crash(tmp_path: Path) -> None:
    """A copy of a store taken while the recorder ran: main file plus -wal, no -shm."""
    live = screenpipe_db(tmp_path / "live.db", _stored(_frames(n=4), ["Z"]), wal=True)
    writer = sqlite3.connect(live)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute(
            "INSERT INTO frames (id, timestamp, app_name)"
            " VALUES (5, '2026-03-10T09:03:00Z', 'Slack')"
        )
        writer.commit()
        copy = tmp_path / "copy.db"
        shutil.copy(live, copy)
        shutil.copy(str(live) + "-wal", str(copy) + "-wal")
    finally:
        writer.close()
    before = sha256(copy)
    doc = compile_path(copy, DAY, "UTC")
    assert doc["coverage"]["rows"] == 5
    assert Path(str(copy) + "-wal").exists()
    assert sha256(copy) == before


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO frames (id, timestamp, app_name) VALUES (99, '2026-03-10T09:00:00Z', 'x')",
        "UPDATE frames SET app_name = 'x'",
        "DELETE FROM frames",
        "CREATE TABLE t (x)",
        "DROP TABLE frames",
        "PRAGMA user_version = 7",
    ],
)
def test_connect_ro_refuses_writes(tmp_path: Path, sql: str) -> None:
    db = screenpipe_db(tmp_path / "sp.db", _stored(_frames(n=3), ["Z"]))
    before = sha256(db)
    conn = connect_ro(db)
    try:
        with pytest.raises(sqlite3.OperationalError):
            conn.execute(sql)
            conn.commit()
    finally:
        conn.close()
    assert sha256(db) == before


def test_connect_ro_missing_and_broken(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        connect_ro(tmp_path / "nope.db")
    assert not (tmp_path / "nope.db").exists()  # and it did not create it
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
    with pytest.raises(SourceError) as info:
        connect_ro(junk)
    assert str(junk) in str(info.value)
    assert "\n" not in str(info.value)


# ---------------------------------------------------------------- row problems


def test_row_problems_are_reported_not_fatal(tmp_path: Path) -> None:
    frames = [
        (1, "2026-03-10T09:00:00Z", "Code", "ok"),
        (2, "not a time", "Code", "x"),
        (3, None, "Code", "x"),
        (4, b"2026-03-10T09:00:20Z", "Code", "x"),  # a BLOB, not text
        (5, "2026-03-10T25:00:00Z", "Code", "x"),
        (6, "2026-03-10T09:00:30Z", None, "x"),
        (7, "2026-03-10T09:00:40Z", "", "x"),
        (8, "2026-03-10T09:00:50Z", "  \u200b ", "x"),
        (9, "2026-03-10T09:01:00Z", "Code", "ok"),
    ]
    db = screenpipe_db(tmp_path / "sp.db", frames)
    doc = compile_path(db, DAY, "UTC")
    assert doc["coverage"]["rows"] == 2
    assert doc["coverage"]["active_s"] == 60
    got = {(r["reason"], r["rows"]) for r in doc["rejected_rows"]}
    assert ("empty app name", "6-8") in got
    assert ("timestamp missing or not text", "3-4") in got
    assert ("not an ISO-8601 timestamp", "2") in got
    assert any(rows == "5" for _, rows in got)  # hour 25
    assert sum(r["count"] for r in doc["rejected_rows"]) == 7
    assert all(r["table"] == "frames" for r in doc["rejected_rows"])
    # reasons never carry the row's own value
    assert not any("not a time" in r["reason"] for r in doc["rejected_rows"])


def test_duplicate_ids_keep_one_and_report_the_rest(tmp_path: Path) -> None:
    frames = [
        (1, "2026-03-10T09:00:00Z", "Code", "a"),
        (2, "2026-03-10T09:01:00Z", "Code", "b"),
        (2, "2026-03-10T09:01:00Z", "Code", "b"),
        (3, "2026-03-10T09:02:00Z", "Code", "c"),
    ]
    doc = compile_path(screenpipe_db(tmp_path / "sp.db", frames, schema="noid_pk"), DAY, "UTC")
    assert doc["coverage"]["rows"] == 3
    assert doc["rejected_rows"] == [
        {"table": "frames", "reason": "duplicate id", "count": 1, "rows": "2"}
    ]


def test_duplicate_ids_do_not_depend_on_file_order(tmp_path: Path) -> None:
    """Which copy of a repeated id is kept must not depend on the order rows were written."""
    frames = [
        (1, "2026-03-10T09:00:00Z", "Code", "a"),
        (5, "2026-03-10T09:01:00Z", "Slack", "general"),
        (5, "2026-03-10T09:03:00Z", "Firefox", "news"),
        (6, "2026-03-10T09:04:00Z", "Code", "a"),
    ]
    a = _doc_bytes(screenpipe_db(tmp_path / "a.db", frames, schema="noid_pk"))
    b = _doc_bytes(screenpipe_db(tmp_path / "b.db", frames[::-1], schema="noid_pk"))
    assert a == b


@pytest.mark.parametrize(
    "stamp",
    [
        "2200-01-01T00:00:00Z",
        "1900-01-01T00:00:00Z",
        "1999-12-31T23:59:59Z",
        "2000-01-01T00:30:00+01:00",  # 1999-12-31T23:30Z: its text looks in range
        "2099-12-31T23:30:00-01:00",  # 2100-01-01T00:30Z
        "9999-12-31T23:59:59Z",
        "0001-01-01T00:00:00Z",
    ],
)
def test_out_of_range_rows_are_reported(tmp_path: Path, stamp: str) -> None:
    frames = [
        (1, "2026-03-10T09:00:00Z", "Code", "a"),
        (2, stamp, "Code", "x"),
        (3, "2026-03-10T09:01:00Z", "Code", "a"),
    ]
    doc = compile_path(screenpipe_db(tmp_path / "sp.db", frames), DAY, "UTC")
    assert doc["coverage"]["rows"] == 2
    assert [(r["rows"], r["count"]) for r in doc["rejected_rows"]] == [("2", 1)]
    assert "out of range" in doc["rejected_rows"][0]["reason"]


def test_titles_cleaned_and_clipped(tmp_path: Path) -> None:
    frames = [
        (1, "2026-03-10T09:00:00Z", "\u200eWhatsApp\u200f", "a\tb\x07c\x1b[31md\u200b"),
        (2, "2026-03-10T09:00:30Z", "WhatsApp", "x" * 100_000),
        (3, "2026-03-10T09:01:00Z", "WhatsApp", b"\xff\xfe bad"),
        (4, "2026-03-10T09:01:30Z", "WhatsApp", "end"),
    ]
    db = screenpipe_db(tmp_path / "sp.db", frames)
    doc = compile_path(db, DAY, "UTC")
    (frame,) = doc["frames"]
    assert frame["app"] == "WhatsApp"
    t_ctrl, t_long, t_bad, t_end = frame["titles"]
    assert t_ctrl == "a b cd"  # the whole escape sequence ESC [31m goes
    assert len(t_long) <= 300 and t_long.endswith("…")
    assert t_bad == "\ufffd\ufffd bad"
    assert t_end == "end"
    json.dumps(doc, ensure_ascii=False).encode("utf-8")  # valid UTF-8 throughout


def test_bulk_and_row_by_row_event_reads_agree(tmp_path: Path) -> None:
    """Clean stores are read in bulk; one odd row switches to row by row. Same events."""
    rnd = random.Random(5)
    types = ["key", "Key", "click", "scroll", "clipboard", "paste", "mouse_move", "text"]
    apps = ["Code", "Slack", None, "  Code\u200b", ""]
    events = [
        (
            i,
            iso(T0 + rnd.randrange(0, 3_600_000), rnd.choice(["Z/f3", "+00:00/f6", "+05:30/f3"])),
            rnd.choice(types),
            rnd.choice(apps),
        )
        for i in range(1, 400)
    ]
    clean = screenpipe_db(tmp_path / "clean.db", _stored(_frames(), ["Z"]), events)
    odd = screenpipe_db(
        tmp_path / "odd.db",
        _stored(_frames(), ["Z"]),
        [*events, (9999, "2200-01-01T00:00:00Z", "key", "Code")],
    )
    caps = []
    for db in (clean, odd):
        src = ScreenpipeSource(db)
        try:
            caps.append(src.read(WIN.start_ms, WIN.end_ms))
        finally:
            src.close()
    assert caps[0].event_columns and not caps[0].events  # read in bulk
    assert caps[1].events and not caps[1].event_columns  # read row by row
    assert caps[0].all_events() == caps[1].all_events()
    assert [r.row for r in caps[1].rejected] == ["9999"]


def _read(db: Path) -> Any:
    src = ScreenpipeSource(db)
    try:
        return src.read(WIN.start_ms, WIN.end_ms)
    finally:
        src.close()


def _grouped_reads(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records, per read, whether the frames came grouped (True) or row by row (False)."""
    from actframes.sources.screenpipe import frames as screenpipe_frames

    seen: list[bool] = []
    inner = screenpipe_frames.snaps_from_groups

    def spy(*args: Any) -> bool:
        seen.append(inner(*args))
        return seen[-1]

    monkeypatch.setattr(screenpipe_frames, "snaps_from_groups", spy)
    return seen


def test_grouped_and_row_by_row_frame_reads_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames keyed by INTEGER PRIMARY KEY are read grouped by what they show; a row
    SQLite cannot place switches to row by row. Same snapshots, same problems reported."""
    rnd = random.Random(11)
    apps = ["Code", "  Code\u200b", "Google Chrome", "", None, "Slack"]
    titles = ["a", "A", "a ", None, "x\ty", "é"]
    urls = [None, "", " https://example.com/a ", "https://example.com/a"]
    devices = [None, "", "monitor_0", "monitor_1"]
    frames = [
        (
            i,
            iso(T0 + rnd.randrange(0, 3_600_000), rnd.choice(["Z/f3", "+00:00/f6", "-08:00/f3"])),
            rnd.choice(apps),
            rnd.choice(titles),
            rnd.choice(urls),
            rnd.choice(devices),
        )
        for i in range(1, 500)
    ]
    rnd.shuffle(frames)
    clean = screenpipe_db(tmp_path / "clean.db", frames)
    odd = screenpipe_db(tmp_path / "odd.db", [*frames, (9999, "2026-03-10T25:00:00Z", "Code")])
    seen = _grouped_reads(monkeypatch)
    grouped, rowwise = _read(clean), _read(odd)
    assert seen == [True, False]
    assert grouped.snapshots == sorted(rowwise.snapshots, key=lambda s: (s.ts_ms, s.row_id))
    assert [s.ts_ms for s in grouped.snapshots] == sorted(s.ts_ms for s in grouped.snapshots)
    assert sorted(grouped.rejected) == sorted(r for r in rowwise.rejected if r.row != "9999")
    assert any(r.reason == "empty app name" for r in grouped.rejected)
    assert compile_path(clean, DAY, "UTC")["frames"]


def test_grouped_frames_keep_values_a_collation_would_merge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Columns declared NOCASE still group by their exact text; numbers of equal value but
    different type (1 and 1.0, which SQL groups together) are read row by row."""
    script = (
        "CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT,"
        " app_name TEXT COLLATE NOCASE, window_name TEXT COLLATE NOCASE);"
        "CREATE INDEX f_ts ON frames (timestamp);"
    )
    rows = [
        (1, "2026-03-10T09:00:00Z", "Code", "Title"),
        (2, "2026-03-10T09:00:10Z", "code", "TITLE"),
        (3, "2026-03-10T09:00:20Z", "CODE", "title"),
    ]
    seen = _grouped_reads(monkeypatch)
    cap = _read(sqlite_db(tmp_path / "nocase.db", script, {"frames": rows}))
    assert [(s.app, s.title) for s in cap.snapshots] == [(r[2], r[3]) for r in rows]
    untyped = script.replace("TEXT COLLATE NOCASE", "")  # values keep their own type
    numeric = [(1, "2026-03-10T09:00:00Z", 1, "t"), (2, "2026-03-10T09:00:10Z", 1.0, "t")]
    cap = _read(sqlite_db(tmp_path / "numeric.db", untyped, {"frames": numeric}))
    assert [s.row_id for s in cap.snapshots] == [1, 2]
    assert seen == [True, False]


def test_background_query_hands_back_rows_and_errors(tmp_path: Path) -> None:
    """The events' query runs in another thread: its rows, or its error, come back."""
    from actframes.sources.screenpipe.input import Background as _Background

    db = screenpipe_db(tmp_path / "sp.db", _stored(_frames(n=3), ["Z"]))
    conn = connect_ro(db, check_same_thread=False)
    try:
        rows = _Background(conn, "SELECT id FROM frames ORDER BY id", ()).result()
        assert rows == [(1,), (2,), (3,)]
        with pytest.raises(sqlite3.OperationalError):
            _Background(conn, "SELECT nope FROM frames", ()).result()
    finally:
        conn.close()
