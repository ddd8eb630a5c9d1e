"""The X11 recorder: watch the focused window, count input, mark AFK, write rows.

XRecord counts input in a thread of its own; the main thread sleeps in ``select`` on the
X connection and a signal pipe, so it wakes for focus and title changes as they happen
and otherwise a few times a second to drain input counts. What every backend shares (the
run, signals, pause, the rows, the loop) is in ``recorder_core``, ``row_writer`` and
``recorder_loop``; what the focused window is, after the privacy rules, in ``focus``.
"""

from __future__ import annotations

from typing import Any

from .focus import Seen, look_x11
from .recorder_core import PressCounter
from .recorder_loop import RecorderLoop
from .x11 import X11Screen
from .x11_session import SessionError, session_check
from .xrecord import InputCounter, Press

IDLE_POLL_MS = 1_000  # how often the X server's idle counter is read
X_IDLE_JITTER_MS = 250  # the X idle counter must move by more than this to count as input


class Recorder(RecorderLoop):
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
        return self._open_accessibility(
            screen.atspi_bus_address,
            "no accessibility bus (AT-SPI): no elements, browser URLs or Chromium "
            "incognito detection from accessibility",
        )

    # ------------------------------------------------------------------ the loop's parts

    def _begin(self, screen: X11Screen, start: int) -> None:
        self._has_wm = screen.wm_running()
        self._next_idle_poll = start
        self._next_wm_check = start + 10_000

    def _focus_changed(self, screen: X11Screen, now: int) -> bool:
        changed = False
        # The window manager may start (or stop) after the recorder.
        if now >= self._next_wm_check:
            self._next_wm_check = now + 10_000
            wm = screen.wm_running()
            if wm != self._has_wm:
                self._has_wm, changed = wm, True
        if screen.drain_events():
            changed = True
        if not self._has_wm and not self.paused:
            assert self._seen is not None
            known = self._seen.info.window if self._seen.info else 0
            if screen.focused_window(False) != known:
                changed = True
        return changed

    def _polls_url(self) -> bool:
        return not self._idle.afk

    def _check_counter(self, counter: PressCounter) -> None:
        if counter.failed or not counter.alive():
            raise SessionError(
                f"lost the X11 display {self.display} (the input counter stopped: "
                f"{counter.failed or 'ended'})"
            )

    def _idle_step(self, screen: Any, presses: list[Press], last_input_ms: int, now: int) -> None:
        # Input counts from XRecord, pointer motion from the server's idle counter.
        idle, last_input = self._idle, last_input_ms
        if now >= self._next_idle_poll:
            self._next_idle_poll = now + IDLE_POLL_MS
            x_idle = screen.idle_ms()
            # The server's idle counter and our clock disagree by a millisecond or
            # two from one reading to the next; only a clear step forward is input.
            if x_idle is not None and now - x_idle > idle.last_input_ms + X_IDLE_JITTER_MS:
                last_input = max(last_input, now - x_idle)
        if presses:
            last_input = max(last_input, presses[-1].ts_ms)
        if not self.paused:
            self._afk_step(idle.update(now, last_input), now)

    def _ticks(self) -> bool:
        return not self._has_wm  # without a window manager the focus is polled

    def _sleep_s(self, screen: X11Screen, due_s: float) -> float:
        # Events already read off the socket by an earlier request: no sleep.
        return 0.0 if screen.d.pending_events() else due_s

    def _look(self, screen: X11Screen, a11y: Any, now: int, current: Seen | None) -> Seen:
        return look_x11(
            self.cfg,
            screen,
            a11y,
            self._has_wm,
            now,
            current,
            paused=self.paused,
            wayland=self._wayland,
        )
