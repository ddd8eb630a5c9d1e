"""The ``--model none`` reader of the period block and of the comparison lines.

It reads the text alone (no document, no store) into ``PeriodKnowledge`` and answers the
questions of ``period_questions`` from it: a day's active time from its day line (a day
line saying ``no capture`` is 0; a day without a line is unknown), the period's from the
``totals`` line, the busiest day from its line (else the largest day line), an app's
total and busiest day from its ``app totals`` line, a reference's first and last day
from its ``viewed most`` line, and the comparisons from the ``--vs`` lines when they
compare the periods asked about. What the text does not say is None.

``render_period`` and ``render_compare`` make the texts under test, as ``actframes
period --format context`` (with ``--vs``) prints them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from ..emit.context_parse import parse_dur, split_fields
from ..emit.period_context import APPS_HEAD, DAYS_HEAD, VIEWED_HEAD
from .questions import Question
from .readers import _entity_key

_HEADER = re.compile(
    r"# activity period .*? \((\d{4}-\d{2}-\d{2}) \w+ – (\d{4}-\d{2}-\d{2}) \w+, \d+ days?\)"
)
_COMPARE = re.compile(
    r"compare .*? \((\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})\) vs .*?"
    r" \((\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})\)"
)


@dataclass
class PeriodKnowledge:
    since: str | None = None
    until: str | None = None
    day_s: dict[str, float] = field(default_factory=dict)  # day -> active s (0: no capture)
    total_s: float | None = None
    busiest: str | None = None  # from the "busiest day" line
    app_s: dict[str, float] = field(default_factory=dict)
    app_busiest: dict[str, str | None] = field(default_factory=dict)
    views: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)  # first, last
    # From the comparison lines: the two spans, and the differences (this − other, s).
    vs_spans: tuple[str, str] | None = None
    vs_total_s: float | None = None
    vs_app_s: dict[str, float] = field(default_factory=dict)
    vs_more_apps: bool = False  # a "+N more apps" line: apps not listed are unknown


def _unquote(cell: str) -> str:
    return str(json.loads(cell)) if cell.startswith('"') else cell


def _days_of(since: str, until: str) -> dict[str, str]:
    """MM-DD -> YYYY-MM-DD over the period (at most 92 days: each MM-DD once)."""
    first, last = date.fromisoformat(since), date.fromisoformat(until)
    out: dict[str, str] = {}
    d = first
    while d <= last:
        out[d.isoformat()[5:]] = d.isoformat()
        d += timedelta(days=1)
    return out


def read_period_context(text: str, compare: str | None = None) -> PeriodKnowledge:
    """What the period block (and the comparison lines, when given) say."""
    k = PeriodKnowledge()
    days: dict[str, str] = {}
    section = ""
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            k.since, k.until = m.group(1), m.group(2)
            days = _days_of(k.since, k.until)
            continue
        if line.startswith("totals · active "):
            k.total_s = parse_dur(split_fields(line)[1].removeprefix("active "))
            continue
        if line.startswith("busiest day "):
            k.busiest = days.get(line.split()[2])
            continue
        if not line.startswith("- "):
            section = {DAYS_HEAD: "days", APPS_HEAD: "apps", VIEWED_HEAD: "viewed"}.get(line, "")
            continue
        cells = split_fields(line[2:])
        if section == "days" and cells[0][:5] in days:
            day = days[cells[0][:5]]
            k.day_s[day] = 0.0 if cells[1] == "no capture" else parse_dur(cells[2])
        elif section == "apps" and len(cells) >= 5:
            app = _unquote(cells[0])
            k.app_s[app] = parse_dur(cells[1])
            k.app_busiest[app] = days.get(cells[4])
        elif section == "viewed" and len(cells) >= 6:
            first, last = days.get(cells[4]), days.get(cells[5])
            if first and last:
                k.views[(cells[0], _entity_key(_unquote(cells[1])))] = (first, last)
    if compare is not None:
        _read_compare(compare, k)
    return k


def _signed(cell: str) -> float:
    if cell == "±0":
        return 0.0
    sign = -1.0 if cell[0] in "−-" else 1.0
    return sign * parse_dur(cell.lstrip("+−-"))


def _read_compare(text: str, k: PeriodKnowledge) -> None:
    group = ""
    for line in text.splitlines():
        m = _COMPARE.match(line)
        if m:
            k.vs_spans = (f"{m.group(1)}..{m.group(2)}", f"{m.group(3)}..{m.group(4)}")
        elif line.startswith("total · "):
            k.vs_total_s = _signed(split_fields(line)[3])
        elif not line.startswith("- "):
            group = line.split(" (", 1)[0]
        elif group == "apps":
            if re.fullmatch(r"- \+\d+ more apps .*", line):
                k.vs_more_apps = True
                continue
            cells = split_fields(line[2:])
            k.vs_app_s[_unquote(cells[0])] = _signed(cells[3])


# ---------------------------------------------------------------------------- answering


def _get(table: dict[str, Any], name: str) -> Any:
    if name in table:
        return table[name]
    folded = [v for a, v in table.items() if a.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def answer_period(q: Question, k: PeriodKnowledge) -> Any:
    """The reader's answer to a period question (in scoring form), or None."""
    p, kind = q.params, q.kind
    if kind == "period_day_minutes":
        s = k.day_s.get(p["day"])
        return None if s is None else s / 60
    if kind == "period_active_minutes":
        return None if k.total_s is None else k.total_s / 60
    if kind == "period_busiest_day":
        if k.busiest:
            return k.busiest
        return min(k.day_s, key=lambda d: (-k.day_s[d], d)) if any(k.day_s.values()) else None
    if kind == "period_app_minutes":
        s = _get(k.app_s, p["app"])
        return None if s is None else s / 60
    if kind == "period_app_busiest_day":
        return _get(k.app_busiest, p["app"])
    if kind in ("period_entity_first_day", "period_entity_last_day"):
        seen = k.views.get((p["entity_kind"], _entity_key(p["entity"])))
        return None if seen is None else seen[0 if kind.endswith("first_day") else 1]
    if kind in ("period_vs_more", "period_vs_minutes"):
        diff = _vs(k, p)
        if diff is None:
            return None
        if kind == "period_vs_minutes":
            return diff / 60
        return None if diff == 0 else ("more" if diff > 0 else "less")
    raise ValueError(f"unknown question kind {kind!r}")


