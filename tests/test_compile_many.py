"""``Store.compile_many`` (the library's many-window entry, used by the MCP tools that look
through many days): the documents ``compile`` gives one window at a time, on a one-shot
and on a resident store; a resident store takes the days it holds nowhere in memory from
the disk cache with their fingerprints taken at once, then serves them from memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.api import open_store
from actframes.emit.json_out import to_json
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.window import day_window

from .builders import commit
from .sources.test_screenpipe_fingerprint import CONTROL, DAY, TZ, _store

WINDOWS = [day_window(d, TZ) for d in ("2026-03-09", DAY, "2026-03-11", CONTROL)]


def _one_by_one(path: Path) -> list[str]:
    with open_store(path, disk_cache=False) as store:
        return [to_json(store.compile(w)) for w in WINDOWS]


@pytest.mark.parametrize("resident", [False, True])
def test_many_windows_are_the_documents_of_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, resident: bool
) -> None:
    monkeypatch.setenv("ACTFRAMES_CACHE", str(tmp_path / "cache"))
    path = _store(tmp_path / "store.db")
    batches: list[int] = []
    real = ScreenpipeSource.fingerprints

    def counted(self: ScreenpipeSource, windows: list[tuple[int, int]]) -> list[str | None]:
        batches.append(len(windows))
        return real(self, windows)

    monkeypatch.setattr(ScreenpipeSource, "fingerprints", counted)
    with open_store(path, resident=resident) as store:
        first = [to_json(d) for d in store.compile_many(WINDOWS)]
        assert first == _one_by_one(path)
        assert batches == [len(WINDOWS)]  # every window's fingerprint in one batch
        commit(path, "UPDATE frames SET window_name = 'edited' WHERE id = 3")
        again = [to_json(d) for d in store.compile_many(WINDOWS)]
    assert again == _one_by_one(path) and again[1] != first[1]
    if resident:
        # Held in memory since: after the edit, the kept days are checked in one batch of
        # their rows' fingerprints, and the days whose rows changed noted again in one more.
        assert batches[:2] == [len(WINDOWS)] * 2 and len(batches) == 3
        assert 1 <= batches[2] < len(WINDOWS)
    else:
        assert batches == [len(WINDOWS)] * 2
