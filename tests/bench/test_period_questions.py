"""Period questions: answered from the period block (and the ``--vs`` lines) alone,
checked against the oracle's per-day facts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from actframes.bench.oracle import DayFacts, day_facts
from actframes.bench.oracle_store import Store, load_store
from actframes.bench.period_questions import (
    DAY_KINDS,
    PERIOD_KINDS,
    generate_period,
    parse_signed_minutes,
    score_period,
)
from actframes.bench.period_readers import (
    answer_period,
    listed_refs,
    read_period_context,
    render_compare,
    render_period,
)
from actframes.bench.questions import Question
from actframes.emit.token_count import count_tokens
from actframes.model import Snapshot
from actframes.periods import Span
from actframes.simulate import simulate_days, write_native
from actframes.simulate.workflows import simulate_workflows, write_workflows

from ..builders import ms, native_db

BERLIN = "Europe/Berlin"
ENTITY_KINDS = ("period_entity_first_day", "period_entity_last_day")


@dataclass(frozen=True)
class Case:
    build: Callable[[Path], None]
    since: str
    until: str
    tz: str
    vs: tuple[tuple[str, str], tuple[str, str]] | None = None  # (this, previous)


def _workflows(first: str, n: int) -> Callable[[Path], None]:
    """``actframes demo --days n``'s store (seed 7), its dates fixed."""

    def build(path: Path) -> None:
        write_workflows(path, simulate_workflows(first, n, BERLIN, seed=7, every_day=True,
                                                 fill_workday=True))  # fmt: skip

    return build


def _gap_week(path: Path) -> None:
    """A simulated week (lighter weekend) with Wednesday 2026-11-25 not captured."""
    days = simulate_days("2026-11-23", 7, BERLIN, seed=7)
    write_native(path, [d for d in days if d.day != "2026-11-25"])


REF_DAY = {1: "2026-03-09", 2: "2026-03-10", 4: "2026-03-12", 5: "2026-03-13"}
PR = "https://github.com/acme/x/pull/7"
ISSUE = "https://github.com/acme/x/issues/9"
DOC_ID = "1PlanDocId_x9"
DOC = f"https://docs.google.com/document/d/{DOC_ID}/edit"


def _refs(path: Path) -> None:
    """Five UTC days, Wednesday 03-11 without capture: pull request acme/x#7 viewed on
    03-09, 03-12 and 03-13; issue acme/x#9 on 03-09 only; the Google Doc on 03-10 and
    03-12. Each day: Code 09:00-09:20, then the pages a minute each."""
    pages = {1: [PR, ISSUE], 2: [DOC], 4: [PR, DOC], 5: [PR]}
    rows: list[Snapshot] = []
    for n, day in REF_DAY.items():
        t = ms(f"{day}T09:00:00+00:00")
        for i in range(21):
            rows.append(Snapshot(len(rows) + 1, t + i * 60_000, "Code", "a.py — proj"))
        t += 21 * 60_000
        for url in pages[n]:
            for _ in range(3):
                rows.append(Snapshot(len(rows) + 1, t, "Google Chrome", "page", url))
                t += 20_000
        rows.append(Snapshot(len(rows) + 1, t, "Code", "a.py — proj"))
    native_db(path, rows)


CASES = {
    "demo-7": Case(_workflows("2026-11-23", 7), "2026-11-23", "2026-11-29", BERLIN,
                   (("2026-11-23", "2026-11-29"), ("2026-11-16", "2026-11-22"))),
    "demo-31": Case(_workflows("2026-10-01", 31), "2026-10-01", "2026-10-31", BERLIN,
                    (("2026-10-19", "2026-10-25"), ("2026-10-12", "2026-10-18"))),
    "gap-week": Case(_gap_week, "2026-11-23", "2026-11-29", BERLIN),
    "refs": Case(_refs, "2026-03-09", "2026-03-13", "UTC"),
}  # fmt: skip


