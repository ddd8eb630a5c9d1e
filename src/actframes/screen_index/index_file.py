"""The index file: one SQLite database per store in ``<cache>/screen/``, in WAL mode.

Tables:

- ``meta(key, value)``: the layout's version and the store it indexes;
- ``units(start_ms, stamp, after, own)``: one row per indexed UTC day of the store, with
  the stamp of its text rows when indexed (``build.py`` compares it), per kind the largest
  row id indexed (JSON), and the store's own stamp of the unit then (when it gives one);
- ``texts(id, start_ms, kind, app, focused, first_ms, last_ms, capture_ids, row_ids)``:
  one row per run of identical consecutive texts of one kind and app (indexed once),
  with every capture and text row it stands for;
- ``fts``: the FTS5 table of the texts (redacted), its rowid ``texts.id``.

Nothing else of the store is copied: the index holds only redacted words, their times,
apps and row ids.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

LAYOUT = "2"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS units (
    start_ms INTEGER PRIMARY KEY, stamp TEXT NOT NULL, after TEXT NOT NULL, own TEXT
);
CREATE TABLE IF NOT EXISTS texts (
    id INTEGER PRIMARY KEY,
    start_ms INTEGER NOT NULL,
    kind TEXT NOT NULL,
    app TEXT NOT NULL,
    focused INTEGER NOT NULL,
    first_ms INTEGER NOT NULL,
    last_ms INTEGER NOT NULL,
    capture_ids TEXT NOT NULL,
    row_ids TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS texts_unit ON texts (start_ms, kind, id);
CREATE INDEX IF NOT EXISTS texts_time ON texts (first_ms);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    text, tokenize = 'unicode61 remove_diacritics 2'
);
"""


def index_path(cache_root: Path, store: Path, kind: str) -> Path:
    """Where a store's index lies: named by a digest of its resolved path and kind."""
    ident = json.dumps([str(Path(store).resolve()), kind]).encode()
    return cache_root / "screen" / f"{hashlib.sha256(ident).hexdigest()[:32]}.sqlite"


class IndexFile:
    """An open index file (created on first use). One writer at a time: a build holds an
    immediate transaction; readers see the last committed build (WAL)."""

    def __init__(self, path: Path, store: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(SCHEMA)
        got = dict(self.conn.execute("SELECT key, value FROM meta"))
        if got.get("layout") not in (None, LAYOUT):  # an older layout: built again
            with self.transaction() as conn:
                for table in ("units", "texts", "fts"):
                    conn.execute(f"DROP TABLE IF EXISTS {table}")
            self.conn.executescript(SCHEMA)
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('layout', ?)", (LAYOUT,))
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('store', ?)", (str(store),))

    def close(self) -> None:
        self.conn.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def unit(self, start_ms: int) -> tuple[str, dict[str, int], str | None] | None:
        """(stamp of its rows, largest row id per kind, the store's own stamp) of an
        indexed unit, or None."""
        row = self.conn.execute(
            "SELECT stamp, after, own FROM units WHERE start_ms = ?", (start_ms,)
        ).fetchone()
        return None if row is None else (row[0], json.loads(row[1]), row[2])

    def note_own_stamp(self, start_ms: int, own: str | None) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE units SET own = ? WHERE start_ms = ?", (own, start_ms))

    def last_ms(self, start_ms: int) -> int:
        """The latest time of a text indexed in the unit (0: none)."""
        row = self.conn.execute(
            "SELECT max(last_ms) FROM texts WHERE start_ms = ?", (start_ms,)
        ).fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def drop_unit(self, conn: sqlite3.Connection, start_ms: int) -> None:
        ids = [r[0] for r in conn.execute("SELECT id FROM texts WHERE start_ms = ?", (start_ms,))]
        conn.executemany("DELETE FROM fts WHERE rowid = ?", ((i,) for i in ids))
        conn.execute("DELETE FROM texts WHERE start_ms = ?", (start_ms,))
        conn.execute("DELETE FROM units WHERE start_ms = ?", (start_ms,))

    def last_runs(self, conn: sqlite3.Connection, start_ms: int) -> dict[str, list[Any]]:
        """Per kind, the unit's last run (id, app, text, capture_ids, row_ids, last_ms):
        an append of the same text continues it rather than indexing it again."""
        out: dict[str, list[Any]] = {}
        for kind, tid in conn.execute(
            "SELECT kind, max(id) FROM texts WHERE start_ms = ? GROUP BY kind", (start_ms,)
        ):
            row = conn.execute(
                "SELECT t.id, t.app, f.text, t.capture_ids, t.row_ids, t.last_ms"
                " FROM texts t JOIN fts f ON f.rowid = t.id WHERE t.id = ?",
                (tid,),
            ).fetchone()
            if row is not None:
                out[kind] = list(row)
        return out

    def size(self) -> int:
        total = 0
        for p in (self.path, Path(f"{self.path}-wal")):
            with contextlib.suppress(OSError):
                total += p.stat().st_size
        return total
