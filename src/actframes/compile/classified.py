"""The projects and categories of a window (SPEC.md §3b): each credited row's label,
added up per label and shown as the document's ``projects`` and ``categories``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from .. import doc_types
from ..classify.ruleset import RuleSet
from ..fast.records import Record
from .categories import category_rules
from .constants import BY_QUERY, UNATTRIBUTED_MAX_RUNS
from .pieces import Piece
from .projects import assign_projects
from .ranges import compact_within
from .tally import Key, Label, Share, piece_credits, pieces_of, tally


class Classified(Record):
    """What classification found: the sections, and each piece's own labels."""

    __slots__ = _fields = ("projects", "categories", "project_of", "category_of")

    projects: doc_types.Projects
    categories: doc_types.Categories
    project_of: dict[int, str]  # id(piece) → the shown name of its project, if any
    category_of: dict[int, str]

    def __init__(
        self,
        projects: doc_types.Projects,
        categories: doc_types.Categories,
        project_of: dict[int, str],
        category_of: dict[int, str],
    ) -> None:
        self.projects = projects
        self.categories = categories
        self.project_of = project_of
        self.category_of = category_of


class LabelsKey(TypedDict, total=False):
    project: str
    category: str


# A frame's project and category (either may be None).
Labels = tuple[str | None, str | None] | None


def labels_key(labels: Labels) -> LabelsKey:
    out: LabelsKey = {}
    if labels is not None:
        project, category = labels
        if project is not None:
            out["project"] = project
        if category is not None:
            out["category"] = category
    return out


def classify(frames: Sequence[Piece], rules: RuleSet) -> Classified:
    """Projects and categories of ``frames`` (each with its interruptions)."""
    pieces = pieces_of(frames)
    credits = piece_credits(pieces)
    shares, own, names = assign_projects(pieces, credits, rules.projects)
    entries = [_entry(names[s.label], s) for s in shares if s.label is not None]
    entries.sort(key=lambda e: (-e["active_s"], e["name"]))
    none = next((s for s in shares if s.label is None), None)
    projects: doc_types.Projects = {
        "rules": rules.projects_from,
        "entries": entries,
        "unassigned": _unassigned(none),
    }
    name_of = category_rules(rules.categories)

    def category(p: Piece, k: Key) -> Label:
        return name_of(p.rows[0].snap[2], k[0])  # (app, title)

    cat_shares, cat_own = tally(pieces, credits, category)
    cats = [_entry(s.label or "", s) for s in cat_shares]
    cats.sort(key=lambda e: (-e["active_s"], e["name"]))
    categories: doc_types.Categories = {"rules": rules.categories_from, "entries": cats}
    project_of = {k: names[v] for k, v in own.items() if v is not None}
    category_of = {k: v for k, v in cat_own.items() if v is not None}
    return Classified(projects, categories, project_of, category_of)


def _evidence(s: Share) -> doc_types.ShareEvidence:
    listed = compact_within(s.rows, UNATTRIBUTED_MAX_RUNS)
    return {"rows": BY_QUERY if listed is None else listed}


def _entry(name: str, s: Share) -> doc_types.ShareEntry:
    return {
        "name": name,
        "active_s": s.active_s,
        "keys": s.keys,
        "clicks": s.clicks,
        "frames": s.frames,
        "evidence": _evidence(s),
    }


def _unassigned(s: Share | None) -> doc_types.Unassigned:
    if s is None:
        return {"active_s": 0, "keys": 0, "clicks": 0, "frames": [], "evidence": {"rows": ""}}
    return {
        "active_s": s.active_s,
        "keys": s.keys,
        "clicks": s.clicks,
        "frames": s.frames,
        "evidence": _evidence(s),
    }
