"""The named constants of compilation. SPEC.md documents each; options override them."""

from __future__ import annotations

from dataclasses import dataclass

DWELL_CAP_MS = 90_000  # most credit one snapshot row earns
SESSION_GAP_MS = 300_000  # a larger gap between rows closes the frame: user away
FLICKER_MS = 20_000  # A -> B -> A folds when the time away from A is at most this
GAP_LIST_MIN_MS = 300_000  # gaps and away periods at least this long are listed
MAX_FRAME_TITLES = 20  # distinct titles kept per frame (first seen first)


@dataclass(frozen=True, slots=True)
class Rules:
    """The constants of compilation an option may override."""

    dwell_cap_ms: int = DWELL_CAP_MS
    session_gap_ms: int = SESSION_GAP_MS
    flicker_ms: int = FLICKER_MS
