"""Built-in project detection: what a row's app, title and URL say it worked on.

Each rule is a line in a table; the page and title references of ``entities`` do the
reading of titles (an editor's workspace, a terminal's folder), so one table of app
families serves both. A row gets at most one finding, in this order:

1. a code host's repository, from the URL's path (``CODE_HOSTS``): the repository's name;
2. an issue tracker's key, from the URL (``TRACKER_SITES``: the page reference's
   ``ticket`` or board) or a tracker's title (``TRACKER_TITLES``): the key's project,
   ``BILL-123`` → ``BILL``;
3. an editor's project (``EDITOR_FAMILIES``): the workspace or project the title names;
4. a folder: the working directory a terminal's title shows, or the folder of a file an
   editor names by path (``FOLDER_FAMILIES``); a folder is a project only when one of its
   names is a project found by 1–3 or named by a user rule (``compile/projects.py``).

Without a URL, a browser title that names a GitHub repository (``… · acme/billing-api``)
counts as 1.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import urlsplit

from ..entities import page_ref, title_ref
from ..entities.title_rules import app_family
from ..entities.url_rules import GITHUB_RESERVED
from ..fast import recache

CODE_HOST = "code_host"
TRACKER = "tracker"
EDITOR = "editor"
FOLDER = "folder"


class Seen(NamedTuple):
    """What a row names: a project's name as written (``how`` says where it was read),
    or for ``FOLDER`` a path whose folders may name one."""

    how: str
    name: str


_GL_OWN = "explore|dashboard|users|help|admin|search|projects|groups|api|oauth|profile|snippets|-"
# (host pattern, path pattern with the repository's name as group ``r``), first match wins.
CODE_HOSTS: tuple[tuple[str, str], ...] = (
    (r"github\.com",
     rf"/(?!(?:{GITHUB_RESERVED})(?:/|$))[A-Za-z0-9-]+/(?P<r>[A-Za-z0-9._-]+)(?:/.*)?"),
    # GitLab (and self-hosted gitlab.*): groups nest; the project is the path before "/-/",
    # else the whole path of two or more names.
    (r"gitlab\.[a-z0-9.-]+", rf"/(?!(?:{_GL_OWN})/)(?:[^/]+/)+?(?P<r>[^/]+)/-(?:/.*)?"),
    (r"gitlab\.[a-z0-9.-]+", rf"/(?!(?:{_GL_OWN})/)[^/]+(?:/[^/]+)*/(?P<r>[^/-][^/]*)/?"),
    (r"bitbucket\.org",
     r"/(?!(?:account|dashboard|repo|site|product|blog|support|login|socialauth)/)[^/]+"
     r"/(?P<r>[^/]+)(?:/.*)?"),
    (r"codeberg\.org",
     r"/(?!(?:explore|user|org|repo|notifications|issues|pulls|milestones|admin|api|assets|-)/)"
     r"[^/]+/(?P<r>[^/]+)(?:/.*)?"),
)  # fmt: skip

# Issue trackers' sites, and the page-reference kinds whose entity starts with the key.
TRACKER_SITES: tuple[tuple[str, frozenset[str]], ...] = (
    (r"[a-z0-9-]+\.atlassian\.net|jira\.[a-z0-9.-]+", frozenset({"ticket", "dashboard"})),
    (r"linear\.app", frozenset({"ticket"})),
)
# Tracker keys in titles (for stores without the URL): Jira's "[BILL-123] Summary - Jira".
TRACKER_TITLES: tuple[str, ...] = (
    r"\[(?P<k>[A-Z][A-Z0-9_]{1,9})-\d+\] .+ - Jira(?: .*)?",
    r"(?P<k>[A-Z][A-Z0-9_]{1,9})-\d+ .+ - Linear",
)
_KEY = re.compile(r"(?P<k>[A-Z][A-Z0-9_]{1,9})(?:-\d+|/.*)")

# App families whose title references name a project: a ``file`` in a project (its
# context), or the ``project`` itself.
EDITOR_FAMILIES = frozenset({"vscode", "jetbrains", "sublime", "xcode"})
# App families whose titles show a folder: a terminal's working directory, a file's
# folder in an editor that names files by path.
FOLDER_FAMILIES = frozenset({"terminal", "vim", "emacs", "editor", "sublime"})
# GitHub titles without a URL: "Fix · Pull Request #12 · acme/billing-api".
_REPO_ENTITY = re.compile(r"[A-Za-z0-9-]+/(?P<r>[A-Za-z0-9._-]+)(?:[#@/].*)?")
_REPO_KINDS = frozenset({"pull_request", "issue", "post", "commit", "repo", "code", "wiki"})
_PATHLIKE = re.compile(r"[/\\]|^~")


@lru_cache(maxsize=1)
def _tables() -> tuple[
    tuple[tuple[re.Pattern[str], re.Pattern[str]], ...],
    tuple[tuple[re.Pattern[str], frozenset[str]], ...],
    tuple[re.Pattern[str], ...],
]:
    """The tables' patterns, compiled on first use (from the machine's cache of compiled
    patterns: a one-shot ``day`` would otherwise spend a millisecond and more on them)."""
    c = recache.compile
    return (
        tuple((c(h), c(p)) for h, p in CODE_HOSTS),
        tuple((c(h), kinds) for h, kinds in TRACKER_SITES),
        tuple(c(t) for t in TRACKER_TITLES),
    )


@lru_cache(maxsize=16384)
def seen(app: str, title: str, url: str | None, site: str | None) -> Seen | None:
    """What the row names, by the tables above; None when it names nothing."""
    if url and site:
        found = _from_url(url, site)
        if found is not None:
            return found
    return _from_title(app, title, url is not None and site is not None)


def _from_url(url: str, site: str) -> Seen | None:
    host = site.split(":", 1)[0]
    try:
        path = urlsplit(url if "://" in url else "//" + url).path or "/"
    except ValueError:
        return None
    hosts, trackers, _ = _tables()
    for host_re, path_re in hosts:
        if host_re.fullmatch(host):
            m = path_re.fullmatch(path)
            if m is not None:
                return Seen(CODE_HOST, m.group("r"))
    for host_re, kinds in trackers:
        if host_re.fullmatch(host):
            ref = page_ref(url)
            if ref.kind in kinds:
                m = _KEY.fullmatch(ref.entity)
                if m is not None:
                    return Seen(TRACKER, m.group("k"))
    return None


def _from_title(app: str, title: str, has_url: bool) -> Seen | None:
    if not title:
        return None
    family = app_family(app)
    if family is None:
        return None
    if family == "browser":
        if has_url:  # the URL said what the page is; its title is the page's own text
            return None
        for pattern in _tables()[2]:
            m = pattern.fullmatch(title.strip())
            if m is not None:
                return Seen(TRACKER, m.group("k"))
        ref = title_ref(app, title)
        if ref is not None and ref.kind in _REPO_KINDS:
            m = _REPO_ENTITY.fullmatch(ref.entity)
            if m is not None:
                return Seen(CODE_HOST, m.group("r"))
        return None
    ref = title_ref(app, title)
    if ref is None:
        return None
    if ref.kind == "cwd":
        return Seen(FOLDER, ref.entity) if family in FOLDER_FAMILIES else None
    if ref.context:
        # An editor of EDITOR_FAMILIES names its project (Sublime Text in brackets);
        # any other context is the file's folder (by path, or by its name alone:
        # "~/src/x/main.py - NVIM", Notepad++), a project only as a folder is.
        named = family in EDITOR_FAMILIES and (family != "sublime" or f"({ref.context})" in title)
        if named and not _PATHLIKE.search(ref.context):
            return Seen(EDITOR, ref.context)
        return Seen(FOLDER, ref.context) if family in FOLDER_FAMILIES else None
    if ref.kind == "project" and family in EDITOR_FAMILIES:
        return Seen(EDITOR, ref.entity)
    return None
