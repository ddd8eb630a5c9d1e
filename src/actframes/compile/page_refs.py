"""Page references for the document: what a URL (or, without one, a title) points at.

The rules live in ``actframes.entities`` (tables of site and title rules, one matcher);
this module adapts them to the document's ``(kind, entity)`` pairs. Always total: any
string yields a reference and nothing raises.
"""

from __future__ import annotations

from ..entities import clean_title, title_ref
from ..entities import page_ref as _page_ref

PAGE = "page"

__all__ = ["PAGE", "clean_title", "page_ref", "row_ref"]


def page_ref(url: str) -> tuple[str, str]:
    """(kind, entity) of ``url``: ``("pull_request", "psf/requests#6712")``."""
    ref = _page_ref(url)
    return (ref.kind, ref.entity)


def row_ref(app: str, title: str, url: str | None) -> tuple[str, str] | None:
    """What one row showed: its URL's page reference, else the typed entity its window
    title names (``("file", "main.py (MHacks)")``), else None."""
    if url:
        return page_ref(url)
    ref = title_ref(app, title)
    return (ref.kind, ref.label) if ref is not None else None
