"""Which screenpipe version wrote a store: its tables and columns, found with
``PRAGMA table_info``, its newest migration (``_sqlx_migrations``), and what the version
cannot tell (SPEC.md §1.2, §1.2a and §1.2c)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ...errors import SourceError
from ..base import quote_ident, rowid_alias, table_columns, tables

# The upstream versions the reader was checked against (SPEC.md §1.2a, §1.2c,
# docs/screenpipe.md): the newest migration in the tree (``_sqlx_migrations.version``,
# the migration file's prefix) -> (commit, commit date, app version).
CHECKED_VERSIONS: dict[int, tuple[str, str, str]] = {
    20260315000000: ("67f4c43", "2026-03-15", "2.2.154"),  # screenpipe/screenpipe
    20260818133000: ("b23e6850", "2026-08-22", "2.6.78"),  # EzraEllette/screenpipe
}
NEWEST_CHECKED = max(CHECKED_VERSIONS)


class Schema:
    """What a store holds. A plain class: ``day``'s fast path imports no ``dataclasses``."""

    __slots__ = (
        "ecols",
        "event_ids_ok",
        "events_indexed",
        "fcols",
        "frame_ids_ok",
        "frames_indexed",
        "migration",
        "ocols",
    )

    def __init__(
        self,
        fcols: frozenset[str],
        ocols: frozenset[str],
        ecols: frozenset[str],
        frame_ids_ok: bool,
        event_ids_ok: bool,
        frames_indexed: bool = True,
        events_indexed: bool = True,
        migration: int | None = None,
    ) -> None:
        self.fcols = fcols  # columns of frames
        self.ocols = ocols  # of ocr_text, when it holds the app (else empty)
        self.ecols = ecols  # of ui_events, when readable (else empty)
        # Tables keyed by INTEGER PRIMARY KEY (screenpipe's own) hold distinct integer ids.
        self.frame_ids_ok = frame_ids_ok
        self.event_ids_ok = event_ids_ok
        # An index that leads with ``timestamp`` (screenpipe creates one on each table):
        # reads then search it range by range; without one each read is a single scan.
        self.frames_indexed = frames_indexed
        self.events_indexed = events_indexed
        # The newest successful sqlx migration (None: no readable _sqlx_migrations). A slot,
        # so the window fingerprint, which hashes every slot, covers the note it gives.
        self.migration = migration


def detect(conn: sqlite3.Connection, path: Path) -> Schema:
    present = tables(conn)
    if "frames" not in present:
        raise SourceError(f"{path}: no 'frames' table: not a screenpipe-style database")
    fcols = table_columns(conn, "frames")
    missing = {"id", "timestamp"} - fcols
    if missing:
        raise SourceError(f"{path}: table frames lacks column(s) {', '.join(sorted(missing))}")
    # From August 2024 to February 2025 screenpipe kept the app (and window and focus)
    # in ocr_text, one row per captured window; rows of that time keep it there.
    ocols = table_columns(conn, "ocr_text") if "ocr_text" in present else set()
    if not {"frame_id", "app_name"} <= ocols:
        ocols = set()
    if "app_name" not in fcols and not ocols:
        raise SourceError(
            f"{path}: neither frames nor ocr_text has an app_name column:"
            " this screenpipe version records no app names"
        )
    ecols = table_columns(conn, "ui_events") if "ui_events" in present else set()
    if ecols and not {"id", "timestamp", "event_type"} <= ecols:
        ecols = set()  # an events table we cannot read is treated as absent
    return Schema(
        frozenset(fcols),
        frozenset(ocols),
        frozenset(ecols),
        rowid_alias(conn, "frames"),
        bool(ecols) and rowid_alias(conn, "ui_events"),
        _time_indexed(conn, "frames"),
        bool(ecols) and _time_indexed(conn, "ui_events"),
        newest_migration(conn) if "_sqlx_migrations" in present else None,
    )


def newest_migration(conn: sqlite3.Connection) -> int | None:
    """The newest successful migration sqlx recorded (``_sqlx_migrations``: ``version``
    is the migration file's prefix, ``success`` false for one that failed); None when the
    table is absent, unreadable or holds no such row (stores of other tools)."""
    try:
        row = conn.execute(
            "SELECT max(version) FROM _sqlx_migrations"
            " WHERE success = 1 AND typeof(version) = 'integer'"
        ).fetchone()
    except sqlite3.DatabaseError:
        return None
    return row[0] if row and type(row[0]) is int else None


def version_status(migration: int) -> str:
    """The status of a store at ``migration``: "checked" when it is no newer than the
    newest checked, else "newer than checked"."""
    return "checked" if migration <= NEWEST_CHECKED else "newer than checked"


def newer_note(migration: int) -> str:
    app = CHECKED_VERSIONS[NEWEST_CHECKED][2]
    return (
        f"screenpipe schema {migration} is newer than the newest checked,"
        f" {NEWEST_CHECKED} (app {app}): counts may be off"
    )


def _time_indexed(conn: sqlite3.Connection, table: str) -> bool:
    """Whether a whole (not partial) index of ``table`` leads with ``timestamp``."""
    q = quote_ident(table)
    for _, name, _, _, partial, *_ in conn.execute(f"PRAGMA index_list({q})"):
        cols = list(conn.execute(f"PRAGMA index_info({quote_ident(str(name))})"))
        if not partial and cols and min(cols)[2] == "timestamp":
            return True
    return False


def schema_notes(s: Schema) -> list[str]:
    notes = []
    if "focused" not in s.fcols and "focused" not in s.ocols:
        notes.append(
            "this screenpipe version records no window focus: every captured window"
            " counts as the focused one"
        )
    if not s.ecols:
        notes.append("this screenpipe version has no ui_events table: no input counts")
    if s.migration is not None and s.migration > NEWEST_CHECKED:
        notes.append(newer_note(s.migration))
    return notes
