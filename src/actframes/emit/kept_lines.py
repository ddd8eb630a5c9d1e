"""Lines rendered from a document's parts, kept for the next rendering of a later one.

A resident server renders today's context block again at every call while a recorder
appends, and the document's frames that did not change are the very same objects
(``compile/reuse.py``): their lines are the same text. ``KeptLines`` keeps each line
with the object it was made of (held, so its identity stays its own) and keeps only
those of the latest rendering, so nothing piles up. Documents are never changed once
made, so an object's line is its line for as long as it lives.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any


class KeptLines:
    """Lines by the identity of the object each was made of, and a key of whatever else
    they depend on (a clock's form, say): the latest rendering's only."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Any, Hashable, str]] = {}
        self.hits = 0

    def lines(self, parts: Sequence[Any], key: Hashable, make: Callable[[Any], str]) -> list[str]:
        """``[make(p) for p in parts]``, each line kept from the latest call where its
        part is the same object and ``key`` the same."""
        kept = self._kept
        now: dict[int, tuple[Any, Hashable, str]] = {}
        out = []
        for p in parts:
            found = kept.get(id(p))
            if found is not None and found[0] is p and found[1] == key:
                line = found[2]
                self.hits += 1
            else:
                line = make(p)
            now[id(p)] = (p, key, line)
            out.append(line)
        self._kept = now  # one assignment: a reader of the former dict still finds its own
        return out
