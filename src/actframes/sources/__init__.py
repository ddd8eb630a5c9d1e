"""Source readers, one per store family, and detection of the family from the file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import SourceError
from ..native_schema import APPLICATION_ID, CORE_TABLES
from .base import Source, check_file, connect_ro, is_locked, locked, reading, tables

SOURCE_KINDS = ("native", "screenpipe", "activitywatch", "uilog")

_SQLITE_MAGIC = b"SQLite format 3\x00"


def detect(path: Path) -> str:
    """The store family of ``path``, judged from the file's own content."""
    check_file(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(512)
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror})") from exc
    if not head:
        raise SourceError(f"{path}: empty file")
    if head.startswith(_SQLITE_MAGIC):
        return _sqlite_family(path)
    if head.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"{":
        return "activitywatch"
    from .uilog import is_uilog

    if is_uilog(path):
        return "uilog"
    raise SourceError(
        f"{path}: not a capture database or export (neither SQLite, JSON nor a UI-log CSV)"
    )


def _sqlite_family(path: Path) -> str:
    conn = connect_ro(path)
    try:
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        names = tables(conn)
    except sqlite3.DatabaseError as exc:
        if is_locked(exc):
            raise locked(path) from exc
        raise SourceError(f"{path}: not a readable SQLite database ({exc})") from exc
    finally:
        conn.close()
    if app_id == APPLICATION_ID or names >= CORE_TABLES:
        return "native"
    if "frames" in names:
        return "screenpipe"
    if {"buckets", "events"} <= names or {"bucketmodel", "eventmodel"} <= names:
        return "activitywatch"  # aw-server-rust's sqlite.db, or aw-server's peewee file
    shown = ", ".join(sorted(names)[:6]) or "none"
    raise SourceError(f"{path}: SQLite database of an unknown family (tables: {shown})")


def open_source(
    path: str | Path, kind: str | None = None, *, audible_active: bool = True
) -> Source:
    """Open a capture store read-only; ``kind`` forces a family instead of detecting it.
    ``audible_active`` (ActivityWatch only): audible browser tabs count as active time, as
    ActivityWatch's web UI counts them by default (the CLI's --no-audible-active: False)."""
    if str(path).startswith(("http:/", "https:/")):  # a running ActivityWatch server
        if kind not in (None, "activitywatch"):
            raise SourceError(f"{path}: a server address is an ActivityWatch store")
        from .activitywatch.stores import AWRestSource

        return AWRestSource(str(path), audible_active=audible_active)
    p = Path(path).expanduser()
    if kind in (None, "screenpipe"):
        from .screenpipe.storage import resolve

        p = resolve(p)  # a migrated screenpipe store: its index, never the stale db.sqlite
    check_file(p)  # also when the family is forced: a FIFO must not be opened
    family = kind or detect(p)
    with reading(p):
        return _open_family(p, family, audible_active)


def _open_family(p: Path, family: str, audible: bool) -> Source:
    if family == "native":
        from .native import NativeSource

        return NativeSource(p)
    if family == "screenpipe":
        from .screenpipe import ScreenpipeSource

        return ScreenpipeSource(p)
    if family == "activitywatch":
        from .activitywatch import AWExportSource, AWSqliteSource

        with p.open("rb") as fh:
            is_sqlite = fh.read(16) == _SQLITE_MAGIC
        if is_sqlite:
            from .activitywatch.stores import PEEWEE_TABLES, AWPeeweeSource

            conn = connect_ro(p)
            try:
                peewee = tables(conn) >= PEEWEE_TABLES
            finally:
                conn.close()
            if peewee:
                return AWPeeweeSource(p, audible_active=audible)
            return AWSqliteSource(p, audible_active=audible)
        return AWExportSource(p, audible_active=audible)
    if family == "uilog":
        from .uilog import UILogSource

        return UILogSource(p)
    raise SourceError(f"unknown source kind {family!r} (known: {', '.join(SOURCE_KINDS)})")


__all__ = ["SOURCE_KINDS", "Source", "detect", "open_source"]
