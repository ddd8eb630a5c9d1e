"""h: raw and delegable recurrence, in-sample and out-of-sample."""

from actframes.routines.mine import Corpus, Rules, mine
from actframes.routines.recurrence import in_sample, out_of_sample, split_days
from actframes.routines.step_tokens import segments

from .helpers import DAY0, DAY_MS, claim, click, noise, stream


def days_with(claims_per_day: list[int]) -> list[dict]:
    out: list[dict] = []
    for d, k in enumerate(claims_per_day):
        t = DAY0 + d * DAY_MS
        out += noise(t, d)  # 3 steps that never repeat
        for j in range(k):
            out += claim(t + 20_000 + j * 100_000, claim_id=d * 10 + j)
        # later, after a session gap: generic clicks that recur too
        out += [click(t + 3_600_000 + i * 2000, "OK") for i in range(3)]
    return out


def test_in_sample_counts() -> None:
    segs = segments(stream(days_with([1, 1, 1])))
    corpus = Corpus(segs)
    mined = mine(corpus, Rules())
    h = in_sample(corpus, mined, Rules())
    # per day: 3 noise + 7 claim + 3 OK clicks = 13 steps
    assert h.steps == 39
    assert h.delegable == 21  # the three claims
    assert h.raw == 21 + 9  # and the OK, OK, OK runs (generic, still recurring)
    d = h.as_dict()
    assert d["delegable_pct"] == round(100 * 21 / 39, 1) and d["raw_steps"] == 30


def test_out_of_sample_uses_only_routines_mined_before() -> None:
    segs = segments(stream(days_with([1, 1, 1, 1, 0])))
    train, test, how = split_days(segs, 2)
    assert how == "days: train 2026-03-08..2026-03-10, test 2026-03-11..2026-03-12"
    ctrain, ctest = Corpus(train), Corpus(test)
    h = out_of_sample(ctrain, ctest, mine(ctrain, Rules()), Rules())
    assert h.steps == 13 + 6 and h.delegable == 7


def test_a_routine_first_seen_in_the_test_days_does_not_count() -> None:
    segs = segments(stream(days_with([0, 0, 2, 2])))
    train, test, _ = split_days(segs, 2)
    ctrain, ctest = Corpus(train), Corpus(test)
    assert mine(ctrain, Rules()) == []
    h = out_of_sample(ctrain, ctest, [], Rules())
    assert h.delegable == 0 and h.steps > 0


def test_single_day_splits_in_time() -> None:
    segs = segments(stream(days_with([4])))
    train, test, how = split_days(segs, None)
    assert how.startswith("time")
    n_train, n_test = sum(map(len, train)), sum(map(len, test))
    assert n_train + n_test == sum(map(len, segs)) and abs(n_train - n_test) <= 1
    assert max(s.t_ms for seg in train for s in seg) < min(s.t_ms for seg in test for s in seg)


def test_default_holdout_is_the_later_half() -> None:
    segs = segments(stream(days_with([1, 1, 1, 1, 1])))
    _, test, how = split_days(segs, None)
    assert {seg[0].day for seg in test} == {"2026-03-11", "2026-03-12"}
    assert how.endswith("test 2026-03-11..2026-03-12")
