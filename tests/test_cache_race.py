"""The document cache and a write that lands between the fingerprint and the read.

The cache takes the window's fingerprint, then reads the rows. A commit between the two
gives a document of the newer rows; kept under the older fingerprint, it would be served
as soon as the store is back in that state (an edit undone, a backup restored). Here a
real writer commits right before the real read, the edit is undone, and every document
served afterwards must be the bytes of a fresh compile. Native and screenpipe-style
stores, in WAL and rollback-journal mode.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.api import open_source, to_json
from actframes.cache import DocCache, compile_window_cached
from actframes.compile.pipeline import Options
from actframes.model import Capture
from actframes.sources import Source
from actframes.window import Window, day_window

from .builders import commit, screenpipe_db, set_journal
from .test_golden import build, t

NATIVE_WIN = day_window("2026-03-10", "Europe/Berlin")
SP_WIN = day_window("2026-03-10", "UTC")


def _fresh(db: Path, win: Window) -> str:
    with open_source(db) as src:
        return to_json(compile_window_cached(src, win, Options(), None)[0])


def _cached(db: Path, win: Window, cache: DocCache, before_read: Callable[[], None] | None) -> str:
    """A cached compile; ``before_read`` commits after the fingerprint, before the read."""
    with open_source(db) as src:
        if before_read is not None:
            real = src.read

            def read(start_ms: int, end_ms: int) -> Capture:
                before_read()
                return real(start_ms, end_ms)

            src.read = read  # type: ignore[method-assign]
        return to_json(compile_window_cached(src, win, Options(), cache)[0])


def _no_stale_after_undo(db: Path, win: Window, cache: DocCache, edit: str, undo: str) -> None:
    before = _fresh(db, win)
    edited: list[str] = []

    def edit_now() -> None:
        commit(db, edit)
        edited.append(_fresh(db, win))

    # No entry yet: the fingerprint is taken, the edit commits, the rows are read.
    racing = _cached(db, win, cache, edit_now)
    assert edited and edited[0] != before, "the edit must change the day"
    assert racing == edited[0]  # the document of the rows it read
    commit(db, undo)
    assert _fresh(db, win) == before  # the store is back as it was
    for _ in range(2):  # then kept and served again: always a fresh compile's bytes
        assert _cached(db, win, cache, None) == before


@pytest.mark.parametrize("journal", ["WAL", "DELETE"])
def test_native_edit_during_the_read_then_undone(tmp_path: Path, journal: str) -> None:
    db = build(tmp_path / "g.db")
    set_journal(db, journal)
    # Away spans carry no change counter: the fingerprint counts them, and an undone
    # insertion gives it back exactly.
    edit = f"INSERT INTO afk (start_ms, end_ms) VALUES ({t('09:02:00')}, {t('09:05:00')})"
    undo = "DELETE FROM afk WHERE id = (SELECT max(id) FROM afk)"
    _no_stale_after_undo(db, NATIVE_WIN, DocCache(tmp_path / "c"), edit, undo)


def _sp_store(path: Path, wal: bool = False) -> Path:
    frames = [
        (i + 1, f"2026-03-10T09:{i:02d}:00Z", ("Code", "Slack", "Firefox")[i % 3], f"t{i}")
        for i in range(30)
    ]
    return screenpipe_db(path, frames, wal=wal)


@pytest.mark.parametrize("wal", [True, False])
def test_screenpipe_edit_during_the_read_then_undone(tmp_path: Path, wal: bool) -> None:
    db = _sp_store(tmp_path / "sp.db", wal)
    edit = "UPDATE frames SET app_name = 'Terminal' WHERE id = 5"
    undo = "UPDATE frames SET app_name = 'Slack' WHERE id = 5"
    _no_stale_after_undo(db, SP_WIN, DocCache(tmp_path / "c"), edit, undo)


def test_a_quiet_store_is_still_served_by_its_fingerprint(tmp_path: Path) -> None:
    """Without a commit in between, the fingerprint is stored and serves without a read."""
    db = build(tmp_path / "g.db")
    cache = DocCache(tmp_path / "c")
    first = _cached(db, NATIVE_WIN, cache, None)

    def no_read() -> None:
        raise AssertionError("read rows although nothing changed")

    assert _cached(db, NATIVE_WIN, cache, no_read) == first


def test_a_fingerprint_without_a_commit_mark_is_not_trusted(tmp_path: Path) -> None:
    """A source that cannot say whether a commit landed has its rows read and digested."""
    db = build(tmp_path / "g.db")
    cache = DocCache(tmp_path / "c")
    first = _cached(db, NATIVE_WIN, cache, None)
    reads: list[int] = []

    class Unmarked:
        def __init__(self, inner: Source) -> None:
            self.inner, self.path, self.kind = inner, inner.path, inner.kind

        def fingerprint(self, start_ms: int, end_ms: int) -> str | None:
            return self.inner.fingerprint(start_ms, end_ms)  # type: ignore[attr-defined,no-any-return]

        def read(self, start_ms: int, end_ms: int) -> Capture:
            reads.append(start_ms)
            return self.inner.read(start_ms, end_ms)

    with open_source(db) as src:
        doc, hit = compile_window_cached(Unmarked(src), NATIVE_WIN, Options(), cache)  # type: ignore[arg-type]
    assert hit and reads and to_json(doc) == first


# Toggles: each flips one value between two states, so that random sequences return the
# store to earlier states (the case where a wrongly kept document would be served).
SP_TOGGLES = [
    (
        "UPDATE frames SET app_name = 'Terminal' WHERE id = 5",
        "UPDATE frames SET app_name = 'Slack' WHERE id = 5",
    ),
    (
        "UPDATE frames SET window_name = 'x' WHERE id = 9",
        "UPDATE frames SET window_name = 't8' WHERE id = 9",
    ),
    (
        "DELETE FROM frames WHERE id = 30",
        "INSERT INTO frames (id, timestamp, app_name, window_name)"
        " VALUES (30, '2026-03-10T09:29:00Z', 'Firefox', 't29')",
    ),
]
NATIVE_TOGGLES = [
    (
        f"INSERT INTO afk (id, start_ms, end_ms) VALUES (900, {t('09:02:00')}, {t('09:05:00')})",
        "DELETE FROM afk WHERE id = 900",
    ),
    (
        "UPDATE snapshots SET title = 'other' WHERE id = 3",
        "UPDATE snapshots SET title = '#eng - Acme - Slack' WHERE id = 3",
    ),
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    family=st.sampled_from(["native", "screenpipe"]),
    journal=st.sampled_from(["WAL", "DELETE"]),
    ops=st.lists(st.tuples(st.integers(0, 2), st.booleans()), min_size=1, max_size=8),
)
def test_random_edits_during_reads_never_serve_a_stale_document(
    family: str, journal: str, ops: list[tuple[int, bool]]
) -> None:
    """Any sequence of edits, each landing before a cached compile or inside its read
    (after the fingerprint), and undone by later ones: every answer is a fresh compile's."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if family == "native":
            db, win, toggles = build(root / "g.db"), NATIVE_WIN, NATIVE_TOGGLES
        else:
            db, win, toggles = _sp_store(root / "sp.db"), SP_WIN, SP_TOGGLES
        set_journal(db, journal)
        cache = DocCache(root / "c")
        flipped = [False] * len(toggles)

        def flip(i: int) -> None:
            commit(db, toggles[i][1] if flipped[i] else toggles[i][0])
            flipped[i] = not flipped[i]

        for n, during_read in ops:
            i = n % len(toggles)
            if during_read:
                served = _cached(db, win, cache, lambda i=i: flip(i))  # type: ignore[misc]
            else:
                flip(i)
                served = _cached(db, win, cache, None)
            assert served == _fresh(db, win)
