"""Categories: each row's ActivityWatch category (``classify/aw_categories.py``), from
its app and title as a window event's data, named by its levels joined with " > "."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..classify.aw_categories import LEVELS, CategoryMatcher
from ..classify.ruleset import CategoryRule


@lru_cache(maxsize=8)
def category_rules(rules: tuple[CategoryRule, ...]) -> Callable[[str, str], str]:
    """The category name of (app, title) under ``rules``, remembered per pair."""
    pick = CategoryMatcher(rules).pick
    seen: dict[tuple[str, str], str] = {}

    def name(app: str, title: str) -> str:
        key = (app, title)
        got = seen.get(key)
        if got is None:
            if len(seen) > 65_536:  # (a long-lived server: bounded)
                seen.clear()
            got = seen[key] = LEVELS.join(pick(app, title))
        return got

    return name
