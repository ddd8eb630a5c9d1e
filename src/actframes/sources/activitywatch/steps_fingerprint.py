"""What a day's routine steps read from aw-server-rust's ``sqlite.db``, identified without
parsing it: the fingerprint ``resident_routines`` keeps a day's steps by.

A day's steps read only its capture (``AWSqliteSource.read``: ActivityWatch records no
input targets), ``READ_MARGIN_MS`` either side: of each bucket, the events that reach into
that span (``starttime`` before its end, ``endtime`` from its start, a second of slack
either side). The fingerprint hashes every column of those rows, of every bucket, as
exact JSON (``exact_rows``), and the ``buckets`` rows and the tables' definitions. The
reader bounds ``starttime`` below by the bucket's longest event so that SQLite seeks in
its index; here the bound is the same (an event reaching the span cannot start before
it), or absent where a damaged row makes the longest event unusable — the rows hashed are
then more, never fewer. None where the file is not an aw-server-rust database, cannot be
read, or changed while it was being fingerprinted.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from ...errors import SourceError
from ...fast.fasthash import sha256
from ..base import READ_MARGIN_MS, connect_ro, fetch, table_columns, tables
from ..exact_rows import json_row
from .source import _bucketrow_term  # how the reader seeks: the same plan here

STEPS_VERSION = "aw-steps-1"
_NS_PER_MS = 1_000_000
_SLACK_MS = 1_000  # the reader's SQL slack (activitywatch._SQL_SLACK_MS)
_EVENT_COLUMNS = {"id", "bucketrow", "starttime", "endtime", "data"}


def is_aw_sqlite(path: Path) -> bool:
    """Is ``path`` an aw-server-rust database (``buckets`` and ``events``)?"""
    try:
        with open(path, "rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                return False
        conn = connect_ro(path)
    except (OSError, sqlite3.DatabaseError, SourceError):
        return False
    try:
        return {"buckets", "events"} <= tables(conn)
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()


def fingerprints(path: Path, spans: Sequence[tuple[int, int]]) -> list[str | None]:
    """For each [start_ms, end_ms) of ``spans``: the fingerprint of its steps' reads."""
    none: list[str | None] = [None] * len(spans)
    try:
        conn = connect_ro(path)
    except (sqlite3.DatabaseError, SourceError):
        return none
    try:
        version = fetch(conn, "PRAGMA data_version")
        present = tables(conn)
        if "buckets" not in present or "events" not in present:
            return none
        if not table_columns(conn, "events") >= _EVENT_COLUMNS:
            return none
        head = sha256(STEPS_VERSION.encode())
        head.update(repr(fetch(conn, "SELECT * FROM sqlite_master ORDER BY type, name")).encode())
        head.update(repr(fetch(conn, "SELECT * FROM buckets ORDER BY rowid")).encode())
        # The buckets as the reader numbers them (a bucket it cannot number fails it).
        rows = [int(r[0]) for r in fetch(conn, "SELECT id FROM buckets ORDER BY id")]
        longest = {b: _longest(conn, b) for b in rows}
        term = _bucketrow_term(conn)
        out: list[str | None] = []
        for start_ms, end_ms in spans:
            h = head.copy()
            for b in rows:
                h.update(_rows(conn, term, b, longest[b], start_ms, end_ms))
            out.append(f"{STEPS_VERSION}:{h.hexdigest()}")
        if fetch(conn, "PRAGMA data_version") != version:
            return none
        return out
    except (sqlite3.DatabaseError, TypeError, ValueError):
        return none
    finally:
        conn.close()


def _longest(conn: sqlite3.Connection, bucketrow: int) -> int | None:
    """The bucket's longest event in ns; None when a row makes it unusable (a real, text:
    no lower bound is then used)."""
    (value,) = fetch(
        conn, "SELECT max(endtime - starttime) FROM events WHERE bucketrow = ?", (bucketrow,)
    )[0]
    if value is None:
        return 0
    return value if type(value) is int and value >= 0 else None


def _rows(
    conn: sqlite3.Connection,
    term: str,
    bucketrow: int,
    longest: int | None,
    start_ms: int,
    end_ms: int,
) -> bytes:
    lo_ns = (start_ms - READ_MARGIN_MS - _SLACK_MS) * _NS_PER_MS
    hi_ns = (end_ms + READ_MARGIN_MS + _SLACK_MS) * _NS_PER_MS
    since = "" if longest is None else f" AND starttime >= {lo_ns - longest}"
    n, text = fetch(
        conn,
        "SELECT count(*), CAST(group_concat(r, ';') AS BLOB) FROM (SELECT"
        f" {json_row(['id', 'bucketrow', 'starttime', 'endtime', 'data'])} AS r FROM events"
        f" WHERE {term} = ?{since} AND starttime < ? AND endtime >= ? ORDER BY id)",
        (bucketrow, hi_ns, lo_ns),
    )[0]
    return b"bucket:%d:%d:" % (bucketrow, n) + (text if isinstance(text, bytes) else b"")
