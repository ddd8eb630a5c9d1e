"""The MCP tool for projects: time per project and day, with the frames that hold it."""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from ..classify.names import project_key
from ..emit.timesheet import timesheet
from ..window import WindowError, days_from
from .library import MAX_SEARCH_DAYS, Service
from .limits import Day
from .tools import result


def get_projects(
    svc: Service, day: Day | None = None, since: Day | None = None, until: Day | None = None
) -> CallToolResult:
    """Measured time per project, per local day, with the frame ids that hold it.

    Projects come from the user's project rules and from what the frames show (editor
    workspaces, repositories on code hosts, terminal folders, tracker keys); time with
    no project is `unassigned`, never guessed. Window: a local `day` (default today), or
    the days `since` through `until` (both included; YYYY-MM-DD, today or yesterday).
    Each day's seconds add up to that day's measured active time.
    """
    if day is not None and (since or until):
        raise ToolError("give day, or since/until, not both")
    if until is not None and since is None:
        raise ToolError("until needs since")
    first = svc.day(since or day or "today", "since" if since else "day")
    last = svc.day(until, "until") if until else first
    try:
        days = days_from(first, last, MAX_SEARCH_DAYS)
    except WindowError as exc:
        raise ToolError(str(exc)) from exc
    docs = dict(svc.compile_days(days))
    sheet = timesheet(list(docs.values()))
    frames: dict[str, dict[str, list[str]]] = {}  # project key -> day -> frame ids
    unassigned: dict[str, dict[str, Any]] = {}
    for d, doc in docs.items():
        for e in doc["projects"]["entries"]:
            frames.setdefault(_key(e["name"]), {}).setdefault(d, []).extend(e["frames"])
        un = doc["projects"]["unassigned"]
        if un["active_s"]:
            unassigned[d] = {"active_s": un["active_s"], "frames": un["frames"]}
    projects = []
    for p in sheet["projects"]:
        by_day = frames.get(_key(p["name"]), {})
        per_day = {d: {"active_s": s, "frames": by_day.get(d, [])} for d, s in p["days"].items()}
        projects.append({"name": p["name"], "active_s": p["active_s"], "days": per_day})
    out = {
        "since": sheet["since"],
        "until": sheet["until"],
        "tz": sheet["tz"],
        "rules": sheet["rules"],
        "projects": projects,
        "unassigned": {"active_s": sheet["unassigned_s"], "days": unassigned},
        "total_s": sheet["total_s"],
    }
    lines = [
        f"projects {sheet['since']} to {sheet['until']} ({sheet['tz']}); rules {sheet['rules']}"
    ]
    lines += [
        f"- {json.dumps(p['name'], ensure_ascii=False)}: {p['active_s']} s"
        + "".join(f"; {d} {v['active_s']} s" for d, v in p["days"].items())
        for p in projects
    ]
    lines.append(f"- (unassigned): {sheet['unassigned_s']} s; total {sheet['total_s']} s")
    return result("\n".join(lines), out)


def _key(name: str) -> str:
    return project_key(name) or name  # (the timesheet groups names so)
