"""A step's guards, read from the live page in a fixed order (``app`` → ``url`` →
``target`` → ``position``); the first that fails raises ``Stop`` before anything is sent.
Page text quoted in a hand-off has slot values masked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from .replay_page import PageView, Stop
from .replay_plan import TARGET_OPS, guard_rank, is_browser_app, norm_text
from .replay_slots import fill
from .roles import canonical_role
from .urls import url_template

MAX_CANDIDATES = 20


class GuardedPage(PageView):
    """The live page with the plan's slots: checks guards, finds targets."""

    slots: Mapping[str, str]
    loose_position: bool
    _mask: list[tuple[str, str]]

    # ---- masking

    def mask(self, value: Any) -> Any:
        """``value`` with every slot value (and its URL-encoded form) shown as {name}."""
        if isinstance(value, str):
            for v, k in self._mask:
                for form in sorted({v, quote(v, safe=""), quote(v)}, key=lambda f: (-len(f), f)):
                    value = value.replace(form, "{" + k + "}")
            return value
        if isinstance(value, list):
            return [self.mask(v) for v in value]
        if isinstance(value, dict):
            return {k: self.mask(v) for k, v in value.items()}
        return value

    # ---- guards

    def find_target(self, role: str, name: str) -> int:
        """The one element with this role and name; Stop when none or several."""
        want = norm_text(name)
        all_of_role = self.candidates(role)
        hits = [c for c in all_of_role if c["name"] == want]
        expected = {"role": role, "name": name}
        found = {
            "role": canonical_role(role),
            "candidates": [c["name"] for c in all_of_role[:MAX_CANDIDATES]],
            "more": max(0, len(all_of_role) - MAX_CANDIDATES),
        }
        if not hits:
            raise Stop(
                "guard",
                "target",
                f"not found: no {canonical_role(role)} named “{want}” on the page",
                expected,
                found,
            )
        if len(hits) > 1:
            raise Stop(
                "guard",
                "target",
                f"ambiguous: {len(hits)} elements are {canonical_role(role)} “{want}”",
                expected,
                found | {"matches": len(hits)},
            )
        node = hits[0]["node"]
        if not isinstance(node, int):
            raise Stop("guard", "target", "the element has no DOM node to act on", expected, found)
        return node

    def check_url(self, template: str, *, after: bool = False) -> None:
        current = self.current_url()
        got = url_template(current)
        if got != template:
            where = "after navigating" if after else "before the step"
            raise Stop(
                "guard",
                "url",
                f"the page {where} is not the expected one",
                {"template": template},
                {"url": current, "template": got},
                sent=after,
            )

    def check_position(self, node: int, guard: Mapping[str, Any]) -> None:
        origin = self.screen_origin()
        vb = self.box(node)
        left, top = vb["x"] + origin["x"], vb["y"] + origin["y"]
        right, bottom = left + vb["width"], top + vb["height"]
        x, y, tol = guard["x"], guard["y"], guard.get("tolerance", 0)
        # Half-open boxes (left/top in, right/bottom out), widened by the tolerance.
        if not (left - tol <= x < right + tol and top - tol <= y < bottom + tol):
            raise Stop(
                "guard",
                "position",
                "the target is not where the routine was recorded",
                {"x": x, "y": y, "tolerance": tol},
                {
                    "box": {"x": left, "y": top, "width": right - left, "height": bottom - top},
                    "viewport_origin": {"x": origin["x"], "y": origin["y"]},
                },
            )

    def check_guards(self, step: Mapping[str, Any]) -> tuple[dict[str, str], int | None]:
        """All the step's guards in the fixed order; (guard → result, target node)."""
        results: dict[str, str] = {}
        op = step["op"]
        guards = sorted(step.get("guards", []), key=lambda g: guard_rank(g["check"]))
        # The step's own target is always resolved (it is how the element is found), so a
        # plan without a target guard is still held to one unique element.
        node: int | None = None
        for g in guards:
            check = g["check"]
            if check == "app":
                if not is_browser_app(g.get("app")):
                    raise Stop(
                        "guard",
                        "app",
                        "not a browser step (replay drives a browser only)",
                        {"app": "a browser"},
                        {"app": g.get("app")},
                    )
            elif op == "navigate" and check in ("url", "target", "position"):
                # Those describe the page being left; navigating does not depend on it.
                results[check] = "not applicable"
                continue
            elif check == "url":
                self.check_url(g["template"])
            elif check == "target":
                found = self.find_target(g["role"], fill(g["name"], self.slots))
                if node is not None and found != node:
                    raise Stop("guard", "target", "two target guards name different elements")
                node = found
            elif check == "position":
                if self.loose_position:
                    results[check] = "skipped"
                    continue
                if node is None:
                    node = self.step_target(step)
                self.check_position(node, g)
            else:
                raise Stop("guard", check, f"unknown guard kind {check!r}: cannot be checked")
            results[check] = "held"
        if op in TARGET_OPS and node is None:
            node = self.step_target(step)
        return results, node

    def step_target(self, step: Mapping[str, Any]) -> int:
        target = step["target"]
        return self.find_target(target["role"], fill(target["name"], self.slots))

    # ---- actions
