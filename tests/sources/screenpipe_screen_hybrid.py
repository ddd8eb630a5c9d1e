"""A summer-2026 store with screen text (``screenpipe_screen_text.summer``) migrated to
hybrid-parquet-v1 with ``parquet-bulk-v1`` (SPEC.md §1.2d, §1.2e): frames sealed into
``search.parquet``/``detail.parquet`` by ``screenpipe_migrate.migrate``, then the
``elements`` table laid out as ``bulk/elements.rs`` does — the rows moved to
``_bulk_element_rows``, ``elements`` a virtual table of a module only screenpipe registers,
and the rows up to an id archived into ``payloads/bulk-v1/elements/<uuid>.parquet``
(``_bulk_files``, ``_bulk_element_ranges``, ``_bulk_element_frames``; the Parquet columns
``id``, ``generation`` and the table's fifteen, typed as ``bulk/codec.rs`` writes them).
"""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from pathlib import Path
from typing import Any

from .screenpipe_migrate import BULK_GROUP_ROWS, GEN, migrate

# bulk/elements.rs TABLE.columns: (name, Parquet type)
ELEMENT_COLUMNS = [
    ("frame_id", "int"), ("source", "text"), ("role", "text"), ("text", "text"),
    ("parent_id", "int"), ("depth", "int"), ("left_bound", "real"), ("top_bound", "real"),
    ("width_bound", "real"), ("height_bound", "real"), ("confidence", "real"),
    ("sort_order", "int"), ("properties", "text"), ("on_screen", "int"), ("redacted_at", "int"),
]  # fmt: skip
_SQL_TYPE = {"int": "INTEGER", "text": "TEXT", "real": "REAL"}
NAMES = ", ".join(c for c, _ in ELEMENT_COLUMNS)


