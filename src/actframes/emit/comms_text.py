"""The communications view as Markdown and as a compact block for a prompt."""

from __future__ import annotations

from ..compile.disclosures import NO_INPUT
from ..doc_types import CommsView, Conversation, InputCounts, Surface, WindowInfo
from .durations import fmt_dur

View = CommsView


def _when(w: WindowInfo) -> str:
    return f"day {w['day']}" if "day" in w else f"{w['start']} – {w['end']}"


def _hm(iso: str) -> str:
    return iso[11:16]


def _name(c: Conversation) -> str:
    if c["kind"] == "title":
        return f'"{c["title"]}"'
    label = c["titles"][0] if c.get("titles") else ""
    return f"{c['kind']} {c['entity']}" + (f' ("{label}")' if label else "")


def _where(s: Surface) -> str:
    return str(s["app"]) + (f" · {s['site']}" if s.get("site") else "")


def _input(counts: InputCounts | None) -> str:
    """Keys and clicks, or that the source records none (never 0 for unknown)."""
    return NO_INPUT if counts is None else f"{counts['keys']} keys, {counts['clicks']} clicks"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def to_comms_markdown(view: View) -> str:
    w = view["window"]
    t = view["totals"]
    out = [f"# Communications: {_when(w)} ({w['tz']})", ""]
    out.append(f"Measured from {view['scope']}.")
    out.append("")
    if not view["surfaces"]:
        out.append("No e-mail, chat, meeting or social inbox in this window.")
        return "\n".join(out) + "\n"
    kinds = ", ".join(f"{k} {fmt_dur(s)}" for k, s in t["by_kind"].items())
    out.append(
        f"**Total:** {fmt_dur(t['active_s'])} ({t['active_s']} s) on "
        f"{_count(t['surfaces'], 'surface')} — {kinds}"
    )
    for s in view["surfaces"]:
        inp = s["input"]
        out += ["", f"## {s['kind']}: {_where(s)} — {fmt_dur(s['active_s'])} ({s['active_s']} s)"]
        out.append("")
        part = (
            f" · part of {fmt_dur(s['part_of_ledger_s'])} on the site"
            if "part_of_ledger_s" in s
            else ""
        )
        out.append(
            f"{_hm(s['first'])}–{_hm(s['last'])} · {_count(s['visits'], 'visit')} · "
            f"{_input(inp)}{part} · frames {s['evidence']['frames']}"
        )
        if s["conversations"]:
            out += ["", "| Conversation | Active | Visits | First–last | Frames |"]
            out.append("|---|---:|---:|---|---|")
            for c in s["conversations"]:
                out.append(
                    f"| {_cell(_name(c))} | {fmt_dur(c['active_s'])} | {c['visits']} | "
                    f"{_hm(c['first'])}–{_hm(c['last'])} | {c['evidence']['frames']} |"
                )
        if "omitted" in s:
            om = s["omitted"]
            out.append(f"\n{om['conversations']} more conversations ({fmt_dur(om['active_s'])}).")
        if s["unnamed_s"]:
            out.append(f"\nNo conversation named: {fmt_dur(s['unnamed_s'])}.")
    return "\n".join(out) + "\n"


def to_comms_context(view: View, max_conversations: int = 5) -> str:
    """A short block: one line per surface, its top conversations indented."""
    w = view["window"]
    t = view["totals"]
    out = [f"[actframes comms · {_when(w)} · {w['tz']} · measured, titles only]"]
    if not view["surfaces"]:
        out.append("no e-mail, chat, meeting or social inbox")
        return "\n".join(out) + "\n"
    out.append(f"total {fmt_dur(t['active_s'])} on {_count(t['surfaces'], 'surface')}")
    for s in view["surfaces"]:
        out.append(
            f"{s['kind']} · {_where(s)} · {fmt_dur(s['active_s'])} · {s['visits']} visits · "
            f"{_hm(s['first'])}–{_hm(s['last'])}"
        )
        for c in s["conversations"][:max_conversations]:
            out.append(f"  {_name(c)} · {fmt_dur(c['active_s'])} · {_count(c['visits'], 'visit')}")
        more = (
            len(s["conversations"])
            - max_conversations
            + s.get("omitted", {}).get("conversations", 0)
        )
        if more > 0:
            out.append(f"  +{more} more conversations")
        if s["unnamed_s"]:
            out.append(f"  no conversation named · {fmt_dur(s['unnamed_s'])}")
    return "\n".join(out) + "\n"
