"""A projects file (TOML) read into project rules, or a one-line error naming the file,
line and field. Nothing is half-read: the first problem refuses the whole file.

```toml
[[project]]
name = "billing-api"
aliases = ["BILL"]            # other names that mean this project
[[project.match]]             # any field may be given; all given must match
site = "docs.google.com"      # (regular expressions, case-insensitive, searched)
title = "billing design"
```
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import UsageError
from .names import project_key
from .ruleset import MATCH_FIELDS, ProjectRule

PROJECT_FIELDS = ("name", "aliases", "match")


def parse_projects(text: str, shown: str) -> tuple[ProjectRule, ...]:
    """The rules of a projects file's ``text``; ``shown`` names the file in errors."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = _line_of_decode_error(str(exc))
        raise UsageError(f"{shown}:{line}: not valid TOML: {_first_clause(str(exc))}") from exc
    where = _Where(text, shown)
    for key in data:
        if key != "project":
            raise where.error(
                where.key_line(key, 1, len(text.splitlines()) + 1),
                f"unknown table or field {key!r} (only [[project]] tables)",
            )
    projects = data.get("project", [])
    if not isinstance(projects, list):
        raise where.error(
            where.key_line("project", 0, 10**9), "'project' must be written [[project]]"
        )
    return tuple(_rule(where, k, p) for k, p in enumerate(projects))


def _rule(where: _Where, k: int, p: Any) -> ProjectRule:
    start, end = where.project_span(k)
    if not isinstance(p, dict):
        raise where.error(start, f"project {k + 1} is not a table")
    for key in p:
        if key not in PROJECT_FIELDS:
            raise where.error(
                where.key_line(key, start, end),
                f"project {k + 1}: unknown field {key!r} ({', '.join(PROJECT_FIELDS)})",
            )
    name = p.get("name")
    if not isinstance(name, str) or not project_key(name):
        raise where.error(
            where.key_line("name", start, end),
            f"project {k + 1}: field 'name' must be a project's name (text with a letter or digit)",
        )
    aliases = p.get("aliases", [])
    if not isinstance(aliases, list) or not all(
        isinstance(a, str) and project_key(a) for a in aliases
    ):
        raise where.error(
            where.key_line("aliases", start, end),
            f"project {name!r}: field 'aliases' must be a list of names",
        )
    matches = p.get("match", [])
    if isinstance(matches, dict):
        matches = [matches]
    if not isinstance(matches, list):
        raise where.error(
            where.key_line("match", start, end),
            f"project {name!r}: field 'match' must be [[project.match]] tables",
        )
    made = []
    for j, m in enumerate(matches):
        m_line = where.match_line(start, end, j)
        at = f"project {name!r}: match {j + 1}"
        if not isinstance(m, dict) or not m:
            raise where.error(
                m_line,
                f"{at} needs at least one of {', '.join(MATCH_FIELDS)}",
            )
        fields = []
        for field, pattern in m.items():
            line = where.key_line(field, m_line, end)
            if field not in MATCH_FIELDS:
                raise where.error(
                    line,
                    f"{at}: unknown field {field!r} ({', '.join(MATCH_FIELDS)})",
                )
            if not isinstance(pattern, str) or not pattern:
                raise where.error(
                    line,
                    f"{at}: field {field!r} must be a non-empty regular expression",
                )
            try:
                re.compile(pattern, re.IGNORECASE)
            except re.error as exc:
                raise where.error(
                    line,
                    f"{at}: field {field!r}: bad regular expression ({exc})",
                ) from exc
            fields.append((field, pattern))
        made.append(tuple(fields))
    return ProjectRule(name.strip(), tuple(a.strip() for a in aliases), tuple(made), start)


class _Where:
    """Lines of a file's tables and keys, for errors (``tomllib`` keeps none)."""

    _PROJECT = re.compile(r"^\s*\[\[\s*project\s*\]\]")
    _MATCH = re.compile(r"^\s*\[\[\s*project\s*\.\s*match\s*\]\]|^\s*match\s*=")

    def __init__(self, text: str, shown: str) -> None:
        self.lines = text.splitlines()
        self.shown = shown
        self.headers = [i + 1 for i, t in enumerate(self.lines) if self._PROJECT.match(t)]

    def error(self, line: int, message: str) -> UsageError:
        return UsageError(f"{self.shown}:{max(line, 1)}: {message}")

    def project_span(self, k: int) -> tuple[int, int]:
        """The lines of the k-th ``[[project]]`` (1-based, end exclusive)."""
        if k >= len(self.headers):  # (written inline: the whole file)
            return 1, len(self.lines) + 1
        end = self.headers[k + 1] if k + 1 < len(self.headers) else len(self.lines) + 1
        return self.headers[k], end

    def key_line(self, key: str, start: int, end: int) -> int:
        """The first line in [start, end) where ``key`` is set (``key =``, in an inline
        table) or opens a table (``[key]``, ``[[key]]``, ``[key.sub]``); else ``start``."""
        k = re.escape(key)
        name = rf"(?:{k}|\"{k}\"|'{k}')"
        pattern = re.compile(rf"^\s*{name}\s*=|[{{,]\s*{name}\s*=|^\s*\[\[?\s*{name}\s*[\].]")
        for i in range(max(start, 1), min(end, len(self.lines) + 1)):
            if pattern.search(self.lines[i - 1]):
                return i
        return start

    def match_line(self, start: int, end: int, j: int) -> int:
        found = [
            i
            for i in range(start, min(end, len(self.lines) + 1))
            if self._MATCH.match(self.lines[i - 1])
        ]
        return found[min(j, len(found) - 1)] if found else start


def _line_of_decode_error(message: str) -> int:
    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else 1


def _first_clause(message: str) -> str:
    return re.sub(r"\s*\(at line \d+, column \d+\)", "", message).strip()
