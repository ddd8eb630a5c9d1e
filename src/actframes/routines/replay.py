"""Guarded replay of a routine's plan in a real browser, over the DevTools protocol.

Before every step all of its guards are read from the live page; the step acts only
when every one holds. The first guard that fails stops the replay before anything more
is sent, and the report says which guard failed, what it expected and what the page
showed: a hand-off to a person or an agent. Destructive steps (submit, send, delete …)
run only when allowed. Slot values reach the page and nothing else: the report names
slots but never shows their values (except ``dry_run``, which the user asks to see), and
page text quoted in a hand-off has slot values masked.

Order of checks per step: ``app`` → ``url`` → ``target`` → ``position`` → (clicks)
``hit`` → destructive. Guards are read-only; the action follows only after all held.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import SourceError, UsageError
from .cdp import NAVIGATION_STARTS, Browser, CDPError
from .plan import DESTRUCTIVE
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
# Slot values this short are not masked in quoted page text: masking "1" would mangle
# every URL and number, and such values say little.
MIN_MASKED_CHARS = 3
MAX_CANDIDATES = 20

# App names that mean a browser (matched by containment, case-folded); "edge" is a word
# of its own so that e.g. "Knowledge base" is not a browser.
_BROWSER_HINTS = ("chrom", "firefox", "brave", "safari", "opera", "vivaldi", "fiori", "web")
_EDGE = re.compile(r"\b(ms)?edge\b", re.I)
_DESTRUCTIVE = DESTRUCTIVE  # one list of destructive words, the plan's
_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_BROWSER_OPS = ("navigate", "click", "type", "paste")
_TARGET_OPS = ("click", "type", "paste")
# Clicking a text field only focuses it: no navigation to wait for.
_NO_SETTLE_ROLES = frozenset({"textbox", "searchbox", "combobox"})
_GUARD_ORDER = ("app", "url", "target", "position")


class PlanError(SourceError):
    """A routine whose plan cannot be replayed as written (exit 1)."""


# ---------------------------------------------------------------- plan and slots


def is_browser_app(app: object) -> bool:
    if not isinstance(app, str) or not app.strip():
        return False
    low = app.casefold()
    return any(h in low for h in _BROWSER_HINTS) or bool(_EDGE.search(app))


def is_destructive(step: Mapping[str, Any]) -> bool:
    """Marked so by the plan, or a click on a target whose name says so (``plan.DESTRUCTIVE``:
    submit, send, delete, remove, pay, purchase, buy, order, confirm, transfer, publish,
    post, approve, checkout, with -s/-ed/-ing/-ment forms)."""
    if step.get("destructive") is True:
        return True
    target = step.get("target")
    name = target.get("name") if isinstance(target, dict) else None
    return step.get("op") == "click" and isinstance(name, str) and bool(_DESTRUCTIVE.search(name))


def _norm(text: object) -> str:
    return " ".join(text.split()) if isinstance(text, str) else ""


def _fail_plan(n: object, what: str) -> PlanError:
    return PlanError(f"plan step {n}: {what}")


def validate(routine: object) -> list[dict[str, Any]]:
    """The routine's plan steps, checked for what replay needs; PlanError otherwise."""
    if not isinstance(routine, dict):
        raise PlanError("a routine must be a JSON object")
    if not isinstance(routine.get("id"), str):
        raise PlanError("the routine has no string 'id'")
    plan = routine.get("plan")
    if not isinstance(plan, list) or not plan:
        raise PlanError(f"routine {routine['id']} has no 'plan' steps")
    start = routine.get("start_url")
    if start is not None and not isinstance(start, str):
        raise PlanError("'start_url' must be a string or null")
    steps: list[dict[str, Any]] = []
    for i, step in enumerate(plan, 1):
        if not isinstance(step, dict):
            raise _fail_plan(i, "not an object")
        n = step.get("n")
        if not isinstance(n, int) or isinstance(n, bool):
            raise _fail_plan(i, "'n' must be an integer")
        op = step.get("op")
        if not isinstance(op, str):
            raise _fail_plan(n, "'op' must be a string")
        browser = is_browser_app(step.get("app"))
        if browser and op in _TARGET_OPS:
            target = step.get("target")
            if not (
                isinstance(target, dict)
                and isinstance(target.get("role"), str)
                and isinstance(target.get("name"), str)
            ):
                raise _fail_plan(n, f"{op} needs a target with a string role and name")
        if browser and op in ("type", "paste") and not isinstance(step.get("value"), str):
            raise _fail_plan(n, f"{op} needs a string 'value'")
        if (
            browser
            and op == "navigate"
            and step.get("caused") is not True
            and not isinstance(step.get("url"), str)
        ):
            raise _fail_plan(n, "navigate needs a string 'url' (or \"caused\": true)")
        for field in ("url", "value"):
            if field in step and step[field] is not None and not isinstance(step[field], str):
                raise _fail_plan(n, f"'{field}' must be a string")
        guards = step.get("guards", [])
        if not isinstance(guards, list):
            raise _fail_plan(n, "'guards' must be a list")
        for g in guards:
            _validate_guard(n, g)
        after = step.get("expect_after")
        if after is not None and not (
            isinstance(after, dict) and isinstance(after.get("url", ""), str)
        ):
            raise _fail_plan(n, "'expect_after' must be an object with a string 'url'")
        steps.append(step)
    return steps


