"""The fuzz test: seeded mutations of every store family (tests/fuzz_inputs.py), each
run through the CLI. None may end in an internal error, run over 30 s, print anything but
UTF-8, or change its input. A modest, fixed run here; ``python -m tests.fuzz_inputs
--cases 3000`` runs a long campaign."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .fuzz_inputs import build_case, campaign

CASES = 60
BUDGET_S = 120.0  # on a slow machine fewer cases run, never a longer suite


def test_mutated_stores_never_break_the_cli(tmp_path: Path) -> None:
    outcomes = campaign(range(CASES), tmp_path, seed=0, budget_s=BUDGET_S)
    assert len(outcomes) >= 10
    bad = [
        f"case {o.case} {o.family} {o.mutations} {' '.join(o.args[:1])}: {o.problem}"
        for o in outcomes
        if o.problem
    ]
    assert bad == []
    # The cases reach every family, and both clean documents and clean refusals.
    assert {o.family for o in outcomes} == {"screenpipe", "native", "aw-export", "aw-sqlite"}
    codes = Counter(o.code for o in outcomes)
    assert codes[0] > 0 and codes[1] > 0


def test_cases_are_the_same_on_every_run(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    for case in range(8):
        a = build_case(case, one)
        b = build_case(case, two)
        family, path, mutations, args = a
        assert (family, mutations, args[0]) == (b[0], b[2], b[3][0])
        assert args[4:] == b[3][4:]  # (args[3] is the file, in its own folder)
        if family == "aw-export":
            assert path.read_bytes() == b[1].read_bytes()
