"""Many windows of a screenpipe-style store at once (``cache.compile_windows_cached``,
``ScreenpipeSource.fingerprints``): the same fingerprints, documents and cache entries as
one window at a time, after random appends, edits and deletions on a real SQLite file;
the parts made on two read-only connections in two threads; a commit landing during the
batch or before a window's read never keeps a stale fingerprint; a locked store and a
broken row end as they do one window at a time."""

from __future__ import annotations

import json
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from actframes.cache import DocCache, compile_window_cached, compile_windows_cached
from actframes.compile.pipeline import Options
from actframes.emit.json_out import to_json
from actframes.errors import BusyError
from actframes.model import Capture
from actframes.sources import base, open_source
from actframes.sources.actions import steps_fingerprints
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.sources.screenpipe import fingerprint as screenpipe_fingerprint
from actframes.sources.screenpipe import steps_fingerprint as screenpipe_steps_fingerprint
from actframes.window import Window, day_window, span_window

from ..builders import commit, set_journal
from .test_screenpipe_fingerprint import CONTROL, DAY, TZ, _apply, _fresh, _store, ops

# Days around the edited one (their ranges share dates), another zone (other edges), a
# span within the day, and a day nothing touches.
MANY: list[Window] = [
    *(day_window(d, TZ) for d in ("2026-03-09", DAY, "2026-03-11", CONTROL)),
    day_window(DAY, "Europe/Berlin"),
    span_window(f"{DAY} 08:30", f"{DAY} 11:00", TZ),
]
BOUNDS = [(w.start_ms, w.end_ms) for w in MANY]


def _entries(cache: DocCache) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(cache.root.glob("*.json"))}


def _served(got: list[tuple[dict[str, Any], bool]]) -> list[tuple[str, bool]]:
    return [(to_json(doc), hit) for doc, hit in got]


