"""The settled mark's kept early parts (sources/screenpipe/settled_parts.py) on a real WAL
store with a writer: after appends only, the early parts are served without SQL and the
mark is the one a fresh reader makes by SQL; after any change to the early rows (or to the
pages that hold them) they are made again by SQL, and the mark is again the fresh one. A
hypothesis test runs random sequences of such writes between marks."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.simulate.writers import format_ts
from actframes.sources.base import READ_MARGIN_MS
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.sources.sqlite_pages.wal import WalFrames, read_pin

from .settled_store import CUT, EARLY, LONG, SPAN, Store

Op = Callable[[Store], None]


def _json_statements(store: Store) -> list[str]:
    """The statements that write rows as text, traced on the reader's connection."""
    seen: list[str] = []
    store.reader.set_trace_callback(
        lambda sql: seen.append(sql) if "json_group_array" in sql else None
    )
    return seen


@pytest.fixture(params=[512, 1024])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "store.db", page_size=request.param)
    yield s
    s.close()


def test_appends_are_served_without_sql(store: Store) -> None:
    first = store.mark()
    assert first == store.fresh() and store.parts.made == 2 and store.parts.served == 0
    for _ in range(3):
        store.append(4)
        hours_made = store.parts.hours[1]
        seen = _json_statements(store)
        assert store.mark() == first == store.fresh()
        # Of the three parts (two early halves and the rest), SQL wrote the rest only, and
        # the cut's hour's rows in it only when an append wrote a page of theirs (here,
        # with few rows after the cut, the leaf of the last ones).
        made = store.parts.hours[1] - hours_made
        assert len(seen) == 1 + made and store.parts.made == 2
    assert store.parts.served == 6
    assert sum(store.parts.hours) == 4  # the hour's rows: kept, then served or made


def test_the_hours_rows_are_served_when_no_page_of_theirs_was_written(tmp_path: Path) -> None:
    """Rows written after the cut on their own leaves: the cut's hour's rows, hashed in
    the rest of the mark, are served like the halves, the same bytes."""
    store = Store(tmp_path / "store.db")
    try:
        first = store.mark()
        store.append(40)  # the leaves of the rows after the cut are new ones from here
        assert store.mark() == first == store.fresh()
        served = store.parts.hours[0]
        for _ in range(3):
            store.append(1)
            assert store.mark() == first == store.fresh()
        assert store.parts.hours[0] == served + 3
    finally:
        store.close()


def _update_title(s: Store) -> None:  # same length: no cell moves
    s.writer.execute("UPDATE frames SET window_name = upper(window_name) WHERE id = 40")


def _update_overflow(s: Store) -> None:  # the title's last bytes: an overflow page only
    s.writer.execute(
        "UPDATE frames SET window_name = substr(window_name, 1, length(window_name) - 4)"
        " || 'LAST' WHERE id = ?",
        (LONG,),
    )


def _delete_leaves(s: Store) -> None:  # rows of whole leaves: their pages are freed
    s.writer.execute("DELETE FROM frames WHERE id BETWEEN 100 AND 260")
    s.writer.execute("DELETE FROM ui_events WHERE id BETWEEN 200 AND 520")


def _insert_early(s: Store) -> None:  # a new id, an early time
    s.writer.execute("BEGIN")
    s.frame(EARLY[0] + 30_000)
    s.writer.execute("COMMIT")


def _insert_gap_early(s: Store) -> None:  # an id between two early rows' (odd ids are free)
    s.writer.execute("BEGIN")
    s.frame(EARLY[0] + 45 * 60_000 + 5_000, 91)
    s.writer.execute("COMMIT")


def _insert_gap_late(s: Store) -> None:  # an id among the early rows', a time after the cut
    s.writer.execute(
        "INSERT INTO frames (id, timestamp, app_name) VALUES (93, ?, 'Code')",
        (format_ts(CUT + 60_000),),
    )


def _update_ocr(s: Store) -> None:  # the app of an early frame's OCR row
    s.writer.execute("UPDATE ocr_text SET app_name = 'Other' WHERE frame_id = 48")


def _insert_ocr(s: Store, own_app: bool) -> None:
    """One more OCR row (the next rowid) for an early frame with or without its own app:
    only the OCR rows of the frames without one are read (the frames "pending" OCR)."""
    s.writer.execute(
        "INSERT INTO ocr_text (frame_id, text, app_name) SELECT id, 'more', 'Other'"
        f" FROM frames WHERE (app_name != '') = {int(own_app)} AND id < 60 ORDER BY id LIMIT 1"
    )


