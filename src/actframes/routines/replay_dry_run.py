"""A dry run of a routine's plan: what a replay would do, step by step, with the slots
filled; needs no browser."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .replay_plan import (
    BROWSER_OPS,
    guard_rank,
    is_browser_app,
    is_destructive,
    skip_reason,
    target_text,
    validate,
)
from .replay_slots import check_slots, fill, step_unfilled, unfilled


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
        target = target_text(tgt)
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
        entry["guards"] = sorted({g["check"] for g in step.get("guards", [])}, key=guard_rank)
        destructive = is_destructive(step)
        entry["destructive"] = destructive
        if op in ("copy", "focus", "scroll"):
            entry["would"] = "skip: " + skip_reason(op)
        elif not is_browser_app(step.get("app")):
            entry["would"] = "stop: not a browser step (replay drives a browser only)"
        elif op not in BROWSER_OPS:
            entry["would"] = f"stop: op {op!r} is not supported"
        elif destructive and not allow_destructive:
            entry["would"] = "stop: destructive, needs --allow-destructive"
        else:
            entry["would"] = "run"
        missing = step_unfilled(step, slots)
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
