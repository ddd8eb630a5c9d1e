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


class CommitAfterFingerprints:
    """Within ``with``: a real writer commits right after the days' fingerprints are
    taken, before their steps are read (``arm(write)``, for the next call only): the race
    in which a kept day must not keep its steps under the older fingerprint."""

    def __init__(self) -> None:
        from actframes.sources import actions as store_actions

        self._module = store_actions
        self._real = store_actions.steps_fingerprints
        self._pending: list[Callable[[], None]] = []

    def _fingerprints_then_commit(self, path: Path, fam: str, spans: Any) -> list[str | None]:
        got: list[str | None] = self._real(path, fam, spans)
        if spans:  # a call that reads days
            self.flush()
        return got

    def __enter__(self) -> CommitAfterFingerprints:
        self._module.steps_fingerprints = self._fingerprints_then_commit  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        self._module.steps_fingerprints = self._real  # type: ignore[assignment]

    def arm(self, write: Callable[[], None]) -> None:
        self._pending.append(write)

    def landed(self) -> bool:
        return not self._pending

    def flush(self) -> None:
        """Commit what is armed now."""
        while self._pending:
            self._pending.pop(0)()
