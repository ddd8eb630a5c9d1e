"""Bad input through the real CLI: one-line errors with the right exit code for whole-file
and request problems; row problems reported in the document, never fatal. The input file
is never written, whatever happens."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from actframes.model import Snapshot

from .builders import ms, native_db, run_cli, run_cli_bytes, screenpipe_db, sha256, sqlite_db

DAY = "2026-03-10"
T0 = ms("2026-03-10T09:00:00+00:00")

# Six good rows, one device, 30 s apart: Code, Code, Chrome, Chrome, Code, Code.
GOOD = [
    (1, "2026-03-10T09:00:00Z", "Code", "main.py", None, "monitor_0"),
    (2, "2026-03-10T09:00:30Z", "Code", "main.py", None, "monitor_0"),
    (3, "2026-03-10T09:01:00Z", "Google Chrome", "Docs", "https://docs.python.org/3/", "monitor_0"),
    (4, "2026-03-10T09:01:30Z", "Google Chrome", "Docs", "https://docs.python.org/3/", "monitor_0"),
    (5, "2026-03-10T09:02:00Z", "Code", "main.py", None, "monitor_0"),
    (6, "2026-03-10T09:02:30Z", "Code", "main.py", None, "monitor_0"),
]
GOOD_ACTIVE_S = 150  # five 30 s dwells; the last row earns nothing


def _no_traceback(proc: Any) -> None:
    assert "Traceback" not in proc.stderr
    assert "Traceback" not in proc.stdout


def _one_line_error(proc: Any, code: int, *needles: str) -> str:
    _no_traceback(proc)
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.startswith("actframes: error: "), proc.stderr
    assert proc.stderr.endswith("\n")
    assert proc.stderr.count("\n") == 1, proc.stderr
    for needle in needles:
        assert needle in proc.stderr
    return str(proc.stderr)


def _day(db: Path, *extra: str, day: str = DAY) -> Any:
    return run_cli("day", day, "--db", str(db), "--tz", "UTC", *extra)


# ---------------------------------------------------------------- whole-file problems


def _missing(tmp: Path) -> Path:
    return tmp / "no-such-capture.db"


def _random_bytes(tmp: Path) -> Path:
    p = tmp / "random.db"
    p.write_bytes(bytes((i * 197 + 11) % 256 for i in range(8192)))
    return p


def _text_file(tmp: Path) -> Path:
    p = tmp / "notes.txt"
    p.write_text("meeting notes\n- nothing here is a database\n", encoding="utf-8")
    return p


def _empty_file(tmp: Path) -> Path:
    p = tmp / "empty.db"
    p.write_bytes(b"")
    return p


def _truncated_sqlite(tmp: Path) -> Path:
    p = tmp / "truncated.db"
    p.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 3)
    return p


def _unknown_family(tmp: Path) -> Path:
    return sqlite_db(
        tmp / "photos.db",
        "CREATE TABLE albums (id INTEGER, name TEXT); CREATE TABLE photos (id INTEGER);",
    )


def _frames_without_app_name(tmp: Path) -> Path:
    return sqlite_db(
        tmp / "old-recorder.db",
        "CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, window_name TEXT);",
        {"frames": [(1, "2026-03-10T09:00:00Z", "main.py")]},
    )


def _native_from_the_future(tmp: Path) -> Path:
    db = native_db(tmp / "capture.db", [Snapshot(1, T0, "Code")])
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    return db


def _not_an_aw_export(tmp: Path) -> Path:
    p = tmp / "settings.json"
    p.write_text('{"theme": "dark"}', encoding="utf-8")
    return p


FILE_CASES: list[tuple[str, Callable[[Path], Path], tuple[str, ...]]] = [
    ("missing file", _missing, ("no such file",)),
    ("random bytes", _random_bytes, ("not a capture database",)),
    ("text file", _text_file, ("not a capture database",)),
    ("empty file", _empty_file, ("empty",)),
    ("truncated sqlite", _truncated_sqlite, ()),
    ("unknown family", _unknown_family, ("unknown", "albums", "photos")),
    ("frames without app_name", _frames_without_app_name, ("frames", "app_name")),
    ("native schema 99", _native_from_the_future, ("99",)),
    ("json but not activitywatch", _not_an_aw_export, ("buckets",)),
]


@pytest.mark.parametrize(
    ("make", "needles"), [c[1:] for c in FILE_CASES], ids=[c[0] for c in FILE_CASES]
)
def test_whole_file_problem(
    tmp_path: Path, make: Callable[[Path], Path], needles: tuple[str, ...]
) -> None:
    path = make(tmp_path)
    before = sha256(path) if path.exists() else None
    proc = _day(path, "--format", "context")
    _one_line_error(proc, 1, str(path), *needles)
    if before is None:
        assert not path.exists()  # nothing was created
    else:
        assert sha256(path) == before


def test_directory_as_db(tmp_path: Path) -> None:
    proc = _day(tmp_path)
    _no_traceback(proc)
    assert proc.returncode in (1, 2)
    _one_line_error(proc, proc.returncode, str(tmp_path.name))


@pytest.mark.parametrize(
    ("source", "needle"), [("native", "snapshots"), ("activitywatch", "buckets")]
)
def test_forcing_the_wrong_family(tmp_path: Path, source: str, needle: str) -> None:
    db = screenpipe_db(tmp_path / "sp.db", GOOD)
    before = sha256(db)
    proc = _day(db, "--source", source)
    _one_line_error(proc, 1, str(db), needle)
    assert sha256(db) == before


# ---------------------------------------------------------------- request problems


USAGE_CASES: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    (("day", "2026-03-10", "--tz", "Mars/Olympus_Mons"), ("Mars/Olympus_Mons",)),
    (("day", "2026-03-10", "--tz", "../../etc/passwd"), ("etc/passwd",)),
    (("day", "2026-13-45", "--tz", "UTC"), ("2026-13-45",)),
    (("day", "2026-02-30", "--tz", "UTC"), ("2026-02-30",)),
    (("day", "10.03.2026", "--tz", "UTC"), ("10.03.2026",)),
    (("day", "2026-03-10", "--tz", "UTC", "--min-minutes", "-1"), ("--min-minutes",)),
    (("day", "2026-03-10", "--tz", "UTC", "--min-minutes", "nan"), ("--min-minutes",)),
    (("day", "2026-03-10", "--tz", "UTC", "--min-minutes", "inf"), ("--min-minutes",)),
    (("apps", "2026-03-10", "--tz", "Mars/Olympus_Mons"), ("Mars/Olympus_Mons",)),
    (("day", "2026-03-10", "--tz", "UTC", "--budget", "0"), ("--budget",)),
    (("day", "2026-03-10", "--tz", "UTC", "--budget", "-5"), ("--budget",)),
    (("apps", "2026-13-45", "--tz", "UTC"), ("2026-13-45",)),
    (("day", "9999-12-31", "--tz", "UTC"), ("9999-12-31",)),
    (("day", "0001-01-01", "--tz", "Europe/Berlin"), ("0001-01-01",)),
]


@pytest.mark.parametrize(
    ("args", "needles"), USAGE_CASES, ids=[" ".join(a) for a, _ in USAGE_CASES]
)
def test_usage_problem(tmp_path: Path, args: tuple[str, ...], needles: tuple[str, ...]) -> None:
    db = screenpipe_db(tmp_path / "sp.db", GOOD)
    before = sha256(db)
    proc = run_cli(*args, "--db", str(db))
    _one_line_error(proc, 2, *needles)
    assert sha256(db) == before


@pytest.mark.parametrize(
    "args",
    [
        ("day", "2026-03-10", "--tz", "UTC", "--format", "xml"),
        ("day", "2026-03-10", "--tz", "UTC", "--min-minutes", "lots"),
        ("day", "2026-03-10", "--tz", "UTC", "--no-such-option"),
    ],
    ids=["format-xml", "min-minutes-lots", "unknown-option"],
)
def test_option_parsing_errors_are_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    db = screenpipe_db(tmp_path / "sp.db", GOOD)
    proc = run_cli(*args, "--db", str(db))
    _one_line_error(proc, 2)


# ---------------------------------------------------------------- row problems (not fatal)


def _compiled(db: Path, day: str = DAY) -> dict[str, Any]:
    before = sha256(db)
    proc = _day(db, day=day)
    _no_traceback(proc)
    assert sha256(db) == before
    doc: dict[str, Any] = json.loads(proc.stdout)
    if not doc["rejected_rows"]:
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""
    elif doc["coverage"]["rows"]:  # rows rejected beside usable ones: one warning line
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr.startswith("actframes: warning: ")
        assert proc.stderr.count("\n") == 1 and "rejected" in proc.stderr
    else:  # nothing usable: the document says why, and the exit status says so
        assert proc.returncode == 1
        assert proc.stderr.startswith("actframes: error: ") and "no usable rows" in proc.stderr
        assert proc.stderr.count("\n") == 1
    return doc


def _rejected(doc: dict[str, Any]) -> dict[str, tuple[int, str]]:
    return {r["reason"]: (r["count"], r["rows"]) for r in doc["rejected_rows"]}


def _assert_good_rows_compiled(doc: dict[str, Any], rows: int = len(GOOD)) -> None:
    assert doc["coverage"]["rows"] == rows
    assert doc["coverage"]["active_s"] == GOOD_ACTIVE_S
    assert [(e["app"], e["active_s"]) for e in doc["ledger"]] == [
        ("Code", 90),
        ("Google Chrome", 60),
    ]


@pytest.mark.parametrize(
    ("bad", "reason", "rows"),
    [
        ([(100, "garbage"), (101, "10/03/2026 09:00"), (102, "")], "ISO-8601", "100-102"),
        ([(100, "2026-03-10T99:00:00Z"), (101, "2026-03-10T23:60:00Z")], "no such time", "100-101"),
        ([(100, None), (101, b"2026-03-10T09:00:05Z")], "not text", "100-101"),
        ([(100, "2200-01-01T00:00:00Z"), (101, "2200-06-30 12:00:00")], "out of range", "100-101"),
        ([(100, "1900-01-01T00:00:00Z")], "out of range", "100"),
        ([(100, "0000-01-01T00:00:00Z"), (101, "0000-06-01 12:00:00 UTC")], "date", "100-101"),
    ],
    ids=["unparseable", "impossible-time", "null-or-blob", "year-2200", "year-1900", "year-0"],
)
def test_bad_timestamps(tmp_path: Path, bad: list[tuple[Any, ...]], reason: str, rows: str) -> None:
    frames = [*GOOD, *((rid, ts, "Code", "bad row", None, "monitor_0") for rid, ts in bad)]
    doc = _compiled(screenpipe_db(tmp_path / "sp.db", frames))
    _assert_good_rows_compiled(doc)
    (entry,) = doc["rejected_rows"]
    assert entry["table"] == "frames"
    assert reason in entry["reason"]
    assert (entry["count"], entry["rows"]) == (len(bad), rows)


def test_bad_timestamps_are_reported_on_every_day(tmp_path: Path) -> None:
    """Rows that belong to no day are reported by each document, not silently dropped."""
    frames = [*GOOD, (100, "garbage", "Code"), (101, "2200-01-01T00:00:00Z", "Code")]
    db = screenpipe_db(tmp_path / "sp.db", frames)
    for day in ("2026-03-10", "2026-03-11", "2025-01-01"):
        doc = _compiled(db, day)
        assert sum(r["count"] for r in doc["rejected_rows"]) == 2


def test_duplicate_ids(tmp_path: Path) -> None:
    frames = [*GOOD, GOOD[2], GOOD[3], GOOD[3]]
    doc = _compiled(screenpipe_db(tmp_path / "sp.db", frames, schema="noid_pk"))
    _assert_good_rows_compiled(doc)
    # three extra copies, of rows 3 and 4
    assert _rejected(doc) == {"duplicate id": (3, "3-4")}


@pytest.mark.parametrize("app", [None, "", "   ", "\u200b\u200e", "\x00\x07"])
def test_null_and_empty_app_names(tmp_path: Path, app: str | None) -> None:
    frames = [*GOOD, (100, "2026-03-10T09:00:10Z", app, "t"), (101, "2026-03-10T09:00:20Z", app)]
    doc = _compiled(screenpipe_db(tmp_path / "sp.db", frames))
    _assert_good_rows_compiled(doc)
    assert _rejected(doc) == {"empty app name": (2, "100-101")}


def test_huge_title(tmp_path: Path) -> None:
    huge = "Re: quarterly report " + "x" * 100_000
    frames = [(*GOOD[0][:3], huge, *GOOD[0][4:]), *GOOD[1:]]
    doc = _compiled(screenpipe_db(tmp_path / "sp.db", frames))
    _assert_good_rows_compiled(doc)
    titles = doc["frames"][0]["titles"]
    assert titles[0].startswith("Re: quarterly report x")
    assert titles[0].endswith("…")
    assert len(titles[0]) <= 300
    assert titles[1] == "main.py"
    assert doc["rejected_rows"] == []


def test_control_characters_and_invalid_utf8(tmp_path: Path) -> None:
    frames = [
        (1, "2026-03-10T09:00:00Z", "Code", "tab\there\x07bell\x1b[0m\x00nul\r\nnext"),
        (2, "2026-03-10T09:00:30Z", "Code", b"\xff\xfe bad"),
        (3, "2026-03-10T09:01:00Z", "Google Chrome", "Docs\u202e\u200b", "https://x.org/"),
        (4, "2026-03-10T09:01:30Z", "Google Chrome", "Docs", "https://x.org/"),
        (5, "2026-03-10T09:02:00Z", "Code", "placeholder"),
        (6, "2026-03-10T09:02:30Z", "Code", "main.py"),
    ]
    db = screenpipe_db(tmp_path / "sp.db", frames)
    # Invalid UTF-8 stored as TEXT, not only as a BLOB.
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "UPDATE frames SET window_name = CAST(x'c328e282ac20ff6f6b' AS TEXT) WHERE id=5"
        )
        conn.execute("UPDATE frames SET app_name = CAST(x'436f6465' AS TEXT) WHERE id=5")
    conn.close()
    before = sha256(db)
    for fmt in ("json", "yaml", "md", "context"):
        proc = run_cli_bytes("day", DAY, "--db", str(db), "--tz", "UTC", "--format", fmt)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == b""
        text = proc.stdout.decode("utf-8")  # strict: the output is valid UTF-8
        assert "\x00" not in text and "\x07" not in text and "\x1b" not in text
        if fmt == "json":
            doc = json.loads(text)
    assert sha256(db) == before
    assert doc["coverage"]["rows"] == 6
    titles = [t for f in doc["frames"] for t in f["titles"]]
    assert titles[0] == "tab here bell nul next"  # the whole escape sequence goes
    assert titles[1] == "\ufffd\ufffd bad"
    assert "\ufffd" in titles[-2]
    for t in titles:
        assert all(ord(c) >= 0x20 and not 0x7F <= ord(c) <= 0x9F for c in t), t


def test_control_characters_in_app_names(tmp_path: Path) -> None:
    """Any byte may sit in a stored name, the unit and record separators included."""
    frames = [*GOOD, (7, "2026-03-10T09:03:00Z", "Co\x1fde\x1e", "t\x1f\x1e", None, "mon\x1f")]
    events = [
        (1, "2026-03-10T09:00:10Z", "key", "Co\x1fde"),
        (2, "2026-03-10T09:00:20Z", "click", b"\xff\x1f"),
        (3, "2026-03-10T09:00:25,5Z", "key", "Code"),
        (4, "2026-03-10T09:00:26Z", "key", "Code,Chrome"),
    ]
    doc = _compiled(screenpipe_db(tmp_path / "sp.db", frames, events))
    assert doc["coverage"]["input_events"] == 4
    assert doc["coverage"]["rows"] == len(GOOD) + 1
    assert doc["rejected_rows"] == []
    apps = {e["app"] for e in doc["ledger"]} | {f["app"] for f in doc["frames"]}
    assert all(c >= " " for app in apps for c in app)


def test_empty_day(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", GOOD)
    doc = _compiled(db, "2026-03-12")
    assert doc["frames"] == []
    assert doc["ledger"] == []
    assert doc["coverage"]["first"] is None
    assert doc["coverage"]["last"] is None
    assert doc["coverage"]["active_s"] == 0
    assert doc["coverage"]["rows"] == 0
    for fmt in ("md", "context", "yaml"):
        proc = _day(db, "--format", fmt, day="2026-03-12")
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_empty_store(tmp_path: Path) -> None:
    doc = _compiled(screenpipe_db(tmp_path / "sp.db", []))
    assert doc["frames"] == [] and doc["coverage"]["first"] is None
    doc = _compiled(native_db(tmp_path / "capture.db", []))
    assert doc["frames"] == [] and doc["coverage"]["first"] is None


def test_everything_at_once(tmp_path: Path) -> None:
    frames = [
        *GOOD,
        (100, "garbage", "Code"),
        (101, "2200-01-01T00:00:00Z", "Code"),
        (102, "2026-03-10T09:00:05Z", None),
        (103, "2026-03-10T09:00:06Z", ""),
        (6, "2026-03-10T09:02:30Z", "Code", "dup of 6", None, "monitor_0"),
    ]
    doc = _compiled(screenpipe_db(tmp_path / "sp.db", frames, schema="noid_pk"))
    _assert_good_rows_compiled(doc)
    assert sum(r["count"] for r in doc["rejected_rows"]) == 5
    reasons = {r["reason"] for r in doc["rejected_rows"]}
    assert "empty app name" in reasons and "duplicate id" in reasons