@settings(max_examples=15, deadline=None)
@given(ops)
def test_many_windows_equal_one_window_at_a_time(steps: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = _store(root / "store.db")
        many_cache, one_cache = DocCache(root / "many"), DocCache(root / "one")
        src = open_source(path)  # held across the writer's commits, as a server holds it
        writer = sqlite3.connect(path)
        try:
            assert isinstance(src, ScreenpipeSource)
            for op in [None, *steps]:
                if op is not None:
                    _apply(writer, op)
                with open_source(path) as other:
                    singles = [other.fingerprint(a, b) for a, b in BOUNDS]  # type: ignore[attr-defined]
                    one = compile_windows_one_by_one(other, one_cache)
                assert src.fingerprints(BOUNDS) == singles, op
                many = compile_windows_cached(src, MANY, Options(), many_cache)
                assert _served(many) == _served(one), op
                assert [d for d, _ in _served(many)] == [_fresh(path, w) for w in MANY], op
                assert _entries(many_cache) == _entries(one_cache), op
        finally:
            writer.close()
            src.close()


def compile_windows_one_by_one(src: Any, cache: DocCache) -> list[tuple[dict[str, Any], bool]]:
    return [compile_window_cached(src, w, Options(), cache) for w in MANY]


def _traced(src: ScreenpipeSource, conns: dict[str, sqlite3.Connection]) -> set[tuple[str, bool]]:
    """Which connection ran a fingerprint's query, and whether off the calling thread."""
    caller, seen = threading.get_ident(), set()
    for name, conn in conns.items():

        def trace(sql: str, name: str = name) -> None:
            if "json_group_array" in sql:
                seen.add((name, threading.get_ident() != caller))

        conn.set_trace_callback(trace)
    return seen


def _meeting(real: Callable[..., Any]) -> Callable[..., Any]:
    """``real``, whose first call in each thread waits until a second thread has made
    its first call too: a run that makes every part in one thread fails (the wait times
    out) instead of passing by luck; one that shares them always passes."""
    meet, met = threading.Barrier(2, timeout=30), set()

    def first_waits(*args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() not in met:
            met.add(threading.get_ident())
            meet.wait()
        return real(*args, **kwargs)

    return first_waits


def test_the_parts_are_made_on_two_connections_in_two_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _store(tmp_path / "store.db")
    with open_source(path) as one:
        singles = [one.fingerprint(a, b) for a, b in BOUNDS]  # type: ignore[attr-defined]
    monkeypatch.setattr(screenpipe_fingerprint, "rows_of", _meeting(screenpipe_fingerprint.rows_of))
    with ScreenpipeSource(path) as src:
        seen = _traced(src, {"main": src._conn, "other": src._bg_conn(0)})
        assert src.fingerprints(BOUNDS) == singles
    # Each connection used by one thread: the reader's in the caller's, the other in its own.
    assert seen == {("main", False), ("other", True)}


def test_one_core_fingerprints_on_one_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _store(tmp_path / "store.db")
    monkeypatch.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 1)
    with ScreenpipeSource(path) as src:
        seen = _traced(src, {"main": src._conn})
        assert None not in src.fingerprints(BOUNDS)
        assert seen == {("main", False)} and not src._bg_conns


def test_a_quiet_store_is_served_from_one_batch_without_reading(tmp_path: Path) -> None:
    path = _store(tmp_path / "store.db")
    cache = DocCache(tmp_path / "cache")
    with open_source(path) as src:
        first = _served(compile_windows_cached(src, MANY, Options(), cache))
    assert not any(hit for _, hit in first)

    class BatchOnly(ScreenpipeSource):
        def fingerprint(self, start_ms: int, end_ms: int) -> str | None:
            raise AssertionError("fingerprinted a window alone")

        def read(self, start_ms: int, end_ms: int) -> Capture:
            raise AssertionError("read rows although nothing changed")

    with BatchOnly(path) as src:
        again = _served(compile_windows_cached(src, MANY, Options(), cache))
    assert again == [(doc, True) for doc, _ in first]


EDIT = "UPDATE frames SET app_name = 'Terminal' WHERE id = 5"
UNDO = "UPDATE frames SET app_name = 'Slack' WHERE id = 5"


def _no_stale_after_undo(
    path: Path, cache: DocCache, racing: Callable[[], list[str]], fill: bool
) -> None:
    """``racing`` serves MANY while EDIT commits somewhere inside (the cache first
    holding every window if ``fill``); after UNDO every window is served as a fresh
    compile gives it, twice (kept, then served)."""
    before = [_fresh(path, w) for w in MANY]
    if fill:
        with open_source(path) as src:
            compile_windows_cached(src, MANY, Options(), cache)
    served = racing()
    assert served == [_fresh(path, w) for w in MANY] and served != before
    commit(path, UNDO)
    assert [_fresh(path, w) for w in MANY] == before
    for _ in range(2):
        with open_source(path) as src:
            again = compile_windows_cached(src, MANY, Options(), cache)
        assert [d for d, _ in _served(again)] == before


@pytest.mark.parametrize("journal", ["WAL", "DELETE"])
def test_a_commit_during_the_batch_keeps_no_stale_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, journal: str
) -> None:
    path = _store(tmp_path / "store.db")
    set_journal(path, journal)
    cache = DocCache(tmp_path / "c")
    real = screenpipe_fingerprint.made_at_once
    batches: list[list[str | None]] = []

    def made_then_edited(todo: Any, workers: Any, *ready: Any) -> Any:
        made = real(todo, workers, *ready)
        commit(path, EDIT)  # after the parts were read, before the batch's last mark
        return made

    def racing() -> list[str]:
        monkeypatch.setattr(screenpipe_fingerprint, "made_at_once", made_then_edited)
        try:
            with open_source(path) as src:
                assert isinstance(src, ScreenpipeSource)
                batch = src.fingerprints

                def recorded(windows: list[tuple[int, int]]) -> list[str | None]:
                    batches.append(batch(windows))
                    return batches[-1]

                src.fingerprints = recorded  # type: ignore[method-assign]
                served = compile_windows_cached(src, MANY, Options(), cache)
        finally:
            monkeypatch.setattr(screenpipe_fingerprint, "made_at_once", real)
        return [d for d, _ in _served(served)]

    _no_stale_after_undo(path, cache, racing, fill=True)
    assert batches == [[None] * len(MANY)]  # the batch saw its commit


def test_a_commit_before_a_windows_read_keeps_no_stale_fingerprint(tmp_path: Path) -> None:
    path = _store(tmp_path / "store.db")
    cache = DocCache(tmp_path / "c")

    def racing() -> list[str]:
        with open_source(path) as src:
            real, edited = src.read, []

            def read(start_ms: int, end_ms: int) -> Capture:
                if not edited:  # after the batch's fingerprints, before the first read
                    commit(path, EDIT)
                    edited.append(True)
                return real(start_ms, end_ms)

            src.read = read  # type: ignore[method-assign]
            served = compile_windows_cached(src, MANY, Options(), cache)
        assert edited
        return [d for d, _ in _served(served)]

    _no_stale_after_undo(path, cache, racing, fill=False)


