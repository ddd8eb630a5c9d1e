"""The level-wise walk finds exactly the recurring sequences a direct count finds: every
gram up to a length, its non-overlapping occurrences counted greedily from the left in
each segment, on enough days (random token streams over random segments and days)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.routines.mine import Corpus, Rules, walk
from actframes.routines.step_tokens import RStep

MAX_LEN = 5


def _step(tok: int, day: str) -> RStep:
    return RStep(0, "", day, "click", "App", "", "push button", f"b{tok}", f"b{tok}", None,
                 None, None, None, (), None, "recorded")  # fmt: skip


def _direct(seqs: list[list[int]], days: list[str], rules: Rules) -> set[tuple[int, ...]]:
    found = set()
    for length in range(1, MAX_LEN + 1):
        grams = {tuple(s[p : p + length]) for s in seqs for p in range(len(s) - length + 1)}
        for g in grams:
            occ = []
            for si, s in enumerate(seqs):
                p = 0
                while p + length <= len(s):
                    if tuple(s[p : p + length]) == g:
                        occ.append(si)
                        p += length
                    else:
                        p += 1
            if len(occ) >= rules.min_occurrences and len({days[s] for s in occ}) >= rules.min_days:
                found.add(g)
    return found


segments = st.lists(
    st.tuples(st.sampled_from(["d1", "d2", "d3"]), st.lists(st.integers(0, 3), max_size=14)),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(segments, st.integers(2, 3), st.integers(1, 2))
def test_the_walk_finds_what_a_direct_count_finds(
    segs: list[tuple[str, list[int]]], least: int, days: int
) -> None:
    rules = Rules(min_occurrences=least, min_days=days, max_length=MAX_LEN)
    corpus = Corpus([[_step(t, d) for t in toks] for d, toks in segs if toks])
    grams, levels = walk(corpus, rules)
    walked = {
        tuple(int(corpus.tokens[t][4][1:]) for t in grams.tokens(g))
        for level in levels
        for g in level
    }
    seqs = [toks for _, toks in segs if toks]
    assert walked == _direct(seqs, [d for d, toks in segs if toks], rules)
