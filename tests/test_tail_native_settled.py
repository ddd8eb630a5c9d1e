"""Incremental today on the native store: the settled marks and the tail read come from one
state of the store. A real writer commits, in one transaction, an edit before the cut and
a row after it, just as the tail read starts (after the marks were taken): the capture
the cache is handed must be that of the store before the commit or after it, never the
rows before the cut of one with the tail of the other. WAL (the recorder's mode) and
rollback-journal mode."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from actframes.compile.pipeline import compile_capture
from actframes.compile.reuse import Reuse
from actframes.emit.json_out import to_json
from actframes.model import Capture
from actframes.simulate import write_native
from actframes.sources.native import NativeSource
from actframes.tail import Tail, cut_of, read_spliced

from .tail_days import WINDOW, first_rows
from .tail_days import fresh as _fresh

APPS = ["Code", "Slack", "Google Chrome", "Terminal"]
# The first statement of a native read: the tail read starts here, after the marks.
READ_STARTS = "SELECT id, ts_ms, app, title, url, device FROM snapshots WHERE"


def _doc(cap: Capture) -> str:
    return to_json(compile_capture(cap, WINDOW))


def _edit_head_and_append(path: Path) -> None:
    """One commit: the first snapshot's app changes (before any cut), a snapshot is added
    30 s after the newest (after the cut)."""
    conn = sqlite3.connect(path, timeout=10.0)
    try:
        with conn:
            conn.execute("UPDATE snapshots SET app = 'Terminal' WHERE id = 1")
            conn.execute(
                "INSERT INTO snapshots (ts_ms, device, app, title)"
                " SELECT max(ts_ms) + 30000, '', 'Terminal', 'added' FROM snapshots"
            )
    finally:
        conn.close()


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_a_commit_between_the_marks_and_the_tail_read(tmp_path: Path, journal: str) -> None:
    path = write_native(tmp_path / "store.db", first_rows(60, APPS))
    conn = sqlite3.connect(path)
    assert conn.execute(f"PRAGMA journal_mode={journal}").fetchone()[0] == journal
    conn.close()
    before = _fresh(path)
    src = NativeSource(path)
    try:
        cap = src.read(WINDOW.start_ms, WINDOW.end_ms)
        assert _doc(cap) == before
        cut = cut_of(cap, WINDOW)
        assert cut is not None
        mark = src.settled_mark(WINDOW.start_ms, WINDOW.end_ms, cut)
        assert mark is not None
        tail = Tail(cap, cut, mark, Reuse())
        calm = read_spliced(src, WINDOW, tail)  # nothing written: the tail stands
        assert calm is not None and _doc(calm[0]) == before and calm[1]() is not None
        # The writer runs in a thread of its own: in rollback-journal mode a reader's
        # transaction holds it off until the read is over; it is given time to commit.
        writer = threading.Thread(target=_edit_head_and_append, args=(path,))

        def commit_as_the_read_starts(sql: str) -> None:
            if sql.startswith(READ_STARTS) and not writer.is_alive() and writer.ident is None:
                writer.start()
                writer.join(timeout=1.0)

        src._conn.set_trace_callback(commit_as_the_read_starts)
        try:
            got = read_spliced(src, WINDOW, tail)
        finally:
            src._conn.set_trace_callback(None)
        writer.join()
        assert writer.ident is not None, "the writer must have run inside the tail read"
        after = _fresh(path)
        assert after != before
        if got is not None:
            spliced, settle = got
            assert _doc(spliced) in (before, after)
            if settle() is not None:  # kept for the next call: the state it was read in
                assert _doc(spliced) == before
    finally:
        src.close()
