"""What replay reads from the live page over the DevTools protocol (read-only): its URL,
the accessibility tree's elements of a role, boxes, the viewport's place on the screen;
and ``Stop``, the one failed check that ends a replay."""

from __future__ import annotations

import math
from typing import Any

from .cdp import Browser, CDPError
from .replay_plan import norm_text
from .roles import canonical_role


class Stop(Exception):
    """One failed check: the replay ends here; nothing more is sent."""

    def __init__(
        self,
        reason: str,
        guard: str | None,
        message: str,
        expected: Any = None,
        found: Any = None,
        *,
        sent: bool = False,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.guard = guard
        self.message = message
        self.expected = expected
        self.found = found
        self.sent = sent


# Wraps the plan's steps as they run (a progress bar on a terminal).


class PageView:
    """The live page, read-only."""

    page: Browser

    # ---- page facts (read-only)

    def current_url(self) -> str:
        hist = self.page.send("Page.getNavigationHistory")
        entries = hist.get("entries") or []
        idx = hist.get("currentIndex", -1)
        return str(entries[idx]["url"]) if 0 <= idx < len(entries) else ""

    def candidates(self, role: str) -> list[dict[str, Any]]:
        """Every element of the page's accessibility tree with the canonical ``role``,
        in tree order: {"name", "node"} (node = backend DOM node id or None)."""
        want = canonical_role(role)
        tree = self.page.send("Accessibility.getFullAXTree")
        out: list[dict[str, Any]] = []
        for node in tree.get("nodes", []):
            if node.get("ignored"):
                continue
            ax_role = (node.get("role") or {}).get("value")
            if canonical_role(ax_role if isinstance(ax_role, str) else None) != want:
                continue
            name = (node.get("name") or {}).get("value")
            out.append({"name": norm_text(name), "node": node.get("backendDOMNodeId")})
        return out

    def screen_origin(self) -> dict[str, int]:
        # The viewport's top-left on the screen: the window's position plus its frame and
        # toolbars (outer − inner); the recorder's points are screen pixels.
        got = self.page.evaluate(
            "[window.screenX + (window.outerWidth - window.innerWidth),"
            " window.screenY + (window.outerHeight - window.innerHeight),"
            " window.innerWidth, window.innerHeight]"
        )
        ox, oy, w, h = (round(float(v)) for v in got)
        return {"x": ox, "y": oy, "width": w, "height": h}

    def box(self, node: int) -> dict[str, int]:
        """The node's border box in viewport CSS pixels, widened to whole pixels."""
        quad = self.page.send("DOM.getBoxModel", {"backendNodeId": node})["model"]["border"]
        xs, ys = quad[0::2], quad[1::2]
        left, top = math.floor(min(xs)), math.floor(min(ys))
        right, bottom = math.ceil(max(xs)), math.ceil(max(ys))
        return {"x": left, "y": top, "width": right - left, "height": bottom - top}

    def call_on(self, node: int, function: str, *args: Any) -> Any:
        obj = self.page.send("DOM.resolveNode", {"backendNodeId": node})["object"]
        try:
            result = self.page.send(
                "Runtime.callFunctionOn",
                {
                    "objectId": obj["objectId"],
                    "functionDeclaration": function,
                    "arguments": [{"value": a} for a in args],
                    "returnByValue": True,
                },
            )
        finally:
            self.page.send("Runtime.releaseObject", {"objectId": obj["objectId"]})
        if "exceptionDetails" in result:
            raise CDPError("a page function threw")
        return result["result"].get("value")