def _vacuum(s: Store) -> None:
    s.writer.execute("VACUUM")


def _restart(s: Store) -> None:
    s.writer.execute("PRAGMA wal_checkpoint(RESTART)")


def _truncate(s: Store) -> None:
    s.writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _update_then_restart(s: Store) -> None:  # the frames that tell are then gone
    _update_title(s)
    _truncate(s)


# Each change, and whether it changes the early rows (else only the pages that hold them).
CHANGES: dict[str, tuple[Op, bool]] = {
    "update-then-restart": (_update_then_restart, True),
    "update-title": (_update_title, True),
    "update-overflow": (_update_overflow, True),
    "delete-leaves": (_delete_leaves, True),
    "insert-early": (_insert_early, True),
    "insert-gap-early": (_insert_gap_early, True),
    "insert-gap-late": (_insert_gap_late, False),
    "update-ocr": (_update_ocr, True),
    "insert-ocr-pending": (lambda s: _insert_ocr(s, False), True),
    "vacuum": (_vacuum, False),
    "restart": (_restart, False),
    "truncate": (_truncate, False),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_makes_the_parts_again(store: Store, change: str) -> None:
    op, rows_change = CHANGES[change]
    first = store.mark()
    store.append(3)
    assert store.mark() == first and store.parts.served == 2
    made = store.parts.made
    op(store)
    store.append(2)
    after = store.mark()
    assert after == store.fresh()
    assert (after != first) == rows_change
    if change in ("restart", "truncate"):  # a new WAL generation, the same pages' bytes
        assert store.parts.made == made
    else:
        assert store.parts.made > made  # made again by SQL, not served
    store.append(2)  # and kept anew: the next appends are served again
    served = store.parts.served
    assert store.mark() == after == store.fresh()
    # A frame with a new id and an early time stretches its part's rowid range to the
    # last leaf of frames, which an append writes unless it starts a new leaf (SQLite's
    # quick balance leaves the full one as it was): that part is then made by SQL. (Its
    # OCR row, or a new OCR row of an early frame that takes its app from OCR, stretches
    # the OCR rows' range so.)
    if change in ("insert-early", "insert-gap-early", "insert-ocr-pending"):
        assert served + 1 <= store.parts.served <= served + 2
    else:
        assert store.parts.served == served + 2


def test_an_ocr_row_of_a_frame_with_its_own_app_is_not_counted(store: Store) -> None:
    """Such a frame's OCR rows are never hashed: one more leaves the mark as it was, and
    the halves' counts too (only the pages it wrote may make a half by SQL again)."""
    first = store.mark()
    store.append(2)
    assert store.mark() == first and store.parts.served == 2
    _insert_ocr(store, True)
    assert store.writer.execute("SELECT changes()").fetchone()[0] == 1
    store.append(2)
    assert store.mark() == first == store.fresh()
    assert store.parts.served + store.parts.made == 6


def test_an_overflow_write_touches_no_leaf(tmp_path: Path) -> None:
    """The overflow case is what it claims: the update writes an overflow page of the
    kept range and none of its leaves (so only the overflow pages tell)."""
    store = Store(tmp_path / "store.db", page_size=512)
    try:
        store.mark()
        kept = next(k for k in store.parts._kept.values() if any(w.pages.overflow for w in k.walks))
        walk = next(w for w in kept.walks if w.pages.overflow)
        before = read_pin(store.path)
        _update_overflow(store)
        after = read_pin(store.path)
        assert before is not None and after is not None
        wal = WalFrames(store.path)
        wal.follow(after)
        written = {p for _, p in wal.written(before.max_frame, after.max_frame)}
        wal.close()
        assert written & walk.pages.overflow and not written & walk.pages.leaves
        assert store.mark() == store.fresh()
        assert (store.parts.served, store.parts.made) == (1, 3)  # the other half served
    finally:
        store.close()


@pytest.mark.parametrize(
    "kind",
    [
        {"wal": False},  # a rollback journal: no -shm
        {"alter": "ALTER TABLE ui_events ADD COLUMN oid INTEGER;"},  # the rowid's names
        {"alter": "ALTER TABLE frames ADD COLUMN _rowid_ INTEGER;"},
    ],
    ids=["no-wal-index", "column-oid", "column-_rowid_"],
)
def test_never_served_without_a_wal_index_or_with_a_column_named_like_the_rowid(
    tmp_path: Path, kind: dict[str, Any]
) -> None:
    store = Store(tmp_path / "store.db", **kind)
    try:
        first = store.mark()
        store.append(2)
        assert store.mark() == first == store.fresh()
        assert store.parts.served == 0
    finally:
        store.close()


def _append(n: int) -> Op:
    return lambda s: s.append(n)


def _passive(s: Store) -> None:
    s.writer.execute("PRAGMA wal_checkpoint(PASSIVE)")


OPS: list[Op] = [
    _append(1),
    _append(5),
    *(op for op, _ in CHANGES.values()),
    _passive,
]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    page_size=st.sampled_from([512, 1024, 4096]),
    autocheckpoint=st.sampled_from([0, 40]),
    steps=st.lists(st.lists(st.sampled_from(range(len(OPS))), max_size=3), max_size=6),
)
def test_the_incremental_mark_is_the_fresh_one(
    page_size: int, autocheckpoint: int, steps: list[list[int]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "store.db", page_size, autocheckpoint)
        try:
            assert store.mark() == store.fresh()
            for ops in steps:
                for i in ops:
                    try:
                        OPS[i](store)
                    except sqlite3.IntegrityError:  # an explicit id taken by an earlier step
                        if store.writer.in_transaction:
                            store.writer.rollback()
                assert store.mark() == store.fresh()
        finally:
            store.close()


def test_the_tail_reads_serve_the_parts_on_two_connections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the source's tail reads (``screenpipe.tail``): the pin read around the
    handshake of the main connection and the two reading ones, the halves made at once in
    two threads. Appends: the verdict holds, its halves served; an early edit: the mark
    no longer holds, and the new mark is a fresh reader's."""
    monkeypatch.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 2)
    store = Store(tmp_path / "store.db")
    a, b = SPAN[0] + READ_MARGIN_MS, SPAN[1] - READ_MARGIN_MS  # the source widens by these
    try:
        with ScreenpipeSource(store.path) as src:
            mark = src.settled_mark(a, b, CUT)
            assert mark is not None and mark.digest == store.fresh()
            for _ in range(3):
                store.append(2)
                got = src.settled_read(a, b, CUT, mark, CUT)
                assert got is not None and got[1]() == mark
            tails = src._tails
            assert tails is not None and tails.parts is not None
            assert tails.parts.served == 6 and tails.parts.made == 2
            # The first verdict after the mark on two connections, the next ones (the
            # halves served before) on the main one, in its read transaction.
            assert tails.inline == 2
            _update_title(store)
            got = src.settled_read(a, b, CUT, mark, CUT)
            assert got is None and tails.inline == 3  # made by SQL there: not the mark
            assert tails.parts.made == 3
            again = src.settled_mark(a, b, CUT)
            assert again is not None and again.digest == store.fresh() != mark.digest
    finally:
        store.close()


