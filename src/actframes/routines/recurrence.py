"""h: the share of action steps that recur.

- ``raw``: steps inside any recurring sequence (``mine.Rules`` without the specificity
  and maximality rules): mostly generic input micro-structure.
- ``delegable``: steps inside an occurrence of a routine (specific, maximal).

In-sample: mined and measured on the same steps. Out-of-sample: mined on the earlier
part (``train``), measured on the later part (``test``) by finding the mined sequences
there. Counts are integers; ``pct`` values are per-mille rounded to one decimal in
reports, never in documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .coverage import find_occurrences, recurring_coverage, routine_coverage
from .mine import Corpus, Mined, Rules, walk
from .step_tokens import RStep


class H(NamedTuple):
    steps: int
    raw: int
    delegable: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "steps": self.steps,
            "raw_steps": self.raw,
            "delegable_steps": self.delegable,
            "raw_pct": pct(self.raw, self.steps),
            "delegable_pct": pct(self.delegable, self.steps),
        }


def pct(a: int, b: int) -> float | None:
    return round(100 * a / b, 1) if b else None


def in_sample(corpus: Corpus, mined: Sequence[Mined], rules: Rules) -> H:
    return H(
        corpus.n_steps,
        len(recurring_coverage(corpus, rules)),
        len(routine_coverage(mined)),
    )


def out_of_sample(train: Corpus, test: Corpus, mined: Sequence[Mined], rules: Rules) -> H:
    """Sequences mined on ``train`` found in ``test``: raw = steps of the test part
    inside an occurrence of any sequence of ``min_length`` that recurs in train;
    delegable = inside an occurrence of a routine mined in train."""
    raw: set[tuple[int, int]] = set()
    n = rules.min_length
    grams, levels = walk(train, rules._replace(max_length=n))
    if len(levels) >= n:
        frequent = {tuple(train.tokens[t] for t in grams.tokens(g)) for g in levels[n - 1]}
        for s, seq in enumerate(test.seqs):
            for p in range(len(seq) - n + 1):
                if tuple(test.tokens[t] for t in seq[p : p + n]) in frequent:
                    raw.update((s, p + k) for k in range(n))
    deleg: set[tuple[int, int]] = set()
    for m in mined:
        for s, p in find_occurrences(test, m.tokens):
            deleg.update((s, p + k) for k in range(len(m.tokens)))
    return H(test.n_steps, len(raw), len(deleg))


def split_days(
    segs: Sequence[Sequence[RStep]], holdout_days: int | None
) -> tuple[list[Sequence[RStep]], list[Sequence[RStep]], str]:
    """(train segments, test segments, how): the last ``holdout_days`` local days are
    the test part (default: the later half of the days, at least one). With a single
    day, the split is in time: segments ending before the middle action step train."""
    days = sorted({seg[0].day for seg in segs if seg})
    if len(days) >= 2:
        k = holdout_days if holdout_days is not None else max(1, len(days) // 2)
        k = min(max(k, 1), len(days) - 1)
        test_days = set(days[-k:])
        return (
            [s for s in segs if s and s[0].day not in test_days],
            [s for s in segs if s and s[0].day in test_days],
            f"days: train {days[0]}..{days[-k - 1]}, test {days[-k]}..{days[-1]}",
        )
    steps = [st for seg in segs for st in seg]
    if len(steps) < 2:
        return list(segs), [], "none"
    mid = sorted(st.t_ms for st in steps)[len(steps) // 2]
    train: list[Sequence[RStep]] = []
    test: list[Sequence[RStep]] = []
    for seg in segs:
        a = [st for st in seg if st.t_ms < mid]
        b = [st for st in seg if st.t_ms >= mid]
        if a:
            train.append(a)
        if b:
            test.append(b)
    return train, test, "time: one day, split at the middle action step"
