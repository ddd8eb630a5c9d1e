"""The rows' text a screenpipe-style fingerprint hashes (sources/screenpipe/rowtext.py): the
sets written by one statement are, set by set, what each set's own statements write —
also where a value is a blob (JSON cannot hold it: every set is written again on its
own), a real (its set quote()d) or odd, in any of the columns read."""

from __future__ import annotations

import contextlib
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.sources.base import connect_ro
from actframes.sources.screenpipe.fingerprint import RowsFingerprint
from actframes.sources.screenpipe.rowtext import _text, texts
from actframes.sources.screenpipe.schema import detect
from actframes.sources.screenpipe.timestamps import Span

from .test_screenpipe_fingerprint import READ, VALUES, WINDOWS, _store

edits = st.lists(
    st.tuples(
        st.sampled_from(["frames", "ui_events"]),
        st.integers(0, 60),  # which row
        st.integers(0, 30),  # which column
        st.sampled_from(VALUES),
    ),
    max_size=4,
)


@settings(max_examples=30, deadline=None)
@given(edits)
def test_sets_written_at_once_are_each_sets_own_text(changes: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _store(Path(tmp) / "store.db")
        with sqlite3.connect(path) as conn:
            for table, row, col, value in changes:
                name = READ[table][col % len(READ[table])]
                with contextlib.suppress(sqlite3.IntegrityError):  # NOT NULL: refused
                    conn.execute(f"UPDATE {table} SET {name} = ? WHERE id = ?", (value, row))
        conn.close()
        ro = connect_ro(path)
        try:
            rows = RowsFingerprint(ro, detect(ro, path))
            window = WINDOWS["day"]
            jobs = [
                *rows.rows_jobs(Span(window.start_ms, window.end_ms).ranges),
                *rows.odd_jobs(),
            ]
            assert len(jobs) >= 4
            one_by_one = [_text(ro, job) for job in jobs]
            assert texts(ro, jobs) == one_by_one
            assert texts(ro, jobs[:2]) == one_by_one[:2]
        finally:
            ro.close()
