"""R: the cost model's arithmetic, the injected texts, the sensitivity table."""

import pytest

from actframes.routines.overhead import (
    CostModel,
    cost,
    image_tokens,
    injected_texts,
    median,
    quantile,
    rederive_scaled,
    rederive_tokens,
    sensitivity,
    summary,
)


@pytest.mark.parametrize(
    ("w", "h", "tokens"),
    [
        (1000, 750, 1000),  # small enough: w·h / 750
        (1920, 1080, 1590),  # long edge to 1568, then the area cap: 1456×819
        (3840, 2160, 1590),  # the same after scaling
        (1092, 1092, 1590),
        (0, 1080, 0),
        (1568, 100, 210),
    ],
)
def test_image_tokens(w: int, h: int, tokens: int) -> None:
    assert image_tokens(w, h) == tokens


def test_rederive_is_per_step_plus_growing_history() -> None:
    m = CostModel(1000, 750, screenshots=2, context=100, history=10, reasoning=5)
    per = 2 * 1000 + 100 + 5
    assert rederive_tokens(1, m) == per
    assert rederive_tokens(4, m) == 4 * per + 10 * (0 + 1 + 2 + 3)


ROUTINE = {
    "id": "Rabc",
    "length": 10,
    "start_url": None,
    "slots": [{"name": "amount", "step": 2, "kind": "text"}],
    "plan": [{"n": 1, "op": "click", "target": {"role": "button", "name": "Go"}}],
    "script": ["click Go", "type {amount} in Amount"],
}


def test_cost_counts_the_injected_texts() -> None:
    plan_text, script_text = injected_texts(ROUTINE)
    assert '"plan"' in plan_text and "start_url" not in plan_text
    assert script_text == "click Go\ntype {amount} in Amount"
    c = cost(ROUTINE, CostModel(), len)
    assert (c.plan, c.script) == (len(plan_text), len(script_text))
    assert c.rederive == rederive_tokens(10, CostModel())
    assert c.r_operational == c.rederive / c.plan and c.r_ceiling > c.r_operational


def test_summary_and_spread() -> None:
    costs = [cost({**ROUTINE, "length": n}, CostModel(), len) for n in (5, 10, 20)]
    s = summary(costs)
    assert s["routines"] == 3
    op = s["r_operational"]
    assert op["min"] <= op["p10"] <= op["median"] <= op["p90"] <= op["max"]
    assert op["median"] == round(costs[1].r_operational, 1)


def test_median_and_quantile() -> None:
    assert median([3, 1, 2]) == 2 and median([1, 2, 3, 4]) == 2.5 and median([]) == 0.0
    assert quantile(list(range(1, 11)), 10) == 1 and quantile(list(range(1, 11)), 90) == 9


def test_scaled_rederive_is_exact() -> None:
    m = CostModel(1000, 750, screenshots=1, context=100, history=10, reasoning=5)
    assert rederive_scaled(4, m, "context", 100) == rederive_tokens(4, m)
    # Half a screenshot per step: a screenshot every other step, not none.
    assert rederive_scaled(4, m, "screenshots", 50) == 4 * (500 + 100 + 5) + 10 * 6
    assert rederive_scaled(4, m, "history", 200) == 4 * 1105 + 20 * 6
    assert rederive_scaled(1, m, "screen", 50) == image_tokens(500, 375) + 105


def test_sensitivity_moves_the_right_way() -> None:
    rows = sensitivity([ROUTINE], CostModel(), len)
    by = {(r["param"], r["factor_pct"]): r for r in rows}
    assert by[("screenshots", 50)]["value"] == "0.5"
    for p in ("screenshots", "context", "history", "reasoning"):
        lo, hi = by[(p, 50)], by[(p, 200)]
        assert lo["r_operational_median"] < hi["r_operational_median"]
        assert lo["r_ceiling_median"] < hi["r_ceiling_median"]
    # Doubling a 1920×1080 screen changes nothing: screenshots are scaled down anyway.
    base = cost(ROUTINE, CostModel(), len)
    assert by[("screen", 200)]["r_operational_median"] == round(base.r_operational, 1)
