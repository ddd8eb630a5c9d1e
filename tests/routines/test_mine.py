"""Mining routines from step streams: the rules of the issue, maximality, determinism."""

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.routines import mine as mine_module
from actframes.routines.coverage import recurring_coverage
from actframes.routines.mine import (
    CHANCE_LOG10,
    Corpus,
    Rules,
    chance_log10,
    mine,
)
from actframes.routines.plan import routine_id
from actframes.routines.step_tokens import segments

from .helpers import DAY0, DAY_MS, claim, click, noise, stream


def history(days: list[int], runs_per_day: int, gap_ms: int = 120_000) -> list[dict]:
    out: list[dict] = []
    for d in days:
        t = DAY0 + d * DAY_MS
        for k in range(runs_per_day):
            out += noise(t, d * 100 + k)
            t += 20_000
            out += claim(t, claim_id=100 + d * 10 + k)
            t += gap_ms
    return out


def routines(dicts: list[dict], **rules: int) -> list:
    return mine(Corpus(segments(stream(dicts))), Rules(**rules))


def test_a_routine_recurring_on_two_days_is_found_with_its_occurrences() -> None:
    found = routines(history([0, 1], 2))
    assert len(found) == 1
    (r,) = found
    assert [t[0] for t in r.tokens] == [
        "navigate",
        "click",
        "type",
        "click",
        "type",
        "click",
        "navigate",
    ]
    assert len(r.occurrences) == 4 and r.days == ("2026-03-08", "2026-03-09")


def test_three_times_on_one_day_is_not_enough_by_default() -> None:
    assert routines(history([0], 3)) == []
    assert len(routines(history([0], 3), min_days=1)) == 1


def test_two_times_is_not_enough() -> None:
    assert routines(history([0, 1], 1)) == []


def test_generic_targets_do_not_make_a_routine() -> None:
    generic = ["OK", "Cancel", "Yes", "Close", "Next"]
    dicts = []
    for d in range(3):
        for k in range(2):
            t = DAY0 + d * DAY_MS + k * 200_000
            dicts += noise(t, d * 10 + k)
            dicts += [click(t + 20_000 + 2_000 * i, name) for i, name in enumerate(generic)]
    assert routines(dicts) == []
    assert len(routines(dicts, min_specific=0)) == 1


def test_chance_recurrences_of_a_few_frequent_actions_are_not_routines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A mail client used all day: clicks on a handful of targets in no fixed order. Short
    # sequences of them recur by chance ("Reply, Inbox, Search mail" three times on two
    # days); the one real routine, a claim, recurs far above what chance gives.
    rnd = random.Random(7)
    names = ["Reply", "Inbox", "Search mail", "Archive", "Compose", "Label"]
    dicts: list[dict] = []
    for d in range(2):
        t = DAY0 + d * DAY_MS
        for _ in range(80):
            dicts.append(click(t, rnd.choice(names)))
            t += 4_000
        for k in range(2):
            dicts += claim(t + 10_000, claim_id=100 + d * 10 + k)
            t += 40_000
    found = routines(dicts)
    assert [len(r.tokens) for r in found] == [7]  # the claim, and nothing else
    (claim_routine,) = found
    assert claim_routine.expected < Fraction(1, 10**6)
    # The same rules without the null model report chance sequences as routines.
    monkeypatch.setattr(mine_module, "CHANCE_LOG10", math.inf)
    assert len(routines(dicts)) > 1


def test_expected_occurrences_follow_the_segments_own_frequencies() -> None:
    corpus = Corpus([[], []])
    corpus.seqs = [[0, 1, 0, 1], [0, 0, 2]]
    # Segment 1: 3 positions × (2/4)·(2/4); segment 2: 2 positions × (2/3)·(0/3).
    assert corpus.expected((0, 1)) == Fraction(3, 4)
    assert corpus.expected((0, 0)) == Fraction(3 * 4, 16) + Fraction(2 * 4, 9)
    assert corpus.expected((2, 2, 2, 2)) == 0  # longer than any segment holding it
    assert chance_log10(3, Fraction(3, 4)) > CHANCE_LOG10  # three when ¾ expected: chance
    assert chance_log10(30, Fraction(3, 4)) < CHANCE_LOG10


def test_sequences_never_cross_a_session_gap() -> None:
    # The claim split in two by a 6-minute pause after "Amount" each time.
    # Three times a day, so the short halves recur well above chance.
    dicts = []
    for d in range(3):
        for k in range(3):
            run = claim(DAY0 + d * DAY_MS + k * 1_000_000, claim_id=d * 10 + k)
            for s in run[4:]:
                s["t_ms"] += 360_000
            dicts += run
    found = routines(dicts, min_length=2)
    assert found and all(len(r.tokens) <= 4 for r in found)


def test_back_to_back_repetitions_give_one_run_as_the_routine() -> None:
    dicts = []
    for d in range(2):
        t = DAY0 + d * DAY_MS
        for k in range(6):  # six claims in a row, no pause between them
            dicts += claim(t + k * 28_000, claim_id=d * 10 + k)
    (r,) = routines(dicts)
    assert len(r.tokens) == 7 and len(r.occurrences) == 12


def test_an_inner_loop_is_part_of_the_routine() -> None:
    # Add two lines, then submit: the loop comes round inside the routine, and what
    # follows it is new, so the routine is not cut at the loop.
    dicts = []
    for d in range(3):
        for k in range(2):
            t = DAY0 + d * DAY_MS + k * 600_000
            dicts += noise(t, d * 10 + k)
            names = ["Add line", "Item", "Save line"] * 2 + ["Submit claim"]
            dicts += [click(t + 20_000 + 3_000 * i, n) for i, n in enumerate(names)]
    found = {tuple(t[4] for t in r.tokens): len(r.occurrences) for r in routines(dicts)}
    assert found[("Add line", "Item", "Save line") * 2 + ("Submit claim",)] == 6
    # The loop on its own is twice as frequent: a routine too (the whole holds < 80%).
    assert found[("Add line", "Item", "Save line")] == 12


def test_a_rare_longer_variant_does_not_hide_the_routine() -> None:
    dicts = history([0, 1, 2], 2)
    # Twice, the claim is followed by the same extra step: a variant, not the routine.
    for d in (0, 1):
        dicts.append(click(DAY0 + d * DAY_MS + 24_000 + 20_000 + 2_000, "Print receipt"))
    found = routines(dicts)
    assert any(len(r.tokens) == 7 and len(r.occurrences) == 6 for r in found)


def test_raw_coverage_counts_generic_micro_structure() -> None:
    dicts = []
    for d in range(2):
        for k in range(2):
            t = DAY0 + d * DAY_MS + k * 200_000
            dicts += [click(t, "OK"), click(t + 2_000, "OK"), click(t + 4_000, "OK")]
    corpus = Corpus(segments(stream(dicts)))
    assert len(recurring_coverage(corpus, Rules())) == 12
    assert mine(corpus, Rules()) == []


def _ids(dicts: list[dict]) -> list[str]:
    return [routine_id(r.tokens) for r in routines(dicts)]


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_same_steps_same_routines_in_any_input_order(rnd: random.Random) -> None:
    dicts = history([0, 1, 2], 2)
    shuffled = list(dicts)
    rnd.shuffle(shuffled)
    assert _ids(shuffled) == _ids(dicts)
    assert _ids(dicts) == [routine_id(r.tokens) for r in routines(list(reversed(dicts)))]
