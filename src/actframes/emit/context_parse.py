"""The context block's parser: the block (SPEC.md, "The context block") read back into
its facts, so a round trip can check that the block says what the document says."""

from __future__ import annotations

import json
import re
from typing import Any

from ..compile.disclosures import NO_INPUT
from .context import APPS_HEAD, INPUT_ABBR, LEDGER_HEAD, SEP, VIEWED_HEAD
from .share_lines import CATEGORIES_HEAD, PROJECTS_HEAD, UNASSIGNED


class ContextParseError(ValueError):
    pass


_DUR = re.compile(r"(?:(\d+)h(\d{2})m|(\d+)m|(\d+)s)\Z")
_SPAN = re.compile(r"(.+?)–(.+)\Z")


def parse_context(text: str) -> dict[str, Any]:
    """Parse a context block back into its facts (durations in seconds, at the block's
    resolution: whole minutes from one minute up)."""
    lines = text.rstrip("\n").split("\n")
    if len(lines) < 4 or not lines[0].startswith("# activity "):
        raise ContextParseError("line 1: not a context block header")
    out: dict[str, Any] = {"header": _parse_header(lines[0]), "gaps": [], "away": []}
    out["periods"] = []
    out.update(ledger=[], frames=[], omitted=[])
    section = "head"
    for n, line in enumerate(lines[1:], start=2):
        try:
            section = _parse_line(line, section, out)
        except (ValueError, KeyError, IndexError) as exc:
            raise ContextParseError(f"line {n}: {exc}") from exc
    return out


def _parse_line(line: str, section: str, out: dict[str, Any]) -> str:
    if line.startswith("# "):
        return section
    if line.startswith("coverage "):
        out["coverage"] = _parse_coverage(line)
        return section
    if line.startswith("warning "):
        out["warning"] = line[len("warning ") :]
        return section
    for kind in ("gap", "away", "away+gap"):
        if line.startswith(kind + " "):
            span, dur = line[len(kind) + 1 :].rsplit(" ", 1)
            start, end = _split_span(span)
            period = {"start": start, "end": end, "s": parse_dur(dur)}
            out["periods"].append({"kind": kind, **period})
            out["gaps" if kind == "gap" else "away"].append(period)
            return section
    if line == LEDGER_HEAD:
        return "ledger"
    if line == APPS_HEAD:
        return "apps"
    if line.startswith("- ") and section == "apps":
        app, dur, inp, n = split_fields(line[2:])
        out.setdefault("app_totals", []).append(
            {"app": _uq(app), "active_s": parse_dur(dur), **_parse_input(inp), "lines": int(n)}
        )
        return section
    if line.startswith(PROJECTS_HEAD):
        out["projects_rules"] = line[len(PROJECTS_HEAD) :]
        out["projects"] = []
        return "projects"
    if line.startswith(CATEGORIES_HEAD):
        out["categories_rules"] = line[len(CATEGORIES_HEAD) :]
        out["categories"] = []
        return "categories"
    if line.startswith("- ") and section == "projects":
        who, dur, inp, n = split_fields(line[2:])
        item: dict[str, Any] = {"active_s": parse_dur(dur), **_parse_input(inp), "frames": int(n)}
        if who == UNASSIGNED:
            out["unassigned"] = item
        else:
            out["projects"].append({"name": _uq(who), **item})
        return section
    if line.startswith("- ") and section == "categories":
        who, dur, inp = split_fields(line[2:])
        out["categories"].append(
            {"name": _uq(who), "active_s": parse_dur(dur), **_parse_input(inp)}
        )
        return section
    if line.startswith("budget "):
        m = re.match(r"budget (\d+) \S+ tokens not met: .* is (\d+) tokens\Z", line)
        if not m:
            raise ValueError("bad budget line")
        out["budget_not_met"] = {"budget": int(m.group(1)), "tokens": int(m.group(2))}
        return section
    if line == VIEWED_HEAD:
        return "viewed"
    if line.startswith("- +") and section == "viewed":  # "- +N more in the JSON document"
        out["viewed_more"] = int(line[3:].split()[0])
        return section
    if line.startswith("- ") and section == "viewed":
        kind, entity, first, n, *named = split_fields(line[2:])
        item = {"kind": kind, "entity": _uq(entity), "first": first, "views": int(n)}
        if named:
            (text,) = named
            item["label"] = json.loads(text)
        out.setdefault("viewed", []).append(item)
        return section
    if line.startswith("longest "):
        span, app, site, dur, fid = split_fields(line[len("longest ") :])
        start, end = _split_span(span)
        out["longest"] = {
            "start": start,
            "end": end,
            "app": _uq(app),
            "site": _uq(site),
            "active_s": parse_dur(dur),
            "id": fid,
        }
        return section
    if line.startswith("frames "):
        m = re.match(r"frames (\d+) of (\d+) ", line)
        if not m:
            raise ValueError("bad frames header")
        out["frames_shown"], out["frames_total"] = int(m.group(1)), int(m.group(2))
        return "frames"
    if line.startswith("omitted "):
        m = re.match(r"omitted (\d+) frames \(([^)]+)\) (.*)\Z", line)
        if not m:
            raise ValueError("bad omitted line")
        out["omitted"].append(
            {"frames": int(m.group(1)), "active_s": parse_dur(m.group(2)), "why": m.group(3)}
        )
        return section
    if line.startswith("- ") and section == "ledger":
        app, site, dur, inp = split_fields(line[2:])
        out["ledger"].append(
            {"app": _uq(app), "site": _uq(site), "active_s": parse_dur(dur), **_parse_input(inp)}
        )
        return section
    if line.startswith("- ") and section == "frames":
        out["frames"].append(_parse_frame(line[2:]))
        return section
    raise ValueError(f"unexpected line: {line[:40]!r}")


