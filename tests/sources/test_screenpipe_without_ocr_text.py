"""A store upgraded past screenpipe's 2026-06-13 migration `unify_ocr_text_into_frames`
(upstream 92306daef, 2026-06-15, v2.5.41): ``ocr_text`` is dropped, its app, window and
focus copied onto ``frames`` where they were NULL, and ``frames.text_json`` added. The
day reads as before, from the document and from the tail (SPEC.md §1.2a)."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.api import compile_path
from actframes.emit.json_out import to_json
from actframes.resident import ResidentCache

from ..tail_days import T0 as TAIL_T0
from ..tail_days import WINDOW, fresh
from .screenpipe_versions import NEWEST, Store, make_day, write_day
from .test_screenpipe_versions import DAY, T0, assert_input, assert_time

HOUR = 3_600_000


UNIFY = "2026-06-13.130000"  # the migration's entry in screenpipe_versions._MIGRATIONS


@pytest.mark.parametrize("setup", ["single", "two_monitors"])
def test_day_reads_the_same_without_ocr_text(tmp_path: Path, setup: str) -> None:
    day = make_day(seed=7, start_ms=T0)
    store = Store(tmp_path / "db.sqlite", NEWEST)
    truth = write_day(store, day, setup, 30_000)
    store.write_input(day)
    store.conn.commit()
    before = compile_path(store.path, DAY, "UTC")
    store.upgrade(UNIFY)
    store.close()
    after = compile_path(store.path, DAY, "UTC")
    assert_time(after, truth)
    assert_input(after, day)
    assert after["frames"] == before["frames"]


def test_today_from_the_tail_without_ocr_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 2)
    store = Store(tmp_path / "db.sqlite", NEWEST)
    first = make_day(seed=3, start_ms=TAIL_T0 - 3 * HOUR)
    write_day(store, first, "two_monitors", 30_000)
    store.write_input(first)
    store.upgrade(UNIFY)
    cache = ResidentCache(store.path)
    try:
        assert to_json(cache.document(WINDOW)) == fresh(store.path)
        later = make_day(seed=3, start_ms=TAIL_T0)
        write_day(store, later, "two_monitors", 30_000)
        store.write_input(later)
        store.conn.commit()
        assert to_json(cache.document(WINDOW)) == fresh(store.path)
        assert cache.stats["tail"] == 1
    finally:
        cache.close()
        store.close()
