"""Broken rows in ActivityWatch's SQLite files are reported, never fatal to the day: the
Python aw-server's peewee file (tables as aw-core's ``peewee.py`` models declare them:
``bucketmodel``, ``eventmodel`` with ``timestamp`` as text and ``duration`` a DECIMAL that
SQLite keeps as a number) and aw-server-rust's ``sqlite.db``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from actframes.compile.ranges import expand

from ..builders import run_cli
from .test_activitywatch import AW_RUST_SCHEMA

PEEWEE = """
CREATE TABLE "bucketmodel" ("key" INTEGER NOT NULL PRIMARY KEY, "id" VARCHAR(255) NOT NULL,
    "created" DATETIME NOT NULL, "name" VARCHAR(255), "type" VARCHAR(255) NOT NULL,
    "client" VARCHAR(255) NOT NULL, "hostname" VARCHAR(255) NOT NULL, "datastr" VARCHAR(255));
CREATE UNIQUE INDEX "bucketmodel_id" ON "bucketmodel" ("id");
CREATE TABLE "eventmodel" ("id" INTEGER NOT NULL PRIMARY KEY, "bucket_id" INTEGER NOT NULL,
    "timestamp" DATETIME NOT NULL, "duration" DECIMAL(10, 5) NOT NULL,
    "datastr" VARCHAR(255) NOT NULL,
    FOREIGN KEY ("bucket_id") REFERENCES "bucketmodel" ("key"));
CREATE INDEX "eventmodel_bucket_id" ON "eventmodel" ("bucket_id");
CREATE INDEX "eventmodel_timestamp" ON "eventmodel" ("timestamp");
INSERT INTO bucketmodel VALUES (1, 'aw-watcher-window_h', '2026-03-10 08:00:00.000000+00:00',
    NULL, 'currentwindow', 'aw-watcher-window', 'h', '{}');
"""
GOOD = (1, 1, "2026-03-10 09:00:00.000000+00:00", 60.0, '{"app": "Code", "title": "a.py"}')


def _peewee(path: Path, *rows: tuple[object, ...]) -> Path:
    conn = sqlite3.connect(path)
    try:
        conn.executescript(PEEWEE)
        conn.executemany("INSERT INTO eventmodel VALUES (?, ?, ?, ?, ?)", [GOOD, *rows])
        conn.commit()
    finally:
        conn.close()
    return path


@pytest.mark.parametrize(
    ("duration", "reason"),
    [
        (1e308, "ends after 2099"),
        (9e18, "ends after 2099"),
        (1e12, "ends after 2099"),
        (float("inf"), "not a finite number"),
        ("abc", "not a finite number"),
    ],
)
def test_a_peewee_event_of_any_duration_is_one_rejected_row(
    tmp_path: Path, duration: object, reason: str
) -> None:
    db = _peewee(
        tmp_path / "peewee-sqlite.v2.db",
        (2, 1, "2026-03-10 09:05:00.000000+00:00", duration, '{"app": "Code", "title": "b"}'),
    )
    proc = run_cli("day", "2026-03-10", "--db", str(db), "--tz", "UTC", "--format", "context")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert proc.stderr == (
        f"actframes: warning: 1 rows used, 1 rejected (aw-watcher-window_h: bad duration:"
        f" {reason} (1))\n"
    )


def test_a_text_duration_does_not_hide_the_longest_event(tmp_path: Path) -> None:
    """An event that began two days before the day and runs into it is read even when a
    broken row's duration is text (which SQLite orders above every number)."""
    start = "2026-03-08 09:00:00.000000+00:00"
    db = _peewee(
        tmp_path / "peewee-sqlite.v2.db",
        (2, 1, start, 2 * 86_400 + 600, '{"app": "Terminal", "title": "long"}'),
        (3, 1, "2026-03-10 09:05:00.000000+00:00", "abc", '{"app": "Code", "title": "b"}'),
    )
    proc = run_cli("apps", "2026-03-10", "--db", str(db), "--tz", "UTC")
    assert proc.returncode == 0, proc.stderr
    assert "Terminal" in proc.stdout and "Code" in proc.stdout


def _rejected(db: Path, day: str) -> list[int]:
    """The ids of every row the day's document reports as rejected (a day with no usable
    row is printed too, and ends with status 1 saying so)."""
    proc = run_cli("day", day, "--db", str(db), "--tz", "UTC")
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
    doc = json.loads(proc.stdout)
    return sorted(i for r in doc["rejected_rows"] for i in expand(r["rows"]))


def test_peewee_rows_no_day_holds_are_reported_on_every_day(tmp_path: Path) -> None:
    db = _peewee(
        tmp_path / "peewee-sqlite.v2.db",
        (2, 1, "garbage", 5, "{}"),  # text above every date
        (3, 1, 1_773_133_200, 5, "{}"),  # a number: below every text
        (4, 1, b"\x00\xff", 5, "{}"),  # a blob: above every text
        (5, 1, "1999-12-31 23:59:59+00:00", 5, "{}"),  # before 2000
        (6, 1, "2100-01-01 00:00:01+00:00", 5, "{}"),  # from 2100 on
    )
    for day in ("2026-03-10", "2026-06-01"):
        assert _rejected(db, day) == [2, 3, 4, 5, 6], day


def test_aw_rust_rows_no_day_holds_are_reported_on_every_day(tmp_path: Path) -> None:
    db = tmp_path / "sqlite.db"
    conn = sqlite3.connect(db)
    try:
        conn.executescript(AW_RUST_SCHEMA)
        conn.execute(
            "INSERT INTO buckets (id, name, type, client, hostname, created)"
            " VALUES (1, 'aw-watcher-window_h', 'currentwindow', 'c', 'h', 'x')"
        )
        ns = 1_773_133_200 * 10**9  # 2026-03-10T09:00:00Z
        conn.executemany(
            "INSERT INTO events (id, bucketrow, starttime, endtime, data) VALUES (?, 1, ?, ?, ?)",
            [
                (1, ns, ns + 60 * 10**9, '{"app": "Code", "title": "a.py"}'),
                (2, "garbage", ns, "{}"),  # text: above every number
                (3, b"\x00", ns, "{}"),  # a blob
                (4, 946_684_799 * 10**9, ns, "{}"),  # before 2000
                (5, 4_102_444_801 * 10**9, 4_102_444_802 * 10**9, "{}"),  # from 2100 on
            ],
        )
        conn.commit()
    finally:
        conn.close()
    for day in ("2026-03-10", "2026-06-01"):
        assert _rejected(db, day) == [2, 3, 4, 5], day
