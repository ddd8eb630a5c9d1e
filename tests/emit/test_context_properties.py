"""The context block over arbitrary captures: it parses back by its own grammar, its
totals are the ledger's, and each stretch of absence is told once."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.emit.context import to_context
from actframes.emit.context_parse import parse_context, parse_dur
from actframes.emit.durations import fmt_dur
from actframes.emit.token_count import count_tokens
from actframes.model import Capture

from ..compile.caps import compile_
from ..compile.test_properties import WIN, captures


def _minutes(hhmm: str) -> int:
    # "MM-DD HH:MM" outside the window's day: compare within one year, to the minute.
    if " " in hhmm:
        md, hm = hhmm.split(" ")
        d = datetime.strptime(f"2026-{md} {hm}", "%Y-%m-%d %H:%M")
    else:
        d = datetime.strptime(f"2026-03-10 {hhmm}", "%Y-%m-%d %H:%M")
    return int(d.timestamp() // 60)


@settings(max_examples=100, deadline=None)
@given(captures(), st.sampled_from([100, 400, 1500, 100_000]))
def test_the_block_parses_back_with_totals_and_periods(c: Capture, budget: int) -> None:
    doc = compile_(c, WIN)
    block = to_context(doc, budget)
    p = parse_context(block)
    assert len(p["ledger"]) == len(doc["ledger"])
    # App totals: every app with several ledger lines, each the sum of its lines.
    lines: dict[str, list[int]] = {}
    for e in doc["ledger"]:
        lines.setdefault(e["app"], []).append(e["active_s"])
    want = {a: (sum(v), len(v)) for a, v in lines.items() if len(v) > 1}
    got = {t["app"]: (t["active_s"], t["lines"]) for t in p.get("app_totals", [])}
    assert got == {a: (parse_dur(fmt_dur(s)), n) for a, (s, n) in want.items()}
    # One line per period, in time order, never overlapping the next.
    spans = [(_minutes(x["start"]), _minutes(x["end"])) for x in p["periods"]]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))
    assert len(spans) <= len(doc["coverage"]["gaps"]) + len(doc["coverage"]["away"])
    # The budget is met, or the block says by how much it is not.
    n = count_tokens(block)
    if "budget_not_met" in p:
        assert p["budget_not_met"] == {"budget": budget, "tokens": n} and n > budget
    else:
        assert n <= budget
