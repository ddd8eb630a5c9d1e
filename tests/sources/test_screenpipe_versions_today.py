"""Incremental today on screenpipe databases of every schema version and set-up, written
as screenpipe writes them (screenpipe_versions.py): a resident cache answers from the
rows appended after its cut (its settled mark made in halves on two connections), and
every answer is the fresh compile's bytes — after appends, after an edit of a row long
before the cut, and after appends again."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.emit.json_out import to_json
from actframes.resident import ResidentCache

from ..tail_days import T0, WINDOW, fresh
from .screenpipe_versions import FEB_2026, Store, make_day, upper_first_app, write_day
from .test_screenpipe_versions import SETUPS

HOUR = 3_600_000


def _write(store: Store, seed: int, start_ms: int, setup: str, step: int) -> None:
    """The day of ``seed`` from ``start_ms``: one seed, the same apps, so the rows after
    a cut bring no input column the earlier read lacked (the splice would decline)."""
    day = make_day(seed=seed, start_ms=start_ms)
    write_day(store, day, setup, step)
    if store.version >= FEB_2026:
        store.write_input(day)
        store.conn.commit()


@pytest.mark.parametrize(("name", "version", "setup", "step"), SETUPS, ids=[s[0] for s in SETUPS])
def test_today_from_the_tail_on_every_schema(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    version: str,
    setup: str,
    step: int,
) -> None:
    # Two reading connections for the mark, whatever this machine has.
    monkeypatch.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 2)
    store = Store(tmp_path / "db.sqlite", version)
    _write(store, len(name), T0 - 3 * HOUR, setup, step)  # 06:00Z: rows in both halves
    cache = ResidentCache(store.path)
    try:
        assert to_json(cache.document(WINDOW)) == fresh(store.path)
        _write(store, len(name), T0, setup, step)  # 09:00Z on: appended after the cut
        assert to_json(cache.document(WINDOW)) == fresh(store.path)
        assert cache.stats["tail"] == 1  # the tail read, not the whole day

        upper_first_app(store.path)  # a row hours before any cut
        assert to_json(cache.document(WINDOW)) == fresh(store.path)
        assert cache.stats["tail"] == 1  # the mark saw the edit: the day was read whole

        _write(store, len(name), T0 + 3 * HOUR, setup, step)
        assert to_json(cache.document(WINDOW)) == fresh(store.path)
        assert cache.stats["tail"] == 2
    finally:
        cache.close()
        store.close()
