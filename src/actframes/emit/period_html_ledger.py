"""The period page's ledger table (the period document's ``ledger``: each day's ledger
summed) and its projects by day (a stacked bar per day from ``days[i].projects``, the
rest of the day's active time unassigned)."""

from __future__ import annotations

from html import escape

from ..classify.names import project_key
from ..period_types import PeriodDocument
from .durations import fmt_dur
from .html_layout import (
    OTHER_COLOUR,
    PALETTE,
    PCT_SCALE,
    Lane,
    lane_name,
    minutes,
    name_html,
    pct,
)
from .html_shares import UNASSIGNED_COLOUR


def ledger_section(period: PeriodDocument, colours: dict[Lane, str], has_input: bool) -> str:
    """One row per (app, site) of the period's ledger, in its order, with a bar as long as
    its share of the busiest entry; the total equals the period's active time."""
    entries = period["ledger"]
    top = max((e["active_s"] for e in entries), default=0)
    rows = []
    for e in entries:
        site = e.get("site")
        name = lane_name(e["app"], site)
        colour = colours.get((e["app"], site), OTHER_COLOUR)
        width = e["active_s"] * PCT_SCALE // top if top else 0
        site_attr = f' data-site="{escape(site)}"' if site is not None else ""
        keys, clicks = (e["keys"], e["clicks"]) if has_input else ("–", "–")
        rows.append(
            f'<tr class="plrow" data-app="{escape(e["app"])}"{site_attr}'
            f' data-active-s="{e["active_s"]}" data-keys="{e["keys"]}"'
            f' data-clicks="{e["clicks"]}" data-days="{e["days"]}">'
            f'<th scope="row"><span class="lname" title="{escape(name)}">'
            f'<i class="swatch" style="background:{colour}"></i>'
            f"{name_html(e['app'], site)}</span></th>"
            f'<td class="pbar"><span class="ltrack"><i class="lbar" style="width:{pct(width)};'
            f'background:{colour}"></i></span></td>'
            f'<td class="num lmin">{minutes(e["active_s"])}</td>'
            f'<td class="num lsec">{e["active_s"]} s</td>'
            f'<td class="num">{keys}</td><td class="num">{clicks}</td>'
            f'<td class="num">{e["days"]}</td>'
            "</tr>"
        )
    total = period["totals"]["active_s"]
    return (
        '<section id="ledger" aria-labelledby="ledger-h" tabindex="-1">'
        '<h2 id="ledger-h">Ledger</h2>'
        '<p class="hint">Active time per app and site over the period: the days\' ledgers '
        "summed, every credited second once. Minutes are seconds ÷ 60 rounded half up to a "
        "tenth; the exact seconds follow. Days: the days with time on it.</p>"
        '<div class="scroll"><table class="pledger"><thead><tr>'
        '<th scope="col">App · site</th>'
        '<th scope="col" class="pbar"><span class="sr">Share</span></th>'
        '<th scope="col">Active</th><th scope="col">Seconds</th><th scope="col">Keys</th>'
        '<th scope="col">Clicks</th><th scope="col">Days</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        f'<p class="total">Total {minutes(total)} ({total} s)</p>'
        "</section>"
    )


def projects_section(period: PeriodDocument) -> str:
    """When projects hold time: a stacked bar per day, one segment per project (coloured by
    the period's project rank, as the day report colours its projects) and a grey one for
    the unassigned rest; bars are as long as the day's share of the busiest day. Else
    nothing."""
    entries = period["projects"]["entries"]
    if not any(e["active_s"] for e in entries):
        return ""
    rank = {project_key(e["name"]) or e["name"]: n for n, e in enumerate(entries)}

    def colour(name: str) -> str:
        n = rank.get(project_key(name) or name)
        return PALETTE[n % len(PALETTE)] if n is not None else OTHER_COLOUR

    top = max((d["active_s"] for d in period["days"]), default=0)
    rows = []
    for d in period["days"]:
        held = [(p["name"], p["active_s"], colour(p["name"]), False) for p in d["projects"]]
        rest = max(0, d["active_s"] - sum(s for _, s, _, _ in held))
        if rest:
            held.append(("(unassigned)", rest, UNASSIGNED_COLOUR, True))
        segs, said, cum = [], [], 0
        for name, secs, c, none in held:
            a = cum * PCT_SCALE // top if top else 0
            cum += secs
            b = cum * PCT_SCALE // top if top else 0
            mark = ' data-unassigned="1"' if none else ""
            segs.append(
                f'<i class="pseg" data-name="{escape(name)}"{mark} data-active-s="{secs}"'
                f' style="left:{pct(a)};width:{pct(b - a)};background:{c}"'
                f' title="{escape(name)}: {minutes(secs)} ({secs} s)"></i>'
            )
            said.append(f"{name} {minutes(secs)}")
        day = f"{d['weekday']} {d['day']}"
        label = f"{day}: " + (", ".join(said) if said else "no active time")
        rows.append(
            f'<li class="prow" data-day="{escape(d["day"])}" data-active-s="{d["active_s"]}">'
            f'<span class="pday">{escape(day)}</span>'
            f'<span class="ptrack" role="img" aria-label="{escape(label)}">{"".join(segs)}</span>'
            f'<span class="lmin">{fmt_dur(d["active_s"])}</span></li>'
        )
    keys = [
        f'<span data-name="{escape(e["name"])}"><i class="key" style="background:'
        f'{PALETTE[n % len(PALETTE)]}"></i>{escape(e["name"])} {minutes(e["active_s"])}'
        f" ({e['active_s']} s)</span>"
        for n, e in enumerate(entries)
    ]
    un = period["projects"].get("unassigned_s", 0)
    if un:
        keys.append(
            f'<span data-unassigned="1"><i class="key" style="background:{UNASSIGNED_COLOUR}">'
            f"</i>(unassigned) {minutes(un)} ({un} s)</span>"
        )
    return (
        '<section id="projects" aria-labelledby="projects-h" tabindex="-1">'
        '<h2 id="projects-h">Projects by day</h2>'
        f'<p class="hint">Rules: {escape(period["projects"]["rules"])}. Each day\'s active '
        "time by project, the rest unassigned; the segments add up to the day's active "
        "time.</p>"
        f'<p class="legend pkeys">{"".join(keys)}</p>'
        f'<ol class="pstack">{"".join(rows)}</ol>'
        "</section>"
    )
