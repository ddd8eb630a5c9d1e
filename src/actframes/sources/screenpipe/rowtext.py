"""The text a screenpipe-style fingerprint hashes of a set of rows (``fingerprint``),
written by SQLite: one JSON array per column (``json_group_array``), or the rows quote()d
where JSON would not be exact (the fingerprint's module docstring says when).

Several sets of rows (a *job* each: a label, the columns, the query of the rows) are
written by one statement, a row per set (``UNION ALL``; each tagged with its job's
place): the thread that asks goes into SQLite once per row, not three or four times per
set (prepare, step, step). A thread that must win the interpreter's lock back from a
thread running Python waits out a switch interval (5 ms) each time, so a fingerprint
made beside a compile (the settled mark of a tail call) pays for every return from
SQLite, not only for the rows it read. (Sets joined side by side in one row would be
materialized: a third slower.) The rare set that JSON cannot write exactly is written
again on its own.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import NamedTuple

from ..base import fetch


class Job(NamedTuple):
    """A set of rows: ``rows_sql(select_list)`` is its query; ``checks``: the columns
    (positions) that may hold a real (JSON writes one to 15 digits only)."""

    label: str
    cols: list[str]
    rows_sql: Callable[[str], str]
    checks: list[int]

    @property
    def exact(self) -> bool:
        """Written by quote() from the start (the rows no date holds, the OCR rows: few)."""
        return self.label.endswith("-odd") or self.label == "ocr"


# What is hashed of a job: its label (with ":quote" when quote()d), row count, texts.
Text = tuple[str, int, list[bytes]]


def texts(conn: sqlite3.Connection, jobs: list[Job]) -> list[Text]:
    """Each job's rows as text, from one statement (one job by one where it fails: a blob
    JSON cannot hold)."""
    if len(jobs) < 2:
        return [_text(conn, job) for job in jobs]
    width = max(1 if job.exact else len(job.cols) for job in jobs)
    sql = " UNION ALL ".join(
        _quoted_sql(job, f"{i}, ", width - 1) if job.exact else _json_sql(job, f"{i}, ", width)
        for i, job in enumerate(jobs)
    )
    try:
        rows = {row[0]: row[1:] for row in fetch(conn, sql)}
    except sqlite3.OperationalError:
        return [_text(conn, job) for job in jobs]
    found: list[Text] = []
    for i, job in enumerate(jobs):
        n, *arrays = rows[i][: 2 if job.exact else 1 + len(job.cols)]
        if job.exact:
            found.append((job.label + ":quote", n, [_blob(arrays[0])]))
        elif _json_is_exact(job, arrays):
            found.append((job.label, n, arrays))
        else:
            found.append(_quoted(conn, job))
    return found


def _text(conn: sqlite3.Connection, job: Job) -> Text:
    if not job.exact:
        try:
            n, *arrays = fetch(conn, _json_sql(job))[0]
        except sqlite3.OperationalError:  # a blob: JSON cannot hold it
            return _quoted(conn, job)
        if _json_is_exact(job, arrays):
            return job.label, n, arrays
    return _quoted(conn, job)


def _json_is_exact(job: Job, arrays: list[bytes]) -> bool:
    # A real is only possible in a column whose affinity is not TEXT (SQLite stores
    # numbers there as text), and never in a timestamp of a range (numbers never
    # compare between text bounds) or in length(). JSON writes a finite real with a
    # '.' always ("%!.15g"), text in quotes: an array of such a column with neither
    # holds integers, NULLs and infinities only (all exact), else quote() writes the
    # rows. A per-row sum() said as much at a millisecond a day of events.
    return not any(b"." in arrays[i] or b'"' in arrays[i] for i in job.checks)


def _json_sql(job: Job, tag: str = "", width: int = 0) -> str:
    """One row: ``tag``, the count and an array per column, NULLs up to ``width``."""
    named = ", ".join(f"{c} AS k{i}" for i, c in enumerate(job.cols))
    arrays = ", ".join(f"CAST(json_group_array(k{i}) AS BLOB)" for i in range(len(job.cols)))
    pad = ", NULL" * (width - len(job.cols))
    return f"SELECT {tag}count(*), {arrays}{pad} FROM ({job.rows_sql(named)})"


def _quoted_sql(job: Job, tag: str = "", pad: int = 0) -> str:
    row = " || ',' || ".join(f"quote({c})" for c in job.cols) + " AS r"
    text = f"CAST(group_concat(r, ';') AS BLOB){', NULL' * pad}"
    return f"SELECT {tag}count(*), {text} FROM ({job.rows_sql(row)})"


def _quoted(conn: sqlite3.Connection, job: Job) -> Text:
    n, text = fetch(conn, _quoted_sql(job))[0]
    return job.label + ":quote", n, [_blob(text)]


def _blob(text: object) -> bytes:
    return text if isinstance(text, bytes) else b""
