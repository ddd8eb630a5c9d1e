"""A period (and a comparison of two) as Markdown: totals, one row per day, the ledger,
app totals, projects, categories and the references viewed most."""

from __future__ import annotations

from typing import Any

from ..period_types import PeriodDocument
from .durations import fmt_dur
from .timesheet import _cell

VIEWED_ROWS = 50


def period_markdown(doc: PeriodDocument) -> str:
    w, t = doc["window"], doc["totals"]
    out = [
        f"# Activity {w['label']} ({w['since']} – {w['until']}, {w['tz']})",
        "",
        f"Measured from capture by deterministic rules: **{fmt_dur(t['active_s'])}** active"
        f" on {t['days_active']} of {w['days']} days, {t['rows']} rows,"
        f" {t['keys']} keys, {t['clicks']} clicks, away {fmt_dur(t['away_s'])}.",
        "",
        "## Days",
        "",
        "| Day | | First | Last | Active | Away | Keys | Clicks | Top apps |",
        "|---|---|---|---|---:|---:|---:|---:|---|",
    ]
    for d in doc["days"]:
        apps = ", ".join(f"{a['app']} {fmt_dur(a['active_s'])}" for a in d["apps"][:3])
        out.append(
            f"| {d['day']} | {d['weekday']} | {(d['first'] or '')[11:16]} |"
            f" {(d['last'] or '')[11:16]} | {fmt_dur(d['active_s'])} |"
            f" {fmt_dur(d['away_s']) if d['away_s'] else ''} | {d['keys']} | {d['clicks']} |"
            f" {_cell(apps)} |"
        )
    out += ["", "## Ledger", "", "| App | Site | Active | Keys | Clicks | Days |"]
    out.append("|---|---|---:|---:|---:|---:|")
    for e in doc["ledger"]:
        out.append(
            f"| {_cell(e['app'])} | {_cell(e.get('site', ''))} | {fmt_dur(e['active_s'])} |"
            f" {e['keys']} | {e['clicks']} | {e['days']} |"
        )
    out += ["", "## Apps", "", "| App | Active | Keys | Clicks | Days | Busiest day |"]
    out.append("|---|---:|---:|---:|---:|---|")
    for a in doc["apps"]:
        out.append(
            f"| {_cell(a['app'])} | {fmt_dur(a['active_s'])} | {a['keys']} | {a['clicks']} |"
            f" {a['days']} | {a['busiest'] or ''} |"
        )
    for title, shares in (("Projects", doc["projects"]), ("Categories", doc["categories"])):
        if not shares["entries"]:
            continue
        out += ["", f"## {title}", "", f"Rules: {shares['rules']}.", ""]
        out += ["| Name | Active | Keys | Clicks | Days |", "|---|---:|---:|---:|---:|"]
        for s in shares["entries"]:
            out.append(
                f"| {_cell(s['name'])} | {fmt_dur(s['active_s'])} | {s['keys']} |"
                f" {s['clicks']} | {s['days']} |"
            )
        if shares.get("unassigned_s"):
            out.append(f"| *(unassigned)* | {fmt_dur(shares.get('unassigned_s', 0))} | | | |")
    if doc["viewed"]:
        seen = doc["viewed"]
        top = sorted(range(len(seen)), key=lambda i: (-seen[i]["views"], i))[:VIEWED_ROWS]
        out += ["", "## Viewed most", "", "| Kind | Entity | Views | Days | First | Last |"]
        out.append("|---|---|---:|---:|---|---|")
        for i in sorted(top):
            v = seen[i]
            out.append(
                f"| {v['kind']} | {_cell(v['entity'])} | {v['views']} | {len(v['days'])} |"
                f" {v['first_day']} | {v['last_day']} |"
            )
        if len(seen) > VIEWED_ROWS:
            out.append(f"\n{len(seen) - VIEWED_ROWS} more in the JSON document.")
    if doc["blind_spots"]:
        out += ["", "## Blind spots", ""] + [f"- {s}" for s in doc["blind_spots"]]
    return "\n".join(out) + "\n"


def compare_markdown(cmp: dict[str, Any]) -> str:
    a, b = cmp["period"], cmp["vs"]
    out = [
        f"# {a['label']} vs {b['label']}",
        "",
        f"{a['since']} – {a['until']} against {b['since']} – {b['until']}; measured active"
        " time, the difference is this period's minus the other's.",
    ]
    for title, rows in (
        ("Total", [cmp["totals"]]),
        ("Apps", cmp["apps"]),
        ("Projects", cmp["projects"]),
        ("Categories", cmp["categories"]),
    ):
        if not rows:
            continue
        out += ["", f"## {title}", "", f"| Name | {a['label']} | {b['label']} | Difference |"]
        out.append("|---|---:|---:|---:|")
        for r in rows:
            out.append(
                f"| {_cell(r['name'])} | {fmt_dur(r['active_s'])} | {fmt_dur(r['vs_s'])} |"
                f" {signed(r['diff_s'])} |"
            )
    return "\n".join(out) + "\n"


def signed(s: int) -> str:
    """A difference of seconds with its sign: +1h02m, −5m, ±0."""
    if s == 0:
        return "±0"
    return ("+" if s > 0 else "−") + fmt_dur(abs(s))
