"""Slots of a routine's plan: the names it declares or uses as ``{name}``, checking the
values given for them, and filling them in."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from ..errors import UsageError
from .replay_plan import TARGET_OPS, is_browser_app

_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


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
            if step.get("op") in TARGET_OPS and is_browser_app(step.get("app")):
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


def step_unfilled(step: Mapping[str, Any], slots: Mapping[str, str]) -> list[str]:
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
