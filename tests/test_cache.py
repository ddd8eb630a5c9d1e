"""The document cache: served only while the rows are the same, safe against torn writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from actframes.api import open_source, to_json
from actframes.cache import DocCache, compile_window_cached
from actframes.compile.pipeline import Options
from actframes.window import day_window

from .builders import run_cli
from .test_golden import build

WIN = day_window("2026-03-10", "Europe/Berlin")


def run(db: Path, cache: DocCache) -> tuple[str, bool]:
    src = open_source(db)
    try:
        doc, hit = compile_window_cached(src, WIN, Options(), cache)
    finally:
        src.close()
    return to_json(doc), hit


def test_hit_only_while_rows_are_unchanged(tmp_path: Path) -> None:
    db = build(tmp_path / "g.db")
    cache = DocCache(tmp_path / "c")
    first, hit1 = run(db, cache)
    second, hit2 = run(db, cache)
    assert (hit1, hit2) == (False, True) and first == second
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE snapshots SET title = 'x' WHERE id = 1")
    conn.close()
    third, hit3 = run(db, cache)
    assert not hit3 and third != first and '"x"' in third


def test_torn_or_foreign_entries_are_ignored(tmp_path: Path) -> None:
    db = build(tmp_path / "g.db")
    cache = DocCache(tmp_path / "c")
    good, _ = run(db, cache)
    (entry,) = list(cache.root.glob("*.json"))
    entry.write_text(entry.read_text()[:100], encoding="utf-8")  # a torn write
    (cache.root / ".tmp-crashed.json").write_text("{", encoding="utf-8")  # a crash mid-write
    again, hit = run(db, cache)
    assert not hit and again == good
    assert run(db, cache)[1]
    assert cache.clear() == 2 and not list(cache.root.iterdir())


def test_cli_no_cache_and_clear(tmp_path: Path) -> None:
    db = build(tmp_path / "g.db")
    env_dir = tmp_path / "cache"
    from .builders import cli_env

    env = cli_env(ACTFRAMES_CACHE=str(env_dir))
    a = run_cli("day", "2026-03-10", "--db", str(db), "--tz", "Europe/Berlin", env=env)
    b = run_cli("day", "2026-03-10", "--db", str(db), "--tz", "Europe/Berlin", env=env)
    c = run_cli(
        "day", "2026-03-10", "--db", str(db), "--tz", "Europe/Berlin", "--no-cache", env=env
    )
    assert a.stdout == b.stdout == c.stdout and a.returncode == 0
    assert len(list((env_dir / "docs").glob("*.json"))) == 1
    info = run_cli("cache", "info", env=env)
    assert "entries: 1" in info.stdout
    cleared = run_cli("cache", "clear", env=env)
    assert cleared.stdout.strip() == "removed 1 cached document(s)"


def test_cli_clear_also_removes_the_routines_kept_days(tmp_path: Path) -> None:
    """``actframes routines`` keeps each day's steps beside the documents; ``cache info``
    counts them and ``cache clear`` removes them with the documents."""
    db = build(tmp_path / "g.db")
    env_dir = tmp_path / "cache"
    from .builders import cli_env

    env = cli_env(ACTFRAMES_CACHE=str(env_dir))
    args = ("--db", str(db), "--tz", "Europe/Berlin")
    assert (
        run_cli("routines", *args, "--until", "2026-03-10", "--days", "2", env=env).returncode == 0
    )
    assert run_cli("day", "2026-03-10", *args, env=env).returncode == 0
    kept = list((env_dir / "routine-days").glob("*.json"))
    assert len(kept) == 2
    info = run_cli("cache", "info", env=env).stdout
    assert "entries: 1\n" in info and "routine days: 2 (" in info
    cleared = run_cli("cache", "clear", env=env)
    assert cleared.stdout == "removed 1 cached document(s) and 2 cached day(s) of routine steps\n"
    assert not list((env_dir / "routine-days").iterdir())
    assert not list((env_dir / "docs").iterdir())


def test_native_fingerprint_serves_without_reading_and_sees_every_change(tmp_path: Path) -> None:
    db = build(tmp_path / "g.db")
    cache = DocCache(tmp_path / "c")
    first, _ = run(db, cache)

    class NoRead:
        """The store, except that reading rows is an error: a hit must not need it."""

        def __init__(self) -> None:
            self.inner = open_source(db)
            self.path, self.kind = self.inner.path, self.inner.kind

        def fingerprint(self, start: int, end: int) -> str | None:
            return self.inner.fingerprint(start, end)

        def commits_seen(self) -> int | None:
            return self.inner.commits_seen()

        def read(self, start: int, end: int) -> None:
            raise AssertionError("read rows although nothing changed")

    src = NoRead()
    doc, hit = compile_window_cached(src, WIN, Options(), cache)  # type: ignore[arg-type]
    src.inner.close()
    assert hit and to_json(doc) == first
    for sql in (
        "UPDATE snapshots SET title = 'y' WHERE id = 2",
        "DELETE FROM input_events WHERE id = 1",
        "INSERT INTO afk (start_ms, end_ms) VALUES (1773133000000, 1773133600000)",
    ):
        conn = sqlite3.connect(db)
        with conn:
            conn.execute(sql)
        conn.close()
        again, hit = run(db, cache)
        assert not hit and again != first, sql
        first = again
