"""Markdown: a readable day — coverage, the ledger, and a table of frames."""

from __future__ import annotations

from ..compile.disclosures import input_recorded
from ..doc_types import Document, InputCounts, ShareEntry, Unassigned
from .durations import fmt_dur
from .usable import usability_line


def to_markdown(doc: Document) -> str:
    w = doc["window"]
    cov = doc["coverage"]
    title = f"day {w['day']}" if "day" in w else f"{w['start']} – {w['end']}"
    out = [f"# Activity: {title} ({w['tz']})", ""]
    out.append("Measured from capture by deterministic rules; titles are text from the screen.")
    out.append("")
    first = _hms(cov["first"]) if cov["first"] else "–"
    last = _hms(cov["last"]) if cov["last"] else "–"
    un = cov["unattributed_input"]["events"]
    out.append(
        f"**Coverage:** {first}–{last} · active {fmt_dur(cov['active_s'])} ({cov['active_s']} s)"
        f" · {cov['rows']} rows · {cov['input_events']} input events ({un} unattributed)"
    )
    warn = usability_line(doc)
    if warn is not None:
        out.append(f"**Warning:** {_cell(warn)}")
    for label, spans in (("Gap", cov["gaps"]), ("Away", cov["away"])):
        for g in spans:
            out.append(f"- {label} {_hms(g['start'])}–{_hms(g['end'])} ({fmt_dur(g['s'])})")
    # A source that records no input shows "—" for its counts, never 0.
    measured = input_recorded(doc)
    out += ["", "## Ledger", "", "| App | Site | Active | Seconds | Keys | Clicks |"]
    out.append("|---|---|---:|---:|---:|---:|")
    for e in doc["ledger"]:
        keys, clicks = (e["keys"], e["clicks"]) if measured else ("—", "—")
        out.append(
            f"| {_cell(e['app'])} | {_cell(e.get('site') or '')} | {fmt_dur(e['active_s'])} "
            f"| {e['active_s']} | {keys} | {clicks} |"
        )
    out += _shares(doc, measured)
    out += ["", "## Frames", "", "| Time | App | Site | Project | Active | Input | Title | Id |"]
    out.append("|---|---|---|---|---:|---|---|---|")
    for f in doc["frames"]:
        inp = f["input"]
        t = f["titles"][0] if f["titles"] else ""
        if f["interruptions"]:
            t += f" (+{len(f['interruptions'])} interruptions)"
        out.append(
            f"| {_hms(f['start'])}–{_hms(f['end'])} | {_cell(f['app'])} | "
            f"{_cell(f.get('site') or '')} | {_cell(f.get('project') or '')} | "
            f"{fmt_dur(f['active_s'])} | "
            f"{_input(inp) if measured else '—'} | {_cell(t)} | {f['id']} |"
        )
    om = doc["omitted"]
    if om["frames"]:
        out += [
            "",
            f"Omitted {om['frames']} frames ({fmt_dur(om['active_s'])}); the ledger counts them.",
        ]
    if doc["rejected_rows"]:
        out += ["", "## Rejected rows", ""]
        for r in doc["rejected_rows"]:
            out.append(f"- {r['table']}: {r['reason']} ({r['count']}: rows {r['rows']})")
    out += ["", "## Blind spots", ""] + [f"- {b}" for b in doc["blind_spots"]]
    return "\n".join(out) + "\n"


def _shares(doc: Document, measured: bool) -> list[str]:
    """The projects table (with the unassigned time) and the categories table."""
    out: list[str] = []
    projects, categories = doc.get("projects"), doc.get("categories")
    for head, section, rest in (
        ("Projects", projects, projects["unassigned"] if projects else None),
        ("Categories", categories, None),
    ):
        if not section or not section["entries"]:
            continue
        what = head[:-3] + "y" if head == "Categories" else head[:-1]
        out += ["", f"## {head}", "", f"Rules: {_cell(section['rules'])}.", ""]
        out += [
            f"| {what} | Active | Seconds | Keys | Clicks | Frames |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        rows: list[tuple[str, ShareEntry | Unassigned]] = [
            (_cell(e["name"]), e) for e in section["entries"]
        ]
        if rest is not None and rest["active_s"]:
            rows.append(("*(unassigned)*", rest))
        for name, e in rows:
            keys, clicks = (e["keys"], e["clicks"]) if measured else ("—", "—")
            out.append(
                f"| {name} | {fmt_dur(e['active_s'])} | {e['active_s']} | {keys} | {clicks} "
                f"| {len(e['frames'])} |"
            )
    return out


def _input(inp: InputCounts) -> str:
    return f"{inp['keys']} keys, {inp['clicks']} clicks"


def _hms(iso: str) -> str:
    return iso[11:19]


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
