"""Two periods side by side: per app, project and category the seconds of each and the
difference, so "more or less than last week?" is read, not computed (SPEC.md §5a)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..classify.names import project_key
from ..period_types import PeriodDocument


def compare(this: PeriodDocument, other: PeriodDocument) -> dict[str, Any]:
    """``{period, vs, totals, apps, projects, categories}``: each row ``{name, active_s,
    vs_s, diff_s}`` (``diff_s`` = this − other), by the larger of the two, then name."""
    return {
        "period": _head(this),
        "vs": _head(other),
        "totals": _row("active", this["totals"]["active_s"], other["totals"]["active_s"]),
        "days_active": {
            "this": this["totals"]["days_active"],
            "vs": other["totals"]["days_active"],
        },
        "apps": _rows(
            [(a["app"], a["active_s"]) for a in this["apps"]],
            [(a["app"], a["active_s"]) for a in other["apps"]],
        ),
        "projects": _rows(
            [(p["name"], p["active_s"]) for p in this["projects"]["entries"]],
            [(p["name"], p["active_s"]) for p in other["projects"]["entries"]],
            project_key,
        ),
        "categories": _rows(
            [(c["name"], c["active_s"]) for c in this["categories"]["entries"]],
            [(c["name"], c["active_s"]) for c in other["categories"]["entries"]],
        ),
    }


def _head(p: PeriodDocument) -> dict[str, Any]:
    w = p["window"]
    return {
        "label": w["label"],
        "since": w["since"],
        "until": w["until"],
        "days": w["days"],
        "active_s": p["totals"]["active_s"],
        "digest": p["source"]["digest"],
    }


def _row(name: str, a: int, b: int) -> dict[str, Any]:
    return {"name": name, "active_s": a, "vs_s": b, "diff_s": a - b}


def _rows(
    this: Sequence[tuple[str, int]],
    other: Sequence[tuple[str, int]],
    key: Callable[[str], str] = lambda n: n,
) -> list[dict[str, Any]]:
    """Rows matched by ``key`` (a project under two spellings is one): shown by this
    period's spelling when it has one."""
    names: dict[str, str] = {}
    a: dict[str, int] = {}
    b: dict[str, int] = {}
    for name, s in other:
        k = key(name) or name
        names.setdefault(k, name)
        b[k] = b.get(k, 0) + s
    for name, s in this:
        k = key(name) or name
        names[k] = name if k not in a else names[k]
        a[k] = a.get(k, 0) + s
    rows = [_row(names[k], a.get(k, 0), b.get(k, 0)) for k in names]
    rows.sort(key=lambda r: (-max(r["active_s"], r["vs_s"]), r["name"]))
    return rows