def _validate_guard(n: int, g: object) -> None:
    if not isinstance(g, dict) or not isinstance(g.get("check"), str):
        raise _fail_plan(n, "every guard needs a string 'check'")
    check = g["check"]
    if check == "url" and not isinstance(g.get("template"), str):
        raise _fail_plan(n, "a url guard needs a string 'template'")
    if check == "target" and not (
        isinstance(g.get("role"), str) and isinstance(g.get("name"), str)
    ):
        raise _fail_plan(n, "a target guard needs a string 'role' and 'name'")
    if check == "position":
        for k in ("x", "y"):
            if not isinstance(g.get(k), int) or isinstance(g.get(k), bool):
                raise _fail_plan(n, f"a position guard needs an integer '{k}'")
        tol = g.get("tolerance", 0)
        if not isinstance(tol, int) or isinstance(tol, bool) or tol < 0:
            raise _fail_plan(n, "a position guard's 'tolerance' must be an integer ≥ 0")


def slot_names(routine: Mapping[str, Any]) -> list[str]:
    """Every slot the routine declares or whose ``{name}`` a url, value or start_url uses."""
    names: set[str] = set()
    for s in routine.get("slots") or []:
        if isinstance(s, dict) and isinstance(s.get("name"), str):
            names.add(s["name"])
    return sorted(names | set(_used_slots(routine)))


def _used_slots(routine: Mapping[str, Any]) -> list[str]:
    texts: list[object] = [routine.get("start_url")]
    for step in routine.get("plan") or []:
        if isinstance(step, dict):
            texts += [step.get("url"), step.get("value")]
            # A slot in a target's name ("Order {number}") is filled before the element
            # is looked up, on the steps replay acts on.
            if step.get("op") in _TARGET_OPS and is_browser_app(step.get("app")):
                target = step.get("target")
                if isinstance(target, dict):
                    texts.append(target.get("name"))
                texts += [
                    g.get("name")
                    for g in step.get("guards") or []
                    if isinstance(g, dict) and g.get("check") == "target"
                ]
    used: set[str] = set()
    for t in texts:
        if isinstance(t, str):
            used.update(_SLOT.findall(t))
    return sorted(used)


def check_slots(
    routine: Mapping[str, Any], slots: Mapping[str, str], *, allow_missing: bool = False
) -> None:
    """UsageError naming the placeholders without a value (unless ``allow_missing``: a
    dry run marks them), or the values without a slot."""
    known = slot_names(routine)
    unknown = sorted(set(slots) - set(known))
    if unknown:
        has = ", ".join(known) or "none"
        raise UsageError(f"unknown slot(s): {', '.join(unknown)} (this routine has: {has})")
    missing = unfilled(routine, slots)
    if missing and not allow_missing:
        raise UsageError(
            f"missing slot value(s): {', '.join(missing)} (give --slot NAME=VALUE for each)"
        )


def unfilled(routine: Mapping[str, Any], slots: Mapping[str, str]) -> list[str]:
    """The slots the plan uses that have no value, in the order the plan uses them."""
    return [s for s in _used_slots(routine) if s not in slots]


def _step_unfilled(step: Mapping[str, Any], slots: Mapping[str, str]) -> list[str]:
    texts = [step.get("url"), step.get("value")]
    target = step.get("target")
    if isinstance(target, dict):
        texts.append(target.get("name"))
    names = [m for t in texts if isinstance(t, str) for m in _SLOT.findall(t)]
    return sorted({n for n in names if n not in slots})


