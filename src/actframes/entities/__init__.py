"""Typed references to what the user looked at: pages from URLs, entities from titles.

- ``page_ref(url) -> PageRef(site, kind, entity)``: ``pull_request psf/requests#6712``,
  ``profile jane-doe``, ``search "cto berlin"``. Total: any string yields a reference and
  nothing raises; an unknown site gives ``page`` with its host.
- ``title_ref(app, title) -> TitleRef | None``: the file and project in an editor, the
  channel in a chat app, the document in an office suite or PDF viewer …
- ``clean_title(app, title) -> str``: the title without the browser's own suffix.

Every rule is a line in a table (``url_rules.py``, ``title_rules.py``) run by a small
matcher (``matcher.py``); kinds are documented in ``kinds.py`` and docs/entities.md.
Results are memoised: the compiler asks about the same few hundred URLs thousands of times.
"""

from __future__ import annotations

from functools import lru_cache

from .kinds import KINDS
from .pages import PageRef, page_ref, site_key
from .title_rules import TitleRef, clean_title, title_ref

__all__ = [
    "KINDS",
    "PageRef",
    "TitleRef",
    "clean_title",
    "page_ref",
    "rules_digest",
    "site_key",
    "title_ref",
]


@lru_cache(maxsize=1)
def rules_digest() -> str:
    """A digest of every rule table: it changes whenever any rule does, so a cache of
    compiled documents can key on it (page references depend on the rules)."""
    from ..fast.fasthash import sha256
    from . import matcher, pages, title_rules, url_rules

    parts = (
        url_rules.SITES, url_rules.EXTRA_SITES, url_rules.HOST_ALIASES, url_rules.GENERIC,
        title_rules.BROWSER_SUFFIXES, title_rules.APP_FAMILIES, title_rules.TITLE_RULES,
        title_rules.KIND_WORDS, title_rules.CHAT_VIEWS, title_rules.NOT_FILES.pattern,
        title_rules.FAMILY_PREFIXES, sorted(matcher.DENY_PARAMS), matcher.DENY_PARAM_PARTS,
        pages._AUTH_START.pattern, pages._AMP.pattern,
    )  # fmt: skip
    return sha256(repr(parts).encode("utf-8")).hexdigest()[:16]
