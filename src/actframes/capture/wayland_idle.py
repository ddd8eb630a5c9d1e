"""The compositor's idle notices on a Wayland connection of their own, in a thread: how
the KDE backend learns idle (KWin offers ``ext-idle-notify-v1`` or ``org_kde_kwin_idle``
to every client) while its focus comes over the session bus."""

from __future__ import annotations

import contextlib
import os
import select
import threading
from collections.abc import Callable

from .wayland import IdleNotice, WaylandError, WaylandScreen


class WaylandIdle:
    """The compositor's idle notices on a Wayland connection of their own, in a thread
    (KWin offers ``ext-idle-notify-v1`` or ``org_kde_kwin_idle`` to every client)."""

    def __init__(self, screen: WaylandScreen, report: Callable[[IdleNotice], None]) -> None:
        self.screen = screen
        self.protocol = screen.idle_protocol
        self.report = report
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="wayland-idle", daemon=True)
        self._thread.start()

    @classmethod
    def start(cls, env: dict[str, str], clock: Callable[[], int], idle_ms: int,
              report: Callable[[IdleNotice], None]) -> WaylandIdle | None:  # fmt: skip
        from .wayland import display_name

        if not env.get("WAYLAND_DISPLAY"):
            return None
        try:
            screen = WaylandScreen(display_name(env), env, clock, idle_ms, windows=False)
        except (WaylandError, ImportError):
            return None
        if screen.idle_protocol is None:
            screen.close()
            return None
        return cls(screen, report)

    def _run(self) -> None:
        fd = self.screen.fileno()
        try:
            while True:
                self.screen.prepare()
                ready, _, _ = select.select([fd, self._stop_r], [], [])
                if self._stop_r in ready:
                    return
                self.screen.dispatch()
                for notice in self.screen.take_notices():
                    self.report(notice)
        except WaylandError:
            return  # the compositor went away: the focus side reports the end

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._stop_w, b"\0")
        self._thread.join(1.0)
        self.screen.close()
        for fd in (self._stop_r, self._stop_w):
            with contextlib.suppress(OSError):
                os.close(fd)
