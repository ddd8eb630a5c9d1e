"""screenpipe's storage descriptor: which file of a store screenpipe really writes.

A migrated ("compressed database") screenpipe store has a ``storage.json`` beside the old
``db.sqlite``; screenpipe then opens ``storage/<generation>/index.sqlite`` and the
``db.sqlite`` left beside it, if any, is the frozen pre-migration copy. ``resolve`` maps the
path the user gave to the file to read, validating the descriptor as upstream does
(``crates/screenpipe-db/src/storage/mod.rs`` ``StorageDescriptor::validate``). SPEC §1.2d.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path, PurePosixPath

from ...errors import SourceError
from . import payloads

DESCRIPTOR = "storage.json"
LEGACY_DB = "db.sqlite"
FORMAT = 1
HYBRID_MODE = "hybrid-parquet-v1"
SQLITE_MODE = "sqlite"


class StorageError(SourceError):
    """A storage.json we cannot follow: never fall back to the stale db.sqlite."""


def resolve(path: Path) -> Path:
    """The file to read for ``path``: the index a ``storage.json`` beside a ``db.sqlite``
    (or in a store directory) names, else ``path`` itself (a directory: its ``db.sqlite``)."""
    if path.is_dir():
        root = path
    elif path.name == LEGACY_DB:
        root = path.parent
    else:
        return path
    descriptor = root / DESCRIPTOR
    if not descriptor.is_file():
        return root / LEGACY_DB if path.is_dir() and (root / LEGACY_DB).exists() else path
    return _follow(descriptor, root)


def _follow(descriptor: Path, root: Path) -> Path:
    try:
        data = json.loads(descriptor.read_bytes())
    except OSError as exc:
        raise StorageError(f"{descriptor}: cannot read ({exc.strerror})") from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise StorageError(f"{descriptor}: not valid JSON ({_first_line(exc)})") from exc
    if not isinstance(data, dict):
        raise StorageError(f"{descriptor}: not a screenpipe storage descriptor (not an object)")
    fmt = data.get("format")
    if type(fmt) is not int or fmt != FORMAT:
        raise StorageError(f"{descriptor}: unknown storage format {fmt!r} (known: {FORMAT})")
    mode = data.get("mode")
    if mode == SQLITE_MODE:
        return root / LEGACY_DB
    if mode != HYBRID_MODE:
        raise StorageError(
            f"{descriptor}: unknown storage mode {mode!r} (known: {SQLITE_MODE}, {HYBRID_MODE})"
        )
    generation = data.get("generation")
    index = data.get("index")
    if not isinstance(generation, str) or not isinstance(index, str):
        raise StorageError(f"{descriptor}: 'generation' and 'index' must be strings")
    rel = PurePosixPath(index)
    if rel.is_absolute() or ".." in rel.parts or "\\" in index:
        raise StorageError(f"{descriptor}: index {index!r} must be a relative path without '..'")
    if rel != PurePosixPath("storage", generation, "index.sqlite") or "/" in generation:
        raise StorageError(
            f"{descriptor}: index {index!r} is not storage/<generation>/index.sqlite"
        )
    target = root.joinpath(*rel.parts)
    if not target.is_file():
        raise StorageError(f"{descriptor}: names index {index}, which does not exist")
    return target


def _first_line(exc: Exception) -> str:
    return str(exc).split("\n")[0]


def described(path: Path) -> tuple[Path, str | None]:
    """For discovery: the file to describe, and the one-line problem when the descriptor
    cannot be followed (then the path is the descriptor's)."""
    try:
        return resolve(path), None
    except StorageError as exc:
        root = path if path.is_dir() else path.parent
        return root / DESCRIPTOR, _first_line(exc)


def storage_notes(conn: sqlite3.Connection) -> list[str]:
    """``[MISSING_NOTE]`` when some ui_events rows of the store are archived to Parquet
    (parquet-bulk-v1) and pyarrow is not installed to read them: the rows keep their type,
    modifiers, app and text_length, so time and counts are whole, but their titles, URLs,
    element names and typed text are missing. With pyarrow, ``payloads`` reads them."""
    if payloads.parquet_available():
        return []
    try:
        cols = {r[1] for r in conn.execute("PRAGMA table_info(ui_events)")}
        if "_archive_file" not in cols:
            return []
        row = conn.execute(
            "SELECT 1 FROM ui_events WHERE _archive_file IS NOT NULL LIMIT 1"
        ).fetchone()
    except sqlite3.DatabaseError:
        return []
    return [payloads.MISSING_NOTE] if row else []


def store_path(path: str | Path, kind: str | None) -> Path:
    """``Path(path)``, or the index a migrated screenpipe store's ``storage.json`` names,
    so every later open, fingerprint and watch is of the file screenpipe writes."""
    given = Path(path)
    if kind not in (None, "screenpipe") or str(path).startswith(("http:/", "https:/")):
        return given
    expanded = given.expanduser()
    target = resolve(expanded)
    return given if target == expanded else target


__all__ = ["StorageError", "described", "resolve", "storage_notes", "store_path"]
