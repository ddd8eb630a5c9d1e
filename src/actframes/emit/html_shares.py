"""The HTML report's projects and categories: bars beside the ledger, drawn the way the
ledger's are (the same seconds as the document's ``projects`` and ``categories``)."""

from __future__ import annotations

from html import escape

from .html_layout import PALETTE, PCT_SCALE, Doc, minutes, pct

UNASSIGNED_COLOUR = "#bab0ac"  # grey: time no project holds


def shares_sections(doc: Doc) -> str:
    """A Projects section (when any project holds time) and a Categories section."""
    out = []
    projects = doc.get("projects")
    if projects and projects["entries"]:
        rows = [(e["name"], e["active_s"], len(e["frames"]), False) for e in projects["entries"]]
        un = projects["unassigned"]
        if un["active_s"]:
            rows.append(("(unassigned)", un["active_s"], len(un["frames"]), True))
        out.append(_section("projects", "Projects", projects["rules"], rows))
    categories = doc.get("categories")
    if categories and categories["entries"]:
        rows = [(e["name"], e["active_s"], len(e["frames"]), False) for e in categories["entries"]]
        out.append(_section("categories", "Categories", categories["rules"], rows))
    return "".join(out)


def _section(key: str, head: str, rules: str, rows: list[tuple[str, int, int, bool]]) -> str:
    top = max((s for _, s, _, _ in rows), default=0)
    items = []
    for n, (name, secs, frames, none) in enumerate(rows):
        width = secs * PCT_SCALE // top if top else 0
        colour = UNASSIGNED_COLOUR if none else PALETTE[n % len(PALETTE)]
        unassigned = ' data-unassigned="1"' if none else ""
        items.append(
            f'<li class="srow" data-name="{escape(name)}"{unassigned} data-active-s="{secs}"'
            f' data-frames="{frames}">'
            f'<span class="lname" title="{escape(name)}"><span class="n-app solo">'
            f"{escape(name)}</span></span>"
            f'<span class="ltrack"><i class="lbar" style="width:{pct(width)};'
            f'background:{colour}"></i></span>'
            f'<span class="lmin">{minutes(secs)}</span><span class="lsec">{secs} s</span>'
            "</li>"
        )
    total = sum(s for _, s, _, _ in rows)
    return (
        f'<section id="{key}" aria-labelledby="{key}-h" tabindex="-1">'
        f'<h2 id="{key}-h">{head}</h2>'
        f'<p class="hint">Rules: {escape(rules)}. Every credited second once; the entries '
        "add up to the ledger's total.</p>"
        f'<ol class="shares">{"".join(items)}</ol>'
        f'<p class="total">Total {minutes(total)} ({total} s)</p>'
        "</section>"
    )