@pytest.fixture
def quick_busy_wait(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(base, "BUSY_TIMEOUT_S", 0.2)  # 5 s outside tests
    yield


@pytest.mark.usefixtures("quick_busy_wait")
@pytest.mark.parametrize("where", ["before the batch", "in the batch"])
def test_a_locked_store_says_try_again_in_one_line(tmp_path: Path, where: str) -> None:
    path = _store(tmp_path / "store.db")
    holder = sqlite3.connect(path, isolation_level=None)
    assert holder.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
    src = open_source(path)  # opened before the lock: the batch meets it
    assert isinstance(src, ScreenpipeSource)
    batch = src.fingerprints
    try:
        if where == "before the batch":
            holder.execute("BEGIN EXCLUSIVE")
        else:

            def locking_first(windows: list[tuple[int, int]]) -> list[str | None]:
                holder.execute("BEGIN EXCLUSIVE")
                return batch(windows)

            src.fingerprints = locking_first  # type: ignore[method-assign]
        with pytest.raises(BusyError) as err, base.reading(path):
            compile_windows_cached(src, MANY, Options(), DocCache(tmp_path / "c"))
        assert str(err.value) == f"{path}: locked by another process; try again"
        assert holder.in_transaction
        holder.execute("ROLLBACK")
        src.fingerprints = batch  # type: ignore[method-assign]
        served = compile_windows_cached(src, MANY, Options(), DocCache(tmp_path / "c"))
        assert [d for d, _ in _served(served)] == [_fresh(path, w) for w in MANY]
    finally:
        src.close()
        holder.close()


def test_a_broken_row_is_reported_as_one_at_a_time(tmp_path: Path) -> None:
    path = _store(tmp_path / "store.db")
    commit(path, "UPDATE frames SET app_name = x'00ff' WHERE id = 4")
    commit(path, f"UPDATE frames SET timestamp = '{DAY} not a time' WHERE id = 6")
    with open_source(path) as src:
        many = _served(compile_windows_cached(src, MANY, Options(), DocCache(tmp_path / "a")))
    with open_source(path) as src:
        one = _served(compile_windows_one_by_one(src, DocCache(tmp_path / "b")))
    assert many == one and many[1][0] == _fresh(path, MANY[1])
    rejected = json.loads(many[1][0])["rejected_rows"]  # the day names the row it rejects
    assert rejected == [
        {"table": "frames", "reason": "not an ISO-8601 timestamp", "count": 1, "rows": "6"}
    ]


@settings(max_examples=10, deadline=None)
@given(ops)
def test_steps_fingerprints_of_many_days_equal_each_day_alone(steps: list[tuple[Any, ...]]) -> None:
    """Routines' day fingerprints (``sources.actions.steps_fingerprints``), the days shared
    between two connections: each the string of that day fingerprinted alone."""
    with tempfile.TemporaryDirectory() as tmp:
        path = _store(Path(tmp) / "store.db")
        writer = sqlite3.connect(path)
        try:
            for op in [None, *steps]:
                if op is not None:
                    _apply(writer, op)
                alone = [steps_fingerprints(path, "screenpipe", [b])[0] for b in BOUNDS]
                assert steps_fingerprints(path, "screenpipe", BOUNDS) == alone, op
        finally:
            writer.close()


def test_steps_fingerprints_share_the_days_between_two_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _store(tmp_path / "store.db")
    alone = [steps_fingerprints(path, "screenpipe", [b])[0] for b in BOUNDS]
    opened: list[set[tuple[int, bool]]] = []
    real = screenpipe_steps_fingerprint.connect_ro

    def traced(p: Path, check_same_thread: bool = True) -> sqlite3.Connection:
        conn = real(p, check_same_thread)
        caller, seen = threading.get_ident(), set[tuple[int, bool]]()
        opened.append(seen)
        n = len(opened)

        def trace(sql: str) -> None:  # a fingerprint's query: on which thread
            if "json_group_array" in sql:
                seen.add((n, threading.get_ident() != caller))

        conn.set_trace_callback(trace)
        return conn

    monkeypatch.setattr(screenpipe_steps_fingerprint, "connect_ro", traced)
    real_day = screenpipe_steps_fingerprint._fingerprint
    monkeypatch.setattr(screenpipe_steps_fingerprint, "_fingerprint", _meeting(real_day))
    assert steps_fingerprints(path, "screenpipe", BOUNDS) == alone
    # Two connections, each used by one thread: the caller's and another.
    assert len(opened) == 2 and all(len(seen) == 1 for seen in opened)
    assert {next(iter(seen))[1] for seen in opened} == {False, True}
    monkeypatch.setattr(screenpipe_steps_fingerprint, "_fingerprint", real_day)
    monkeypatch.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 1)
    opened.clear()
    assert steps_fingerprints(path, "screenpipe", BOUNDS) == alone and len(opened) == 1
