"""What the resident-routines property tests of every store family share: the rules, the
change instants, and the check that days kept by fingerprint mine the bytes of a cold
mining after every change a writer makes."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from actframes.resident_routines import ResidentRoutines
from actframes.routines.mine import Rules
from actframes.routines.store_mining import Mining, mine_store, window_of
from actframes.sources.watch import StoreWatch

RULES = Rules(min_occurrences=2, min_specific=0, against_chance=False)

# Seconds into a local day where a change lands: the day's edges and its read margins.
EDGE = st.sampled_from([0, 1, 240, 299, 301, 3_600, 86_100, 86_399]) | st.integers(0, 86_399)


def mining_bytes(m: Mining) -> tuple[str, list[object]]:
    return json.dumps(m.routines, ensure_ascii=False), list(m.steps)


def cold(path: Path, days: int, tz: str, until: str) -> tuple[str, list[object]]:
    start, end = window_of(tz, days, until)
    return mining_bytes(mine_store(path, None, tz, start, end, RULES))


def warm(kept: ResidentRoutines, days: int, tz: str, until: str) -> tuple[str, list[object]]:
    start, end = window_of(tz, days, until)
    return mining_bytes(kept.mining(tz, start, end, RULES))


def kept_follow_every_change(
    path: Path, tz: str, until: str, change: Callable[..., None], changes: Iterable[tuple[Any, ...]]
) -> None:
    """Warm equals cold (over 3 days and 2, asked twice) before any change and after each."""
    watch = StoreWatch(path)
    kept = ResidentRoutines(path, None, lambda: watch.token())
    try:
        for days in (3, 2):
            assert warm(kept, days, tz, until) == cold(path, days, tz, until)
        for c in changes:
            change(*c)
            for days in (3, 2):
                assert warm(kept, days, tz, until) == cold(path, days, tz, until)
                assert warm(kept, days, tz, until) == cold(path, days, tz, until)
    finally:
        watch.close()