def fill(text: str, slots: Mapping[str, str], *, in_url: bool = False) -> str:
    """``text`` with every ``{name}`` replaced by its slot value (percent-encoded in a
    URL, so a value can never add path segments or a query)."""

    def sub(m: re.Match[str]) -> str:
        value = slots.get(m.group(1))
        if value is None:  # check_slots has refused a missing slot: a literal brace
            return m.group(0)
        return quote(value, safe="") if in_url else value

    return _SLOT.sub(sub, text)


def _target_text(target: object) -> str:
    if not isinstance(target, dict):
        return ""
    return f"{target.get('role', '')} “{target.get('name', '')}”"


# ---------------------------------------------------------------- dry run


def dry_run(
    routine: Mapping[str, Any],
    slots: Mapping[str, str],
    *,
    allow_destructive: bool = False,
) -> dict[str, Any]:
    """What a replay would do, step by step, with the slots filled; needs no browser.
    Slots without a value stay as ``{name}`` and are listed under ``unfilled`` (of the
    report and of each step that uses them): a real replay needs them first.

    The one report that shows slot values: the user asked to see them."""
    steps = validate(routine)
    check_slots(routine, slots, allow_missing=True)
    out: list[dict[str, Any]] = []
    start = routine.get("start_url")
    if start and steps[0].get("op") != "navigate":
        out.append(
            {
                "n": 0,
                "op": "open",
                "action": f"open {fill(start, slots, in_url=True)}",
                "would": "run",
            }
        )
    for step in steps:
        op = step["op"]
        entry: dict[str, Any] = {"n": step["n"], "op": op, "app": step.get("app")}
        if "target" in step:
            entry["target"] = step["target"]
        tgt = step.get("target")
        if isinstance(tgt, dict) and isinstance(tgt.get("name"), str):
            tgt = {**tgt, "name": fill(tgt["name"], slots)}
        target = _target_text(tgt)
        if op == "navigate" and step.get("caused") is True:
            page = (step.get("expect_after") or {}).get("url") or "the next page"
            entry["action"] = f"wait for {page} (the previous step opens it)"
        elif op == "navigate":
            entry["action"] = f"open {fill(step.get('url') or '', slots, in_url=True)}"
        elif op == "click":
            entry["action"] = f"click {target}"
        elif op in ("type", "paste"):
            entry["action"] = f"{op} “{fill(step.get('value') or '', slots)}” into {target}"
        else:
            entry["action"] = f"{op} {target}".strip()
        entry["guards"] = sorted({g["check"] for g in step.get("guards", [])}, key=_guard_rank)
        destructive = is_destructive(step)
        entry["destructive"] = destructive
        if op in ("copy", "focus", "scroll"):
            entry["would"] = "skip: " + _skip_reason(op)
        elif not is_browser_app(step.get("app")):
            entry["would"] = "stop: not a browser step (replay drives a browser only)"
        elif op not in _BROWSER_OPS:
            entry["would"] = f"stop: op {op!r} is not supported"
        elif destructive and not allow_destructive:
            entry["would"] = "stop: destructive, needs --allow-destructive"
        else:
            entry["would"] = "run"
        missing = _step_unfilled(step, slots)
        if missing:
            entry["unfilled"] = missing
        out.append(entry)
    return {
        "routine": routine["id"],
        "title": routine.get("title"),
        "status": "dry_run",
        "options": {"allow_destructive": allow_destructive},
        "slots": {k: slots[k] for k in sorted(slots)},
        "unfilled": unfilled(routine, slots),
        "steps": out,
    }


def _guard_rank(kind: str) -> tuple[int, str]:
    return (_GUARD_ORDER.index(kind) if kind in _GUARD_ORDER else len(_GUARD_ORDER), kind)


def _skip_reason(op: str) -> str:
    if op == "copy":
        return "a copy is satisfied by a slot (the value it copied comes from --slot)"
    if op == "focus":
        return "the replay's browser page already has the focus"
    return "clicks scroll their own target into view"


# ---------------------------------------------------------------- replay


class _Stop(Exception):
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
StepsBar = Callable[[Sequence[dict[str, Any]]], Iterable[dict[str, Any]]]


