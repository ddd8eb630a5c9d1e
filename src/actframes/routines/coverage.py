"""Where recurring sequences and routines lie in a corpus: the steps they cover, and a
sequence's occurrences in another corpus (held-out days). Measures over what
``mine.py`` finds; they never change what it finds."""

from __future__ import annotations

from collections.abc import Sequence

from .mine import Corpus, Mined, Rules, Token, walk


def recurring_coverage(corpus: Corpus, rules: Rules) -> set[tuple[int, int]]:
    """Steps (segment, position) inside any recurring sequence of at least
    ``min_length`` steps, specific or not (the raw recurrence)."""
    _, levels = walk(corpus, rules._replace(max_length=rules.min_length))
    if len(levels) < rules.min_length:
        return set()
    where = corpus.flat()[1]
    out: set[tuple[int, int]] = set()
    for pos in levels[rules.min_length - 1].values():
        for i in pos:
            s, p = where[i]
            out.update((s, p + k) for k in range(rules.min_length))
    return out


def routine_coverage(mined: Sequence[Mined]) -> set[tuple[int, int]]:
    return {(s, p + k) for m in mined for s, p in m.occurrences for k in range(len(m.tokens))}


def find_occurrences(corpus: Corpus, tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Non-overlapping occurrences of a token sequence in ``corpus`` (e.g. routines
    mined on other days), leftmost first."""
    ids = [corpus.ids.get(t) for t in tokens]
    if not ids or any(i is None for i in ids):
        return []
    n = len(ids)
    out: list[tuple[int, int]] = []
    for s, seq in enumerate(corpus.seqs):
        p = 0
        while p + n <= len(seq):
            if seq[p : p + n] == ids:
                out.append((s, p))
                p += n
            else:
                p += 1
    return out
