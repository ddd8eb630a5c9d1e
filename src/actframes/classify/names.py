"""How project names are compared: one key for every spelling of a name.

``Billing API``, ``billing_api``, ``billing-api`` and ``Billing.API`` are one project:
the key is the name case-folded, with a workspace or project-file suffix dropped and
every run of characters other than letters and digits made one ``-`` (none at either
end). Paths are read as their folders, each folder a name."""

from __future__ import annotations

import re
from functools import lru_cache

# What editors and hosts append to a project's own name.
SUFFIX = re.compile(
    r"(?:\s*\(workspace\)|\.git|\.xcodeproj|\.xcworkspace|\.code-workspace|\.sublime-project)$",
    re.IGNORECASE,
)
_NOT_ALNUM = re.compile(r"[\W_]+")
# Names an editor shows where no project is open: never a project.
NOT_PROJECTS = frozenset(
    {"welcome", "untitled", "settings", "get-started", "getting-started", "home", "new-project",
     "release-notes", "keyboard-shortcuts", "extensions", "search", "tmp", "temp"}
)  # fmt: skip


@lru_cache(maxsize=4096)
def project_key(name: str) -> str:
    """The key two spellings of one project share; "" when the name has no letter or
    digit, or names no project (``Welcome``)."""
    base = SUFFIX.sub("", name.strip())
    key = _NOT_ALNUM.sub("-", base.casefold()).strip("-")
    if key in NOT_PROJECTS or key.startswith(("welcome-to-", "untitled-")):
        return ""
    return key


@lru_cache(maxsize=4096)
def folders(path: str) -> tuple[str, ...]:
    """The folder names of a path, outermost first (``~/src/billing-api`` → ``src``,
    ``billing-api``): no home mark, drive, ``.`` or ``..``."""
    parts = re.split(r"[/\\]+", path.strip())
    return tuple(
        p for p in parts if p and p not in ("~", ".", "..") and not re.fullmatch(r"[A-Za-z]:", p)
    )