def test_the_verdict_after_served_halves_runs_on_the_main_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a verdict served the kept halves, the next one runs on the main connection in
    its read transaction (counted). An early row rewritten to its own value writes its
    pages, no row changes: that verdict makes the half by SQL there and still holds, and
    the next one runs on two connections again. Each mark is a fresh reader's."""
    monkeypatch.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 2)
    store = Store(tmp_path / "store.db")
    a, b = SPAN[0] + READ_MARGIN_MS, SPAN[1] - READ_MARGIN_MS

    def verdict() -> object:
        store.append(1)
        got = src.settled_read(a, b, CUT, mark, CUT)
        assert got is not None
        return got[1]()

    try:
        with ScreenpipeSource(store.path) as src:
            mark = src.settled_mark(a, b, CUT)
            assert mark is not None and mark.digest == store.fresh()
            tails = src._tails
            assert tails is not None and tails.parts is not None
            parts = tails.parts
            assert verdict() == mark and (tails.inline, parts.served, parts.made) == (0, 2, 2)
            assert verdict() == mark and (tails.inline, parts.served, parts.made) == (1, 4, 2)
            store.writer.execute("BEGIN")
            _update_title(store)
            store.writer.execute("UPDATE frames SET window_name = lower(window_name) WHERE id = 40")
            store.writer.execute("COMMIT")
            assert verdict() == mark and tails.inline == 2
            assert (parts.served, parts.made) == (5, 3)  # the other half served
            assert mark.digest == store.fresh()
            assert verdict() == mark and (tails.inline, parts.served, parts.made) == (2, 7, 3)
            assert verdict() == mark and (tails.inline, parts.served, parts.made) == (3, 9, 3)
    finally:
        store.close()
