"""The period block (SPEC.md §5a, "The period block"): a line per day and the whole
ledger in the default budget for a week and for the 31-day demo store; smaller budgets
drop things in the documented order and never exceed the budget unless the block says
so; the same document gives the same bytes; a source without input shows ``-``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from actframes.emit.context import WORK_KINDS
from actframes.emit.durations import fmt_dur
from actframes.emit.json_out import to_json
from actframes.emit.period_context import (
    APPS_HEAD,
    DAY_APPS,
    DAY_PROJECTS,
    DAYS_HEAD,
    LEDGER_HEAD,
    MIN_VIEWED,
    VIEWED_HEAD,
    VIEWED_LINES,
    to_period_context,
)
from actframes.emit.share_lines import CATEGORIES_HEAD
from actframes.emit.token_count import ENCODING, count_tokens
from actframes.period_types import PeriodDocument
from actframes.periods import Span, days_span, week_span
from actframes.simulate.aw_export import write_aw_export
from actframes.simulate.generator import simulate_days

from ..period_stores import GAP, TZ, WEEK, demo_store, period_of, simulated_store

DEFAULT = 2000


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> PeriodDocument:
    db = simulated_store(tmp_path_factory.mktemp("week") / "w.db", WEEK[0], 7, skip=[GAP])
    return period_of(db, week_span(WEEK[0], TZ, 0))


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> PeriodDocument:
    """The 31 days of ``actframes demo --days 31`` (run on 2026-12-01, UTC)."""
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    span = demo_store(db, 31)
    return period_of(db, days_span(span.since, span.until), "UTC")


@pytest.fixture(params=["week", "month"])
def doc(request: pytest.FixtureRequest) -> PeriodDocument:
    got: PeriodDocument = request.getfixturevalue(request.param)
    return got


@dataclass
class Shape:
    """What a period block shows, read back from its lines."""

    days: list[str]  # the day lines
    ledger: list[str]  # the ledger lines
    omitted: str | None
    apps: list[str]
    categories: bool
    viewed: list[str]  # the viewed lines (without the "+N more" line)
    not_met: str | None

    def day_cells(self) -> tuple[int, int]:
        """The most apps and projects any day line names."""
        apps = projects = 0
        for line in self.days:
            cells = line.split(" · ")
            if cells[-1] == "no capture" or len(cells) < 2:
                continue
            rest = [c for c in cells[3:] if not c.startswith("away ")]
            apps = max(apps, 0 if rest[0] == "-" else len(rest[0].split(", ")))
            if len(rest) > 1:
                projects = max(projects, 0 if rest[1] == "-" else len(rest[1].split(", ")))
        return apps, projects


def shape(block: str) -> Shape:
    lines = block.rstrip("\n").split("\n")

    def section(head: str) -> list[str]:
        if head not in lines:
            return []
        out = []
        for line in lines[lines.index(head) + 1 :]:
            if not line.startswith("- "):
                break
            out.append(line)
        return out

    omitted = [x for x in lines if x.startswith("omitted ")]
    viewed = [x for x in section(VIEWED_HEAD) if not x.startswith("- +")]
    last = lines[-1] if lines[-1].startswith("budget ") else None
    return Shape(
        section(DAYS_HEAD),
        section(LEDGER_HEAD),
        omitted[0] if omitted else None,
        section(APPS_HEAD),
        any(x.startswith(CATEGORIES_HEAD) for x in lines),
        viewed,
        last,
    )


def _day_head(d: Any) -> str:
    return f"- {d['day'][5:]} {d['weekday']}"


def test_the_default_budget_holds_every_day_and_the_whole_ledger(doc: PeriodDocument) -> None:
    block = to_period_context(doc)
    assert count_tokens(block) <= DEFAULT
    got = shape(block)
    assert len(got.days) == len(doc["days"]) in (7, 31)
    for line, d in zip(got.days, doc["days"], strict=True):
        assert line.startswith(_day_head(d) + " · ")
        assert line.endswith("no capture") == (d["first"] is None)
        first, last = d["first"], d["last"]
        if first is not None and last is not None:
            assert f" · {fmt_dur(d['active_s'])} · " in line
            assert f"{first[11:16]}–{last[11:16]}" in line
    assert len(got.ledger) == len(doc["ledger"]) and got.omitted is None
    for line, e in zip(got.ledger, doc["ledger"], strict=True):
        cells = line[2:].split(" · ")
        assert cells[:3] == [e["app"], e.get("site", "-"), fmt_dur(e["active_s"])]
        assert cells[-1] == str(e["days"])
    assert len(got.apps) == len(doc["apps"]) and got.not_met is None
    w = doc["window"]
    assert block.startswith(f"# activity period {w['label']} ({w['since']} ")
    assert f"{w['days']} days) · tz {w['tz']}" in block.split("\n")[0]
    t = doc["totals"]
    assert (
        f"totals · active {fmt_dur(t['active_s'])} · {t['days_active']} of {w['days']} days"
        in block
    )


def test_the_31_day_demo_keeps_every_day_and_the_ledger(month: PeriodDocument) -> None:
    got = shape(to_period_context(month))
    assert len(got.days) == 31 and len(got.ledger) == len(month["ledger"])
    assert got.day_cells()[0] >= 2 and got.omitted is None


def test_a_week_keeps_everything_in_the_default_budget(week: PeriodDocument) -> None:
    got = shape(to_period_context(week))
    assert got.day_cells() == (DAY_APPS, DAY_PROJECTS) and got.categories
    assert MIN_VIEWED <= len(got.viewed) <= VIEWED_LINES < len(week["viewed"])
    gap = next(line for line in got.days if line.startswith(f"- {GAP[5:]} "))
    assert gap == f"- {GAP[5:]} Thu · no capture"
    away = [d for d in week["days"] if d["away_s"]]
    assert away and all(
        f" · away {fmt_dur(d['away_s'])} · " in line
        for line, d in zip(got.days, week["days"], strict=True)
        if d["away_s"]
    )


def _viewed_rank(doc: PeriodDocument) -> list[tuple[str, str]]:
    """The references in the order they are kept: work objects first (as the day block
    ranks them), then the most viewed, then the first viewed."""
    seen = doc["viewed"]
    ranked = sorted(
        range(len(seen)), key=lambda i: (seen[i]["kind"] not in WORK_KINDS, -seen[i]["views"], i)
    )
    return [(seen[i]["kind"], seen[i]["entity"]) for i in ranked]


def _viewed_keys(lines: list[str]) -> list[tuple[str, str]]:
    out = []
    for line in lines:
        kind, entity = line[2:].split(" · ")[:2]
        out.append((kind, json.loads(entity) if entity.startswith('"') else entity))
    return out


# The day cells of each level before ledger lines go (``_shape``): level 0 keeps the
# categories too.
CELLS = {(DAY_APPS, DAY_PROJECTS): 1, (DAY_APPS, 1): 2, (2, 1): 3, (2, 0): 4, (1, 0): 5}


def _rank(got: Shape, ledger: int) -> tuple[int, int, int]:
    """Where a block stands in the documented order of what goes for a budget: (1 while
    viewed lines are kept | 2 once they are all gone, the level of the categories, day
    cells and ledger lines dropped, viewed lines dropped)."""
    dropped = ledger - len(got.ledger)
    level = 0 if got.categories else CELLS[got.day_cells()] + dropped
    return (1 if got.viewed else 2, level, -len(got.viewed))


BUDGETS = [100_000, 3000, 2400, 2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100, 1000]
BUDGETS += [900, 800, 700, 600, 500, 400, 300, 200, 100, 20]


def test_smaller_budgets_drop_things_in_the_documented_order(doc: PeriodDocument) -> None:
    """Viewed lines go (least ranked first) down to MIN_VIEWED while the categories and
    then the day cells make room; then the viewed lines all go; then ledger lines, the
    smallest first, counted by an omitted line. The day lines, totals and app totals
    always stay; the budget is kept unless the block says it cannot be."""
    ledger = [(e["app"], e.get("site", "-")) for e in doc["ledger"]]
    top = min(VIEWED_LINES, len(doc["viewed"]))
    before: tuple[int, int, int] | None = None
    ranks = []
    for budget in BUDGETS:
        block = to_period_context(doc, budget)
        got = shape(block)
        n = count_tokens(block)
        if got.not_met is None:
            assert n <= budget, budget
        else:
            assert got.not_met == (
                f"budget {budget} {ENCODING} tokens not met: the smallest period block"
                f" (header, totals, day lines, app totals) is {n} tokens"
            )
            assert n > budget and got.ledger == []
        assert len(got.days) == len(doc["days"]) and len(got.apps) == len(doc["apps"])
        apps, projects = got.day_cells()
        if got.categories:
            assert (apps, projects) == (DAY_APPS, DAY_PROJECTS)  # cells shrink after them
        # the references kept are the first of their ranking, and at least MIN_VIEWED
        assert sorted(_viewed_keys(got.viewed)) == sorted(_viewed_rank(doc)[: len(got.viewed)])
        assert len(got.viewed) in (0, *range(min(MIN_VIEWED, top), top + 1))
        if len(got.viewed) < len(doc["viewed"]):
            more = len(doc["viewed"]) - len(got.viewed)
            tail = f"- +{more} more in the JSON document" if got.viewed else "viewed: "
            assert tail in block
        if len(got.ledger) < len(ledger):  # ledger lines go last, the smallest first
            assert (apps, projects, got.categories, got.viewed) == (1, 0, False, [])
            assert [tuple(x[2:].split(" · ")[:2]) for x in got.ledger] == ledger[: len(got.ledger)]
            rest = doc["ledger"][len(got.ledger) :]
            assert got.omitted == (
                f"omitted {len(rest)} ledger lines ({fmt_dur(sum(e['active_s'] for e in rest))},"
                f" each at most {fmt_dur(rest[0]['active_s'])}) for the budget; the app totals"
                " count them"
            )
        else:
            assert got.omitted is None
        rank = _rank(got, len(ledger))
        if before is not None:  # a smaller budget is never further up the order
            assert rank >= before, (budget, rank, before)
        before = rank
        ranks.append(rank)
    assert ranks[0] == (1, 0, -top) and ranks[-1][:2] == (2, 5 + len(ledger))
    assert len({r[:2] for r in ranks}) >= 5  # the budgets went through many of the steps


def test_a_budget_that_cannot_be_met_says_so(doc: PeriodDocument) -> None:
    block = to_period_context(doc, 50)
    got = shape(block)
    assert got.not_met is not None and got.not_met.startswith(
        f"budget 50 {ENCODING} tokens not met"
    )
    assert int(re.findall(r"is (\d+) tokens$", got.not_met)[0]) == count_tokens(block)
    assert len(got.days) == len(doc["days"]) and got.ledger == []
    assert got.omitted is not None and got.omitted.startswith(
        f"omitted {len(doc['ledger'])} ledger"
    )


def test_same_bytes_for_the_same_document(doc: PeriodDocument) -> None:
    again: PeriodDocument = json.loads(to_json(doc))
    for budget in (DEFAULT, 900, 50):
        first = to_period_context(doc, budget)
        assert to_period_context(doc, budget) == first == to_period_context(again, budget)


def test_a_day_start_past_midnight_marks_the_next_day(tmp_path: Path) -> None:
    from actframes.window import DayStart

    from ..period_stores import AUTUMN_NIGHT, dst_store

    db = dst_store(tmp_path / "dst.db")
    DayStart.minutes = 4 * 60
    try:
        doc = period_of(db, week_span("2026-W43", TZ, 0))
    finally:
        DayStart.minutes = 0
    (line,) = [x for x in shape(to_period_context(doc)).days if x.startswith("- 10-24 Sat")]
    assert f"–{AUTUMN_NIGHT[1][11:16]}+1d · " in line
    assert " · +01:00" not in to_period_context(doc).split("\n")[0]  # the week began in summer time
    assert "(+02:00)" in to_period_context(doc).split("\n")[0]


# ------------------------------------------------------------------ no input recorded


@pytest.fixture(scope="module")
def aw(tmp_path_factory: pytest.TempPathFactory) -> tuple[PeriodDocument, Span]:
    """Three days of ActivityWatch's export (window, AFK and web buckets: no input)."""
    path = tmp_path_factory.mktemp("aw") / "aw.json"
    days = [
        d for d in simulate_days("2026-11-23", 3, TZ, rows_per_day=300) if d.day != "2026-11-24"
    ]
    write_aw_export(path, days)
    span = days_span("2026-11-23", "2026-11-25")
    return period_of(path, span), span


def test_a_source_without_input_shows_dashes(aw: tuple[PeriodDocument, Span]) -> None:
    doc, _ = aw
    assert doc["source"]["kind"] == "activitywatch"
    assert doc["totals"]["keys"] == doc["totals"]["clicks"] == 0
    block = to_period_context(doc)
    lines = block.split("\n")
    assert "input not recorded by this source (- is unknown)" in lines[1]
    assert lines[3].endswith(" · input not recorded")
    got = shape(block)
    assert len(got.ledger) == len(doc["ledger"]) > 0 and len(got.apps) == len(doc["apps"])
    for line in got.ledger:  # app · site · active · input · days
        assert line.split(" · ")[3] == "-", line
    for line in got.apps:  # app · active · input · days · busiest day
        assert line.split(" · ")[2] == "-", line
    assert not re.search(r" · k\d", block) and not re.search(r" c\d+ · ", block)
    assert "no capture" in got.days[1] and len(got.days) == 3
