"""Away-from-keyboard (AFK) detection: a small pure state machine.

The recorder feeds it the time of the last input it knows of (keys, clicks and scrolls
from XRecord, pointer motion from the X server's own idle counter) and the current time.
No input for ``threshold_ms`` starts an AFK period, *back-dated to the last input*: the
user left when they last touched the machine, not when the threshold ran out. The next
input ends it at that input's time. Times are integer milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_IDLE_MS = 180_000


@dataclass(frozen=True, slots=True)
class AfkStarted:
    start_ms: int


@dataclass(frozen=True, slots=True)
class AfkEnded:
    start_ms: int
    end_ms: int


Transition = AfkStarted | AfkEnded


class IdleTracker:
    def __init__(self, threshold_ms: int = DEFAULT_IDLE_MS, *, last_input_ms: int = 0) -> None:
        if threshold_ms <= 0:
            raise ValueError("the idle threshold must be positive")
        self.threshold_ms = threshold_ms
        self.last_input_ms = last_input_ms
        self.afk_since: int | None = None

    @property
    def afk(self) -> bool:
        return self.afk_since is not None

    def update(self, now_ms: int, last_input_ms: int | None = None) -> Transition | None:
        """Advance to ``now_ms`` knowing the last input was at ``last_input_ms``.

        Input times only move forward: an older value (a slower source reporting late)
        is ignored. Returns the transition this step caused, if any.
        """
        if last_input_ms is not None and last_input_ms > self.last_input_ms:
            self.last_input_ms = min(last_input_ms, now_ms)
        if self.afk_since is not None:
            if self.last_input_ms > self.afk_since:
                ended = AfkEnded(self.afk_since, self.last_input_ms)
                self.afk_since = None
                return ended
            return None
        if now_ms - self.last_input_ms >= self.threshold_ms:
            self.afk_since = self.last_input_ms
            return AfkStarted(self.afk_since)
        return None

    def reset(self, now_ms: int) -> AfkEnded | None:
        """Forget the past (after a pause): an open AFK period ends now, input counts from now."""
        ended = None
        if self.afk_since is not None:
            ended = AfkEnded(self.afk_since, max(now_ms, self.afk_since))
            self.afk_since = None
        self.last_input_ms = now_ms
        return ended

    def next_check_ms(self, now_ms: int) -> int:
        """When AFK could begin without any new input (for the recorder's sleep)."""
        if self.afk_since is not None:
            return now_ms + 1_000
        return max(now_ms, self.last_input_ms + self.threshold_ms)
