"""Broken rows in ActivityWatch's SQLite files are reported, never fatal to the day: the
Python aw-server's peewee file (tables as aw-core's ``peewee.py`` models declare them:
``bucketmodel``, ``eventmodel`` with ``timestamp`` as text and ``duration`` a DECIMAL that
SQLite keeps as a number) and aw-server-rust's ``sqlite.db``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ..builders import run_cli

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
