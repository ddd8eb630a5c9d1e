"""The named constants of compilation. SPEC.md documents each; options override them."""

from __future__ import annotations

from ..fast.records import FrozenRecord

DWELL_CAP_MS = 90_000  # most credit one snapshot row earns
SESSION_GAP_MS = 300_000  # a larger gap between rows closes the frame: user away
FLICKER_MS = 20_000  # A -> B -> A folds when the time away from A is at most this
GAP_LIST_MIN_MS = 300_000  # gaps and away periods at least this long are listed
MAX_FRAME_TITLES = 20  # distinct titles kept per frame (first seen first)


class Rules(FrozenRecord):
    """The constants of compilation an option may override."""

    __slots__ = _fields = ("dwell_cap_ms", "session_gap_ms", "flicker_ms")

    dwell_cap_ms: int
    session_gap_ms: int
    flicker_ms: int

    def __init__(
        self,
        dwell_cap_ms: int = DWELL_CAP_MS,
        session_gap_ms: int = SESSION_GAP_MS,
        flicker_ms: int = FLICKER_MS,
    ) -> None:
        init = object.__setattr__
        init(self, "dwell_cap_ms", dwell_cap_ms)
        init(self, "session_gap_ms", session_gap_ms)
        init(self, "flicker_ms", flicker_ms)


# coverage.unattributed_input.evidence lists at most this many ranges; past it, the word
# BY_QUERY stands there and the ids are found by query (SPEC.md §3, verify.unattributed_ids).
UNATTRIBUTED_MAX_RUNS = 1_000
BY_QUERY = "query"
