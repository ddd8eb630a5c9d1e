"""When the recorder writes a snapshot row: a pure decision with an injected clock.

Reasons, in the order they are checked:

- ``focus``   — another window (or app) has the focus;
- ``title``   — the focused window's title changed;
- ``url``     — the browser's URL changed;
- ``click``   — a click happened since the last row (its elements resolve the click);
- ``typing``  — keys were typed since the last row and none for ``typing_pause_ms``;
- ``heartbeat`` — nothing written for ``heartbeat_ms`` on a static screen.

Never more than ``max_rows`` rows in any ``rate_window_ms``: a change seen while the
budget is spent waits for the next free slot and is then written once, in its latest
state. Rows keep the time the change was *seen* (so input that followed it is attributed
to the new window), never earlier than the previous row.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

HEARTBEAT_MS = 30_000
TYPING_PAUSE_MS = 1_000
MAX_ROWS = 5
RATE_WINDOW_MS = 1_000


@dataclass(frozen=True, slots=True)
class View:
    """What the screen shows, as far as snapshots are concerned."""

    window: int  # X window id (0: none)
    app: str
    title: str
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    reason: str
    ts_ms: int  # the row's timestamp


class SnapshotPolicy:
    def __init__(
        self,
        heartbeat_ms: int = HEARTBEAT_MS,
        typing_pause_ms: int = TYPING_PAUSE_MS,
        max_rows: int = MAX_ROWS,
        rate_window_ms: int = RATE_WINDOW_MS,
    ) -> None:
        if heartbeat_ms <= 0 or typing_pause_ms <= 0 or max_rows <= 0 or rate_window_ms <= 0:
            raise ValueError("snapshot intervals and rates must be positive")
        self.heartbeat_ms = heartbeat_ms
        self.typing_pause_ms = typing_pause_ms
        self.max_rows = max_rows
        self.rate_window_ms = rate_window_ms
        self.last: View | None = None
        self.last_ts: int | None = None
        self._recent: deque[int] = deque(maxlen=max_rows)  # write times of the latest rows
        self._last_key: int | None = None
        self._keys_since_row = False
        self._click_since_row = False

    # ------------------------------------------------------------------ input

    def on_key(self, ts_ms: int) -> None:
        self._last_key = ts_ms if self._last_key is None else max(self._last_key, ts_ms)
        self._keys_since_row = True

    def on_click(self, ts_ms: int) -> None:
        self._click_since_row = True

    # ------------------------------------------------------------------ decisions

    def reason(self, now_ms: int, view: View) -> str | None:
        """Why a row is due now, ignoring the rate limit (None: nothing to write)."""
        last = self.last
        if last is None or view.window != last.window or view.app != last.app:
            return "focus"
        if view.title != last.title:
            return "title"
        if view.url != last.url:
            return "url"
        if self._click_since_row:
            return "click"
        if (
            self._keys_since_row
            and self._last_key is not None
            and now_ms - self._last_key >= self.typing_pause_ms
        ):
            return "typing"
        if self.last_ts is not None and now_ms - self.last_ts >= self.heartbeat_ms:
            return "heartbeat"
        return None

    def free_at(self) -> int:
        """The earliest write time the rate limit allows."""
        if len(self._recent) < self.max_rows:
            return 0
        return self._recent[0] + self.rate_window_ms

    def decide(self, now_ms: int, view: View, seen_ms: int | None = None) -> Decision | None:
        """The row to write now, if any. ``seen_ms``: when the current view was first seen."""
        why = self.reason(now_ms, view)
        if why is None or now_ms < self.free_at():
            return None
        ts = now_ms
        if why in ("focus", "title", "url") and seen_ms is not None:
            ts = min(seen_ms, now_ms)
        if self.last_ts is not None:
            ts = max(ts, self.last_ts)
        return Decision(why, ts)

    def written(self, decision: Decision, view: View, now_ms: int) -> None:
        """Tell the policy a row was written (``now_ms``: when it was written)."""
        self.last = view
        self.last_ts = decision.ts_ms
        self._recent.append(now_ms)
        self._click_since_row = False
        self._keys_since_row = False

    def next_due_ms(self, now_ms: int, view: View | None = None) -> int:
        """The latest time to look again without new input or screen changes."""
        if view is not None and self.reason(now_ms, view) is not None:
            return max(now_ms, self.free_at())  # due now, or when the rate limit frees
        due = now_ms + self.heartbeat_ms
        if self.last_ts is not None:
            due = self.last_ts + self.heartbeat_ms
        if self._keys_since_row and self._last_key is not None:
            due = min(due, self._last_key + self.typing_pause_ms)
        if self._click_since_row:
            due = now_ms
        return max(due, self.free_at(), now_ms)
