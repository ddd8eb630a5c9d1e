"""A store's rule set: the files it was opened with (``--projects``, ``--categories``)
and, for an ActivityWatch store that keeps them, its own categories; read once, on the
first compile, and put into the options of every compile (``rule_files.py``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from .classify.aw_defaults import default_rules
from .classify.ruleset import RuleSet
from .errors import ActframesError
from .sources import Source

if TYPE_CHECKING:
    from .compile.pipeline import Options


class StoreRules:
    def __init__(self, projects: Path | None = None, categories: Path | None = None) -> None:
        self.projects, self.categories = projects, categories
        self._rules: RuleSet | None = None

    def rules(self, reading: Callable[[], AbstractContextManager[Source]]) -> RuleSet:
        """The rule set (read on first use; a bad file is a one-line ``UsageError``)."""
        if self._rules is None:
            from .rule_files import load_rules

            classes, opened = None, True
            if self.categories is None:
                try:
                    with reading() as src:
                        settings = getattr(src, "category_settings", None)
                        classes = settings() if callable(settings) else None
                except ActframesError:
                    # The store cannot be opened (yet): its compile says why; its own
                    # categories are asked again next time.
                    opened = False
            rules = load_rules(self.projects, self.categories, classes)
            if not opened:
                return rules
            self._rules = rules
        return self._rules

    def options(
        self, options: Options | None, reading: Callable[[], AbstractContextManager[Source]]
    ) -> Options | None:
        """``options`` with this store's rules, where they do not name their own."""
        rules = self.rules(reading)
        if rules is default_rules():
            return options
        from .compile.pipeline import Options

        if options is None:
            return Options(classify=rules)
        if options.classify is default_rules():
            return Options(options.min_active_s, options.rules, rules)
        return options
