"""A screenpipe store migrated to hybrid-parquet-v1 storage, laid out as upstream does
(crates/screenpipe-db/src/storage/: mod.rs, schema.rs, codec.rs; SPEC §1.2d), and the same
day as a plain SQLite store.

Root: ``storage.json``; ``storage/<G>/index.sqlite`` (the frames and ui_events, frames with
the payload columns, ``payload_files``, ``frame_payloads``, ``_hybrid_migrations``,
``storage_metadata``, ``_sqlx_migrations`` kept); ``storage/<G>/payloads/1/<date>/<uuid>/
{search,detail}.parquet`` (written with pyarrow when it is installed); and a stale
``db.sqlite`` holding only the morning, as a copy-based migration leaves it.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from actframes.sources.screenpipe.payloads import UI_EVENTS_COLUMNS

from ..builders import iso, ms, screenpipe_db
from .screenpipe_migrate import BULK_CATALOG, BULK_GROUP_ROWS, FRAME_CATALOG, write_payload

DAY = "2026-10-05"
GEN = "3f1c2a9e-7b4d-4c1e-9a55-0d6b8e2f4a10"
FILE_ID = "8d0e4b62-1f3a-4e7c-b9d2-5a6c7e8f9012"
SEALED_ON = "2026-10-05"
MIGRATED_AT = ms(f"{DAY}T12:00:00+00:00")

_APPS = [
    ("Code", "store.py — actframes", None),
    ("Google Chrome", "sqlite3 — Python docs", "https://docs.python.org/3/library/sqlite3.html"),
    ("Terminal", "pytest -q", None),
]


def frames() -> list[tuple[Any, ...]]:
    """The day: a morning block (before the migration) and an afternoon block (after)."""
    rows = []
    fid = 1
    for start in (ms(f"{DAY}T09:00:00+00:00"), ms(f"{DAY}T14:00:00+00:00")):
        for i in range(12):
            app, title, url = _APPS[(i // 3) % len(_APPS)]
            rows.append((fid, iso(start + i * 30_000, "Z"), app, title, url, "monitor_0"))
            fid += 1
    return rows


def events() -> list[tuple[Any, ...]]:
    return [
        (1, f"{DAY}T09:00:10Z", "key", "Code"),
        (2, f"{DAY}T09:02:05Z", "click", "Google Chrome"),
        (3, f"{DAY}T14:00:10Z", "key", "Code"),
        (4, f"{DAY}T14:02:05Z", "click", "Google Chrome"),
    ]


def _morning(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [r for r in rows if ms(r[1].replace("Z", "+00:00")) < MIGRATED_AT]


def plain_store(path: Path) -> Path:
    """The same day in a plain SQLite store."""
    return screenpipe_db(path, frames(), events())


def descriptor(**overrides: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "format": 1,
        "mode": "hybrid-parquet-v1",
        "database_id": "c0ffee00-0000-4000-8000-000000000001",
        "generation": GEN,
        "source_continuity": True,
        "index": f"storage/{GEN}/index.sqlite",
        "payloads": f"storage/{GEN}/payloads",
        "capabilities": ["parquet-frame-v1", "contentless-delete-fts5", "durable-wal"],
        "budget": {"row_group_rows": 128, "file_rows": 1024},
        "privacy": {"identity": "", "required_surfaces": 0},
    }
    d.update(overrides)
    return d


_CATALOG = (
    """
CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL, execution_time BIGINT NOT NULL);
INSERT INTO _sqlx_migrations VALUES (20260818133000, 'checked', '2026-08-18', 1, X'00', 1);
CREATE TABLE _hybrid_migrations (version INTEGER PRIMARY KEY, checksum TEXT);
INSERT INTO _hybrid_migrations VALUES (1,'c1'),(3,'c3'),(4,'c4'),(5,'c5'),(6,'c6'),(7,'c7');
ALTER TABLE frames ADD COLUMN full_text TEXT;
ALTER TABLE frames ADD COLUMN accessibility_text TEXT;
ALTER TABLE frames ADD COLUMN accessibility_tree_json TEXT;
ALTER TABLE frames ADD COLUMN text_json TEXT;
"""
    + FRAME_CATALOG
)


def _payloads(root: Path, ids: list[int]) -> tuple[str, str, str, str]:
    """The sealed frames' search/detail Parquet pair (pyarrow, upstream's column names and
    types); empty placeholders when pyarrow is absent. Paths relative to the root."""
    rel = Path("storage", GEN, "payloads", "1", SEALED_ON, FILE_ID)
    (root / rel).mkdir(parents=True)
    search, detail = rel / "search.parquet", rel / "detail.parquet"
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        (root / search).write_bytes(b"")
        (root / detail).write_bytes(b"")
    else:
        ids64 = pa.array(ids, pa.int64())
        gens = pa.array([1] * len(ids), pa.int64())
        text = pa.array([f"screen text of frame {i}" for i in ids], pa.string())
        none = pa.array([None] * len(ids), pa.string())
        s_schema = pa.schema(
            [
                pa.field("id", pa.int64(), nullable=False),
                pa.field("generation", pa.int64(), nullable=False),
                pa.field("full_text", pa.string()),
                pa.field("accessibility_text", pa.string()),
            ]
        )
        d_schema = pa.schema(
            [
                pa.field("id", pa.int64(), nullable=False),
                pa.field("generation", pa.int64(), nullable=False),
                pa.field("accessibility_tree_json", pa.string()),
                pa.field("text_json", pa.string()),
            ]
        )
        opts = {"compression": "zstd", "row_group_size": 128, "store_schema": False}
        pq.write_table(pa.table([ids64, gens, text, none], schema=s_schema), root / search, **opts)
        pq.write_table(pa.table([ids64, gens, none, none], schema=d_schema), root / detail, **opts)

    def sha(p: Path) -> str:
        return hashlib.sha256((root / p).read_bytes()).hexdigest()

    return search.as_posix(), detail.as_posix(), sha(search), sha(detail)


_BULK = BULK_CATALOG + "INSERT INTO _hybrid_migrations VALUES (2, 'c2');"


def _bulk_file(root: Path, rows: list[tuple[Any, ...]]) -> tuple[str, str]:
    """The archived ui_events rows (id, then UI_EVENTS_COLUMNS' values; a column the table
    lacks is None) as ``payloads/bulk-v1/ui_events/<uuid>.parquet``."""
    rel = Path("storage", GEN, "payloads", "bulk-v1", "ui_events", f"{FILE_ID}.parquet")
    (root / rel).parent.mkdir(parents=True)
    columns: dict[str, list[Any]] = {"id": [r[0] for r in rows], "generation": [1] * len(rows)}
    for i, c in enumerate(UI_EVENTS_COLUMNS):
        columns[c] = [r[1 + i] for r in rows]
    try:
        write_payload(root / rel, columns, BULK_GROUP_ROWS)
    except ImportError:  # no pyarrow: a placeholder (the tests that read it skip)
        (root / rel).write_bytes(b"")
    return rel.as_posix(), hashlib.sha256((root / rel).read_bytes()).hexdigest()


def hybrid_store(
    root: Path, *, stale: bool = True, desc: dict[str, Any] | None = None, bulk: bool = False
) -> Path:
    """Build the migrated store under ``root``; returns ``root / "db.sqlite"`` (the path a
    user passes), which, when ``stale``, exists and holds only the morning. ``bulk``: the
    parquet-bulk-v1 capability, the afternoon's ui_events archived to Parquet."""
    root.mkdir(parents=True, exist_ok=True)
    index = root / "storage" / GEN / "index.sqlite"
    index.parent.mkdir(parents=True)
    plain_store(root / "work.sqlite")
    shutil.move(root / "work.sqlite", index)
    rows = frames()
    ids = [r[0] for r in rows]
    search, detail, s_sum, d_sum = _payloads(root, ids)
    caps = ["parquet-frame-v1", "contentless-delete-fts5", "durable-wal"]
    d = desc if desc is not None else descriptor(capabilities=caps + ["parquet-bulk-v1"] * bulk)
    conn = sqlite3.connect(index)
    try:
        conn.executescript(_CATALOG)
        conn.execute(
            "INSERT INTO storage_metadata (singleton, descriptor) VALUES (1, ?)", (json.dumps(d),)
        )
        conn.execute(
            "INSERT INTO payload_files VALUES (?,?,?,?,?,1,'published',?,?)",
            (FILE_ID, search, detail, s_sum, d_sum, len(ids), f"{SEALED_ON} 12:00:00"),
        )
        conn.executemany(
            "INSERT INTO frame_payloads (frame_id, generation, state, file_id, bytes, policy,"
            " completed_surfaces) VALUES (?, 1, 'sealed', ?, 32, 'default', 63)",
            [(i, FILE_ID) for i in ids],
        )
        # Sealed: the text columns are NULL, the payload columns say what the files hold.
        conn.execute(
            "UPDATE frames SET payload_full_text_length = 24, payload_full_text_present = 1"
        )
        if bulk:
            conn.executescript(_BULK)
            late = [e for e in events() if ms(e[1].replace("Z", "+00:00")) >= MIGRATED_AT]
            archived = [e[0] for e in late]
            have = {r[1] for r in conn.execute("PRAGMA table_info(ui_events)")}
            picked = ", ".join(c if c in have else "NULL" for c in UI_EVENTS_COLUMNS)
            marks_of = f"SELECT id, {picked} FROM ui_events WHERE id = ?"
            values = [conn.execute(marks_of, (i,)).fetchone() for i in sorted(archived)]
            path, checksum = _bulk_file(root, values)
            conn.execute(
                "INSERT INTO _bulk_files VALUES (1, 'ui_events', ?, ?, 'published', ?)",
                (path, checksum, len(archived)),
            )
            marks = ", ".join(f"{c} = NULL" for c in UI_EVENTS_COLUMNS if c in have)
            conn.executemany(
                f"UPDATE ui_events SET {marks}, _archive_file = 1, _archive_mask = 0 WHERE id = ?",
                [(i,) for i in archived],
            )
        conn.commit()
    finally:
        conn.close()
    (root / "storage.json").write_text(json.dumps(d) + "\n", encoding="utf-8")
    if stale:
        morning = _morning(rows)
        screenpipe_db(root / "db.sqlite", morning, events()[:2])
    return root / "db.sqlite"
