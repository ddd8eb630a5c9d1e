"""What the kept early parts of a settled mark (``settled_parts``) are checked
against by SQL: per table a part reads, its root page, whether it is odd (WITHOUT ROWID, a
column named like the rowid), and how many rows the part's job hashes, with the smallest
and largest rowid when a part is made (its pages are walked over that range), or the count
alone of each half at once when kept halves are served (one statement, half the work per
row: no rowid is decoded). Index-only where the store has screenpipe's indexes.

The OCR rows counted are those the job hashes, the OCR rows of the part's *pending* frames
(``RowsFingerprint.pending``), not every OCR row of its frames: a part is served only when
its frames are proved unchanged too (their count here, their pages in the WAL), and which
frames are pending depends on their own columns only, so the set of pending frames is the
one the part was made with; the OCR rows then stand or fall with that set like the
frames with their time range.
"""

from __future__ import annotations

from ..base import fetch
from .fingerprint import RowsFingerprint
from .timestamps import in_ranges

Ranges = list[tuple[str, str]]
_ROWID_NAMES = "('rowid', 'oid', '_rowid_')"


def stats(rows: RowsFingerprint, ranges: Ranges) -> tuple[object, ...]:
    """Per table the part of ``ranges`` reads: (root page, whether it is odd, count(*),
    min(rowid), max(rowid)) of its rows, then the tables' schema rows; one statement."""
    tables = _keys(rows, ranges)
    cols = [f"{_kind(name)}, t{i}.n, t{i}.lo, t{i}.hi" for i, (name, _) in enumerate(tables)]
    sources = [
        f"(SELECT count(*) AS n, min(k) AS lo, max(k) AS hi FROM ({sql})) AS t{i}"
        for i, (_, sql) in enumerate(tables)
    ]
    sql = f"SELECT {', '.join(cols)}, {_schema(tables)} FROM {', '.join(sources)}"
    row = fetch(rows.conn, sql, ())[0]
    found: list[object] = [tuple(row[i : i + 5]) for i in range(0, 5 * len(tables), 5)]
    return (*found, row[-1])


def counts(rows: RowsFingerprint, parts: list[Ranges]) -> tuple[tuple[object, ...], ...]:
    """For each of ``parts``: per table, (root page, whether it is odd, count(*)) of the
    rows it reads, then the tables' schema rows, as in ``stats`` less the rowids: all
    parts in one statement."""
    tables = [_keys(rows, ranges) for ranges in parts]
    first = tables[0]
    kinds = [_kind(name) for name, _ in first]
    cols = [
        f"(SELECT count(*) FROM ({sql}))" for ranges_tables in tables for _, sql in ranges_tables
    ]
    row = fetch(rows.conn, f"SELECT {', '.join(kinds + cols)}, {_schema(first)}", ())[0]
    n, kind = len(first), row[: 2 * len(first)]
    found = []
    for p in range(len(parts)):
        at = 2 * n + p * n
        per = [(kind[2 * j], kind[2 * j + 1], row[at + j]) for j in range(n)]
        found.append((*per, row[-1]))
    return tuple(found)


def _keys(rows: RowsFingerprint, ranges: Ranges) -> list[tuple[str, str]]:
    """Per table the job reads (in the jobs' order): its name, and the rowids of the rows
    the job hashes as ``k``."""
    s = rows.schema
    frames = in_ranges("frames", ranges, s.frames_indexed)
    tables = [("frames", f"SELECT frames.rowid AS k FROM {frames}")]
    if s.ocols:
        tables.append(
            (
                "ocr_text",
                "SELECT ocr_text.rowid AS k FROM ocr_text WHERE ocr_text.frame_id IN"
                f" (SELECT frames.id FROM {frames} AND {rows.pending})",
            )
        )
    if s.ecols:
        events = in_ranges("ui_events", ranges, s.events_indexed)
        tables.append(("ui_events", f"SELECT ui_events.rowid AS k FROM {events}"))
    return tables


def _kind(name: str) -> str:
    """The root page of table ``name``, and whether it is odd, as two columns."""
    return (
        f"(SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = '{name}'),"
        f" (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '{name}'"
        " AND upper(sql) LIKE '%WITHOUT%ROWID%') + (SELECT count(*) FROM"
        f" pragma_table_info('{name}') WHERE lower(name) IN {_ROWID_NAMES})"
    )


def _schema(tables: list[tuple[str, str]]) -> str:
    names = ", ".join(f"'{name}'" for name, _ in tables)
    return (
        "(SELECT group_concat(quote(type) || quote(name) || quote(rootpage) || quote(sql),"
        f" ';') FROM (SELECT * FROM sqlite_master WHERE tbl_name IN ({names})"
        " ORDER BY type, name))"
    )
