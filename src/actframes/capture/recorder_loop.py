"""The loop every recorder backend runs, one tick at a time: the pause flag, looking at the
focused window again when it changed, a browser's address, input into rows, AFK, the
snapshot the policy asks for, retention, the commit, then sleeping in ``select`` on the
backend's connection and the wake pipe until something happens or is due.

A backend (``recorder`` for X11, ``wayland_recorder``) supplies only what differs: what
is focused (``_look``), whether it changed (``_focus_changed``), where idle comes from
(``_idle_step``, ``_idle_due_ms``), when its input counter is lost (``_check_counter``)
and how its connection is read (``_sleep_s``, ``_dispatch``).
"""

from __future__ import annotations

import contextlib
import os
import select
from typing import Any

from .focus import Seen, poll_url
from .idle import IdleTracker
from .recorder_core import (
    PAUSE_POLL_MS,
    RETENTION_EVERY_MS,
    TICK_MS,
    URL_POLL_MS,
    PressCounter,
    RecorderCore,
)
from .row_writer import AFK_UPDATE_MS
from .xrecord import Press


class RecorderLoop(RecorderCore):
    """``RecorderCore`` with the shared ``_loop``; a backend supplies its hooks below."""

    def _loop(self, screen: Any, counter: Any, a11y: Any, wake_r: int) -> None:
        policy = self._policy
        start = self.clock()
        # Idle time before the recorder started is not recorded: with no input, an AFK
        # period begins (back-dated) at the start, never before it.
        idle = self._idle = IdleTracker(self.cfg.idle_ms, last_input_ms=start)
        self._begin(screen, start)
        self._seen = self._prev = self._look(screen, a11y, start, None)
        watch_urls = self._watches_urls(a11y)
        next_url_poll = start + URL_POLL_MS
        next_pause_check = start
        next_retention = start + RETENTION_EVERY_MS
        last_bar: str | None = None
        fd = screen.fileno()
        dirty = False
        while not self._stop:
            now = self.clock()
            # -- pause
            if self._check_pause or now >= next_pause_check:
                self._check_pause = False
                next_pause_check = now + PAUSE_POLL_MS
                if self._read_pause() != self.paused:
                    self._toggle_pause(idle, now)
                    dirty = True
            # -- focus and title
            if self._focus_changed(screen, now) or dirty:
                dirty = False
                self._commit(now, force=self._pending)  # looking may block on AT-SPI
                if self._relook(screen, a11y, now):
                    last_bar = None
            # -- a browser's address can change without a title change
            seen = self._seen
            if (
                watch_urls
                and seen.browser
                and not seen.private
                and now >= next_url_poll
                and self._polls_url()
            ):
                next_url_poll = now + URL_POLL_MS
                bar = poll_url(self.cfg, a11y, seen)
                # An address taken from the address bar lacks its scheme (Chromium hides
                # it); look again until the page's document gives the full URL.
                partial = seen.view.url is not None and "://" not in seen.view.url
                if bar is not None and (bar != last_bar or partial):
                    if last_bar is not None or partial:
                        self._commit(now, force=self._pending)
                        self._relook(screen, a11y, now)
                    last_bar = bar
            # -- input and idle
            presses = self._drain(counter, now)
            self._check_counter(counter)
            self._idle_step(screen, presses, counter.last_input_ms, now)
            view = self._seen.view
            again, settle = self._snapshot_step(now, policy, a11y)
            dirty = dirty or again
            if self.cfg.keep_days and now >= next_retention:
                next_retention = now + RETENTION_EVERY_MS
                self._prune()
            self._commit(now)
            # -- sleep until something happens or is due
            due = min(policy.next_due_ms(now, view), next_pause_check)
            idle_due = self._idle_due_ms(now)
            if idle_due is not None:
                due = min(due, idle_due)
            busy = dirty or self._elements_job is not None or self._reading_text()
            if self._pending or self._runs or busy or self._ticks():
                due = min(due, now + TICK_MS)
            if watch_urls and self._seen.browser and not self._seen.private:
                due = min(due, next_url_poll)
            if self._afk_row is not None:
                due = min(due, self._last_commit + AFK_UPDATE_MS)
            if now < settle:
                due = min(due, settle)
            timeout = self._sleep_s(screen, max(0, due - now) / 1000)
            counter.wake_wanted = timeout > TICK_MS / 1000
            try:
                ready, _, _ = select.select([fd, wake_r], [], [], timeout)
            except InterruptedError:
                ready = []
            if fd in ready:
                self._dispatch(screen)
            if wake_r in ready:
                with contextlib.suppress(OSError):
                    os.read(wake_r, 512)

    def _relook(self, screen: Any, a11y: Any, now: int) -> bool:
        """Look at the focused window again; True when what is recorded changed."""
        assert self._seen is not None
        new = self._look(screen, a11y, now, self._seen)
        if new is self._seen:
            return False
        self._prev, self._seen = self._seen, new
        return True

    # ------------------------------------------------------------------ the backend's hooks

    def _begin(self, screen: Any, start: int) -> None:
        """Before the first tick: the backend's own loop state."""

    def _look(self, screen: Any, a11y: Any, now: int, current: Seen | None) -> Seen:
        """What is focused now, after the privacy rules."""
        raise NotImplementedError

    def _focus_changed(self, screen: Any, now: int) -> bool:
        """Whether the focused window or its title may have changed since the last tick."""
        raise NotImplementedError

    def _watches_urls(self, a11y: Any) -> bool:
        """Whether a focused browser's address is polled at all."""
        return True

    def _polls_url(self) -> bool:
        """Whether the address is polled this tick (it is due)."""
        return True

    def _check_counter(self, counter: PressCounter) -> None:
        """Raise when the input counter is lost."""

    def _idle_step(self, screen: Any, presses: list[Press], last_input_ms: int, now: int) -> None:
        """Start or end an away period (``self._idle``) from this tick's input (``presses``,
        the counter's ``last_input_ms``) or the backend's notices."""
        raise NotImplementedError

    def _idle_due_ms(self, now: int) -> int | None:
        """When idle must be looked at next, or None when the backend is told."""
        return self._idle.next_check_ms(now)

    def _ticks(self) -> bool:
        """Whether the loop must wake every tick (something is polled, not told)."""
        return False

    def _sleep_s(self, screen: Any, due_s: float) -> float:
        """How long to sleep: ``due_s``, or 0 when the connection holds events already."""
        return due_s

    def _dispatch(self, screen: Any) -> None:
        """The connection is readable."""
