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

The parts: ``replay_plan`` (plan checks, loading), ``replay_slots``, ``replay_dry_run``,
``replay_page`` (page facts), ``replay_guards``, ``replay_actions``, ``replay_report``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .cdp import Browser, CDPError
from .replay_actions import ActingPage, destructive_stop
from .replay_dry_run import dry_run
from .replay_page import Stop
from .replay_plan import BROWSER_OPS, is_browser_app, load_plan, skip_reason, validate
from .replay_report import to_json, to_markdown
from .replay_slots import check_slots, fill

# The engine's face for the CLI and the MCP server.
__all__ = ["check_slots", "dry_run", "load_plan", "replay", "to_json", "to_markdown", "validate"]

# Slot values this short are not masked in quoted page text: masking "1" would mangle
# every URL and number, and such values say little.
MIN_MASKED_CHARS = 3

# Wraps the plan's steps as they run (a progress bar on a terminal).
StepsBar = Callable[[Sequence[dict[str, Any]]], Iterable[dict[str, Any]]]


class _Replayer(ActingPage):
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
        except Stop as stop:
            stopped = self.stopped(current, stop)
        except CDPError as exc:
            stopped = self.stopped(current, Stop("browser", None, f"browser: {exc}"))
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
            entry |= {"status": "skipped", "reason": skip_reason(op)}
            return entry
        if not is_browser_app(step.get("app")):
            raise Stop(
                "guard",
                "app",
                "not a browser step (replay drives a browser only)",
                {"app": "a browser"},
                {"app": step.get("app")},
            )
        if op not in BROWSER_OPS:
            raise Stop("unsupported", None, f"op {op!r} cannot be replayed")
        guards, node = self.check_guards(step)
        if op != "click" and step.get("destructive") is True and not self.allow_destructive:
            raise destructive_stop(step)  # clicks check this after their hit test
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

    def stopped(self, step: Mapping[str, Any], stop: Stop) -> dict[str, Any]:
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