def _vs(k: PeriodKnowledge, p: dict[str, Any]) -> float | None:
    if k.vs_spans != (p["period"], p["vs"]):
        return None  # no comparison lines, or of other periods
    if p["app"] is None:
        return k.vs_total_s
    s = _get(k.vs_app_s, p["app"])
    if s is None and not k.vs_more_apps:
        return 0.0  # every app of either period is listed: this one had no time in both
    return None if s is None else float(s)


def listed_refs(k: PeriodKnowledge) -> set[tuple[str, str]]:
    """(kind, entity) of the references the block lists with their first and last day."""
    return set(k.views)


# ---------------------------------------------------------------------------- the texts


def _period_doc(store: Any, since: str, until: str, tz: str) -> Any:
    from ..compile.period import period_document
    from ..periods import Span, day_windows

    span = Span(since, until)
    docs = store.compile_many(day_windows(span, tz))
    return period_document(list(zip(span.days(), docs, strict=True)))


def render_period(path: str | Path, since: str, until: str, tz: str, budget: int = 2000) -> str:
    """The period block of the days ``since`` through ``until`` in ``tz``."""
    from ..api import open_store
    from ..emit.period_context import to_period_context

    with open_store(path, disk_cache=False) as store:
        return to_period_context(_period_doc(store, since, until, tz), budget)


def render_compare(path: str | Path, this: tuple[str, str], vs: tuple[str, str], tz: str) -> str:
    """The comparison lines of the period ``this`` (since, until) against ``vs``."""
    from ..api import open_store
    from ..compile.period_compare import compare
    from ..emit.compare_text import compare_lines

    with open_store(path, disk_cache=False) as store:
        a, b = _period_doc(store, *this, tz), _period_doc(store, *vs, tz)
    return compare_lines(compare(a, b))
