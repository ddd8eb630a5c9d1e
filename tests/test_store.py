"""``api.open_store`` → ``Store``: the one service surface of the CLI, the MCP server, the
demo and the benches. On real stores of every simulated family it gives the bytes a fresh
compile gives, a resident store answers a second time without reading the store again,
and closing it (or leaving its ``with`` block) closes every SQLite handle it opened."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.api import Store, open_store
from actframes.compile.pipeline import Options, compile_capture
from actframes.emit.context import to_context
from actframes.emit.json_out import to_json
from actframes.errors import SourceError
from actframes.model import InputEvent, Snapshot
from actframes.simulate import SimDay, write_aw_export, write_native, write_screenpipe
from actframes.window import day_window, resolve

DAY, TZ = "2026-03-10", "UTC"
T0 = 1_773_133_200_000  # 2026-03-10T09:00:00Z
APPS = ["Code", "Slack", "Google Chrome"]
WRITERS: dict[str, Callable[[Path, list[SimDay]], Path]] = {
    "native": write_native,
    "screenpipe": write_screenpipe,
    "aw-export": write_aw_export,
}


@pytest.fixture(autouse=True)
def no_disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # The document cache on disk would answer a second compile too: these tests are
    # about the store and its memory.
    monkeypatch.setenv("ACTFRAMES_CACHE", "off")


def _day(n: int) -> SimDay:
    snaps = [Snapshot(i + 1, T0 + i * 7_000, APPS[i % 3], f"t{i % 4}") for i in range(n)]
    events = [InputEvent(k + 1, T0 + 500 + k * 3_000, "key", APPS[k % 2]) for k in range(n)]
    return SimDay(DAY, TZ, ("",), snaps, events, [])


def _store(tmp_path: Path, family: str, n: int = 60) -> Path:
    suffix = ".json" if family == "aw-export" else ".db"
    return WRITERS[family](tmp_path / f"{family}{suffix}", [_day(n)])


def _fresh(path: Path, window: Any, options: Options | None = None) -> str:
    """The document compiled straight from the reader, no Store in between."""
    from actframes.sources import open_source

    with open_source(path) as src:
        return to_json(compile_capture(src.read(window.start_ms, window.end_ms), window, options))


def _open_handles(path: Path) -> list[str]:
    """This process's open file descriptors on the store's files (the database, its WAL
    and shared-memory files)."""
    names = {str(path.resolve()), f"{path.resolve()}-wal", f"{path.resolve()}-shm"}
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target in names:
            found.append(target)
    return found


class _ReadCounter:
    """Counts the reads of the store's reader class (the real ``read`` still runs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
        from actframes.sources import open_source

        with open_source(path) as src:
            cls = type(src)
        real = cls.read
        self.calls = 0

        def read(source: Any, start_ms: int, end_ms: int) -> Any:
            self.calls += 1
            return real(source, start_ms, end_ms)

        monkeypatch.setattr(cls, "read", read)


@pytest.mark.parametrize("family", sorted(WRITERS))
@pytest.mark.parametrize("resident", [False, True], ids=["one-shot", "resident"])
def test_store_compiles_the_bytes_of_a_fresh_compile(
    tmp_path: Path, family: str, resident: bool
) -> None:
    path = _store(tmp_path, family)
    day = day_window(DAY, TZ)
    span = resolve(since=f"{DAY}T09:00", until=f"{DAY}T09:05", tz=TZ, now_ms=0)
    opts = Options(min_active_s=60)
    with open_store(path, resident=resident) as store:
        assert to_json(store.compile(day)) == _fresh(path, day)
        assert to_json(store.compile(span)) == _fresh(path, span)
        assert to_json(store.compile(day, opts)) == _fresh(path, day, opts)
        assert to_json(store.compile(day, cache=False)) == _fresh(path, day)
        doc = store.compile(day)
        assert doc["coverage"]["rows"] > 30 and doc["frames"]
        assert store.render(day, None, "ctx", lambda d: to_context(d, 300)) == to_context(doc, 300)
        cap, again = store.read_and_compile(day)
        assert to_json(again) == to_json(doc)
        assert store.read(span).snapshots and cap.snapshots


@pytest.mark.parametrize("family", sorted(WRITERS))
def test_a_resident_store_serves_the_second_compile_without_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, family: str
) -> None:
    path = _store(tmp_path, family)
    reads = _ReadCounter(monkeypatch, path)
    window = day_window(DAY, TZ)
    with open_store(path, resident=True) as store:
        first = store.compile(window)
        assert reads.calls == 1
        second = store.compile(window)
        assert second is first and reads.calls == 1
        assert store.resident is not None and store.resident.stats["served"] == 1
        # the context block is made once and kept with the document
        made: list[int] = []

        def make(d: Any) -> str:
            made.append(1)
            return to_context(d, 500)

        assert store.render(window, None, 500, make) == store.render(window, None, 500, make)
        assert len(made) == 1 and reads.calls == 1


