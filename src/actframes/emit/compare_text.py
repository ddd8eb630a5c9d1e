"""A comparison of two periods as context lines: per app, project and category both
periods' active time and the difference, so the model reads it rather than adds."""

from __future__ import annotations

from typing import Any

from .context import SEP, _q
from .durations import fmt_dur
from .period_markdown import signed
from .share_lines import name

ROWS = 15  # rows per group; the rest are counted


def compare_lines(cmp: dict[str, Any]) -> str:
    a, b = cmp["period"], cmp["vs"]
    t = cmp["totals"]
    lines = [
        f"compare {a['label']} ({a['since']}..{a['until']}) vs {b['label']}"
        f" ({b['since']}..{b['until']}) · measured active time · difference = first − second",
        "total"
        + SEP
        + SEP.join([fmt_dur(t["active_s"]), fmt_dur(t["vs_s"]), signed(t["diff_s"])])
        + SEP
        + f"days with activity {cmp['days_active']['this']} vs {cmp['days_active']['vs']}",
    ]
    for group, show in (("apps", _q), ("projects", name), ("categories", name)):
        rows = cmp[group]
        if not rows:
            continue
        lines.append(f"{group} (name · {a['label']} · {b['label']} · difference)")
        for r in rows[:ROWS]:
            cells = [show(r["name"]), fmt_dur(r["active_s"]), fmt_dur(r["vs_s"])]
            lines.append("- " + SEP.join([*cells, signed(r["diff_s"])]))
        if len(rows) > ROWS:
            lines.append(f"- +{len(rows) - ROWS} more {group} in the JSON comparison")
    return "\n".join(lines) + "\n"
