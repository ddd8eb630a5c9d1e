"""What replay sends to the page once a step's guards held: navigate, click (after a hit
test: nothing may cover the target), insert text; and the bounded waits for the page to
load after them."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from .cdp import NAVIGATION_STARTS, CDPError
from .replay_guards import GuardedPage
from .replay_page import Stop
from .replay_plan import is_destructive, target_text
from .roles import canonical_role
from .urls import url_template

LOAD_TIMEOUT_MS = 30_000
# A ``caused`` navigate (the previous step's doing) waits this long for its page to show:
# longer than any click's settle, short enough that a submit that went nowhere is told.
CAUSED_WAIT_MS = 5_000
POLL_MS = 100
# A click's navigation request reaches the browser within a few ms of the release (form
# submit measured at < 1 ms); 300 ms is ample and bounds the wait after every click.
CLICK_SETTLE_MS = 300
# Clicking a text field only focuses it: no navigation to wait for.
_NO_SETTLE_ROLES = frozenset({"textbox", "searchbox", "combobox"})


class ActingPage(GuardedPage):
    """The live page, acted on."""

    allow_destructive: bool
    frame_id: str

    # ---- actions

    def wait_load(self, since: int, *, sent: bool) -> None:
        """Wait (bounded) for the main frame's load after ``since``; then its HTTP status
        must not be an error."""
        try:
            self.page.wait_event("Page.loadEventFired", since=since, timeout_ms=LOAD_TIMEOUT_MS)
        except CDPError:
            raise Stop(
                "guard",
                "load",
                f"the page did not finish loading within {LOAD_TIMEOUT_MS} ms",
                sent=sent,
            ) from None
        status = None
        for ev in self.page.events_since(since, "Network.responseReceived"):
            p = ev.get("params") or {}
            if p.get("type") == "Document" and p.get("frameId") == self.frame_id:
                status = p.get("response", {}).get("status")
        if isinstance(status, int) and status >= 400:
            raise Stop(
                "guard",
                "load",
                f"the page answered HTTP {status}",
                {"status": "< 400"},
                {"status": status, "url": self.current_url()},
                sent=sent,
            )

    def await_page(self, template: str | None) -> None:
        """Wait (at most CAUSED_WAIT_MS) until the page's URL template is ``template``
        (any page, when None) and its document has loaded. Returns either way: the
        caller's URL check says what the page is."""
        deadline = time.monotonic() + CAUSED_WAIT_MS / 1000
        while True:
            try:
                state = self.page.evaluate("document.readyState")
            except CDPError:
                state = None  # between documents: no context to evaluate in
            ready = state == "complete"
            if ready and (template is None or url_template(self.current_url()) == template):
                return
            if time.monotonic() >= deadline:
                return
            time.sleep(POLL_MS / 1000)

    def navigate(self, url: str) -> None:
        since = self.page.mark()
        result = self.page.send("Page.navigate", {"url": url}, timeout_ms=LOAD_TIMEOUT_MS)
        if result.get("errorText"):
            raise Stop(
                "guard",
                "load",
                f"the page could not be opened: {result['errorText']}",
                sent=True,
            )
        if result.get("loaderId"):  # none for a same-document (fragment) navigation
            self.wait_load(since, sent=True)

    def click(self, step: Mapping[str, Any], node: int, position_held: bool) -> dict[str, int]:
        """Click the node's centre. A held position guard means the element is where the
        recorder saw it, so the page is not scrolled (that would move it); otherwise it
        is scrolled into view first if needed."""
        origin = self.screen_origin()
        if not position_held:
            self.page.send("DOM.scrollIntoViewIfNeeded", {"backendNodeId": node})
        vb = self.box(node)
        cx, cy = vb["x"] + vb["width"] // 2, vb["y"] + vb["height"] // 2
        if not (0 <= cx < origin["width"] and 0 <= cy < origin["height"]):
            raise Stop(
                "guard",
                "position",
                "the target's centre is outside the visible page",
                {"viewport": {"width": origin["width"], "height": origin["height"]}},
                {"centre": {"x": cx, "y": cy}},
            )
        # Nothing may cover the target: the element under the point must be it or inside it.
        cover = self.call_on(
            node,
            "function(x, y) { const e = document.elementFromPoint(x, y);"
            " if (e && (e === this || this.contains(e))) return null;"
            " if (!e) return 'nothing';"
            " return e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''); }",
            cx,
            cy,
        )
        point = {"x": cx + origin["x"], "y": cy + origin["y"]}
        if cover is not None:
            raise Stop(
                "guard",
                "hit",
                "another element covers the target at its centre",
                {"element": "the target"},
                {"point": point, "element": str(cover)},
            )
        if is_destructive(step) and not self.allow_destructive:
            raise destructive_stop(step)
        settle = canonical_role(step["target"]["role"]) not in _NO_SETTLE_ROLES
        since = self.page.mark()
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            params: dict[str, Any] = {"type": kind, "x": cx, "y": cy}
            if kind != "mouseMoved":
                params |= {"button": "left", "clickCount": 1}
            self.page.send("Input.dispatchMouseEvent", params)
        if settle:
            main = self.frame_id

            def is_main(ev: dict[str, Any]) -> bool:
                p = ev.get("params") or {}
                return bool(p.get("frameId", main) == main)

            try:
                self.page.wait_event(
                    NAVIGATION_STARTS, is_main, since=since, timeout_ms=CLICK_SETTLE_MS
                )
            except CDPError:
                pass  # no navigation began: the click stayed on this page
            else:
                self.wait_load(since, sent=True)
        return point

    def insert(self, node: int, text: str) -> None:
        """Focus the node, select what it holds and insert the text in its place (the
        slot value replaces the field's content; the clipboard is never touched)."""
        self.page.send("DOM.focus", {"backendNodeId": node})
        focused = self.call_on(node, "function() { return document.activeElement === this; }")
        if not focused:
            raise Stop(
                "guard",
                "focus",
                "the target did not take the keyboard focus",
                {"focus": "the target"},
                {"focus": "another element"},
            )
        self.call_on(
            node,
            "function() { if (typeof this.select === 'function') { this.select(); return; }"
            " const r = document.createRange(); r.selectNodeContents(this);"
            " const s = getSelection(); s.removeAllRanges(); s.addRange(r); }",
        )
        self.page.send("Input.insertText", {"text": text})


def destructive_stop(step: Mapping[str, Any]) -> Stop:
    why = "marked destructive" if step.get("destructive") is True else "its name says so"
    what = f"{step.get('op')} {target_text(step.get('target'))}".strip()
    return Stop(
        "destructive",
        None,
        f"{what} is destructive ({why}): not sent; "
        "re-run with --allow-destructive, or do this step by hand",
        {"allow_destructive": True},
        {"allow_destructive": False},
    )
