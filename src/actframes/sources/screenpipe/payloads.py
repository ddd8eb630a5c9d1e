"""The Parquet payloads of a hybrid-parquet screenpipe store (SPEC.md §1.2d).

With the ``parquet-bulk-v1`` capability screenpipe archives input rows: the row stays in
``ui_events`` with its type, modifiers, app and ``text_length``, and its text columns
(``text_content``, the element's, ``window_title``, ``browser_url``) are set to NULL and
written to ``payloads/bulk-v1/ui_events/<uuid>.parquet``, named (path relative to the
store's root, SHA-256) by ``_bulk_files``. Bit ``1 << i`` of the row's ``_archive_mask``
set means column ``i`` still holds its value in the row; clear means it is in the file
``_archive_file``, in the Parquet row whose ``id`` is the row's id and whose
``generation`` is its ``_archive_generation``. Upstream reads them through a SQL function
only screenpipe registers; this module reads the files with pyarrow (the ``parquet``
extra). Files are read once per process while unchanged, each checked against its
SHA-256 before use; a file that is missing, altered or unreadable leaves its rows' values
missing and says so, never stops the read.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sqlite3
from bisect import bisect_left
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path
from typing import Any

# ui_events' archived columns in screenpipe's registry order: bit i of _archive_mask.
UI_EVENTS_COLUMNS = (
    "text_content", "element_value", "element_description", "element_ancestors",
    "element_bounds", "window_title", "browser_url", "element_name", "element_automation_id",
)  # fmt: skip
ARCHIVE_COLUMNS = ("_archive_file", "_archive_mask", "_archive_generation")
EXTRA = "pip install 'actframes[parquet]'"
MISSING_NOTE = (
    "screenpipe hybrid-parquet payloads not read (pyarrow is not installed: "
    f"{EXTRA}): window titles, URLs, element names and typed text of archived input"
    " events are missing"
)

# (path, size, mtime_ns) -> (ids, generations, {column: values}) of a checked file.
_Decoded = tuple[list[int], list[int], dict[str, list[Any]]]
_CACHE: dict[tuple[str, int, int], _Decoded] = {}
_CACHE_MAX = 32  # a bulk file holds up to 32,768 rows: a few days of a busy store


def parquet_available() -> bool:
    return importlib.util.find_spec("pyarrow") is not None


def archives(cols: Iterable[str]) -> bool:
    """Whether a table with these columns is archived by parquet-bulk-v1."""
    return all(c in set(cols) for c in ARCHIVE_COLUMNS)


def store_root(conn: sqlite3.Connection) -> Path | None:
    """The store's root (where storage.json is) from the index's path,
    ``<root>/storage/<generation>/index.sqlite``; None for any other file."""
    for _, name, file in conn.execute("PRAGMA database_list"):
        if name == "main" and file:
            path = Path(file)
            if len(path.parents) >= 3 and path.parents[1].name == "storage":
                return path.parents[2]
    return None


class BulkReader:
    """Values of archived ``ui_events`` columns, by row id."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._root = store_root(conn)
        self._files: dict[int, tuple[str, str]] | None = None
        self.problems: list[str] = []

    def values(
        self, rows: Iterable[tuple[int, int, int, int]], columns: Iterable[str]
    ) -> dict[int, dict[str, Any]]:
        """For (id, _archive_file, _archive_mask, _archive_generation) rows, the archived
        value of each of ``columns`` (names of ``UI_EVENTS_COLUMNS``) whose mask bit is
        clear, by id; rows or columns whose payload cannot be read are left out."""
        wanted = [(c, UI_EVENTS_COLUMNS.index(c)) for c in columns]
        out: dict[int, dict[str, Any]] = {}
        by_file: dict[int, list[tuple[int, int, int]]] = {}
        for rid, file_id, mask, gen in rows:
            if type(file_id) is int and type(mask) is int:
                by_file.setdefault(file_id, []).append((rid, mask, gen))
        if not by_file:
            return out
        if not parquet_available():
            return out  # said once per document: storage.storage_notes
        for file_id in sorted(by_file):
            decoded = self._decoded(file_id)
            if decoded is None:
                continue
            ids, gens, cols = decoded
            for rid, mask, gen in by_file[file_id]:
                at = bisect_left(ids, rid)
                if at == len(ids) or ids[at] != rid or gens[at] != gen:
                    continue  # not in this file at this generation: no value
                got = {c: cols[c][at] for c, bit in wanted if not mask >> bit & 1 and c in cols}
                if got:
                    out[rid] = got
        return out

    def _file(self, file_id: int) -> tuple[str, str] | None:
        if self._files is None:
            q = "SELECT id, path, checksum FROM _bulk_files WHERE table_name = 'ui_events'"
            try:
                self._files = {r[0]: (r[1], r[2]) for r in self._conn.execute(q)}
            except sqlite3.DatabaseError:
                self._files = {}
        return self._files.get(file_id)

    def _decoded(self, file_id: int) -> _Decoded | None:
        entry = self._file(file_id)
        if entry is None or self._root is None:
            self._problem(f"_bulk_files has no ui_events file {file_id}")
            return None
        rel, checksum = entry
        if not isinstance(rel, str) or rel.startswith("/") or ".." in rel.split("/"):
            self._problem(f"_bulk_files row {file_id}: path {rel!r} is not inside the store")
            return None
        path = self._root / rel
        try:
            st = path.stat()
        except OSError:
            self._problem(f"{rel} is missing")
            return None
        key = (str(path), st.st_size, st.st_mtime_ns)
        hit = _CACHE.get(key)
        if hit is not None:
            return hit
        try:
            data = path.read_bytes()
        except OSError as exc:
            self._problem(f"{rel} cannot be read ({exc.strerror})")
            return None
        if not isinstance(checksum, str) or hashlib.sha256(data).hexdigest() != checksum.lower():
            self._problem(f"{rel} does not match its checksum")
            return None
        decoded = _decode(data)
        if decoded is None:
            self._problem(f"{rel} is not a readable Parquet file of ui_events")
            return None
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = decoded
        return decoded

    def _problem(self, what: str) -> None:
        line = f"screenpipe payload {what}: its input events' titles, URLs and text are missing"
        if line not in self.problems:
            self.problems.append(line)


def _decode(data: bytes) -> _Decoded | None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError, ValueError):
        return None
    names = set(table.column_names)
    if not {"id", "generation"} <= names:
        return None
    ids = table.column("id").to_pylist()
    gens = table.column("generation").to_pylist()
    if any(type(i) is not int for i in ids) or any(a >= b for a, b in pairwise(ids)):
        return None  # upstream writes ids strictly ascending, and checks it on read
    cols = {c: table.column(c).to_pylist() for c in UI_EVENTS_COLUMNS if c in names}
    return ids, gens, cols


def sqlite_chars(text: str) -> int:
    """A text's characters as SQLite's length() counts them: up to the first NUL."""
    return len(text.split("\0", 1)[0])


__all__ = [
    "ARCHIVE_COLUMNS",
    "MISSING_NOTE",
    "UI_EVENTS_COLUMNS",
    "BulkReader",
    "archives",
    "parquet_available",
    "sqlite_chars",
    "store_root",
]
