"""The context block's projects and categories: one line per project (and the
unassigned time) and per category, after the ledger and kept with it whatever the
budget, so "how long on X" is read, not guessed (SPEC.md §4)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping

from ..doc_types import Document
from .durations import fmt_dur

PROJECTS_HEAD = "projects (project · active · input · frames) · rules "
CATEGORIES_HEAD = "categories (category · active · input) · rules "
UNASSIGNED = "(unassigned)"
SEP = " · "
_BARE = re.compile(r"[^\s\";·][^\";·]*[^\s\";·]|[^\s\";·-]")


def name(value: str) -> str:
    """A project's or category's name: bare when unambiguous (and not the word for the
    unassigned time), JSON-quoted otherwise."""
    if value != UNASSIGNED and _BARE.fullmatch(value):
        return value
    return json.dumps(value, ensure_ascii=False)


def share_lines(doc: Document, input_of: Callable[[Mapping[str, object]], str]) -> list[str]:
    """The projects group (when any project holds time) and the categories group."""
    lines: list[str] = []
    projects = doc.get("projects")
    if projects and projects["entries"]:
        lines.append(PROJECTS_HEAD + projects["rules"])
        for e in projects["entries"]:
            inp = input_of({"keys": e["keys"], "clicks": e["clicks"]})
            lines.append(
                "- "
                + SEP.join([name(e["name"]), fmt_dur(e["active_s"]), inp, str(len(e["frames"]))])
            )
        un = projects["unassigned"]
        if un["active_s"] or un["keys"] or un["clicks"]:
            inp = input_of({"keys": un["keys"], "clicks": un["clicks"]})
            lines.append(
                "- " + SEP.join([UNASSIGNED, fmt_dur(un["active_s"]), inp, str(len(un["frames"]))])
            )
    categories = doc.get("categories")
    if categories and categories["entries"]:
        lines.append(CATEGORIES_HEAD + categories["rules"])
        for e in categories["entries"]:
            inp = input_of({"keys": e["keys"], "clicks": e["clicks"]})
            lines.append("- " + SEP.join([name(e["name"]), fmt_dur(e["active_s"]), inp]))
    return lines
