"""ActivityWatch's category rules: read from where ActivityWatch keeps them, and applied
as its server applies them (aw-core ``aw_transform/classify.py``, 0.5.18).

Reading. The web UI's export (Settings → Categorization: ``{"categories": [...]}``, with
an ``id`` since 2026), a server's settings (``{"classes": [...]}``: aw-server's
``settings.json``, ``GET /api/0/settings``, the value of aw-server-rust's
``settings.classes``) or a bare list. Each category is ``{name: [..], rule: {type,
regex?, ignore_case?, select_keys?, priority? | weight?}}``; other fields (``id``,
``data`` …) are the web UI's own. As the web UI does before a query, categories whose
rule type is null are dropped (implicit parents).

Applying (``pick``). A rule matches a window event when its regex (``re.search``, Unicode,
case-insensitive with ``ignore_case``) finds any string value among the event's data —
``app`` and ``title``, or only ``select_keys`` — and it has a non-empty regex (``type`` is
not read: a ``none`` rule has no regex). Of the matching rules, the highest rank wins: the
rule's ``priority`` (or ``weight``), else ten times its name's depth; on equal ranks the
later rule. No match is ``Uncategorized``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..errors import UsageError
from ..fast import recache
from .ruleset import CategoryRule

UNCATEGORIZED = ("Uncategorized",)
# Web UI's separator of a category's levels ("Work > Programming").
LEVELS = " > "


def parse_categories(text: str, shown: str) -> tuple[CategoryRule, ...]:
    """The categories of a JSON file's ``text`` (export, settings or list); a one-line
    error naming ``shown``, the line and the field otherwise."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", 1)
        raise UsageError(f"{shown}:{line}: not valid JSON ({getattr(exc, 'msg', exc)})") from exc
    return categories_of(data, shown, text)


def categories_of(data: Any, shown: str, text: str = "") -> tuple[CategoryRule, ...]:
    """The categories of parsed JSON (see the module's docstring); ``text``, the JSON
    they were read from, gives an error its line."""
    if isinstance(data, dict):
        found = data.get("categories", data.get("classes"))
        if found is None:
            raise UsageError(
                f"{shown}:1: no 'categories' or 'classes' list (an ActivityWatch export)"
            )
        data = found
    if not isinstance(data, list):
        raise UsageError(f"{shown}:1: the categories must be a list")
    out = []
    spans: list[tuple[int, int]] | None = None
    for k, c in enumerate(data):
        try:
            rule = _category(c, k)
        except _Bad as bad:
            if spans is None:
                spans = _category_spans(text)
            start, end = spans[k] if k < len(spans) else (0, len(text))
            raise UsageError(f"{shown}:{_line_of(text, start, end, bad.field)}: {bad}") from None
        if rule is not None:
            out.append(rule)
    return tuple(out)


class _Bad(ValueError):
    """A category's bad field (the message names it; ``field`` is the JSON key, "" for
    the category itself)."""

    def __init__(self, k: int, field: str, message: str) -> None:
        where = f"category {k + 1}" + (f": field {field!r}" if field else "")
        super().__init__(f"{where}: {message}")
        self.field = field


def _category(c: Any, k: int) -> CategoryRule | None:
    if not isinstance(c, dict):
        raise _Bad(k, "", "is not an object")
    name = c.get("name")
    if not isinstance(name, list) or not name or not all(isinstance(n, str) for n in name):
        raise _Bad(k, "name", 'must be a list of names such as ["Work", "Programming"]')
    rule = c.get("rule")
    if not isinstance(rule, dict):
        raise _Bad(k, "rule", 'must be an object such as {"type": "regex", "regex": "…"}')
    if "type" in rule and rule["type"] is None:
        return None  # an implicit parent: the web UI leaves it out of queries
    regex = rule.get("regex") or ""
    if not isinstance(regex, str):
        raise _Bad(k, "regex", "must be text")
    ignore_case = bool(rule.get("ignore_case", False))
    try:
        re.compile(regex, re.UNICODE | (re.IGNORECASE if ignore_case else 0))
    except re.error as exc:
        raise _Bad(k, "regex", f"bad regular expression ({exc})") from exc
    keys = rule.get("select_keys")
    if keys is not None and (
        not isinstance(keys, list) or not all(isinstance(x, str) for x in keys)
    ):
        raise _Bad(k, "select_keys", "must be a list of field names")
    # aw-core reads "priority", else its other name "weight".
    field = "priority" if "priority" in rule else "weight"
    priority = rule.get(field)
    if priority is not None and (isinstance(priority, bool) or not isinstance(priority, int)):
        raise _Bad(k, field, "must be an integer")
    return CategoryRule(tuple(name), regex, ignore_case, tuple(keys) if keys else None, priority)


_SPACE = re.compile(r"[ \t\n\r]*")


def _category_spans(text: str) -> list[tuple[int, int]]:
    """Where each category of ``text``'s list stands ([start, end) offsets), found by
    walking the JSON as ``categories_of`` reads it; [] when it cannot be walked."""
    dec = json.JSONDecoder()

    def skip(i: int) -> int:
        m = _SPACE.match(text, i)
        return m.end() if m else i

    try:
        i = skip(0)
        if text.startswith("{", i):  # {"categories": [...]} or {"classes": [...]}
            at: dict[str, int] = {}
            i = skip(i + 1)
            while text.startswith('"', i):
                key, i = dec.raw_decode(text, i)
                i = skip(skip(i) + 1)  # past the colon
                at[str(key)] = i  # (a repeated key: the last, as json.loads keeps it)
                _, i = dec.raw_decode(text, i)
                i = skip(i)
                i = skip(i + 1) if text.startswith(",", i) else i
            i = at.get("categories", at.get("classes", -1))
        if not text.startswith("[", i):
            return []
        spans, i = [], skip(i + 1)
        while i < len(text) and not text.startswith("]", i):
            _, end = dec.raw_decode(text, i)
            spans.append((i, end))
            i = skip(end)
            i = skip(i + 1) if text.startswith(",", i) else i
        return spans
    except (ValueError, RecursionError):
        return []


def _line_of(text: str, start: int, end: int, field: str) -> int:
    """The line of ``field``'s key within ``text[start:end]`` (a category), else the
    category's first line (1 without ``text``)."""
    if not text:
        return 1
    at = start
    if field:
        m = re.compile(rf'"{re.escape(field)}"\s*:').search(text, start, end)
        at = m.start() if m else start
    return text.count("\n", 0, at) + 1


class CategoryMatcher:
    """``pick(app, title)``: the category's levels, as ActivityWatch picks them."""

    def __init__(self, rules: Sequence[CategoryRule]) -> None:
        self.rules = [
            (
                r.name,
                recache.compile(r.regex, re.UNICODE | (re.IGNORECASE if r.ignore_case else 0)),
                r.select_keys,
                r.priority if r.priority is not None else 10 * len(r.name),
            )
            for r in rules
            if r.regex and r.name
        ]

    def pick(self, app: str, title: str) -> tuple[str, ...]:
        data = {"app": app, "title": title}
        best: tuple[str, ...] = UNCATEGORIZED
        rank: int | None = None
        for name, regex, keys, r in self.rules:
            values = data.values() if keys is None else [data.get(k) for k in keys]
            hit = any(isinstance(v, str) and regex.search(v) for v in values)
            if hit and (rank is None or r >= rank):
                best, rank = name, r
        return best