class Built:
    """Each case's store built once, and the oracle's facts of each day asked."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.paths: dict[str, Path] = {}
        self.stores: dict[str, Store] = {}
        self.facts: dict[tuple[str, str], DayFacts] = {}
        self.texts: dict[tuple[str, int], str] = {}  # (case, budget; 0: the comparison)

    def path(self, name: str) -> Path:
        if name not in self.paths:
            p = self.root / f"{name}.db"
            CASES[name].build(p)
            self.paths[name], self.stores[name] = p, load_store(p)
        return self.paths[name]

    def block(self, name: str, budget: int) -> str:
        if (name, budget) not in self.texts:
            c = CASES[name]
            self.texts[(name, budget)] = render_period(self.path(name), c.since, c.until, c.tz,
                                                       budget)  # fmt: skip
        return self.texts[(name, budget)]

    def compare(self, name: str) -> str:
        c = CASES[name]
        assert c.vs is not None
        if (name, 0) not in self.texts:
            self.texts[(name, 0)] = render_compare(self.path(name), *c.vs, c.tz)
        return self.texts[(name, 0)]

    def days(self, name: str, since: str, until: str) -> list[DayFacts]:
        self.path(name)
        out = []
        for day in Span(since, until).days():
            if (name, day) not in self.facts:
                self.facts[(name, day)] = day_facts(self.stores[name], day, CASES[name].tz)
            out.append(self.facts[(name, day)])
        return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return Built(tmp_path_factory.mktemp("periods"))


@dataclass
class Run:
    block: str
    compare: str | None
    questions: list[Question]
    wrong: list[Question]


def run(
    built: Built, name: str, budget: int = 2000, *, listed_from: int | None = 2000,
    block: str | None = None, compare: str | None = None,
) -> Run:  # fmt: skip
    """The questions of a case (the comparison ones on its ``vs`` periods), those the
    reader gets wrong from the block at ``budget``. Entities are asked only of the
    references the block at ``listed_from`` tokens lists (None: of all)."""
    c = CASES[name]
    block = block if block is not None else built.block(name, budget)
    listed = None
    if listed_from is not None:
        listed = listed_refs(read_period_context(built.block(name, listed_from)))
    qs = generate_period(built.days(name, c.since, c.until), listed=listed)
    if c.vs is not None:
        (this, prev) = c.vs
        if compare is None:
            compare = built.compare(name)
        k_vs = read_period_context("", compare)
        qs_vs = [q for q in generate_period(built.days(name, *this),
                                            previous=built.days(name, *prev))
                 if q.kind.startswith("period_vs_")]  # fmt: skip
        wrong = [q for q in qs_vs if not score_period(q, answer_period(q, k_vs)).correct]
        qs += qs_vs
    else:
        wrong = []
    k = read_period_context(block)
    wrong += [q for q in qs if not q.kind.startswith("period_vs_")
              and not score_period(q, answer_period(q, k)).correct]  # fmt: skip
    return Run(block, compare, qs, wrong)


def kinds(qs: list[Question]) -> list[str]:
    return [q.kind for q in qs]


@pytest.mark.parametrize("name", list(CASES))
def test_every_question_is_answered_from_the_block(built: Built, name: str) -> None:
    r = run(built, name)
    assert count_tokens(r.block) <= 2000
    assert [(q.kind, q.truth, q.params) for q in r.wrong] == []
    c = CASES[name]
    n_days = len(Span(c.since, c.until).days())
    assert kinds(r.questions).count("period_day_minutes") == n_days
    must = {"period_active_minutes", "period_busiest_day", "period_app_minutes",
            "period_app_busiest_day"}  # fmt: skip
    if c.vs:
        must |= {"period_vs_more", "period_vs_minutes"}
    assert must <= set(kinds(r.questions))
    assert set(kinds(r.questions)) <= set(PERIOD_KINDS)


def test_what_the_cases_hold(built: Built) -> None:
    gap = {q.params["day"]: q.value for q in run(built, "gap-week").questions
           if q.kind == "period_day_minutes"}  # fmt: skip
    assert gap["2026-11-25"] == 0 and all(v > 100 for d, v in gap.items() if d != "2026-11-25")
    assert "- 11-25 Wed · no capture" in run(built, "gap-week").block
    refs = {(q.kind, q.params["entity"]): q.value for q in run(built, "refs").questions
            if q.kind in ENTITY_KINDS}  # fmt: skip
    assert refs == {
        ("period_entity_first_day", "acme/x#7"): "2026-03-09",
        ("period_entity_last_day", "acme/x#7"): "2026-03-13",
        ("period_entity_first_day", "acme/x#9"): "2026-03-09",
        ("period_entity_last_day", "acme/x#9"): "2026-03-09",
        ("period_entity_first_day", DOC_ID): "2026-03-10",
        ("period_entity_last_day", DOC_ID): "2026-03-12",
    }
    # The week before the 7-day demo has no capture: every app got more this week.
    vs = [q for q in run(built, "demo-7").questions if q.kind == "period_vs_more"]
    assert {q.value for q in vs} == {"more"} and any(q.params["app"] is None for q in vs)
    # Two October weeks: only apps that differ by 10 minutes and 5% are asked (the totals
    # differ by less).
    vs31 = [q for q in run(built, "demo-31").questions if q.kind == "period_vs_minutes"]
    assert vs31 and all(abs(q.value) >= 10 and q.params["app"] for q in vs31)


@pytest.mark.parametrize("name", ["demo-7", "demo-31", "gap-week"])
def test_the_block_lists_the_work_references_the_oracle_knows(built: Built, name: str) -> None:
    """Work objects (pull requests, issues, documents) rank first among the viewed lines,
    as in the day block: the pull requests the oracle knows are listed with their first
    and last day, so first/last-day questions are asked of them and answered right."""
    r = run(built, name)
    asked = [q for q in r.questions if q.kind in ENTITY_KINDS]
    assert asked and not [q for q in r.wrong if q.kind in ENTITY_KINDS]
    assert {q.params["entity_kind"] for q in asked} <= {"pull_request", "issue", "doc"}


@pytest.mark.parametrize("name", list(CASES))
def test_at_1000_tokens_day_lines_and_totals_stay(built: Built, name: str) -> None:
    r = run(built, name, 1000)
    k = read_period_context(r.block)
    c = CASES[name]
    assert set(k.day_s) == set(Span(c.since, c.until).days())  # every day line
    assert k.total_s is not None and k.app_s  # totals and app totals
    # Only first/last-day questions may be lost (the viewed lines go first).
    assert set(kinds(r.wrong)) <= set(ENTITY_KINDS)
    # 31 day lines alone do not fit 1000 tokens: the block says so and keeps them.
    assert ("not met" in r.block) == (name == "demo-31")


def test_a_small_budget_loses_only_first_and_last_days(built: Built) -> None:
    r = run(built, "refs", 400)
    assert "viewed most" not in r.block and "viewed: 4 references" in r.block
    assert sorted(kinds(r.wrong)) == sorted(ENTITY_KINDS * 3)


def _drop(block: str, prefix: str) -> str:
    lines = block.splitlines(keepends=True)
    assert any(line.startswith(prefix) for line in lines), prefix
    return "".join(line for line in lines if not line.startswith(prefix))


def test_a_tampered_block_is_answered_wrong(built: Built) -> None:
    r = run(built, "demo-7")
    busiest = next(q for q in r.questions if q.kind == "period_busiest_day")
    tops = [str(busiest.value), *map(str, busiest.accept)]
    assert len(tops) == 2  # 11-29 (2h39m), and 11-23 (2h31m) within 5% of it
    # The lines of the busiest day (and its tie) and the "busiest day" line gone: those
    # days are unknown, and the largest remaining day line answers the busiest day wrongly.
    block = _drop(r.block, "busiest day ")
    for top in tops:
        block = _drop(block, f"- {top[5:]} ")
    bad = run(built, "demo-7", block=block)
    assert {(q.kind, q.params.get("day")) for q in bad.wrong} == {
        *(("period_day_minutes", top) for top in tops),
        ("period_busiest_day", None),
    }
    # An app's total changed, and a comparison's sign flipped.
    app = next(q for q in r.questions if q.kind == "period_app_minutes").params["app"]
    apps = r.block.split("\napp totals (", 1)[1]
    line = next(x for x in apps.splitlines() if x.startswith(f"- {app} · "))
    cells = line.split(" · ")
    cells[1] = "1m"
    bad = run(built, "demo-7", block=r.block.replace(line, " · ".join(cells)))
    assert kinds(bad.wrong) == ["period_app_minutes"]
    assert r.compare is not None and "· +" in r.compare
    bad = run(built, "demo-7", compare=r.compare.replace("· +", "· −"))
    assert set(kinds(bad.wrong)) == {"period_vs_more", "period_vs_minutes"}
    assert len(bad.wrong) == len([q for q in r.questions if q.kind.startswith("period_vs_")])
    # No comparison lines, or lines about other periods: unknown, not guessed.
    other = r.compare.replace("2026-11-16..2026-11-22", "2026-11-09..2026-11-15")
    bad = run(built, "demo-7", compare=other)
    assert all(q.kind.startswith("period_vs_") for q in bad.wrong) and bad.wrong


def test_deterministic_and_seeded(built: Built) -> None:
    days = built.days("demo-7", "2026-11-23", "2026-11-29")
    a = [q.to_json() for q in generate_period(days)]
    assert a == [q.to_json() for q in generate_period(days, seed=0)]
    assert any([q.to_json() for q in generate_period(days, seed=s)] != a for s in range(1, 6))
    assert len({q["qid"] for q in a}) == len(a)


def _q(kind: str, value: object, accept: list[object] | None = None) -> Question:
    return Question("p/q01", "p", "UTC", kind, "?", str(value), value, accept or [])


def test_scoring() -> None:
    assert score_period(_q("period_day_minutes", 120.0), "2h05m").correct  # within 10%
    assert not score_period(_q("period_day_minutes", 120.0), "2h20m").correct
    assert score_period(_q("period_day_minutes", 0.0), 0.0).correct
    assert not score_period(_q("period_day_minutes", 0.0), "5 min").correct
    day = _q("period_busiest_day", "2026-11-28", ["2026-11-27"])
    assert score_period(day, "2026-11-27 (Fri)").correct  # a tie
    assert not score_period(day, "2026-11-26").correct
    assert not score_period(day, "Saturday").answered
    assert score_period(_q("period_vs_more", "less"), "Less.").correct
    assert not score_period(_q("period_vs_more", "less"), "more").correct
    assert parse_signed_minutes("−1h05m") == -65
    assert parse_signed_minutes("less by 12 minutes") == -12
    assert parse_signed_minutes("+30 min") == 30
    assert score_period(_q("period_vs_minutes", -60.0), "-58").correct
    assert not score_period(_q("period_vs_minutes", -60.0), "60").correct
    assert set(DAY_KINDS) < set(PERIOD_KINDS)


def test_the_questions_share_no_code_with_the_compiler() -> None:
    """The answers come from the oracle: the question module imports nothing from the
    compiler, the renderers or the source readers (the reader module reads the block)."""
    import ast

    import actframes.bench.period_questions as pq

    tree = ast.parse(Path(pq.__file__).read_text(encoding="utf-8"))
    imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= {"__future__", "random", "re", "collections.abc", "datetime", "typing",
                        "oracle", "questions", "scoring"}  # fmt: skip
