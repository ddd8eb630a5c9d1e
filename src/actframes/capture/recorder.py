"""The X11 recorder: watch the focused window, count input, mark AFK, write rows.

XRecord counts input in a thread of its own; the main thread sleeps in ``select`` on the
X connection and a signal pipe, so it wakes for focus and title changes as they happen
and otherwise a few times a second to drain input counts. What every backend shares (the
run, signals, pause, the rows) is in ``recorder_core`` and ``row_writer``; what the
focused window is, after the privacy rules, in ``focus``.
"""

from __future__ import annotations

import contextlib
import os
import select
from typing import Any

from .focus import Seen, look_x11, poll_url
from .idle import IdleTracker
from .recorder_core import (
    PAUSE_POLL_MS,
    RETENTION_EVERY_MS,
    TICK_MS,
    URL_POLL_MS,
    RecorderCore,
)
from .row_writer import AFK_UPDATE_MS
from .x11 import X11Screen
from .x11_session import SessionError, session_check
from .xrecord import InputCounter

IDLE_POLL_MS = 1_000  # how often the X server's idle counter is read
X_IDLE_JITTER_MS = 250  # the X idle counter must move by more than this to count as input


class Recorder(RecorderCore):
    BACKEND = "x11"

    def _record_screen_size(self, screen: X11Screen) -> None:
        """Click resolution scales its tolerance by the screen's size: write it down
        (meta ``screen:<device>`` = ``WxH``; the recorder's one stream is device "")."""
        geo = screen.d.screen()
        size = f"{int(geo.width_in_pixels)}x{int(geo.height_in_pixels)}"
        assert self._conn is not None
        with self._conn:
            self._conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", ("screen:", size)
            )

    # ------------------------------------------------------------------ the session

    def _check_session(self) -> None:
        warning = session_check({**self.env, "DISPLAY": self.display})
        if warning:
            self.log(warning)
        self._wayland = warning is not None

    def _connect(self, wake_w: int) -> tuple[Any, Any, Any]:
        """(screen, input counter, accessibility or None), connected and started."""
        screen = X11Screen(self.display)
        try:
            self._record_screen_size(screen)
            counter = InputCounter(self.display, self.clock, wake_fd=wake_w)
        except BaseException:
            screen.close()
            raise
        counter.start()
        a11y = self._connect_a11y(screen) if self.cfg.accessibility else None
        return screen, counter, a11y

    def _session_notes(self, screen: Any, counter: Any, a11y: Any) -> dict[str, Any]:
        """What the session's ``start`` row says about it (``record status`` shows it)."""
        return {
            "display": self.display,
            "wm": screen.wm_running(),
            "accessibility": a11y is not None,
            "wayland": self._wayland,
        }

    def _start_message(self, detail: dict[str, Any]) -> str:
        return (
            f"recording {self.display} into {self.db} (window manager: "
            f"{'yes' if detail['wm'] else 'no, using the input focus'}; accessibility: "
            f"{'yes' if detail['accessibility'] else 'no'})"
        )

    def _connect_a11y(self, screen: X11Screen) -> Any:
        try:
            from .atspi import A11yUnavailable, Accessibility, session_bus_a11y_address
        except ImportError:
            self.log("dbus-fast is not installed: no accessibility (elements, browser URLs)")
            return None

        address = screen.atspi_bus_address() or session_bus_a11y_address(self.env)
        if not address:
            self.log(
                "no accessibility bus (AT-SPI): no elements, browser URLs or Chromium "
                "incognito detection from accessibility"
            )
            return None
        try:
            return Accessibility(address)
        except A11yUnavailable as exc:
            self.log(f"{exc}: going on without accessibility")
            return None

    # ------------------------------------------------------------------ the loop

    def _loop(self, screen: X11Screen, counter: InputCounter, a11y: Any, wake_r: int) -> None:
        policy = self._policy
        has_wm = screen.wm_running()
        start = self.clock()
        # Idle time before the recorder started is not recorded: with no input, an AFK
        # period begins (back-dated) at the start, never before it.
        idle = IdleTracker(self.cfg.idle_ms, last_input_ms=start)
        self._seen = self._prev = self._look(screen, a11y, has_wm, start, None)
        next_idle_poll = start
        next_url_poll = start + URL_POLL_MS
        next_pause_check = start
        next_wm_check = start + 10_000
        next_retention = start + RETENTION_EVERY_MS
        last_bar: str | None = None
        xfd = screen.fileno()
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
            # -- the window manager may start (or stop) after the recorder
            if now >= next_wm_check:
                next_wm_check = now + 10_000
                wm = screen.wm_running()
                if wm != has_wm:
                    has_wm, dirty = wm, True
            # -- focus and title
            if screen.drain_events():
                dirty = True
            if not has_wm and not self.paused:
                known = self._seen.info.window if self._seen.info else 0
                if screen.focused_window(False) != known:
                    dirty = True
            if dirty:
                dirty = False
                self._commit(now, force=self._pending)  # looking may block on AT-SPI
                if self._relook(screen, a11y, has_wm, now):
                    last_bar = None
            # -- a browser's address can change without a title change
            seen = self._seen
            if seen.browser and not seen.private and now >= next_url_poll and not idle.afk:
                next_url_poll = now + URL_POLL_MS
                bar = poll_url(self.cfg, a11y, seen)
                # An address taken from the address bar lacks its scheme (Chromium hides
                # it); look again until the page's document gives the full URL.
                partial = seen.view.url is not None and "://" not in seen.view.url
                if bar is not None and (bar != last_bar or partial):
                    if last_bar is not None or partial:
                        self._commit(now, force=self._pending)
                        self._relook(screen, a11y, has_wm, now)
                    last_bar = bar
            # -- input
            presses = self._drain(counter, now)
            if counter.failed or not counter.alive():
                raise SessionError(
                    f"lost the X11 display {self.display} (the input counter stopped: "
                    f"{counter.failed or 'ended'})"
                )
            # -- idle: input counts from XRecord, pointer motion from the server's counter
            last_input = counter.last_input_ms
            if now >= next_idle_poll:
                next_idle_poll = now + IDLE_POLL_MS
                x_idle = screen.idle_ms()
                # The server's idle counter and our clock disagree by a millisecond or
                # two from one reading to the next; only a clear step forward is input.
                if x_idle is not None and now - x_idle > idle.last_input_ms + X_IDLE_JITTER_MS:
                    last_input = max(last_input, now - x_idle)
            if presses:
                last_input = max(last_input, presses[-1].ts_ms)
            if not self.paused:
                self._afk_step(idle.update(now, last_input), now)
            view = self._seen.view
            again, settle = self._snapshot_step(now, policy, a11y)
            dirty = dirty or again
            if self.cfg.keep_days and now >= next_retention:
                next_retention = now + RETENTION_EVERY_MS
                self._prune()
            self._commit(now)
            # -- sleep until something happens or is due
            due = min(policy.next_due_ms(now, view), idle.next_check_ms(now), next_pause_check)
            if self._pending or self._runs or self._elements_job or not has_wm or dirty:
                due = min(due, now + TICK_MS)
            if self._seen.browser and not self._seen.private:
                due = min(due, next_url_poll)
            if self._afk_row is not None:
                due = min(due, self._last_commit + AFK_UPDATE_MS)
            if now < settle:
                due = min(due, settle)
            timeout = max(0, due - now) / 1000
            if screen.d.pending_events():
                timeout = 0.0  # events already read off the socket by an earlier request
            counter.wake_wanted = timeout > TICK_MS / 1000
            try:
                ready, _, _ = select.select([xfd, wake_r], [], [], timeout)
            except InterruptedError:
                ready = []
            if wake_r in ready:
                with contextlib.suppress(OSError):
                    os.read(wake_r, 512)

    def _relook(self, screen: X11Screen, a11y: Any, has_wm: bool, now: int) -> bool:
        """Look at the focused window again; True when what is recorded changed."""
        assert self._seen is not None
        new = self._look(screen, a11y, has_wm, now, self._seen)
        if new is self._seen:
            return False
        self._prev, self._seen = self._seen, new
        return True

    def _look(
        self, screen: X11Screen, a11y: Any, has_wm: bool, now: int, current: Seen | None
    ) -> Seen:
        """What is focused now, after the privacy rules."""
        return look_x11(
            self.cfg, screen, a11y, has_wm, now, current, paused=self.paused, wayland=self._wayland
        )
