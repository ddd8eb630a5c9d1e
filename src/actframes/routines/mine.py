"""Mining recurring step sequences: the routines.

A *recurring sequence* is a run of at least ``min_length`` consecutive action tokens
that occurs at least ``min_occurrences`` times without overlapping itself, on at least
``min_days`` local days. Occurrences never cross a segment (a session gap, a local
midnight or a device). A *routine* is a recurring sequence that also names at least
``min_specific`` distinct specific targets (``RStep.specific``), is *maximal* (no
recurring, specific sequence one step longer contains it) and is *not chance*: with a few
frequent actions, short sequences recur by chance, so its count must be far above what
its actions' own frequencies would give (``chance_bound``).

Counting is level-wise (Apriori): a sequence can only recur if its prefix recurs, so
each level extends only the frequent sequences of the level before, and a sequence's
suffix is found by the same extension of its prefix's suffix. Occurrences are counted
greedily from the left in each segment (non-overlapping), which never counts fewer
occurrences for a sub-sequence than for a sequence containing it, so the pruning is
exact. Everything is sorted: the same steps give the same routines in the same order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from .step_tokens import RStep

Token = tuple[str, str, str, str, str]

# A sequence is absorbed by a longer one containing it only when the longer one has at
# least this share of its occurrences; otherwise the longer one is a variant and both
# are routines.
MAXIMAL_SHARE_PCT = 80
# A routine's count must be this unlikely by chance: the bound on the chance of seeing it
# at least that often, were its segments' actions in random order, is at most 10^-4
# shared among the corpus's N action steps (each may start a sequence that is tried):
# 10^-4 / N. Shuffled streams of the RPA logs reach about 10^-6 by chance (N ≈ 8,000 there,
# so the bar is about 10^-8: the bench measures it); the labelled routines lie below 10^-12.
CHANCE_LOG10 = -4


class Rules(NamedTuple):
    min_length: int = 3
    min_occurrences: int = 3
    min_days: int = 2
    min_specific: int = 2
    max_length: int = 200
    # The null model (``not_chance``). Off only to build plans from a few bare
    # repetitions, which are never evidence against chance.
    against_chance: bool = True


class Mined(NamedTuple):
    tokens: tuple[Token, ...]
    occurrences: tuple[tuple[int, int], ...]  # (segment, first step), in order
    days: tuple[str, ...]
    expected: Fraction = Fraction(0)  # occurrences expected by chance (``Corpus.expected``)


class Corpus:
    """Segments as token ids, with each token's target and specificity."""

    def __init__(self, segs: Sequence[Sequence[RStep]]) -> None:
        self.segs = segs
        self.ids: dict[Token, int] = {}
        self.tokens: list[Token] = []
        self.specific: list[bool] = []
        self.seqs: list[list[int]] = []
        for seg in segs:
            row = []
            for s in seg:
                tok = s.token
                i = self.ids.get(tok)
                if i is None:
                    i = self.ids[tok] = len(self.tokens)
                    self.tokens.append(tok)
                    self.specific.append(s.specific)
                row.append(i)
            self.seqs.append(row)
        self.day = [seg[0].day if seg else "" for seg in segs]

    def flat(self) -> tuple[list[int], list[tuple[int, int]], list[int]]:
        """(every segment's token ids one after another, each segment followed by -1;
        the (segment, position) of each index; each index's day as a number): the walk
        indexes steps with one int and never crosses a segment's end."""
        got: tuple[list[int], list[tuple[int, int]], list[int]] | None = getattr(
            self, "_flat", None
        )
        if got is None:
            flat: list[int] = []
            where: list[tuple[int, int]] = []
            day_ids: list[int] = []
            numbers: dict[str, int] = {}
            for s, seq in enumerate(self.seqs):
                d = numbers.setdefault(self.day[s], len(numbers))
                flat.extend(seq)
                where.extend((s, p) for p in range(len(seq)))
                day_ids.extend([d] * len(seq))
                flat.append(-1)
                where.append((s, len(seq)))
                day_ids.append(-1)
            got = self._flat = (flat, where, day_ids)
        return got

    @property
    def n_steps(self) -> int:
        return sum(len(s) for s in self.seqs)

    def target_count(self, gram: Sequence[int]) -> int:
        """Distinct specific targets (app, role, name) the token ids name."""
        return len({self.tokens[t][1:] for t in gram if self.specific[t]})

    def expected(self, gram: Sequence[int]) -> Fraction:
        """Occurrences of ``gram`` expected by chance, exactly: were each segment's steps
        in random order, each of its n − L + 1 positions would start the gram with the
        product of its tokens' shares of that segment (the null model keeps every
        action's frequency and the segment it happened in)."""
        counts = self._counts()
        length = len(gram)
        total = Fraction(0)
        for seq, count in zip(self.seqs, counts, strict=True):
            n = len(seq)
            if n < length:
                continue
            num = n - length + 1
            for t in gram:
                num *= count.get(t, 0)
                if not num:
                    break
            if num:
                total += Fraction(num, n**length)
        return total

    def _counts(self) -> list[Counter[int]]:
        got: list[Counter[int]] | None = getattr(self, "_seg_counts", None)
        if got is None:
            got = [Counter(seq) for seq in self.seqs]
            self._seg_counts = got
        return got


