"""A cheap stamp of a window's screen text in a screenpipe store: counts, largest ids and
total lengths of the columns the screen-text reader reads, taken in SQL without moving a
text into Python. Equal stamps: the window's text rows are as they were, but for an edit
in place that keeps every length (screenpipe writes a capture's text once; its redaction
worker replaces words by a marker of another length). A hybrid-parquet store gives none
(its text lives in files): the index reads such a window to compare."""

from __future__ import annotations

import json
import sqlite3

from ..base import fetch
from .schema import Schema
from .screen_text import TextLayout, _frames, _odd_frames

# frames' columns whose values the reader's records depend on (text, app, focus, refs)
FRAME_COLUMNS = (
    "accessibility_text",
    "full_text",
    "text_source",
    "app_name",
    "window_name",
    "focused",
    "elements_ref_frame_id",
)
_IN = "IN (SELECT value FROM json_each(?))"


def screen_text_stamp(
    conn: sqlite3.Connection, schema: Schema, start_ms: int, end_ms: int
) -> list[object] | None:
    """The stamp of the frames in [start_ms, end_ms) and their text rows, in one read
    transaction; None for a hybrid-parquet store."""
    began = not conn.in_transaction
    if began:
        conn.execute("BEGIN")
    try:
        layout = TextLayout(conn, schema)
        if layout.payloads or layout.bulk_elements:
            return None
        frames = _frames(conn, schema, start_ms, end_ms)
        frames += _odd_frames(conn, schema, start_ms, end_ms)
        ids = sorted({f[0] for f in frames})
        if not ids:
            return [0]
        held = json.dumps(ids)
        cols = [c for c in FRAME_COLUMNS if c in schema.fcols]
        sums = ", ".join(f"total(length(CAST({c} AS TEXT)))" for c in cols) or "0"
        out: list[object] = [len(ids), ids[-1], sorted(f[1] for f in frames)[-1]]
        out += list(fetch(conn, f"SELECT {sums} FROM frames WHERE id {_IN}", (held,))[0])
        if layout.ocr_table:
            q = (
                "SELECT count(*), max(rowid), total(length(text))"
                f" FROM ocr_text WHERE frame_id {_IN}"
            )
            out += list(fetch(conn, q, (held,))[0])
        if layout.elements:
            q = (
                "SELECT count(*), max(id), total(length(text)), total(length(role))"
                f" FROM elements WHERE frame_id {_IN}"
            )
            out += list(fetch(conn, q, (held,))[0])
        return out
    finally:
        if began and conn.in_transaction:
            conn.rollback()
