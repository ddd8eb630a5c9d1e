"""Which screenpipe version wrote a store: its tables and columns, found with
``PRAGMA table_info``, and what the version cannot tell (SPEC.md §1.2 and §1.2a)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import SourceError
from .base import quote_ident, rowid_alias, table_columns, tables


class Schema:
    """What a store holds. A plain class: ``day``'s fast path imports no ``dataclasses``."""

    __slots__ = (
        "ecols",
        "event_ids_ok",
        "events_indexed",
        "fcols",
        "frame_ids_ok",
        "frames_indexed",
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
    return notes
