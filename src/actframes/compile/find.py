"""Frames of a document found by words: ``actframes steps --find`` and the MCP frame tool.

A frame matches a query word when one of its words (app, site, titles, page kinds and
entities, interruptions' apps) starts with it, case-insensitively. Frames are ranked by
how many distinct query words they match, then by how many of those are in a title or
entity (what the frame was about, not where), then by active time, then by start; a
frame that matches no word is not listed. Deterministic: the same document and query
give the same order.
"""

from __future__ import annotations

import re
from typing import Any

from ..doc_types import Frame
from .document import Doc

_WORD = re.compile(r"[^\W_]+")  # "expense_report.py" is two words and an extension
# Words that say nothing about a task; a query of only these matches nothing.
_STOP = frozenset(
    {"a", "an", "and", "the", "of", "to", "in", "on", "for", "with", "at", "by", "from", "my",
     "me", "i", "is", "it", "this", "that", "was", "were", "do", "did", "how", "what", "when",
     "where", "which", "who", "or"}
)  # fmt: skip


def query_words(query: str) -> list[str]:
    """The distinct words of a query that can match, in the order given."""
    words = [w for w in _WORD.findall(query.casefold()) if w not in _STOP]
    return list(dict.fromkeys(words))


def _fields(frame: Frame) -> tuple[list[str], list[str]]:
    """(where: app, site, interruptions' apps; what: titles and page entities)."""
    where = [frame["app"], frame.get("site") or ""]
    where += [i["app"] for i in frame.get("interruptions", [])]
    what = list(frame.get("titles", []))
    for p in frame.get("pages", []):
        what.append(f"{p['kind']} {p.get('entity', '')}")
        if p.get("label"):
            what.append(str(p["label"]))
    return where, what


def _hits(words: list[str], texts: list[str]) -> tuple[set[str], list[str]]:
    found: set[str] = set()
    matched: list[str] = []
    for text in texts:
        tokens = _WORD.findall(text.casefold())
        got = {w for w in words if any(t.startswith(w) for t in tokens)}
        if got:
            found |= got
            matched.append(text)
    return found, matched


def find_frames(doc: Doc, query: str, limit: int = 10) -> list[dict[str, Any]]:
    """The frames of ``doc`` that match ``query``, best first, each with its score and
    the fields that matched."""
    words = query_words(query)
    if not words:
        return []
    ranked: list[tuple[tuple[int, int, int, str, str], dict[str, Any]]] = []
    for f in doc["frames"]:
        where, what = _fields(f)
        in_what, m_what = _hits(words, what)
        in_where, m_where = _hits(words, where)
        found = in_what | in_where
        if not found:
            continue
        hit: dict[str, Any] = {
            "id": f["id"],
            "app": f["app"],
            "site": f.get("site"),
            "start": f["start"],
            "end": f["end"],
            "active_s": f["active_s"],
            "matched_words": len(found),
            "of_words": len(words),
            "matched": (m_what + m_where)[:5],
        }
        key = (-len(found), -len(in_what), -f["active_s"], f["start"], f["id"])
        ranked.append((key, hit))
    ranked.sort(key=lambda kv: kv[0])
    return [hit for _, hit in ranked[:limit]]
