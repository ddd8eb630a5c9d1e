"""Replay's view of a routine's plan: what makes a step a browser step or a destructive
one, the checks a plan must pass before anything is sent (``validate``), and loading a
routine from a file of them."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import SourceError, UsageError
from .plan import DESTRUCTIVE

# App names that mean a browser (matched by containment, case-folded); "edge" is a word
# of its own so that e.g. "Knowledge base" is not a browser.
_BROWSER_HINTS = ("chrom", "firefox", "brave", "safari", "opera", "vivaldi", "fiori", "web")
_EDGE = re.compile(r"\b(ms)?edge\b", re.I)
_DESTRUCTIVE = DESTRUCTIVE  # one list of destructive words, the plan's
BROWSER_OPS = ("navigate", "click", "type", "paste")
TARGET_OPS = ("click", "type", "paste")
_GUARD_ORDER = ("app", "url", "target", "position")


class PlanError(SourceError):
    """A routine whose plan cannot be replayed as written (exit 1)."""


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


def norm_text(text: object) -> str:
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
        if browser and op in TARGET_OPS:
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


def target_text(target: object) -> str:
    if not isinstance(target, dict):
        return ""
    return f"{target.get('role', '')} “{target.get('name', '')}”"


def guard_rank(kind: str) -> tuple[int, str]:
    return (_GUARD_ORDER.index(kind) if kind in _GUARD_ORDER else len(_GUARD_ORDER), kind)


def skip_reason(op: str) -> str:
    if op == "copy":
        return "a copy is satisfied by a slot (the value it copied comes from --slot)"
    if op == "focus":
        return "the replay's browser page already has the focus"
    return "clicks scroll their own target into view"


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
