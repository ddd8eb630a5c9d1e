"""A screenpipe store's newest migration (``_sqlx_migrations``), and a store newer than
the newest checked: read as usual, said in blind_spots (SPEC.md §1.2c)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from actframes.api import compile_path
from actframes.cache import DocCache, compile_window_cached
from actframes.emit.json_out import to_json
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.sources.screenpipe.schema import CHECKED_VERSIONS, NEWEST_CHECKED
from actframes.window import day_window

from ..builders import cli_env, ms, run_cli
from .screenpipe_versions import NEWEST, SQLX_TABLE, Store, make_day, write_day

DAY = "2026-03-10"
T0 = ms("2026-03-10T09:00:00+00:00")
NEWER = 20270105000000  # a migration after every checked one
NOTE = (
    "screenpipe schema 20270105000000 is newer than the newest checked,"
    " 20260818133000 (app 2.6.78): counts may be off"
)


def record_migrations(path: Path, rows: list[tuple[int, str, bool]]) -> None:
    """Rows of ``_sqlx_migrations`` as sqlx writes them: (version, file-name description
    with spaces, success), a SHA-384 checksum, nanoseconds of execution."""
    with sqlite3.connect(path) as conn:
        conn.execute(SQLX_TABLE)
        for version, description, ok in rows:
            conn.execute(
                "INSERT INTO _sqlx_migrations (version, description, success, checksum,"
                " execution_time) VALUES (?, ?, ?, ?, ?)",
                (version, description, ok, hashlib.sha384(description.encode()).digest(), 1234567),
            )
    conn.close()


CHECKED_ROWS = [
    (20240703000000, "create initial tables", True),
    (20260315000000, "add frame id to memories", True),
    (20260818133000, "activity ledger query indexes", True),
]


def _store(folder: Path, extra: list[tuple[int, str, bool]] | None = None) -> Path:
    """The same day (same seed) in a store at the newest schema our fixtures write, with
    ``_sqlx_migrations`` up to the newest checked, plus ``extra`` rows (None: no table)."""
    folder.mkdir()
    store = Store(folder / "db.sqlite", NEWEST)
    day = make_day(seed=5, start_ms=T0, minutes=30)
    write_day(store, day)
    store.write_input(day)
    store.close()
    if extra is not None:
        record_migrations(store.path, CHECKED_ROWS + extra)
    return store.path


def _doc(path: Path) -> dict[str, Any]:
    return dict(compile_path(path, DAY, "UTC"))


def _without(doc: dict[str, Any], line: str = "") -> str:
    """The document without ``line`` in blind_spots and without the rows' digest, which
    covers what the reader disclosed (SPEC.md §3a) and so differs with the line."""
    out = dict(doc)
    out["blind_spots"] = [b for b in doc["blind_spots"] if b != line]
    out["source"] = {k: v for k, v in doc["source"].items() if k != "digest"}
    return to_json(out)


def test_checked_versions_table() -> None:
    assert NEWEST_CHECKED == 20260818133000
    assert CHECKED_VERSIONS[20260818133000] == ("b23e6850", "2026-08-22", "2.6.78")
    assert CHECKED_VERSIONS[20260315000000] == ("67f4c43", "2026-03-15", "2.2.154")


def test_newer_store_is_read_as_usual_and_says_so(tmp_path: Path) -> None:
    checked = _doc(_store(tmp_path / "a", []))
    newer = _doc(_store(tmp_path / "b", [(NEWER, "some later change", True)]))
    assert not any("newer than the newest checked" in b for b in checked["blind_spots"])
    assert newer["blind_spots"].count(NOTE) == 1
    assert checked["ledger"]  # a real day was read
    # Everything else is byte for byte the same.
    assert _without(newer, NOTE) == _without(checked)
    assert newer["source"]["digest"] != checked["source"]["digest"]


def test_failed_newer_migration_does_not_count(tmp_path: Path) -> None:
    doc = _doc(_store(tmp_path / "a", [(NEWER, "some later change", False)]))
    assert not any("newer than the newest checked" in b for b in doc["blind_spots"])


def test_no_migrations_table_says_nothing(tmp_path: Path) -> None:
    plain = _doc(_store(tmp_path / "a"))
    checked = _doc(_store(tmp_path / "b", []))
    assert not any("screenpipe schema" in b for b in plain["blind_spots"])
    assert to_json(plain) == to_json(checked)  # the table itself changes nothing


def test_cached_document_follows_a_new_migration(tmp_path: Path) -> None:
    """A migration that changes no table (sqlite_master) and no row of the window: the
    window's fingerprint still changes, so the cached document without the note is not
    served again."""
    path = _store(tmp_path / "a", [])
    cache, window = DocCache(tmp_path / "cache"), day_window(DAY, "UTC")
    src = ScreenpipeSource(path)
    try:
        first, hit = compile_window_cached(src, window, None, cache)
        assert not hit and NOTE not in first["blind_spots"]
        assert compile_window_cached(src, window, None, cache)[1]  # served again
        before = src.fingerprint(window.start_ms, window.end_ms)
    finally:
        src.close()
    record_migrations(path, [(NEWER, "some later change", True)])
    src = ScreenpipeSource(path)
    try:
        after = src.fingerprint(window.start_ms, window.end_ms)
        doc, hit = compile_window_cached(src, window, None, cache)
    finally:
        src.close()
    # Same tables, same rows: only the detected version tells the fingerprints apart.
    assert isinstance(before, str) and isinstance(after, str) and before != after
    assert not hit and doc["blind_spots"].count(NOTE) == 1
    assert _without(dict(doc), NOTE) == _without(dict(first))


def _home_with(tmp: Path, extra: list[tuple[int, str, bool]] | None) -> dict[str, str]:
    home = tmp / "home"
    home.mkdir(parents=True)
    path = _store(tmp / "store", extra)
    (home / ".screenpipe").mkdir()
    path.rename(home / ".screenpipe" / "db.sqlite")
    env = cli_env(HOME=str(home), ACTFRAMES_AW_SERVER="off")
    env.pop("XDG_DATA_HOME", None)
    return env


def _screenpipe_line(env: dict[str, str]) -> tuple[list[str], str]:
    listed = run_cli("sources", "--tz", "UTC", env=env)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    line = next(x for x in lines if x.split()[0] == "screenpipe")
    return lines[0].split(), line


def test_sources_shows_schema_and_status(tmp_path: Path) -> None:
    header, line = _screenpipe_line(_home_with(tmp_path / "a", []))
    assert header == ["FAMILY", "STORE", "SIZE", "FROM", "TO", "SCHEMA", "WHERE"]
    assert "20260818133000 (checked)" in line
    header, line = _screenpipe_line(
        _home_with(tmp_path / "b", [(NEWER, "x", True), (NEWER + 1, "y", False)])
    )
    assert "20270105000000 (newer than checked)" in line
    header, line = _screenpipe_line(_home_with(tmp_path / "c", None))
    assert line.split()[-2] == "-"  # the SCHEMA column, before the path


def test_sources_describe_gives_the_schema(tmp_path: Path) -> None:
    from actframes.sources.discover import describe

    path = _store(tmp_path / "a", [(NEWER, "x", True)])
    found = describe(path, "screenpipe")
    assert found is not None and found.schema == NEWER
    assert found.schema_status == "newer than checked"
    assert json.loads(json.dumps(found.schema)) == NEWER


def test_resident_store_keeps_the_line_across_a_tail_read(tmp_path: Path) -> None:
    """The MCP server's and ``today``'s way: documents kept in memory, a store that grew
    read by its tail and spliced (``resident.py``, ``tail.py``); the line stays."""
    from actframes.api import open_store

    path = _store(tmp_path / "a", [(NEWER, "some later change", True)])
    window = day_window(DAY, "UTC")
    store = open_store(path, disk_cache=False, resident=True)
    try:
        first = store.compile(window)
        assert first["blind_spots"].count(NOTE) == 1
        with sqlite3.connect(path) as conn:
            cols = [r[1] for r in conn.execute("PRAGMA table_info(frames)")]
            picked = ", ".join(
                "NULL"
                if c == "id"
                else "'2026-03-10T09:45:00.000000+00:00'"
                if c == "timestamp"
                else c
                for c in cols
            )
            conn.execute(
                f"INSERT INTO frames ({', '.join(cols)})"
                f" SELECT {picked} FROM frames ORDER BY id DESC LIMIT 1"
            )
        conn.close()
        again = store.compile(window)
        kept = store.resident
        assert kept is not None and kept.stats["tail"] == 1  # read by its tail, spliced
    finally:
        store.close()
    assert again["coverage"]["rows"] == first["coverage"]["rows"] + 1  # the new row was read
    assert again["blind_spots"].count(NOTE) == 1
