"""A plain screenpipe store migrated to hybrid-parquet-v1 storage the way upstream's
storage migration lays it out (screenpipe/screenpipe ``crates/screenpipe-db/src/storage/``:
``mod.rs`` the descriptor, ``schema.rs`` the catalog, ``codec.rs``/``sealing.rs`` the frame
payloads, ``bulk/*.rs`` the archived input rows; SPEC.md §1.2d), written with pyarrow.

``migrate(db, root, migrated_ms, sealed_ms)`` copies the store to
``<root>/storage/<G>/index.sqlite``, adds the catalog, seals every frame before
``sealed_ms`` (its text to a Parquet pair of at most 1024 rows, row groups of 128, ZSTD,
no embedded Arrow schema; the text columns NULL in the index) and archives every
``ui_events`` row before it (its nine text columns to
``payloads/bulk-v1/ui_events/<uuid>.parquet``, 32,768 rows a file, row groups of 8,192;
NULL in the index, the mask cleared). Later rows stay staged in the index, as rows
written since the last sealing do. With ``stale``, ``<root>/db.sqlite`` is left as a
copy-based migration leaves it: the store as it was at the migration, frozen.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from pathlib import Path
from typing import Any

from actframes.sources.screenpipe.payloads import UI_EVENTS_COLUMNS

from .screenpipe_versions import stamp

GEN = "6b1e4f0a-9c2d-4e8b-a7f3-2d5c8e1b0a94"
DATABASE_ID = "0d9c7a51-3e2f-4b6a-8c1d-7f4e9a2b5c60"
SEALED_ON = "2026-10-06"  # the UTC date of sealing names the folder, not the capture's
CAPABILITIES = ["parquet-frame-v1", "contentless-delete-fts5", "durable-wal"]
FRAME_FILE_ROWS, FRAME_GROUP_ROWS = 1024, 128
BULK_FILE_ROWS, BULK_GROUP_ROWS = 32_768, 8_192
SEARCH_COLUMNS = ("full_text", "accessibility_text")
DETAIL_COLUMNS = ("accessibility_tree_json", "text_json")

# The catalog of frame payloads (schema.rs), and of archived rows (bulk/schema.rs).
FRAME_CATALOG = """
CREATE TABLE IF NOT EXISTS _hybrid_migrations (version INTEGER PRIMARY KEY, checksum TEXT);
CREATE TABLE storage_metadata (singleton INTEGER PRIMARY KEY CHECK(singleton=1),
    descriptor TEXT NOT NULL, revision INTEGER NOT NULL DEFAULT 0, maintenance TEXT,
    staging_bytes INTEGER NOT NULL DEFAULT 0, staging_limit INTEGER, record_limit INTEGER,
    policy TEXT, required_surfaces INTEGER NOT NULL DEFAULT 0, writer_version TEXT);
