"""Projects: each credited row's project, by the user's rules first and then the
built-in ones (``classify/builtin_projects.py``), its seconds added up per project.

A row's project, in this order (SPEC.md §3b):

1. the first user rule with a match that the row meets (file order);
2. the project the row names (a repository, a tracker key, an editor's workspace),
   through the user's aliases to the project they stand for;
3. a folder the row shows (a terminal's working directory): its innermost folder whose
   name is the key of a project of 1–2 found anywhere in the window, or of a user rule's
   name or alias;
4. else none: the time is ``unassigned``, never guessed.

Names meet by ``classify.names.project_key``. A project is shown by its rule's name
when a user rule names it, else by the spelling that holds most of its time (ties: the
first in code-point order)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from operator import attrgetter, itemgetter

from ..classify.builtin_projects import FOLDER, seen
from ..classify.names import folders, project_key
from ..classify.ruleset import ProjectRule
from .pieces import Piece
from .tally import Credits, Key, Label, Share, tally

_SNAP, _TITLE_URL = attrgetter("snap"), itemgetter(3, 4)  # a row's snapshot's (title, url)


class _Folders(tuple[str, ...]):
    """Folder names of a path (a distinct type from a (key, spelling) pair)."""


# What a row's strings say, before the window's known projects are: (key, spelling) of a
# project, or the folder names (outermost first) of a path that may name one.
_Said = tuple[str, str] | _Folders | None


class ProjectRules:
    """A rule set's project rules, compiled once per rule set."""

    def __init__(self, rules: tuple[ProjectRule, ...]) -> None:
        self.rules = rules
        self.compiled = [
            (
                project_key(r.name),
                r.name,
                [[(f, re.compile(p, re.IGNORECASE)) for f, p in m] for m in r.matches],
            )
            for r in rules
        ]
        self.alias: dict[str, str] = {}
        self.names: dict[str, str] = {}
        for r in rules:
            key = project_key(r.name)
            self.names.setdefault(key, r.name)
            for a in (r.name, *r.aliases):
                self.alias.setdefault(project_key(a), key)

    def claim(self, app: str, title: str, site: str | None, url: str | None) -> str | None:
        """The key of the first rule one of whose matches the row meets."""
        values = {"app": app, "title": title, "site": site or "", "url": url or ""}
        for key, _, matches in self.compiled:
            for m in matches:
                if all(p.search(values[f]) for f, p in m):
                    return key
        return None

    def matched(self, rows: Iterable[tuple[str, str, str | None, str | None]]) -> list[list[int]]:
        """For each rule, per match, how many of ``rows`` — (app, title, site, url) — meet it."""
        counts = [[0] * len(matches) for _, _, matches in self.compiled]
        for app, title, site, url in rows:
            values = {"app": app, "title": title, "site": site or "", "url": url or ""}
            for k, (_, _, matches) in enumerate(self.compiled):
                for j, m in enumerate(matches):
                    if all(p.search(values[f]) for f, p in m):
                        counts[k][j] += 1
        return counts


@lru_cache(maxsize=8)
def project_rules(rules: tuple[ProjectRule, ...]) -> ProjectRules:
    return ProjectRules(rules)


def assign_projects(
    pieces: Sequence[tuple[str, Piece]], credits: Credits, rules: tuple[ProjectRule, ...]
) -> tuple[list[Share], dict[int, Label], dict[str, str]]:
    """Every project's share (and the unassigned one, label None), each piece's own
    project (by ``id``) and each project key's shown name."""
    pr = project_rules(rules)
    said: dict[tuple[str, str | None, str, str | None], _Said] = {}
    known = set(pr.alias.values()) | set(pr.alias)
    spellings: dict[str, dict[str, int]] = {}

    def say(p: Piece, k: Key) -> _Said:
        first = p.rows[0]
        app, site = first.snap[2], first.site
        key = (app, site, *k)
        if key in said:
            return said[key]
        got = said[key] = _said(pr, app, k[0], k[1], site)
        return got

    for _, p in pieces:  # what the window names, before any folder is read: every row,
        acc, ids = credits[id(p)]  # (those that earned nothing too: few pieces hold any)
        for k in acc if len(ids) == len(p.rows) else set(map(_TITLE_URL, map(_SNAP, p.rows))):
            say(p, k)
    known.update(
        got[0] for got in said.values() if got is not None and not isinstance(got, _Folders)
    )

    def label_of(p: Piece, k: Key) -> Label:
        got = say(p, k)
        if got is None:
            return None
        if isinstance(got, _Folders):
            for name in reversed(got):
                key = project_key(name)
                if key in known:
                    return pr.alias.get(key, key)
            return None
        key, spelling = got
        by = spellings.setdefault(key, {})
        by[spelling] = by.get(spelling, 0) + credits[id(p)][0].get(k, 0)
        return key

    shares, own = tally(pieces, credits, label_of)
    names = {}
    for key in {s.label for s in shares} | set(own.values()):
        if key is None:
            continue
        given = pr.names.get(key)
        if given is not None:
            names[key] = given
        else:
            by = spellings.get(key) or {key: 0}
            names[key] = min(by, key=lambda n: (-by[n], n))
    return shares, own, names


def _said(pr: ProjectRules, app: str, title: str, url: str | None, site: str | None) -> _Said:
    key = pr.claim(app, title, site, url)
    if key is not None:
        return (key, pr.names[key])
    found = seen(app, title, url, site)
    if found is None:
        return None
    if found.how == FOLDER:
        names = folders(found.name)
        return _Folders(names) if names else None
    key = project_key(found.name)
    if not key:
        return None
    key = pr.alias.get(key, key)
    return (key, pr.names.get(key, found.name))
