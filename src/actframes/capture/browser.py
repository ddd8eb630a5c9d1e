"""Which windows are browsers, and the opt-in Chromium DevTools URL source.

The DevTools source is used only when the user configured an endpoint they enabled
themselves (``chromium --remote-debugging-port=9222``) and only on loopback: the recorder
asks ``/json/list`` for the page targets and takes the one whose title matches the
focused window's title (Chromium lists the most recently focused first, so the first
page is the fallback).
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterable
from typing import Any

CHROMIUM_FAMILY = frozenset(
    (
        "chromium", "chromium-browser", "google-chrome", "google-chrome-beta",
        "google-chrome-unstable", "brave-browser", "microsoft-edge", "vivaldi-stable",
        "vivaldi", "opera", "thorium-browser", "yandex-browser",
    )
)  # fmt: skip
FIREFOX_FAMILY = frozenset(
    ("firefox", "firefox-esr", "navigator", "librewolf", "waterfox", "floorp", "zen")
)
_TITLE_SUFFIXES = (
    " - Chromium", " - Google Chrome", " - Brave", " - Microsoft Edge", " - Vivaldi",
    " - Opera", " — Mozilla Firefox", " - Mozilla Firefox",
)  # fmt: skip


def browser_kind(names: Iterable[str | None]) -> str | None:
    """``"chromium"``, ``"firefox"`` or None, from the window's class/instance/exe names."""
    lowered = [n.lower() for n in names if n]
    for n in lowered:
        if n in CHROMIUM_FAMILY or n.startswith(("chromium", "google-chrome")):
            return "chromium"
    for n in lowered:
        if n in FIREFOX_FAMILY:
            return "firefox"
    return None


def page_title(window_title: str) -> str:
    for suffix in _TITLE_SUFFIXES:
        if window_title.endswith(suffix):
            return window_title[: -len(suffix)]
    return window_title


def pick_target(targets: list[dict[str, Any]], window_title: str) -> str | None:
    pages = [t for t in targets if t.get("type") == "page" and isinstance(t.get("url"), str)]
    if not pages:
        return None
    want = page_title(window_title)
    for t in pages:
        if t.get("title") == want:
            return str(t["url"])
    return str(pages[0]["url"])


def devtools_url(endpoint: str, window_title: str, timeout: float = 0.3) -> str | None:
    """The focused tab's URL from a DevTools endpoint on loopback; None on any failure."""
    try:
        # No proxy: the endpoint is on loopback and must never be reached through one.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(endpoint + "/json/list", timeout=timeout) as resp:
            data = json.loads(resp.read(1_000_000).decode("utf-8", "replace"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, list):
        return None
    return pick_target([t for t in data if isinstance(t, dict)], window_title)