CREATE TABLE upload_bindings (destination TEXT PRIMARY KEY, checkpoint TEXT);
CREATE TABLE payload_files (id TEXT PRIMARY KEY, search_path TEXT NOT NULL UNIQUE,
    detail_path TEXT NOT NULL UNIQUE, search_checksum TEXT, detail_checksum TEXT,
    schema_version INTEGER NOT NULL,
    state TEXT CHECK(state IN ('encoding','published','dirty','retired')),
    row_count INTEGER NOT NULL, created_at TEXT DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE frame_payloads (
    frame_id INTEGER PRIMARY KEY REFERENCES frames(id) ON DELETE CASCADE,
    generation INTEGER NOT NULL CHECK(generation>0),
    state TEXT CHECK(state IN ('staged','sealed')),
    file_id TEXT REFERENCES payload_files(id), bytes INTEGER NOT NULL,
    policy TEXT NOT NULL, completed_surfaces INTEGER NOT NULL DEFAULT 0,
    capture_version TEXT, archive_writer_version TEXT, attempts INTEGER NOT NULL DEFAULT 0,
    retry_at INTEGER, last_error TEXT,
    CHECK((state='staged' AND file_id IS NULL) OR (state='sealed' AND file_id IS NOT NULL)));
CREATE INDEX frame_payloads_file ON frame_payloads(file_id);
CREATE INDEX frame_payloads_staging ON frame_payloads(state, frame_id);
ALTER TABLE frames ADD COLUMN payload_full_text_length INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frames ADD COLUMN payload_accessibility_length INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frames ADD COLUMN payload_full_text_present INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frames ADD COLUMN payload_accessibility_present INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frames ADD COLUMN payload_detail_present INTEGER NOT NULL DEFAULT 0;
"""
BULK_CATALOG = """
CREATE TABLE _bulk_files (id INTEGER PRIMARY KEY, table_name TEXT NOT NULL,
    path TEXT NOT NULL UNIQUE, checksum TEXT NOT NULL,
    state TEXT CHECK(state IN ('encoding','published','dirty','retired')),
    rows INTEGER NOT NULL);
ALTER TABLE ui_events ADD COLUMN _archive_file INTEGER REFERENCES _bulk_files(id);
ALTER TABLE ui_events ADD COLUMN _archive_mask INTEGER NOT NULL DEFAULT 511;
ALTER TABLE ui_events ADD COLUMN _archive_generation INTEGER NOT NULL DEFAULT 1;
CREATE INDEX _bulk_ui_events_files ON ui_events(_archive_file);
CREATE INDEX _bulk_ui_events_pending ON ui_events(id) WHERE _archive_mask != 0;
"""
_CATALOG = FRAME_CATALOG + BULK_CATALOG


BUDGET = {
    "row_group_rows": FRAME_GROUP_ROWS, "file_rows": FRAME_FILE_ROWS,
    "file_bytes": 16_777_216, "record_bytes": 33_554_432, "decode_bytes": 134_217_728,
    "response_bytes": 134_217_728, "concurrent_decodes": 2, "staging_bytes": 536_870_912,
    "disk_reserve_bytes": 2_147_483_648, "operation_timeout_secs": 60,
    "lifecycle_timeout_secs": 3600, "read_attempts": 3,
}  # fmt: skip


def descriptor(bulk: bool = True) -> dict[str, Any]:
    """storage.json as ``StorageDescriptor`` serialises it (the budget's defaults)."""
    return {
        "format": 1,
        "mode": "hybrid-parquet-v1",
        "database_id": DATABASE_ID,
        "generation": GEN,
        "source_continuity": True,
        "index": f"storage/{GEN}/index.sqlite",
        "payloads": f"storage/{GEN}/payloads",
        "capabilities": CAPABILITIES + ["parquet-bulk-v1"] * bulk,
        "budget": BUDGET,
        "privacy": {"identity": "", "required_surfaces": 0},
    }


def write_payload(path: Path, columns: dict[str, list[Any]], group_rows: int) -> str:
    """One payload file as upstream's codec writes it; returns its SHA-256 (hex)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    fields = [pa.field("id", pa.int64(), nullable=False)]
    fields.append(pa.field("generation", pa.int64(), nullable=False))
    fields += [pa.field(c, pa.string()) for c in columns if c not in ("id", "generation")]
    table = pa.table(list(columns.values()), schema=pa.schema(fields))
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(
        table,
        path,
        row_group_size=group_rows,
        compression="zstd",
        compression_level=3,
        use_dictionary=True,
        store_schema=False,
    )
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _uuid(kind: str, n: int) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"actframes-fixture/{kind}/{n}"))


def _seal_frames(conn: sqlite3.Connection, root: Path, cutoff: str) -> int:
    cols = {r[1] for r in conn.execute("PRAGMA table_info(frames)")}
    text = [c if c in cols else f"NULL AS {c}" for c in SEARCH_COLUMNS + DETAIL_COLUMNS]
    rows = conn.execute(
        f"SELECT id, {', '.join(text)} FROM frames WHERE timestamp < ? ORDER BY id", (cutoff,)
    ).fetchall()
    for n in range(0, len(rows), FRAME_FILE_ROWS):
        part = rows[n : n + FRAME_FILE_ROWS]
        file_id = _uuid("frames", n)
        rel = Path("storage", GEN, "payloads", "1", SEALED_ON, file_id)
        ids = [r[0] for r in part]
        base: dict[str, list[Any]] = {"id": ids, "generation": [1] * len(part)}
        search = {**base, **{c: [r[1 + k] for r in part] for k, c in enumerate(SEARCH_COLUMNS)}}
        detail = {**base, **{c: [r[3 + k] for r in part] for k, c in enumerate(DETAIL_COLUMNS)}}
        s_sum = write_payload(root / rel / "search.parquet", search, FRAME_GROUP_ROWS)
        d_sum = write_payload(root / rel / "detail.parquet", detail, FRAME_GROUP_ROWS)
        conn.execute(
            "INSERT INTO payload_files VALUES (?, ?, ?, ?, ?, 1, 'published', ?, ?)",
            (
                file_id,
                (rel / "search.parquet").as_posix(),
                (rel / "detail.parquet").as_posix(),
                s_sum,
                d_sum,
                len(part),
                f"{SEALED_ON} 03:00:00",
            ),
        )
        conn.executemany(
            "INSERT INTO frame_payloads (frame_id, generation, state, file_id, bytes, policy,"
            " completed_surfaces) VALUES (?, 1, 'sealed', ?, ?, 'default', 63)",
            [(r[0], file_id, sum(len((v or "").encode()) for v in r[1:])) for r in part],
        )
    present = [c for c in (*SEARCH_COLUMNS, *DETAIL_COLUMNS) if c in cols]
    conn.execute(
        "UPDATE frames SET"
        " payload_full_text_length = coalesce(length(full_text), 0),"
        " payload_full_text_present = full_text IS NOT NULL,"
        " payload_accessibility_length = coalesce(length(accessibility_text), 0),"
        " payload_accessibility_present = accessibility_text IS NOT NULL,"
        " payload_detail_present = accessibility_tree_json IS NOT NULL OR text_json IS NOT NULL,"
        f" {', '.join(f'{c} = NULL' for c in present)} WHERE timestamp < ?",
        (cutoff,),
    )
    conn.execute(
        "INSERT INTO frame_payloads (frame_id, generation, state, bytes, policy)"
        " SELECT id, 1, 'staged', 0, 'default' FROM frames WHERE timestamp >= ?",
        (cutoff,),
    )
    return len(rows)


def _archive_events(conn: sqlite3.Connection, root: Path, cutoff: str) -> int:
    cols = {r[1] for r in conn.execute("PRAGMA table_info(ui_events)")}
    sel = [c if c in cols else f"NULL AS {c}" for c in UI_EVENTS_COLUMNS]
    rows = conn.execute(
        f"SELECT id, {', '.join(sel)} FROM ui_events WHERE timestamp < ? ORDER BY id", (cutoff,)
    ).fetchall()
    for n in range(0, len(rows), BULK_FILE_ROWS):
        part = rows[n : n + BULK_FILE_ROWS]
        rel = Path(
            "storage", GEN, "payloads", "bulk-v1", "ui_events", f"{_uuid('bulk', n)}.parquet"
        )
        columns: dict[str, list[Any]] = {"id": [r[0] for r in part], "generation": [1] * len(part)}
        columns.update({c: [r[1 + k] for r in part] for k, c in enumerate(UI_EVENTS_COLUMNS)})
        checksum = write_payload(root / rel, columns, BULK_GROUP_ROWS)
        cur = conn.execute(
            "INSERT INTO _bulk_files (table_name, path, checksum, state, rows)"
            " VALUES ('ui_events', ?, ?, 'published', ?)",
            (rel.as_posix(), checksum, len(part)),
        )
        nulls = ", ".join(f"{c} = NULL" for c in UI_EVENTS_COLUMNS if c in cols)
        conn.executemany(
            f"UPDATE ui_events SET {nulls}, _archive_file = ?, _archive_mask = 0 WHERE id = ?",
            [(cur.lastrowid, r[0]) for r in part],
        )
    # The logical view, as bulk/schema.rs writes it (readable only where screenpipe
    # registered its screenpipe_bulk function).
    picks = []
    for name in [r[1] for r in conn.execute("PRAGMA table_info(ui_events)")]:
        if name in UI_EVENTS_COLUMNS:
            i = UI_EVENTS_COLUMNS.index(name)
            picks.append(
                f"CASE WHEN (e._archive_mask & {1 << i}) != 0 THEN e.{name} ELSE"
                f" screenpipe_bulk(p.path, p.checksum, 2, e.id, {i}) END AS {name}"
            )
        elif not name.startswith("_archive_"):
            picks.append(f'e."{name}"')
    conn.execute(
        f"CREATE VIEW _bulk_logical_ui_events AS SELECT {', '.join(picks)}"
        " FROM ui_events e LEFT JOIN _bulk_files p ON p.id = e._archive_file"
    )
    return len(rows)


def migrate(
    db: Path, root: Path, migrated_ms: int, sealed_ms: int | None = None, *, stale: bool = True
) -> Path:
    """The store at ``db`` (a whole day) as it is once screenpipe migrated it at
    ``migrated_ms`` and went on writing the index: rows before ``sealed_ms`` (default:
    all) sealed and archived, later ones staged; with ``stale``, the ``db.sqlite`` left
    beside it holds only the rows before the migration. Returns ``<root>/db.sqlite``,
    the path a user passes."""
    root.mkdir(parents=True, exist_ok=True)
    index = root / "storage" / GEN / "index.sqlite"
    index.parent.mkdir(parents=True)
    with sqlite3.connect(db) as src, sqlite3.connect(index) as dst:
        src.backup(dst)
    src.close()
    dst.close()
    cutoff = stamp(sealed_ms if sealed_ms is not None else 1 << 45)
    desc = descriptor()
    conn = sqlite3.connect(index)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(_CATALOG)
        conn.executemany(
            "INSERT INTO _hybrid_migrations VALUES (?, ?)",
            [(v, hashlib.sha256(str(v).encode()).hexdigest()) for v in range(1, 8)],
        )
        conn.execute(
            "INSERT INTO storage_metadata (singleton, descriptor, writer_version)"
            " VALUES (1, ?, '2.7.84')",
            (json.dumps(desc),),
        )
        _seal_frames(conn, root, cutoff)
        _archive_events(conn, root, cutoff)
        conn.commit()
    finally:
        conn.close()
    (root / "storage.json").write_text(json.dumps(desc, indent=2) + "\n", encoding="utf-8")
    (root / "data").mkdir(exist_ok=True)
    if stale:  # the frozen pre-migration source: nothing written after the migration
        with sqlite3.connect(db) as src, sqlite3.connect(root / "db.sqlite") as old:
            src.backup(old)
            for table in ("frames", "ui_events"):
                old.execute(f"DELETE FROM {table} WHERE timestamp >= ?", (stamp(migrated_ms),))
        src.close()
        old.close()
    return root / "db.sqlite"
