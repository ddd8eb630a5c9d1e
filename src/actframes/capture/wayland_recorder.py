"""The recorder on Wayland: the same store, rows and privacy rules as on X11, with the
focused window from ``wlr-foreign-toplevel-management`` (wlroots compositors) or from the
desktop's shell over D-Bus (KDE: a KWin script; GNOME: a Shell extension), idle from the
compositor's or the desktop's idle notices, and input counts from evdev when
``/dev/input`` is readable.

What differs from X11, and is written into the session's ``start`` row (so ``record
status`` and the compiled documents can say it):

- ``input``: ``evdev`` or ``none`` — without readable input devices no key, click or
  scroll is counted, and the documents list input as a blind spot.
- ``afk``: ``ext-idle-notify-v1`` / ``org_kde_kwin_idle`` (the compositor's notices,
  pointer motion included), ``evdev`` (presses and motion from the devices), or ``none``.
- No window ids of the display server exist: ``window`` is the recorder's own number for
  the window. wlroots names no process, so there is no executable there; KWin and GNOME
  Shell do, and the executable is written. No monitor is known.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .browser import browser_kind
from .config import RecorderConfig
from .evdev_input import EvdevCounter, open_devices
from .focus import (
    EXCLUDED_APP,
    NONE_APP,
    PAUSED_APP,
    PRIVATE_APP,
    SILENT_APP,
    UNRESOLVED_MAX_MS,
    Seen,
    browser_url,
    keep,
)
from .idle import AfkStarted, IdleTracker
from .policy import View
from .privacy import EXCLUDED
from .recorder_core import PressCounter, now_ms
from .recorder_loop import RecorderLoop
from .wayland import IdleNotice, WaylandError, WaylandScreen, display_name
from .window_info import WindowInfo, exe_name
from .xrecord import Press


class WaylandRecorder(RecorderLoop):
    BACKEND = "wlroots"  # or "kde", "gnome": set per instance

    def __init__(
        self,
        db: Path,
        config: RecorderConfig,
        *,
        display: str | None = None,
        desktop: str = "",
        backend: str = "wlroots",
        state_dir: Path | None = None,
        log: Callable[[str], None] | None = None,
        clock: Callable[[], int] = now_ms,
        env: dict[str, str] | None = None,
    ) -> None:
        super().__init__(db, config, state_dir=state_dir, log=log, clock=clock, env=env)
        self.display = display or display_name(self.env)
        self.desktop = desktop
        self.BACKEND = backend
        self._input_note = ""
        self._has_devices = False
        self._screen: Any = None  # WaylandScreen or DesktopBusScreen
        self._silent: str | None = None  # why the window source is silent, while it is

    def run(self, ready: Callable[[], None] | None = None) -> int:
        try:
            return super().run(ready)
        finally:
            # Also when the store could not be opened: KWin keeps a loaded script until
            # it is unloaded, whatever happens to the client that loaded it.
            if self._screen is not None:
                self._screen.close()

    # ------------------------------------------------------------------ the backend's parts

    def _check_session(self) -> None:
        # Connect before the store is opened: a session that cannot be recorded leaves
        # no empty store behind.
        self._wayland = True
        if self.BACKEND in ("kde", "gnome"):
            from .desktop_bus import DesktopBusScreen

            self._screen = DesktopBusScreen(self.BACKEND, self.env, self.clock, self.cfg.idle_ms)
        else:
            self._screen = WaylandScreen(self.display, self.env, self.clock, self.cfg.idle_ms)

    def _connect(self, wake_w: int) -> tuple[Any, Any, Any]:
        screen = self._screen
        assert screen is not None
        fds, self._input_note = open_devices(self.env)
        self._has_devices = bool(fds)
        counter = EvdevCounter(fds, self.clock, wake_fd=wake_w)
        counter.start()
        if not fds:
            self.log(f"no input counts: {self._input_note}")
        a11y = None
        if self.cfg.accessibility:
            if getattr(screen, "gives_pids", False):
                a11y = self._open_accessibility(  # AT-SPI found through the session bus
                    None, "no accessibility bus (org.a11y.Bus): no elements or browser URLs"
                )
            else:
                self.log("no accessibility look-ups: wlroots names no window's process")
        return screen, counter, a11y

    def _session_notes(self, screen: Any, counter: Any, a11y: Any) -> dict[str, Any]:
        afk = screen.idle_protocol or ("evdev" if self._has_devices else "none")
        return {
            "backend": self.BACKEND,
            "windows": screen.source,
            "display": self.display,
            "desktop": self.desktop,
            "input": "evdev" if self._has_devices else "none",
            "input_note": self._input_note,
            "afk": afk,
            "accessibility": a11y is not None,
            "pids": bool(getattr(screen, "gives_pids", False)),
            "wayland": True,
        }

    def _start_message(self, detail: dict[str, Any]) -> str:
        return (
            f"recording Wayland display {self.display} ({detail['desktop'] or 'wlroots'}) "
            f"into {self.db} (windows: {detail['windows']}; away: {detail['afk']}; "
            f"input counts: {detail['input']}; accessibility: "
            f"{'yes' if detail['accessibility'] else 'no'})"
        )

    # ------------------------------------------------------------------ the loop's parts

    def _begin(self, screen: Any, start: int) -> None:
        # Without compositor notices, idle is the time since the last device event.
        self._notices = screen.idle_protocol is not None
        self._start = start  # no away period from a notice begins before it

    def _focus_changed(self, screen: Any, now: int) -> bool:
        changed = bool(screen.take_changed())
        return self._silence_step(screen, now) or changed

    def _silence_step(self, screen: Any, now: int) -> bool:
        """Notices a window source that stays silent (``DesktopBusScreen.silence``), and
        one that reports again: said in the log and in a ``silent`` / ``reporting``
        state row (``record status``); True when that changed."""
        silence = getattr(screen, "silence", None)
        reason = silence(now) if silence is not None else None
        if reason == self._silent:
            return False
        if reason is not None:
            self.log(f"window source silent: {reason}; recording [silent], not an app")
            self._state(now, "silent", reason)
        else:
            self.log(f"window source reports again ({screen.source})")
            self._state(now, "reporting", screen.source)
        self._silent = reason
        return True

    def _watches_urls(self, a11y: Any) -> bool:
        return a11y is not None

    def _check_counter(self, counter: PressCounter) -> None:
        if counter.failed:
            raise WaylandError(f"the input counter stopped: {counter.failed}")

    def _idle_step(self, screen: Any, presses: list[Press], last_input_ms: int, now: int) -> None:
        for notice in screen.take_notices():
            if not self.paused:
                self._on_notice(notice, self._start)
        if not self._notices and self._has_devices and not self.paused:
            self._afk_step(self._idle.update(now, last_input_ms), now)

    def _idle_due_ms(self, now: int) -> int | None:
        # The moment a quiet window source counts as silent (once it does, only a report,
        # which wakes the loop, changes it).
        due = None if self._silent else getattr(self._screen, "silence_due_ms", lambda: None)()
        if not self._notices and self._has_devices:
            check = self._idle.next_check_ms(now)
            due = check if due is None else min(due, check)
        return due

    def _sleep_s(self, screen: Any, due_s: float) -> float:
        screen.prepare()  # may run events already read: then look again at once
        return 0.0 if screen.changed or screen.notices else due_s

    def _dispatch(self, screen: Any) -> None:
        screen.dispatch()

    def _on_notice(self, notice: IdleNotice, start: int) -> None:
        """The compositor's idle notices: idle comes ``idle_ms`` after the last input, so
        the away period is back-dated to it (never before the recorder started)."""
        if notice.idle:
            if self._afk_row is None:
                since = notice.since_ms
                begin = max(notice.ts_ms - self.cfg.idle_ms if since is None else since, start)
                self._afk_step(AfkStarted(begin), notice.ts_ms)
        else:
            self._end_afk(notice.ts_ms)

    def _toggle_pause(self, idle: IdleTracker, now: int) -> None:
        super()._toggle_pause(idle, now)
        if self.paused:
            self._end_afk(now)  # an away period from notices ends where the pause begins

    # ------------------------------------------------------------------ looking

    def _look(self, screen: Any, a11y: Any, now: int, current: Seen | None) -> Seen:
        if self.paused:
            return keep(current, Seen(View(0, PAUSED_APP, ""), now, private=True))
        if self._silent is not None:  # not "no window": nothing says what has the focus
            return keep(current, Seen(View(0, SILENT_APP, ""), now))
        top = screen.focused()
        if top is None:
            return keep(current, Seen(View(0, NONE_APP, ""), now))
        exe = exe_name(top.pid) if top.pid else None
        info = WindowInfo(top.key, top.title, "", top.app_id, top.pid, exe)
        rules = self.cfg.privacy
        kind = browser_kind(info.names)
        # Cheap checks first: an excluded app or title is never looked at any further.
        verdict = rules.verdict(info.names, info.title)
        url: str | None = None
        unresolved = False
        same_window = bool(current and current.info and current.info.window == top.key)
        if verdict is None and kind is not None and a11y is not None:
            url, frame_name, matched = browser_url(self.cfg, a11y, info, kind, None)
            verdict = rules.verdict(info.names, info.title, url, frame_name)
            if verdict is None and kind == "chromium" and not matched:
                # Whether it is incognito shows only in its accessible name: wait for it.
                waited = now - current.since_ms if same_window and current is not None else 0
                unresolved = waited < UNRESOLVED_MAX_MS
        if verdict is not None:
            app = EXCLUDED_APP if verdict == EXCLUDED else PRIVATE_APP
            return keep(current, Seen(View(0, app, ""), now, private=True))
        seen = Seen(View(top.key, info.app, info.title, url), now, info, None, kind)
        seen.unresolved = unresolved
        if current is not None and current.unresolved and current.view == seen.view:
            current.unresolved = unresolved
        return keep(current, seen)
