"""``render_future``: the rendering a server's event loop awaits (one thread hop) is the
one ``render`` returns, kept with its document, and a failure reaches the awaiting side."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from actframes.api import open_store
from actframes.compile.document import Doc
from actframes.emit.context import to_context
from actframes.errors import ActframesError
from actframes.model import Snapshot
from actframes.resident import ResidentCache
from actframes.simulate import SimDay, write_screenpipe
from actframes.window import day_window

DAY, TZ = "2026-03-10", "UTC"
T0 = 1_773_133_200_000  # 2026-03-10T09:00:00Z
WINDOW = day_window(DAY, TZ)


def _store(tmp_path: Path) -> Path:
    snaps = [Snapshot(i + 1, T0 + i * 9_000, ("Code", "Slack")[i % 2], f"t{i}") for i in range(40)]
    return write_screenpipe(tmp_path / "s.db", SimDay(DAY, TZ, ("",), snaps, [], []))


def test_the_future_holds_what_render_returns_made_in_the_store_thread(tmp_path: Path) -> None:
    cache = ResidentCache(_store(tmp_path))
    threads: list[str] = []

    def block(doc: Doc) -> str:
        threads.append(threading.current_thread().name)
        return to_context(doc, 800)

    try:
        first = cache.render_future(WINDOW, None, ("context", 800), block).result()
        assert first == to_context(cache.document(WINDOW), 800)
        # Kept with the document: the same object, not made again.
        assert cache.render(WINDOW, None, ("context", 800), block) is first
        assert cache.render_future(WINDOW, None, ("context", 800), block).result() is first
        assert threads and all(t.startswith("actframes-store") for t in threads)
        assert len(threads) == 1
    finally:
        cache.close()


def test_a_failure_is_raised_by_the_future(tmp_path: Path) -> None:
    cache = ResidentCache(tmp_path / "absent.db")
    try:
        future = cache.render_future(WINDOW, None, "x", lambda d: d)
        with pytest.raises(ActframesError, match=r"absent\.db"):
            future.result()
    finally:
        cache.close()


def test_a_one_shot_store_answers_with_a_done_future(tmp_path: Path) -> None:
    path = _store(tmp_path)
    with open_store(path, disk_cache=False) as store:
        future = store.render_future(WINDOW, None, "n", lambda d: len(d["frames"]))
        assert future.done()
        assert future.result() == len(store.compile(WINDOW)["frames"]) > 0
    with open_store(tmp_path / "absent.db", disk_cache=False) as store:
        failed = store.render_future(WINDOW, None, "n", lambda d: d)
        assert failed.done()
        with pytest.raises(ActframesError, match=r"absent\.db"):
            failed.result()
