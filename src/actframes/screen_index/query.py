"""A user's words as FTS5 queries. A plain string never raises: it is cut into words the
way the index's tokenizer cuts text (letters and digits; quotes, dashes, colons, ``_``
and operators separate words), and each word is quoted, so ``KeyError: 'customer_id'``
looks for KeyError, customer and id. Three queries rank the matches: all the words as a
phrase, all of them near each other, all of them anywhere. FTS5's own syntax is used
only when asked for (``fts=True``); a query it cannot parse is then a one-line error."""

from __future__ import annotations

import re

from ..errors import UsageError

MAX_WORDS = 32  # words of a query looked for; the rest are left out (said in the result)
MAX_QUERY_CHARS = 4_000
NEAR_TOKENS = 12  # "near": all the words within this many tokens
_WORD = re.compile(r"[^\W_]+")


class QueryError(UsageError):
    """A query with no word to look for, or FTS5 syntax that does not parse."""


class Query:
    """The match expressions of a query: ``phrase`` and ``near`` are None for one word."""

    def __init__(self, text: str, fts: bool = False) -> None:
        clean = _clean(text)
        self.text = clean
        if fts:
            if not clean.strip():
                raise QueryError("query: no words to look for")
            self.words: list[str] = _WORD.findall(clean)[:MAX_WORDS]
            self.all = clean
            self.phrase: str | None = None
            self.near: str | None = None
            self.dropped = 0
            return
        words = _WORD.findall(clean[:MAX_QUERY_CHARS])
        if not words:
            raise QueryError(f"query: no words to look for in {text[:60]!r}")
        self.words = words[:MAX_WORDS]
        self.dropped = len(words) - len(self.words)
        quoted = [f'"{w}"' for w in self.words]
        self.all = " ".join(quoted)
        several = len(self.words) > 1
        self.phrase = '"' + " ".join(self.words) + '"' if several else None
        self.near = f"NEAR({' '.join(quoted)}, {NEAR_TOKENS})" if several else None


def _clean(text: str) -> str:
    """Without NULs and lone surrogates (they cannot reach SQLite as text)."""
    text = text.replace("\x00", " ")
    return text.encode("utf-8", "replace").decode("utf-8")
