"""The rule files a compile classifies with, read at the edge into one ``RuleSet``
(SPEC.md §3b): the user's projects file (``--projects``, default
``$XDG_CONFIG_HOME/actframes/projects.toml``) and ActivityWatch categories
(``--categories``, else the ActivityWatch store's own, else ActivityWatch's defaults)."""

from __future__ import annotations

import os
from pathlib import Path

from .classify.aw_defaults import AW_DEFAULTS, BUILT_IN, DEFAULT_CATEGORIES, default_rules
from .classify.ruleset import CategoryRule, ProjectRule, RuleSet
from .errors import UsageError

STORE_CATEGORIES = "activitywatch server"


def default_projects_file() -> Path:
    """``$XDG_CONFIG_HOME/actframes/projects.toml`` (``~/.config`` without it)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "actframes" / "projects.toml"


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise UsageError(f"{path}: no such {what} file") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from exc


def project_rules(path: Path | None) -> tuple[tuple[ProjectRule, ...], str]:
    """The user's project rules and what to call them: ``path``, else the default file
    when it exists, else none."""
    if path is None:
        path = default_projects_file()
        try:
            if not path.is_file():
                return (), BUILT_IN
        except OSError:  # a config folder we may not read: as if there were no file
            return (), BUILT_IN
    from .classify.project_file import parse_projects

    path = path.expanduser()
    return parse_projects(_read(path, "projects"), str(path)), f"{BUILT_IN} + {path.name}"


def category_rules(
    path: Path | None, store_classes: object | None = None
) -> tuple[tuple[CategoryRule, ...], str]:
    """Categories from ``path``, else the store's own (``store_classes``: a server's
    ``classes`` setting, as JSON data), else ActivityWatch's defaults."""
    from .classify.aw_categories import categories_of, parse_categories

    if path is not None:
        path = path.expanduser()
        return parse_categories(_read(path, "categories"), str(path)), path.name
    if store_classes is not None:
        try:
            return categories_of(
                store_classes, "the ActivityWatch store's settings"
            ), STORE_CATEGORIES
        except UsageError:
            pass  # (a server's settings we cannot read: its defaults, said so below)
    return DEFAULT_CATEGORIES, AW_DEFAULTS


def load_rules(
    projects: Path | None = None,
    categories: Path | None = None,
    store_classes: object | None = None,
) -> RuleSet:
    """The rule set of these files (and store settings); the shared default when all
    are the defaults."""
    p_rules, p_from = project_rules(projects)
    c_rules, c_from = category_rules(categories, store_classes)
    if not p_rules and c_from == AW_DEFAULTS:
        return default_rules()
    return RuleSet(p_rules, p_from, c_rules, c_from)
