"""The focused window as the recorder sees it, after the privacy rules.

Privacy: the focused window is checked against the privacy rules *before* anything about
it is written; an excluded or private window becomes a placeholder (``[excluded]``,
``[private]``) with no title, URL, window id, executable, input counts or elements.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..native_schema import NONE_APP as NONE_APP
from ..native_schema import SILENT_APP as SILENT_APP
from .browser import browser_kind, devtools_url
from .config import RecorderConfig
from .policy import View
from .privacy import EXCLUDED
from .window_info import WindowInfo
from .x11 import X11Screen

UNRESOLVED_MAX_MS = 3_000  # how long a Chromium window may wait for its accessible frame
NO_WINDOW_SETTLE_MS = 500  # "no focused window" must last this long to be written

EXCLUDED_APP = "[excluded]"
PRIVATE_APP = "[private]"
PAUSED_APP = "[paused]"
STOPPED_APP = "[stopped]"
WAYLAND_APP = "[wayland]"
PLACEHOLDERS = frozenset(
    (EXCLUDED_APP, PRIVATE_APP, PAUSED_APP, STOPPED_APP, NONE_APP, SILENT_APP, WAYLAND_APP)
)


@dataclass
class Seen:
    """The focused window as the recorder sees it, after the privacy rules."""

    view: View
    since_ms: int
    info: WindowInfo | None = None  # None for placeholders
    monitor: str | None = None
    browser: str | None = None
    private: bool = False  # excluded or private: nothing about it is written
    # A Chromium window whose accessible frame is not found yet: whether it is incognito
    # is unknown, so nothing is written (and no input counted) until it is, for a while.
    unresolved: bool = False
    box: tuple[int, int, int, int] | None = None

    @property
    def recordable(self) -> bool:
        return not self.private and not self.unresolved and self.view.app not in PLACEHOLDERS


def settle_ms(seen: Seen) -> int:
    """When the current view may be written. Window managers clear the active window
    for a moment while the focus moves; "no window" counts only once it lasts."""
    if seen.view.app in (NONE_APP, SILENT_APP, WAYLAND_APP):
        return seen.since_ms + NO_WINDOW_SETTLE_MS
    return seen.since_ms


def keep(current: Seen | None, new: Seen) -> Seen:
    """Keep the first-seen time when nothing that matters changed."""
    if current is not None and current.view == new.view:
        current.info = new.info or current.info
        return current
    return new


def look_x11(
    cfg: RecorderConfig,
    screen: X11Screen,
    a11y: Any,
    has_wm: bool,
    now: int,
    current: Seen | None,
    *,
    paused: bool,
    wayland: bool,
) -> Seen:
    """What is focused now on an X11 display, after the privacy rules."""
    if paused:
        return keep(current, Seen(View(0, PAUSED_APP, ""), now, private=True))
    wid = screen.focused_window(has_wm)
    screen.watch(wid)
    info = screen.window_info(wid) if wid else None
    if info is None:
        app = WAYLAND_APP if wayland else NONE_APP
        return keep(current, Seen(View(0, app, ""), now))
    rules = cfg.privacy
    kind = browser_kind(info.names)
    # Cheap checks first: an excluded app or title is never looked at any further.
    verdict = rules.verdict(info.names, info.title)
    same_window = bool(current and current.info and current.info.window == wid)
    box = current.box if same_window and current is not None else screen.geometry(wid)
    url: str | None = None
    unresolved = False
    if verdict is None and kind is not None:
        url, frame_name, matched = browser_url(cfg, a11y, info, kind, box)
        verdict = rules.verdict(info.names, info.title, url, frame_name)
        if verdict is None and kind == "chromium" and a11y is not None and not matched:
            waited = now - current.since_ms if same_window and current is not None else 0
            unresolved = waited < UNRESOLVED_MAX_MS
    if verdict is not None:
        app = EXCLUDED_APP if verdict == EXCLUDED else PRIVATE_APP
        return keep(current, Seen(View(0, app, ""), now, private=True))
    monitor = current.monitor if same_window and current is not None else None
    if not same_window:
        monitor = screen.monitor_of(wid, box)
    seen = Seen(View(wid, info.app, info.title, url), now, info, monitor, kind)
    seen.unresolved, seen.box = unresolved, box
    if current is not None and current.unresolved and current.view == seen.view:
        current.unresolved = unresolved
    return keep(current, seen)


def browser_url(
    cfg: RecorderConfig,
    a11y: Any,
    info: WindowInfo,
    kind: str,
    box: tuple[int, int, int, int] | None,
) -> tuple[str | None, str | None, bool]:
    """(URL, accessible frame name, whether the frame surely is this window)."""
    url = frame_name = None
    matched = False
    if a11y is not None:
        found = a11y.inspect(
            info.pid, info.title, elements=False, url=True, bounds=box, timeout=0.6
        )
        if found is not None and found.matched:
            url, frame_name, matched = found.url, found.frame_name, True
    if url is None and cfg.devtools and kind == "chromium":
        url = devtools_url(cfg.devtools, info.title)
    return url, frame_name, matched


def poll_url(cfg: RecorderConfig, a11y: Any, seen: Seen) -> str | None:
    """A cheap token that changes when the browser's address changes."""
    if seen.info is None:
        return None
    if a11y is not None:
        text: str | None = a11y.address_bar_text(seen.info.pid)
        if text is not None:
            return text
    if cfg.devtools and seen.browser == "chromium":
        return devtools_url(cfg.devtools, seen.info.title)
    return None
