"""A timesheet: the projects of several days' documents, per project and day, as JSON,
CSV (what invoicing and time-tracking tools import) or Markdown (``actframes
projects``). Each day's seconds are that day's document's, so the days add up to what
``day`` says; a project seen under two spellings (days differ in what they saw) is one,
by ``classify.names.project_key``, shown by the spelling that holds most of its time."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from ..classify.names import project_key
from ..doc_types import Document
from .durations import fmt_dur

UNASSIGNED = "(unassigned)"
CSV_HEADER = ("date", "project", "seconds", "hours")


def timesheet(docs: Sequence[Document]) -> dict[str, Any]:
    """``{since, until, tz, rules, projects [{name, active_s, days {DAY: s}}],
    unassigned_s, total_s, days {DAY: s}}``; projects by seconds, then name."""
    per: dict[str, dict[str, int]] = {}  # key -> day -> seconds
    spellings: dict[str, dict[str, int]] = {}
    unassigned = 0
    days: dict[str, int] = {}
    rules: list[str] = []
    for doc in docs:
        day = doc["window"].get("day") or doc["window"]["start"][:10]
        days[day] = doc["coverage"]["active_s"]
        projects = doc.get("projects")
        if not projects:
            continue
        if projects["rules"] not in rules:
            rules.append(projects["rules"])
        unassigned += projects["unassigned"]["active_s"]
        for e in projects["entries"]:
            key = project_key(e["name"]) or e["name"]
            by_day = per.setdefault(key, {})
            by_day[day] = by_day.get(day, 0) + e["active_s"]
            names = spellings.setdefault(key, {})
            names[e["name"]] = names.get(e["name"], 0) + e["active_s"]
    out: list[dict[str, Any]] = []
    for key, by_day in per.items():
        names = spellings[key]
        name = min(names, key=lambda n: (-names[n], n))
        out.append(
            {"name": name, "active_s": sum(by_day.values()), "days": dict(sorted(by_day.items()))}
        )
    out.sort(key=lambda p: (-p["active_s"], p["name"]))
    ordered = sorted(days)
    return {
        "since": ordered[0] if ordered else None,
        "until": ordered[-1] if ordered else None,
        "tz": docs[0]["window"]["tz"] if docs else None,
        "rules": " | ".join(rules),
        "projects": out,
        "unassigned_s": unassigned,
        "total_s": sum(days.values()),
        "days": dict(sorted(days.items())),
    }


def _hours(seconds: Sequence[int]) -> list[str]:
    """Hours to two decimals that add up to the rounded hours of the seconds' sum: each
    gets its floor in hundredths, the rest go to the largest remainders (ties: first)."""
    exact = [s * 100 for s in seconds]  # hundredths of an hour, times 3600
    floors = [e // 3600 for e in exact]
    extra = (sum(exact) + 1800) // 3600 - sum(floors)
    for i in sorted(range(len(exact)), key=lambda i: (-(exact[i] % 3600), i))[:extra]:
        floors[i] += 1
    return [f"{h // 100}.{h % 100:02d}" for h in floors]


def day_rows(sheet: dict[str, Any]) -> list[tuple[str, str, int]]:
    """(date, project, seconds) for every day, its projects by seconds then name, then
    the day's unassigned time: each day's rows add up to its total."""
    rows = []
    for day, total in sheet["days"].items():
        items = sorted(
            ((p["name"], p["days"][day]) for p in sheet["projects"] if p["days"].get(day)),
            key=lambda x: (-x[1], x[0]),
        )
        rest = total - sum(s for _, s in items)
        if rest:
            items.append((UNASSIGNED, rest))
        rows += [(day, name, s) for name, s in items]
    return rows


def to_csv(sheet: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    rows = day_rows(sheet)
    for day in sheet["days"]:
        mine = [r for r in rows if r[0] == day]
        for (d, name, s), h in zip(mine, _hours([r[2] for r in mine]), strict=True):
            w.writerow((d, name, s, h))
    return buf.getvalue()


def to_markdown(sheet: dict[str, Any]) -> str:
    days = list(sheet["days"])
    head = (
        f"# Timesheet {sheet['since']} – {sheet['until']} ({sheet['tz']})"
        if days
        else "# Timesheet"
    )
    out = [
        head,
        "",
        f"Rules: {sheet['rules'] or 'none'}. Measured active time per project and day.",
        "",
    ]
    out.append("| Project | " + " | ".join(days) + " | Total |")
    out.append("|---|" + "---:|" * (len(days) + 1))
    for p in sheet["projects"]:
        cells = [fmt_dur(p["days"][d]) if p["days"].get(d) else "" for d in days]
        out.append(
            f"| {_cell(p['name'])} | " + " | ".join(cells) + f" | {fmt_dur(p['active_s'])} |"
        )
    rest = {
        d: t - sum(p["days"].get(d, 0) for p in sheet["projects"]) for d, t in sheet["days"].items()
    }
    if any(rest.values()):
        cells = [fmt_dur(rest[d]) if rest[d] else "" for d in days]
        out.append(
            "| *(unassigned)* | " + " | ".join(cells) + f" | {fmt_dur(sum(rest.values()))} |"
        )
    cells = [fmt_dur(sheet["days"][d]) for d in days]
    out.append("| **Total** | " + " | ".join(cells) + f" | {fmt_dur(sheet['total_s'])} |")
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