def element_file(path: Path, rows: list[tuple[Any, ...]]) -> str:
    """(id, generation, *columns) rows as an element Parquet file; returns its SHA-256."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    kinds = {"int": pa.int64(), "text": pa.string(), "real": pa.float64()}
    fields = [pa.field("id", pa.int64(), nullable=False)]
    fields.append(pa.field("generation", pa.int64(), nullable=False))
    fields += [pa.field(c, kinds[k]) for c, k in ELEMENT_COLUMNS]
    columns = [list(col) for col in zip(*rows, strict=True)]
    table = pa.table(columns, schema=pa.schema(fields))
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(
        table,
        path,
        row_group_size=BULK_GROUP_ROWS,
        compression="zstd",
        compression_level=3,
        use_dictionary=True,
        store_schema=False,
    )
    return hashlib.sha256(path.read_bytes()).hexdigest()


def bulk_elements(index: Path, root: Path, archived_to: int) -> None:
    """Lay ``elements`` out as parquet-bulk-v1 does, archiving ids up to ``archived_to``."""
    decl = ", ".join(
        f"{c} {_SQL_TYPE[k]}{' DEFAULT 0' if c in ('depth', 'sort_order') else ''}"
        for c, k in ELEMENT_COLUMNS
    )
    conn = sqlite3.connect(index)
    try:
        conn.executescript(
            f"""
            CREATE TABLE _bulk_element_kinds (id INTEGER PRIMARY KEY, source TEXT NOT NULL,
                role TEXT NOT NULL, UNIQUE(source, role));
            CREATE TABLE _bulk_element_rows (id INTEGER PRIMARY KEY, {decl},
                _archive_generation INTEGER NOT NULL, _archive_deleted INTEGER NOT NULL
                DEFAULT 0, _archive_file INTEGER REFERENCES _bulk_files(id));
            INSERT INTO _bulk_element_rows (id, {NAMES}, _archive_generation)
                SELECT id, {NAMES}, 1 FROM elements;
            DROP TRIGGER IF EXISTS elements_ai;
            DROP TABLE IF EXISTS elements_fts;
            DROP TABLE elements;
            CREATE INDEX _bulk_element_staged_frame ON _bulk_element_rows(frame_id);
            CREATE TABLE _bulk_element_ranges (first_id INTEGER PRIMARY KEY,
                last_id INTEGER NOT NULL, file_id INTEGER NOT NULL UNIQUE
                REFERENCES _bulk_files(id));
            CREATE TABLE _bulk_element_frames (frame_id INTEGER NOT NULL, file_id INTEGER NOT
                NULL REFERENCES _bulk_files(id), PRIMARY KEY(frame_id, file_id));
            CREATE TABLE _bulk_element_state (id INTEGER PRIMARY KEY CHECK(id=1),
                version INTEGER NOT NULL);
            INSERT INTO _bulk_element_state VALUES (1, 1);
            INSERT INTO _bulk_element_kinds (source, role)
                SELECT DISTINCT source, role FROM _bulk_element_rows;
            """
        )
        # ``CREATE VIRTUAL TABLE elements USING screenpipe_elements`` needs the module,
        # which only screenpipe registers: its schema row is written as SQLite keeps it.
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute(
            "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES"
            " ('table', 'elements', 'elements', 0,"
            " 'CREATE VIRTUAL TABLE elements USING screenpipe_elements')"
        )
        conn.execute("PRAGMA writable_schema = OFF")
        conn.commit()
        rows = conn.execute(
            f"SELECT id, _archive_generation, {NAMES} FROM _bulk_element_rows"
            " WHERE id <= ? ORDER BY id",
            (archived_to,),
        ).fetchall()
        if rows:
            name = uuid.uuid5(uuid.NAMESPACE_URL, f"actframes-fixture/elements/{archived_to}")
            rel = Path("storage", GEN, "payloads", "bulk-v1", "elements", f"{name}.parquet")
            checksum = element_file(root / rel, rows)
            file_id = conn.execute(
                "INSERT INTO _bulk_files (table_name, path, checksum, state, rows)"
                " VALUES ('elements', ?, ?, 'published', ?)",
                (rel.as_posix(), checksum, len(rows)),
            ).lastrowid
            conn.execute(
                "INSERT INTO _bulk_element_ranges VALUES (?, ?, ?)",
                (rows[0][0], rows[-1][0], file_id),
            )
            conn.executemany(
                "INSERT INTO _bulk_element_frames VALUES (?, ?)",
                [(f, file_id) for f in sorted({r[2] for r in rows})],
            )
            conn.execute("DELETE FROM _bulk_element_rows WHERE id <= ?", (archived_to,))
        conn.commit()
    finally:
        conn.close()


def hybrid(plain: Path, root: Path, sealed_ms: int, archived_to: int) -> Path:
    """The plain store migrated under ``root``: frames before ``sealed_ms`` sealed,
    elements up to id ``archived_to`` archived. Returns the index."""
    migrate(plain, root, sealed_ms, sealed_ms, stale=False)
    index = root / "storage" / GEN / "index.sqlite"
    bulk_elements(index, root, archived_to)
    return index


def restage(index: Path, fid: int, acc: str, full: str) -> None:
    """A sealed frame's text replaced (privacy redaction, late OCR: ``sealing.rs``
    ``replace_frame_payload``): the new text in the index, the next generation, staged;
    its old file marked dirty until it is rewritten."""
    with sqlite3.connect(index) as conn:
        conn.execute(
            "UPDATE frames SET accessibility_text = ?, full_text = ? WHERE id = ?",
            (acc, full, fid),
        )
        conn.execute(
            "UPDATE payload_files SET state = 'dirty' WHERE id ="
            " (SELECT file_id FROM frame_payloads WHERE frame_id = ?)",
            (fid,),
        )
        conn.execute(
            "UPDATE frame_payloads SET generation = generation + 1, state = 'staged',"
            " file_id = NULL WHERE frame_id = ?",
            (fid,),
        )
    conn.close()


def stage_element(index: Path, eid: int, *, text: str | None = None) -> None:
    """An archived element edited (``text``) or deleted (no text: a tombstone), as the
    virtual table writes it: a staged row of the next generation wins over the file's."""
    with sqlite3.connect(index) as conn:
        file_id = conn.execute(
            "SELECT file_id FROM _bulk_element_ranges WHERE first_id <= ? AND last_id >= ?",
            (eid, eid),
        ).fetchone()[0]
        rel, checksum = conn.execute(
            "SELECT path, checksum FROM _bulk_files WHERE id = ?", (file_id,)
        ).fetchone()
    conn.close()
    import pyarrow.parquet as pq

    table = pq.read_table(index.parents[2] / rel)
    ids = table.column("id").to_pylist()
    row = {c: table.column(c)[ids.index(eid)].as_py() for c, _ in ELEMENT_COLUMNS}
    deleted = text is None
    if not deleted:
        row["text"], row["redacted_at"] = text, 1_790_000_000
    with sqlite3.connect(index) as conn:
        conn.execute(
            f"INSERT INTO _bulk_element_rows (id, {NAMES}, _archive_generation,"
            f" _archive_deleted, _archive_file) VALUES ({', '.join('?' * 19)})",
            (eid, *row.values(), 2, int(deleted), file_id),
        )
    conn.close()
    assert checksum  # the file itself is left as it is