def chance_log10(observed: int, expected: Fraction) -> float:
    """log10 of a bound on the chance of ``observed`` or more occurrences when
    ``expected`` are expected: for a count of chance starts (Poisson with mean λ),
    P(X ≥ k) ≤ λ^k / k!. Computed from the exact fraction's integers, so it is the same
    on every machine."""
    if expected <= 0:
        return -math.inf
    log_lam = math.log10(expected.numerator) - math.log10(expected.denominator)
    return observed * log_lam - math.lgamma(observed + 1) / math.log(10)


def not_chance(observed: int, expected: Fraction, steps: int) -> bool:
    """Is ``observed`` far enough above ``expected`` in a corpus of ``steps`` steps?"""
    return chance_log10(observed, expected) <= CHANCE_LOG10 - math.log10(max(steps, 1))


def _greedy(positions: Sequence[int], length: int) -> list[int]:
    """Non-overlapping occurrences, leftmost first (``Corpus.flat`` indices, sorted; an
    occurrence never spans a segment's end, so one running end serves all segments)."""
    out: list[int] = []
    end = -1
    for i in positions:
        if i >= end:
            out.append(i)
            end = i + length
    return out


class _Grams:
    """Grams as ids: a gram is its prefix's id plus one token, so extending a level
    costs one dict lookup per occurrence whatever the length."""

    def __init__(self) -> None:
        self.parent: list[int] = [-1]
        self.last: list[int] = [-1]
        self.ids: dict[tuple[int, int], int] = {}

    def child(self, parent: int, tok: int) -> int:
        key = (parent, tok)
        g = self.ids.get(key)
        if g is None:
            g = self.ids[key] = len(self.parent)
            self.parent.append(parent)
            self.last.append(tok)
        return g

    def tokens(self, g: int) -> tuple[int, ...]:
        out = []
        while g > 0:
            out.append(self.last[g])
            g = self.parent[g]
        return tuple(reversed(out))


def walk(corpus: Corpus, rules: Rules) -> tuple[_Grams, list[dict[int, list[int]]]]:
    """levels[L-1] = {gram id: all its start positions (``Corpus.flat`` indices)} for
    every gram of length L that recurs (non-overlapping count and days as the rules
    say)."""
    flat, _, day_ids = corpus.flat()
    grams = _Grams()
    least, min_days = rules.min_occurrences, rules.min_days

    def keep(pos: list[int], length: int) -> bool:
        if len(pos) < least:
            return False
        n, end = 0, -1
        days: set[int] = set()
        for i in pos:
            if i >= end:
                n += 1
                end = i + length
                days.add(day_ids[i])
        return n >= least and (min_days <= 1 or len(days) >= min_days)

    first: dict[int, list[int]] = {}
    for i, t in enumerate(flat):
        if t >= 0:
            got = first.get(t)
            if got is None:
                first[t] = [i]
            else:
                got.append(i)
    level = {grams.child(0, t): pos for t, pos in first.items() if keep(pos, 1)}
    levels = [level]
    length = 1
    while level and length < rules.max_length:
        nxt: dict[int, list[int]] = {}
        for g, pos in level.items():
            # Each occurrence extended by the token after it (-1: the segment ended).
            by_next: dict[int, list[int]] = {}
            for i in pos:
                t = flat[i + length]
                if t >= 0:
                    got = by_next.get(t)
                    if got is None:
                        by_next[t] = [i]
                    else:
                        got.append(i)
            for t, ext in by_next.items():
                if len(ext) >= least and keep(ext, length + 1):
                    nxt[grams.child(g, t)] = ext
        length += 1
        level = nxt
        if level:
            levels.append(level)
    return grams, levels