def test_a_one_shot_store_reads_at_every_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _store(tmp_path, "native")
    reads = _ReadCounter(monkeypatch, path)
    with open_store(path) as store:
        store.compile(day_window(DAY, TZ))
        store.compile(day_window(DAY, TZ))
    assert reads.calls == 2


def test_a_resident_store_sees_a_new_row(tmp_path: Path) -> None:
    path = _store(tmp_path, "screenpipe")
    window = day_window(DAY, TZ)
    with open_store(path, resident=True) as store:
        before = store.compile(window)
        with sqlite3.connect(path) as conn:
            conn.execute("DELETE FROM frames WHERE id = (SELECT max(id) FROM frames)")
        conn.close()
        after = store.compile(window)
        assert after["coverage"]["rows"] == before["coverage"]["rows"] - 1
        assert to_json(after) == _fresh(path, window)


@pytest.mark.parametrize("family", ["native", "screenpipe"])
@pytest.mark.parametrize("resident", [False, True], ids=["one-shot", "resident"])
def test_closing_a_store_closes_its_connections(
    tmp_path: Path, family: str, resident: bool
) -> None:
    path = _store(tmp_path, family)
    window = day_window(DAY, TZ)
    assert _open_handles(path) == []
    store = open_store(path, resident=resident)
    store.compile(window)
    store.compile(window)
    store.comms(window)
    store.read(window)
    assert _open_handles(path)  # held open between questions
    store.close()
    assert _open_handles(path) == []
    store.close()  # twice is harmless


def test_leaving_the_with_block_on_an_error_closes_the_store(tmp_path: Path) -> None:
    path = _store(tmp_path, "native")
    with pytest.raises(RuntimeError), open_store(path, resident=True) as store:
        store.compile(day_window(DAY, TZ))
        raise RuntimeError("the caller failed")
    assert _open_handles(path) == []


def test_comms_steps_and_routines_through_the_store(tmp_path: Path) -> None:
    from actframes.compile.comms import communications
    from actframes.compile.pipeline import compile_pieces
    from actframes.routines.mine import Rules
    from actframes.routines.store_mining import window_of
    from actframes.sources import open_source

    path = _store(tmp_path, "native")
    window = day_window(DAY, TZ)
    with open_source(path) as src:
        doc, frames = compile_pieces(src.read(window.start_ms, window.end_ms), window, None)
    with open_store(path, resident=True) as store:
        assert to_json(store.comms(window)) == to_json(communications(doc, frames))
        frame = store.compile(window)["frames"][0]["id"]
        day, steps = store.steps(TZ, frame, DAY)
        assert day == DAY and isinstance(steps, list)
        start, end = window_of(TZ, 7, DAY)
        mined = store.routines(TZ, start, end, Rules())
        assert store.routines(TZ, start, end, Rules()) is mined  # unchanged store: kept


def test_a_missing_store_is_one_line_at_the_first_question(tmp_path: Path) -> None:
    store = Store(tmp_path / "nothing.db")
    with pytest.raises(SourceError) as info:
        store.compile(day_window(DAY, TZ))
    assert "nothing.db" in str(info.value) and "\n" not in str(info.value)
    store.close()


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    windows=st.lists(
        st.tuples(
            st.booleans(), st.integers(-3_600, 1_200), st.integers(1, 7_200), st.integers(0, 5)
        ),
        min_size=1,
        max_size=6,
    )
)
def test_any_sequence_of_windows_gives_fresh_bytes(
    tmp_path_factory: pytest.TempPathFactory, windows: list[tuple[bool, int, int, int]]
) -> None:
    """Whatever windows (whole days or spans) and options are asked, in whatever order
    and repetition, a resident store and a one-shot store answer with the bytes of a
    fresh compile."""
    path = _store(tmp_path_factory.mktemp("prop"), "screenpipe", 40)
    asked = [
        (
            day_window(DAY, TZ)
            if whole
            else resolve(
                since=_at(T0 + off * 1000), until=_at(T0 + (off + length) * 1000), tz=TZ, now_ms=0
            ),
            Options(min_active_s=m * 30),
        )
        for whole, off, length, m in windows
    ]
    with open_store(path, resident=True) as resident, open_store(path) as one_shot:
        for window, opts in asked + asked:
            fresh = _fresh(path, window, opts)
            assert to_json(resident.compile(window, opts)) == fresh
            assert to_json(one_shot.compile(window, opts)) == fresh


def _at(ms: int) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms // 1000, UTC).isoformat()
