"""``actframes projects --check-rules``: how many rows of the days each project rule's
matches (and each given category rule) meet, so a rule that matches nothing — a typo, a
site that changed its address — is seen, not silently idle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .window import Window

if TYPE_CHECKING:
    from .api import Store


def check_rules(store: Store, windows: Sequence[Window]) -> tuple[list[str], int]:
    """A line per project match and per category rule of a file, and how many meet no row."""
    from .classify.aw_categories import LEVELS, CategoryMatcher
    from .classify.aw_defaults import AW_DEFAULTS
    from .compile.projects import project_rules
    from .compile.site import site_of

    rules = store.rule_set()
    rows = []
    for w in windows:
        cap = store.read(w)
        rows += [
            (s.app, s.title, site_of(s.url), s.url)
            for s in cap.snapshots
            if w.start_ms <= s.ts_ms < w.end_ms
        ]
    span = windows[0].day if len(windows) == 1 else f"{windows[0].day} .. {windows[-1].day}"
    lines: list[str] = []
    unmatched = 0
    if not rules.projects:
        lines.append("no project rules (built-in detection only): nothing to check")
    counts = project_rules(rules.projects).matched(rows)
    where = rules.projects_from.partition(" + ")[2] or "projects"
    for rule, per_match in zip(rules.projects, counts, strict=True):
        if not per_match:
            lines.append(
                f"{where}:{rule.line}: project {rule.name!r}: no match tables (names only)"
            )
        for j, n in enumerate(per_match, start=1):
            said = f"{n} rows" if n else f"matches no row in {span}"
            unmatched += n == 0
            lines.append(f"{where}:{rule.line}: project {rule.name!r}, match {j}: {said}")
    if rules.categories_from != AW_DEFAULTS:
        matcher = CategoryMatcher(rules.categories)
        picked: dict[tuple[str, ...], int] = {}
        for app, title, _, _ in rows:
            name = matcher.pick(app, title)
            picked[name] = picked.get(name, 0) + 1
        for c in rules.categories:
            if not c.regex:
                continue
            n = picked.get(c.name, 0)
            unmatched += n == 0
            said = f"{n} rows" if n else f"is the category of no row in {span}"
            lines.append(f"{rules.categories_from}: category {LEVELS.join(c.name)!r}: {said}")
    return lines, unmatched
