"""A replay's report as JSON or Markdown (a dry run's too)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .replay_plan import target_text


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
        what = f"{stopped['op']} {target_text(stopped.get('target'))}".strip()
        lines.append(
            f"**Stopped at step {stopped['n']}** ({_flat(what)}): {_flat(stopped['message'])}"
        )
    else:
        lines.append("**Completed**: every step ran.")
    lines += ["", "| step | op | target | status |", "|---|---|---|---|"]
    for s in report["steps"]:
        what = target_text(s.get("target")) or s.get("url") or ""
        if s.get("caused"):
            what = "the page the previous step opened"
        lines.append(f"| {s['n']} | {s['op']} | {_md(what)} | {s['status']} |")
    if stopped:
        what = target_text(stopped.get("target"))
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