class _Replayer:
    def __init__(
        self,
        routine: Mapping[str, Any],
        slots: Mapping[str, str],
        page: Browser,
        *,
        allow_destructive: bool,
        loose_position: bool,
        steps_bar: StepsBar | None = None,
    ) -> None:
        self.steps_bar = steps_bar
        self.routine = routine
        self.slots = slots
        self.page = page
        self.allow_destructive = allow_destructive
        self.loose_position = loose_position
        self.frame_id = ""
        # Longest first, so a value inside another value is masked as the longer one.
        self._mask = sorted(
            ((v, k) for k, v in slots.items() if len(v) >= MIN_MASKED_CHARS),
            key=lambda p: (-len(p[0]), p[1]),
        )

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
            out.append({"name": _norm(name), "node": node.get("backendDOMNodeId")})
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
        """The one element with this role and name; _Stop when none or several."""
        want = _norm(name)
        all_of_role = self.candidates(role)
        hits = [c for c in all_of_role if c["name"] == want]
        expected = {"role": role, "name": name}
        found = {
            "role": canonical_role(role),
            "candidates": [c["name"] for c in all_of_role[:MAX_CANDIDATES]],
            "more": max(0, len(all_of_role) - MAX_CANDIDATES),
        }
        if not hits:
            raise _Stop(
                "guard",
                "target",
                f"not found: no {canonical_role(role)} named “{want}” on the page",
                expected,
                found,
            )
        if len(hits) > 1:
            raise _Stop(
                "guard",
                "target",
                f"ambiguous: {len(hits)} elements are {canonical_role(role)} “{want}”",
                expected,
                found | {"matches": len(hits)},
            )
        node = hits[0]["node"]
        if not isinstance(node, int):
            raise _Stop("guard", "target", "the element has no DOM node to act on", expected, found)
        return node

    def check_url(self, template: str, *, after: bool = False) -> None:
        current = self.current_url()
        got = url_template(current)
        if got != template:
            where = "after navigating" if after else "before the step"
            raise _Stop(
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
            raise _Stop(
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
        guards = sorted(step.get("guards", []), key=lambda g: _guard_rank(g["check"]))
        # The step's own target is always resolved (it is how the element is found), so a
        # plan without a target guard is still held to one unique element.
        node: int | None = None
        for g in guards:
            check = g["check"]
            if check == "app":
                if not is_browser_app(g.get("app")):
                    raise _Stop(
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
                    raise _Stop("guard", "target", "two target guards name different elements")
                node = found
            elif check == "position":
                if self.loose_position:
                    results[check] = "skipped"
                    continue
                if node is None:
                    node = self.step_target(step)
                self.check_position(node, g)
            else:
                raise _Stop("guard", check, f"unknown guard kind {check!r}: cannot be checked")
            results[check] = "held"
        if op in _TARGET_OPS and node is None:
            node = self.step_target(step)
        return results, node

    def step_target(self, step: Mapping[str, Any]) -> int:
        target = step["target"]
        return self.find_target(target["role"], fill(target["name"], self.slots))

    # ---- actions

    def wait_load(self, since: int, *, sent: bool) -> None:
        """Wait (bounded) for the main frame's load after ``since``; then its HTTP status
        must not be an error."""
        try:
            self.page.wait_event("Page.loadEventFired", since=since, timeout_ms=LOAD_TIMEOUT_MS)
        except CDPError:
            raise _Stop(
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
            raise _Stop(
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
            raise _Stop(
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
            raise _Stop(
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
            raise _Stop(
                "guard",
                "hit",
                "another element covers the target at its centre",
                {"element": "the target"},
                {"point": point, "element": str(cover)},
            )
        if is_destructive(step) and not self.allow_destructive:
            raise _destructive_stop(step)
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
            raise _Stop(
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

    # ---- the run

    def run(self) -> dict[str, Any]:
        steps = validate(self.routine)
        check_slots(self.routine, self.slots)
        done: list[dict[str, Any]] = []
        stopped: dict[str, Any] | None = None
        remaining = [s["n"] for s in steps]
        current: Mapping[str, Any] = {"n": 0, "op": "open"}
        try:
            self.start()
            start = self.routine.get("start_url")
            if start and steps[0]["op"] != "navigate":
                self.navigate(fill(start, self.slots, in_url=True))
                done.append({"n": 0, "op": "open", "url": start, "status": "done"})
            for step in self.steps_bar(steps) if self.steps_bar else steps:
                current = step
                done.append(self.step(step))
                remaining.pop(0)
        except _Stop as stop:
            stopped = self.stopped(current, stop)
        except CDPError as exc:
            stopped = self.stopped(current, _Stop("browser", None, f"browser: {exc}"))
        if stopped is not None and remaining and remaining[0] == current.get("n"):
            remaining.pop(0)
        return {
            "routine": self.routine["id"],
            "title": self.routine.get("title"),
            "status": "stopped" if stopped else "completed",
            "options": {
                "allow_destructive": self.allow_destructive,
                "loose_position": self.loose_position,
            },
            "slots": sorted(self.slots),
            "steps": done,
            "stopped": stopped,
            "not_run": remaining,
        }

    def start(self) -> None:
        if self.page.session_id is None:
            self.page.open_page()
        for domain in ("Page", "Runtime", "Network", "DOM", "Accessibility"):
            self.page.send(f"{domain}.enable")
        self.frame_id = self.page.send("Page.getFrameTree")["frameTree"]["frame"]["id"]

    def step(self, step: Mapping[str, Any]) -> dict[str, Any]:
        op = step["op"]
        entry: dict[str, Any] = {"n": step["n"], "op": op}
        if step.get("app") is not None:
            entry["app"] = step["app"]
        if "target" in step:
            entry["target"] = step["target"]
        if op in ("copy", "focus", "scroll"):
            # Nothing to send: the value a copy carried arrives as a slot.
            entry |= {"status": "skipped", "reason": _skip_reason(op)}
            return entry
        if not is_browser_app(step.get("app")):
            raise _Stop(
                "guard",
                "app",
                "not a browser step (replay drives a browser only)",
                {"app": "a browser"},
                {"app": step.get("app")},
            )
        if op not in _BROWSER_OPS:
            raise _Stop("unsupported", None, f"op {op!r} cannot be replayed")
        guards, node = self.check_guards(step)
        if op != "click" and step.get("destructive") is True and not self.allow_destructive:
            raise _destructive_stop(step)  # clicks check this after their hit test
        if op == "navigate" and step.get("caused") is True:
            # The previous step opened this page: nothing is sent, the page is awaited.
            entry["caused"] = True
            after = (step.get("expect_after") or {}).get("url")
            self.await_page(after)
            if after:
                self.check_url(after)
                guards["expect_after.url"] = "held"
        elif op == "navigate":
            entry["url"] = step["url"]
            self.navigate(fill(step["url"], self.slots, in_url=True))
            after = (step.get("expect_after") or {}).get("url")
            if after:
                self.check_url(after, after=True)
                guards["expect_after.url"] = "held"
        elif op == "click":
            assert node is not None
            entry["at"] = self.click(step, node, guards.get("position") == "held")
        else:
            assert node is not None
            entry["value"] = step["value"]  # the template: slot names, never their values
            self.insert(node, fill(step["value"], self.slots))
        entry["guards"] = guards
        entry["status"] = "done"
        return entry

    def stopped(self, step: Mapping[str, Any], stop: _Stop) -> dict[str, Any]:
        out: dict[str, Any] = {"n": step.get("n"), "op": step.get("op")}
        if "target" in step:
            out["target"] = step["target"]
        out |= {
            "reason": stop.reason,
            "guard": stop.guard,
            "message": self.mask(stop.message),
            "expected": stop.expected,
            "found": self.mask(stop.found),
            "sent": stop.sent,
        }
        return out


def _destructive_stop(step: Mapping[str, Any]) -> _Stop:
    why = "marked destructive" if step.get("destructive") is True else "its name says so"
    what = f"{step.get('op')} {_target_text(step.get('target'))}".strip()
    return _Stop(
        "destructive",
        None,
        f"{what} is destructive ({why}): not sent; "
        "re-run with --allow-destructive, or do this step by hand",
        {"allow_destructive": True},
        {"allow_destructive": False},
    )


def replay(
    routine: Mapping[str, Any],
    slots: Mapping[str, str],
    session: Browser,
    *,
    allow_destructive: bool = False,
    loose_position: bool = False,
    steps_bar: StepsBar | None = None,
) -> dict[str, Any]:
    """Run the routine's plan in ``session`` (a page is opened if it has none).

    Raises PlanError (a plan that cannot be replayed) or UsageError (slot values missing
    or unknown) before anything is sent; every other problem ends the replay with
    ``status: "stopped"`` and a ``stopped`` hand-off. Keys are in a fixed order."""
    return _Replayer(
        routine,
        slots,
        session,
        allow_destructive=allow_destructive,
        loose_position=loose_position,
        steps_bar=steps_bar,
    ).run()


# ---------------------------------------------------------------- loading and rendering


def load_plan(path: Path, routine_id: str) -> dict[str, Any]:
    """The routine ``routine_id`` from a JSON file of one routine object, a JSON array of
    them, or JSON lines (as ``actframes routines --format json`` prints them)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SourceError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"{path}: cannot be read ({type(exc).__name__})") from None
    routines: list[Any]
    try:
        whole = json.loads(text)
        routines = whole if isinstance(whole, list) else [whole]
    except ValueError:
        routines = []
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                routines.append(json.loads(line))
            except ValueError:
                raise SourceError(f"{path}: line {i} is not JSON") from None
    found = [r for r in routines if isinstance(r, dict) and r.get("id") == routine_id]
    if not found:
        ids = sorted(str(r.get("id")) for r in routines if isinstance(r, dict))
        shown = ", ".join(ids[:10]) + (" …" if len(ids) > 10 else "")
        raise UsageError(
            f"{path}: no routine {routine_id}" + (f" (it holds: {shown})" if ids else "")
        )
    routine: dict[str, Any] = found[0]
    return routine


def to_json(report: Mapping[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2) + "\n"


def to_markdown(report: Mapping[str, Any]) -> str:
    title = report.get("title") or ""
    lines = [f"# Replay of {report['routine']}" + (f" — {title}" if title else ""), ""]
    status = report["status"]
    stopped = report.get("stopped")
    if status == "dry_run":
        lines += ["Dry run: nothing was sent.", ""]
        missing = report.get("unfilled") or []
        if missing:
            names = ", ".join(f"`{n}`" for n in missing)
            lines += [
                f"Unfilled slots: {names} (marked ⟨unfilled⟩ below); a replay needs "
                "--slot NAME=VALUE for each.",
                "",
            ]
        lines += ["| step | action | guards | would |", "|---|---|---|---|"]
        for s in report["steps"]:
            guards = ", ".join(s.get("guards", []))
            action = _md(s["action"])
            if s.get("unfilled"):
                action += " ⟨unfilled: " + ", ".join(s["unfilled"]) + "⟩"
            lines.append(f"| {s['n']} | {action} | {guards} | {_md(s['would'])} |")
        return "\n".join(lines) + "\n"
    if stopped:
        what = f"{stopped['op']} {_target_text(stopped.get('target'))}".strip()
        lines.append(
            f"**Stopped at step {stopped['n']}** ({_flat(what)}): {_flat(stopped['message'])}"
        )
    else:
        lines.append("**Completed**: every step ran.")
    lines += ["", "| step | op | target | status |", "|---|---|---|---|"]
    for s in report["steps"]:
        what = _target_text(s.get("target")) or s.get("url") or ""
        if s.get("caused"):
            what = "the page the previous step opened"
        lines.append(f"| {s['n']} | {s['op']} | {_md(what)} | {s['status']} |")
    if stopped:
        what = _target_text(stopped.get("target"))
        lines.append(f"| {stopped['n']} | {stopped['op']} | {_md(what)} | **stopped** |")
        lines += ["", "## Hand-off", ""]
        lines.append(
            f"- reason: {stopped['reason']}"
            + (f", guard `{stopped['guard']}`" if stopped.get("guard") else "")
        )
        lines.append(f"- sent: {'yes' if stopped['sent'] else 'no'}")
        for key in ("expected", "found"):
            if stopped.get(key) is not None:
                lines.append(f"- {key}: {_code(json.dumps(stopped[key], ensure_ascii=False))}")
        if report.get("not_run"):
            lines.append("- not run: steps " + ", ".join(str(n) for n in report["not_run"]))
    return "\n".join(lines) + "\n"


def _flat(text: object) -> str:
    return " ".join(str(text).split())


def _md(text: object) -> str:
    """Text for a table cell: one line, pipes escaped."""
    return _flat(text).replace("|", "\\|")


def _code(text: str) -> str:
    """A code span that page text with backticks cannot close early (CommonMark)."""
    runs = [len(r) for r in re.findall("`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