def _parse_header(line: str) -> dict[str, Any]:
    m = re.match(r"# activity (day (\S+)|window (\S+)–(\S+)) · tz (\S+) \(([^)]*)\)", line)
    if not m:
        raise ContextParseError("line 1: bad header")
    return {
        "day": m.group(2),
        "start": m.group(3),
        "end": m.group(4),
        "tz": m.group(5),
        "offset": m.group(6),
    }


def _parse_coverage(line: str) -> dict[str, Any]:
    parts: list[str | None] = [*split_fields(line[len("coverage ") :])]
    if parts[-1] == NO_INPUT:  # a source that records no input: its counts are unknown
        parts[-1:] = [None, None]
    span, active, rows, events, un = parts
    assert span is not None and active is not None and rows is not None
    first, last = _split_span(span) if span != "none" else (None, None)
    return {
        "first": first,
        "last": last,
        "active_s": parse_dur(active.removeprefix("active ")),
        "rows": int(rows.split()[0]),
        "input_events": None if events is None else int(events.split()[0]),
        "unattributed": None if un is None else int(un.removeprefix("unattributed ")),
    }


def _parse_frame(body: str) -> dict[str, Any]:
    span, app, site, dur, inp, titles, pages, ints, fid = split_fields(body)
    start, end = _split_span(span)
    return {
        "id": fid,
        "start": start,
        "end": end,
        "app": _uq(app),
        "site": _uq(site),
        "active_s": parse_dur(dur),
        "input": _parse_input(inp),
        "titles": [] if titles == "-" else [_uq(t) for t in _split_items(titles)],
        "pages": [] if pages == "-" else _split_items(pages),
        "interruptions": [] if ints == "-" else _split_items(ints),
    }


def parse_dur(text: str) -> int:
    m = _DUR.match(text.strip())
    if not m:
        raise ValueError(f"bad duration {text!r}")
    if m.group(1):
        return int(m.group(1)) * 3600 + int(m.group(2)) * 60
    if m.group(3):
        return int(m.group(3)) * 60
    return int(m.group(4))


def _parse_input(text: str) -> dict[str, int]:
    counts = {name: 0 for name, _ in INPUT_ABBR}
    if text == "-":
        return counts
    by_abbr = {abbr: name for name, abbr in INPUT_ABBR}
    for part in text.split():
        m = re.fullmatch(r"([a-z]+)(\d+)", part)
        if not m or m.group(1) not in by_abbr:
            raise ValueError(f"bad input count {part!r}")
        counts[by_abbr[m.group(1)]] = int(m.group(2))
    return counts


def _split_span(text: str) -> tuple[str, str]:
    m = _SPAN.match(text)
    if not m:
        raise ValueError(f"bad time span {text!r}")
    return m.group(1), m.group(2)


def split_fields(text: str, sep: str = SEP) -> list[str]:
    """Split on ``sep`` outside JSON-quoted strings."""
    fields: list[str] = []
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = _end_of_string(text, i)
            buf.append(text[i:j])
            i = j
        elif text.startswith(sep, i):
            fields.append("".join(buf))
            buf = []
            i += len(sep)
        else:
            buf.append(ch)
            i += 1
    fields.append("".join(buf))
    return fields


def _split_items(text: str) -> list[str]:
    return [s for s in split_fields(text, "; ") if s]


def _end_of_string(text: str, i: int) -> int:
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == '"':
            return j + 1
        j += 1
    raise ValueError("unterminated quoted string")


def _uq(value: str) -> str | None:
    if value == "-":
        return None
    if value.startswith('"'):
        decoded: str = json.loads(value)
        return decoded
    return value
