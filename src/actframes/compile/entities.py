"""Page references: what a URL points at, as (kind, entity).

Always total: any string yields a reference and nothing raises. This first cut types
every page as ``page`` with its host; site tables refine it.
"""

from __future__ import annotations

from .site import site_of

PAGE = "page"


def page_ref(url: str) -> tuple[str, str]:
    return (PAGE, site_of(url) or url.split("?", 1)[0].split("#", 1)[0][:80])
