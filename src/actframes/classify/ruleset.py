"""The rules a compile classifies with: user project rules, category rules, and where
each came from. Immutable, loaded at the edge and handed to the compiler whole; its
``digest`` is part of the document cache's key."""

from __future__ import annotations

from ..fast.records import FrozenRecord

# The fields a project rule's match may test, each a row's value ("" when it has none).
MATCH_FIELDS = ("app", "title", "site", "url")


_DIGESTS: dict[RuleSet, str] = {}


class ProjectRule(FrozenRecord):
    """``[[project]]`` of a projects file: a name, other names that mean it, and the
    matches that claim a row for it (any of them; within one, all given fields)."""

    __slots__ = _fields = ("name", "aliases", "matches", "line")

    name: str
    aliases: tuple[str, ...]
    matches: tuple[tuple[tuple[str, str], ...], ...]  # ((field, pattern), …) per match
    line: int  # where the rule begins in its file (1-based), for reports

    def __init__(
        self,
        name: str,
        aliases: tuple[str, ...] = (),
        matches: tuple[tuple[tuple[str, str], ...], ...] = (),
        line: int = 0,
    ) -> None:
        init = object.__setattr__
        init(self, "name", name)
        init(self, "aliases", aliases)
        init(self, "matches", matches)
        init(self, "line", line)


class CategoryRule(FrozenRecord):
    """One ActivityWatch category with a regex rule (``aw_transform.classify.Rule``)."""

    __slots__ = _fields = ("name", "regex", "ignore_case", "select_keys", "priority")

    name: tuple[str, ...]  # the hierarchy: ("Work", "Programming")
    regex: str
    ignore_case: bool
    select_keys: tuple[str, ...] | None
    priority: int | None

    def __init__(
        self,
        name: tuple[str, ...],
        regex: str,
        ignore_case: bool = False,
        select_keys: tuple[str, ...] | None = None,
        priority: int | None = None,
    ) -> None:
        init = object.__setattr__
        init(self, "name", name)
        init(self, "regex", regex)
        init(self, "ignore_case", ignore_case)
        init(self, "select_keys", select_keys)
        init(self, "priority", priority)


class RuleSet(FrozenRecord):
    """Everything classification reads besides the rows."""

    __slots__ = _fields = ("projects", "projects_from", "categories", "categories_from")

    projects: tuple[ProjectRule, ...]
    projects_from: str  # "built-in" or "built-in + <file name>"
    categories: tuple[CategoryRule, ...]
    categories_from: str  # "activitywatch defaults", a file's name, "activitywatch server"

    def __init__(
        self,
        projects: tuple[ProjectRule, ...],
        projects_from: str,
        categories: tuple[CategoryRule, ...],
        categories_from: str,
    ) -> None:
        init = object.__setattr__
        init(self, "projects", projects)
        init(self, "projects_from", projects_from)
        init(self, "categories", categories)
        init(self, "categories_from", categories_from)

    @property
    def digest(self) -> str:
        """Changes whenever a rule, built-in or given, does (16 hex digits)."""
        got = _DIGESTS.get(self)
        if got is None:
            from ..fast.fasthash import sha256
            from . import builtin_projects as b
            from . import names

            # (sets sorted: a set's repr follows the process's string hashes)
            trackers = [(site, sorted(kinds)) for site, kinds in b.TRACKER_SITES]
            parts = (
                self._values(), b.CODE_HOSTS, trackers, b.TRACKER_TITLES,
                sorted(b.EDITOR_FAMILIES), sorted(b.FOLDER_FAMILIES), sorted(names.NOT_PROJECTS),
                names.SUFFIX.pattern,
            )  # fmt: skip
            got = _DIGESTS[self] = sha256(repr(parts).encode("utf-8")).hexdigest()[:16]
        return got
