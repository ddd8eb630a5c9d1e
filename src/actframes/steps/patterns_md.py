"""``actframes patterns --format md``: the measured patterns as a Markdown list.

One section per kind, one bullet per pattern in words, each with its count, its time
span and how much evidence the JSON form carries. Kinds this module does not know yet
still print, as their fields.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

EVIDENCE_KEYS = ("events", "rows", "at")
TITLES = {
    "repeated_click": "Repeated clicks",
    "repeated_action": "Repeated typing and pasting",
    "url_loop": "Pages visited over and over",
    "app_pingpong": "Back and forth between apps",
    "daily_habit": "Daily habits",
    "repeated_text": "Repeated text",
}


def to_markdown(patterns: Sequence[Mapping[str, Any]], first: str, last: str, zone: str) -> str:
    lines = [f"# Patterns, {first} to {last} ({zone})", ""]
    if not patterns:
        lines.append("No patterns in this window (try more --days or another --until).")
        return "\n".join(lines) + "\n"
    kinds = list(TITLES) + sorted({str(p.get("kind")) for p in patterns} - set(TITLES))
    for kind in kinds:
        group = [p for p in patterns if p.get("kind") == kind]
        if not group:
            continue
        lines += [f"## {TITLES.get(kind, kind)} ({len(group)})", ""]
        lines += [f"- {bullet(p)}" for p in group]
        lines.append("")
    return "\n".join(lines)


def bullet(p: Mapping[str, Any]) -> str:
    kind = p.get("kind")
    evidence = _evidence(p)
    if kind in ("repeated_click", "repeated_action"):
        target = p.get("target") or {}
        return (
            f"{p.get('op')} {_quote(target.get('role'))} {_named(target.get('name'))} in "
            f"{_quote(p.get('app'))} — {p.get('count')} times in {p.get('sequences')} "
            f"sequence(s), {_span(p)}{evidence}"
        )
    if kind == "url_loop":
        return (
            f"`{_code(p.get('template'))}` — {p.get('count')} visits on {p.get('day')}, "
            f"{_span(p)}{evidence}"
        )
    if kind == "app_pingpong":
        apps = " ⇄ ".join(_quote(a) for a in p.get("apps") or [])
        return f"{apps} — {p.get('switches')} switches, {_span(p)}{evidence}"
    if kind == "daily_habit":
        return (
            f"{p.get('what')} {_named(p.get('name'))} — on {p.get('days')} days around "
            f"{p.get('around')}{evidence}"
        )
    if kind == "repeated_text":
        return f"{_named(p.get('text'))} — {p.get('count')} times, {_span(p)}{evidence}"
    fields = {k: v for k, v in p.items() if k not in EVIDENCE_KEYS}
    return f"`{_code(json.dumps(fields, ensure_ascii=False))}`{evidence}"


def _evidence(p: Mapping[str, Any]) -> str:
    for key in EVIDENCE_KEYS:
        items = p.get(key)
        if isinstance(items, list) and items:
            what = {"events": "events", "rows": "rows", "at": "times"}[key]
            return f" (evidence: {len(items)} {what})"
    return ""


def _span(p: Mapping[str, Any]) -> str:
    first, last = str(p.get("first") or ""), str(p.get("last") or "")
    # ISO local times: date and minute are what a reader needs.
    return f"{first[:16].replace('T', ' ')} … {last[:16].replace('T', ' ')}"


def _flat(text: object) -> str:
    return " ".join(str(text or "").split())


def _quote(text: object) -> str:
    """Screen text as plain Markdown text: no markup can start in it."""
    out = _flat(text)
    for ch in "\\`*_[]<>#|":
        out = out.replace(ch, "\\" + ch)
    return out


def _named(text: object) -> str:
    return f"“{_quote(text)}”"


def _code(text: object) -> str:
    return _flat(text).replace("`", "'")