def mine(corpus: Corpus, rules: Rules) -> list[Mined]:
    """The routines: maximal recurring sequences naming enough specific targets, cut to
    one repetition (``_unit``), one rotation per cycle, ordered by steps covered (most
    first), then tokens."""
    grams, levels = walk(corpus, rules)
    cands: list[dict[int, tuple[int, ...]]] = []
    for i, level in enumerate(levels):
        length = i + 1
        row = {}
        if length >= rules.min_length:
            for g in level:
                toks = grams.tokens(g)
                if corpus.target_count(toks) >= rules.min_specific:
                    row[g] = toks
        cands.append(row)
    maximal: dict[tuple[int, ...], int] = {}  # tokens -> gram id
    for i, cs in enumerate(cands):
        longer = cands[i + 1] if i + 1 < len(cands) else {}
        # The best support among the one-step-longer candidates extending each gram
        # at either end (support only falls with length, so one level is enough).
        ext: dict[Any, int] = {}
        for g, t in longer.items():
            n = len(_greedy(levels[i + 1][g], i + 2))
            for key in (grams.parent[g], t[1:]):
                ext[key] = max(ext.get(key, 0), n)
        for g, t in cs.items():
            n = len(_greedy(levels[i][g], i + 1))
            top = max(ext.get(g, 0), ext.get(t, 0))
            if top * 100 < n * MAXIMAL_SHARE_PCT:
                maximal[t] = g
    units: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for t in sorted(maximal):
        u = _unit(t, rules.min_length)
        if u in units:
            continue
        # A unit is a prefix of its gram: its occurrences are its ancestor's.
        g = maximal[t]
        for _ in range(len(t) - len(u)):
            g = grams.parent[g]
        where = corpus.flat()[1]
        occ = [where[i] for i in _greedy(levels[len(u) - 1][g], len(u))]
        if _passes(corpus, rules, u, occ):
            units[u] = occ
    # A routine inside another routine is not maximal; a cycle seen from several
    # starting points keeps the start that follows the longest usual pause.
    having: dict[int, list[tuple[int, ...]]] = {}  # token -> units holding it
    for v in units:
        for tok in set(v):
            having.setdefault(tok, []).append(v)
    kept = [
        u
        for u in units
        if not any(
            len(v) > len(u)
            and len(units[v]) * 100 >= len(units[u]) * MAXIMAL_SHARE_PCT
            and _contains(v, u)
            for v in having[u[0]]
        )
    ]
    best: dict[tuple[int, ...], tuple[int, ...]] = {}
    for u in sorted(kept):
        key = _rotation_key(u)
        cur = best.get(key)
        if cur is None or _start_rank(corpus, u, units[u]) > _start_rank(corpus, cur, units[cur]):
            best[key] = u
    out = []
    for u in best.values():
        occ = units[u]
        days = tuple(sorted({corpus.day[s] for s, _ in occ}))
        out.append(Mined(tuple(corpus.tokens[t] for t in u), tuple(occ), days, corpus.expected(u)))
    out.sort(key=lambda m: (-len(m.tokens) * len(m.occurrences), m.tokens))
    return out


def _unit(g: tuple[int, ...], anchor: int) -> tuple[int, ...]:
    """One repetition of ``g`` when ``g`` runs on into the next repetition: back-to-back
    repetitions make recurring sequences as long as the run. ``g`` is cut where its
    first ``anchor`` tokens come round again, provided that everything from there on
    repeats steps the part before already has (the next repetition, perhaps a variant
    of it); a sequence whose later part does something new (a loop of steps followed by
    "Submit claim") is a routine as it is, inner loop and all."""
    head = g[:anchor]
    for i in range(1, len(g) - anchor + 1):
        if g[i : i + anchor] == head and set(g[i:]) <= set(g[:i]):
            return g[:i]
    return g


def _passes(corpus: Corpus, rules: Rules, g: tuple[int, ...], occ: list[tuple[int, int]]) -> bool:
    return (
        len(g) >= rules.min_length
        and len(occ) >= rules.min_occurrences
        and len({corpus.day[s] for s, _ in occ}) >= rules.min_days
        and corpus.target_count(g) >= rules.min_specific
        and (not rules.against_chance or not_chance(len(occ), corpus.expected(g), corpus.n_steps))
    )


def _contains(big: tuple[int, ...], small: tuple[int, ...]) -> bool:
    n = len(small)
    return any(big[i : i + n] == small for i in range(len(big) - n + 1))


def _rotation_key(u: tuple[int, ...]) -> tuple[int, ...]:
    return min(u[i:] + u[:i] for i in range(len(u)))


def _start_rank(
    corpus: Corpus, u: tuple[int, ...], occ: list[tuple[int, int]]
) -> tuple[bool, int, int]:
    """(starts by opening a page, median pause before the first step, occurrences): a
    segment's first step counts as the longest pause."""
    pauses = sorted(
        corpus.segs[s][p].t_ms - corpus.segs[s][p - 1].t_ms if p else 1 << 62 for s, p in occ
    )
    median = pauses[len(pauses) // 2] if pauses else 0
    return corpus.tokens[u[0]][0] == "navigate", median, len(occ)
