"""A reference's label: what its window title called the thing a URL points at.

A page reference from a URL is keyed by an id (`doc 7733d7210dff`, `question 990754`); the
browser's window title usually names the same thing in words ("Design doc - Google Docs").
The label is the title shown longest while the reference was on screen (ties: the one
that sorts first, by app then title), without the browser's own suffix — unless that
title names nothing more than the id or the address itself. References read from a title
(no URL) are named by it already.
"""

from __future__ import annotations

import re

from ..fast.lazyre import LazyRe
from .page_refs import clean_title

# Titles shown while a reference was on screen: (app, title) -> milliseconds held.
Shown = dict[tuple[str, str], int]

# A title that is only an address: what browsers show while a page loads. Compiled on
# first use from the machine's pattern cache (``fast/recache.py``), as the rule tables are.
_ADDRESS = LazyRe(r"(?:[a-z][a-z0-9+.-]*:\S*|[\w-]+(?:\.[\w-]+)+(?::\d+)?(?:/\S*)?)", re.I)


def _LONGEST_THEN_FIRST(kv: tuple[tuple[str, str], int]) -> tuple[int, tuple[str, str]]:
    return (-kv[1], kv[0])


def label(entity: str, shown: Shown) -> str | None:
    """The label for ``entity`` from the titles shown with it, or None."""
    if not shown:
        return None
    if len(shown) == 1:  # one title shown with it, the usual case: nothing to compare
        ((app, title),) = shown
    else:
        (app, title), _ = min(shown.items(), key=_LONGEST_THEN_FIRST)
    text = clean_title(app, title)
    if not text or text.casefold() == entity.casefold() or _ADDRESS.fullmatch(text):
        return None
    return text


def merge(into: Shown, more: Shown) -> None:
    for key, ms in more.items():
        into[key] = into.get(key, 0) + ms
