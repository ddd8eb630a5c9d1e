"""The period document (SPEC.md §5a) on real multi-day stores: every day is that day's
own document compiled alone, and every period figure is the exact sum of the days'."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from actframes.classify.names import project_key
from actframes.doc_types import Document
from actframes.period_types import PeriodDocument
from actframes.periods import Span, days_span, week_span
from actframes.window import DayStart

from ..builders import commit
from ..period_stores import (
    AUTUMN_NIGHT,
    GAP,
    MONTH_FIRST,
    MONTH_GAP,
    NIGHT_APP,
    SPRING_NIGHT,
    TZ,
    WEEK,
    brief,
    brief_of_entry,
    day_alone,
    dst_store,
    period_of,
    simulated_store,
)

Case = tuple[PeriodDocument, dict[str, Document], Span]


@pytest.fixture(scope="module", params=["week", "month"])
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Case:
    """A period of 7 days (2026-W48) or 31 days (across the end of DST), a day without
    capture in the middle; with every day's own document compiled alone."""
    root = tmp_path_factory.mktemp("period")
    if request.param == "week":
        span = week_span(WEEK[0], TZ, 0)
        db = simulated_store(root / "week.db", WEEK[0], 7, skip=[GAP])
    else:
        span = days_span(MONTH_FIRST, "2026-11-18")
        db = simulated_store(root / "month.db", MONTH_FIRST, 31, skip=[MONTH_GAP], rows=300)
    doc = period_of(db, span)
    return doc, {d: day_alone(db, d) for d in span.days()}, span


def test_every_day_is_that_days_own_document(case: Case) -> None:
    doc, alone, span = case
    assert [d["day"] for d in doc["days"]] == span.days()
    assert len(span.days()) in (7, 31)
    for d in doc["days"]:
        own = alone[d["day"]]
        assert brief_of_entry(d) == brief(own), d["day"]
        assert d["weekday"] == date.fromisoformat(d["day"]).strftime("%a")
        # the apps by time, then name; every app of the day's ledger, no other
        assert [a["active_s"] for a in d["apps"]] == sorted(
            (a["active_s"] for a in d["apps"]), reverse=True
        )
        assert sum(a["active_s"] for a in d["apps"]) == d["active_s"]
    gap = next(d for d in doc["days"] if d["day"] in (GAP, MONTH_GAP))
    assert (gap["active_s"], gap["first"], gap["last"], gap["rows"]) == (0, None, None, 0)
    assert gap["apps"] == [] and gap["projects"] == []
    busy = [d for d in doc["days"] if d["active_s"]]
    assert len(busy) == len(doc["days"]) - 1 and all(d["away_s"] > 0 for d in busy)


def test_the_ledger_is_the_sum_of_the_days_ledgers(case: Case) -> None:
    doc, alone, _ = case
    want: dict[tuple[str, str | None], list[int]] = {}
    for own in alone.values():
        for e in own["ledger"]:
            acc = want.setdefault((e["app"], e.get("site")), [0, 0, 0, 0])
            acc[0] += e["active_s"]
            acc[1] += e["keys"]
            acc[2] += e["clicks"]
            acc[3] += e["active_s"] > 0
    got = {
        (e["app"], e.get("site")): [e["active_s"], e["keys"], e["clicks"], e["days"]]
        for e in doc["ledger"]
    }
    assert got == want and len(doc["ledger"]) == len(want)
    order = [(-e["active_s"], e["app"], e.get("site", "")) for e in doc["ledger"]]
    assert order == sorted(order)
    assert sum(e["active_s"] for e in doc["ledger"]) == doc["totals"]["active_s"]
    assert any("site" in e for e in doc["ledger"]) and any("site" not in e for e in doc["ledger"])


def test_app_totals_and_their_busiest_day(case: Case) -> None:
    doc, alone, _ = case
    per_app: dict[str, list[int]] = {}
    for e in doc["ledger"]:
        acc = per_app.setdefault(e["app"], [0, 0, 0])
        acc[0] += e["active_s"]
        acc[1] += e["keys"]
        acc[2] += e["clicks"]
    assert {a["app"]: [a["active_s"], a["keys"], a["clicks"]] for a in doc["apps"]} == per_app
    for a in doc["apps"]:
        by_day = {day: brief(own)["apps"].get(a["app"], 0) for day, own in alone.items()}
        most = max(by_day.values())
        assert a["busiest"] == min(day for day, s in by_day.items() if s == most)
        assert by_day[a["busiest"]] == max(by_day.values()) > 0
        assert a["days"] == sum(1 for s in by_day.values() if s > 0)
    assert [a["active_s"] for a in doc["apps"]] == sorted(
        (a["active_s"] for a in doc["apps"]), reverse=True
    )


def test_totals_are_the_sums_of_the_days(case: Case) -> None:
    doc, alone, span = case
    t, days = doc["totals"], doc["days"]
    for k in ("active_s", "away_s", "rows", "keys", "clicks"):
        assert t[k] == sum(d[k] for d in days), k  # type: ignore[literal-required]
    assert t["days_active"] == sum(1 for own in alone.values() if own["coverage"]["active_s"])
    assert t["first"] == alone[span.since]["coverage"]["first"]
    assert t["last"] == alone[span.until]["coverage"]["last"]
    w = doc["window"]
    assert (w["since"], w["until"], w["days"], w["tz"]) == (span.since, span.until, len(days), TZ)
    assert (w["kind"], w["label"]) == (span.kind, span.label)
    assert w["start"] == alone[span.since]["window"]["start"]
    assert w["end"] == alone[span.until]["window"]["end"]
    assert doc["kind"] == "period" and doc["schema_version"] == 1
    digest = hashlib.sha256()
    for d in span.days():
        digest.update(f"{d}={alone[d]['source']['digest']}\n".encode())
    assert doc["source"]["digest"] == digest.hexdigest()
    spots = [s for own in alone.values() for s in own["blind_spots"]]
    assert doc["blind_spots"] == list(dict.fromkeys(spots))


def test_viewed_references_over_the_days(case: Case) -> None:
    doc, alone, span = case
    seen: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]] = {}
    for day in span.days():
        for v in alone[day]["viewed"]:
            seen.setdefault((v["kind"], v["entity"]), []).append((day, dict(v)))
    assert [(v["kind"], v["entity"]) for v in doc["viewed"]] == list(seen)
    assert any(len(views) > 1 for views in seen.values())
    for v in doc["viewed"]:
        views = seen[(v["kind"], v["entity"])]
        first_day, first = views[0]
        assert v["views"] == sum(x["views"] for _, x in views)
        assert v["days"] == [day for day, _ in views]
        assert (v["first_day"], v["last_day"]) == (first_day, views[-1][0])
        assert v["first"] == first["first"] and v.get("label") == first.get("label")
        assert list(v)[:2] == ["kind", "entity"]


def _merged(alone: dict[str, Document], section: str, key: Any) -> dict[str, list[Any]]:
    """A section's entries of every day by ``key(name)``: [seconds, keys, clicks, days,
    {spelling: seconds}]."""
    out: dict[str, list[Any]] = {}
    for day, own in alone.items():
        for e in own[section]["entries"]:  # type: ignore[literal-required]
            acc = out.setdefault(key(e["name"]) or e["name"], [0, 0, 0, set(), {}])
            acc[0] += e["active_s"]
            acc[1] += e["keys"]
            acc[2] += e["clicks"]
            if e["active_s"]:
                acc[3].add(day)
            acc[4][e["name"]] = acc[4].get(e["name"], 0) + e["active_s"]
    return out


@pytest.mark.parametrize(("section", "key"), [("projects", project_key), ("categories", str)])
def test_projects_and_categories_merged_across_days(case: Case, section: str, key: Any) -> None:
    doc, alone, _ = case
    want = _merged(alone, section, key)
    got = doc[section]["entries"]  # type: ignore[literal-required]
    assert len(got) == len(want) and got
    for e in got:
        s, keys, clicks, days, names = want[key(e["name"]) or e["name"]]
        assert (e["active_s"], e["keys"], e["clicks"], e["days"]) == (s, keys, clicks, len(days))
        assert e["name"] == min(names, key=lambda n: (-names[n], n))
    assert [(-e["active_s"], e["name"]) for e in got] == sorted(
        (-e["active_s"], e["name"]) for e in got
    )
    if section == "projects":
        un = sum(own["projects"]["unassigned"]["active_s"] for own in alone.values())
        assert doc["projects"]["unassigned_s"] == un
        assert sum(e["active_s"] for e in got) + un == doc["totals"]["active_s"]


def test_a_project_under_two_spellings_is_one(tmp_path: Path) -> None:
    """Two days naming one repository's folder two ways: the period has one project,
    under the spelling with most time."""
    from actframes.model import Snapshot

    from ..builders import ms, native_db

    def session(first_id: int, start: str, n: int, app: str, title: str) -> list[Snapshot]:
        return [Snapshot(first_id + k, ms(start) + k * 30_000, app, title) for k in range(n)]

    rows = [
        *session(
            1, "2026-11-23T09:00:00+01:00", 61, "Code", "main.py - Billing_API - Visual Studio Code"
        ),
        *session(
            100,
            "2026-11-24T09:00:00+01:00",
            121,
            "Code",
            "app.py - billing-api - Visual Studio Code",
        ),
        *session(300, "2026-11-24T12:00:00+01:00", 3, "Slack", "general - Acme - Slack"),
    ]
    db = native_db(tmp_path / "two.db", rows)
    span = days_span("2026-11-23", "2026-11-24")
    doc = period_of(db, span)
    names = [[p["name"] for p in d["projects"]] for d in doc["days"]]
    assert names == [["Billing_API"], ["billing-api"]]
    (only,) = doc["projects"]["entries"]
    day_s = [d["projects"][0]["active_s"] for d in doc["days"]]
    assert only == {
        "name": "billing-api",
        "active_s": sum(day_s),
        "keys": 0,
        "clicks": 0,
        "days": 2,
    }
    assert day_s[1] > day_s[0] > 1700


def test_an_edited_day_changes_that_day_and_the_digest_only(tmp_path: Path) -> None:
    db = simulated_store(tmp_path / "w.db", WEEK[0], 7, skip=[GAP], rows=200)
    span = week_span(WEEK[1], TZ, 0)
    before = period_of(db, span, disk_cache=True)
    commit(db, "UPDATE snapshots SET title = 'edited' WHERE id = (SELECT MAX(id) FROM snapshots)")
    after = period_of(db, span, disk_cache=True)
    changed = [a["day"] for a, b in zip(after["days"], before["days"], strict=True) if a != b]
    assert changed == [WEEK[1]]
    assert after["source"]["digest"] != before["source"]["digest"]
    assert brief_of_entry(after["days"][-1]) == brief(day_alone(db, WEEK[1]))


# ------------------------------------------------------------------ DST and --day-start


@pytest.fixture(scope="module")
def dst_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return dst_store(tmp_path_factory.mktemp("dst") / "dst.db")


@pytest.fixture(params=[0, 4 * 60], ids=["midnight", "day-start-04:00"])
def day_start(request: pytest.FixtureRequest) -> Iterator[int]:
    """``DayStart.minutes`` as ``--day-start`` sets it for a command, restored after."""
    DayStart.minutes = request.param
    try:
        yield request.param
    finally:
        DayStart.minutes = 0


def _hours(d: Any) -> float:
    start, end = datetime.fromisoformat(d["start"]), datetime.fromisoformat(d["end"])
    return (end - start).total_seconds() / 3600


@pytest.mark.parametrize(
    ("week", "change", "night", "hours"),
    [("2026-W13", "2026-03-29", SPRING_NIGHT, 23), ("2026-W43", "2026-10-25", AUTUMN_NIGHT, 25)],
)
def test_a_week_across_a_dst_change(
    dst_db: Path, day_start: int, week: str, change: str, night: tuple[str, str], hours: int
) -> None:
    span = week_span(week, TZ, 0)
    doc = period_of(dst_db, span)
    alone = {d: day_alone(dst_db, d) for d in span.days()}
    for d in doc["days"]:
        assert brief_of_entry(d) == brief(alone[d["day"]]), d["day"]
    for k in ("active_s", "away_s", "rows", "keys", "clicks"):
        assert doc["totals"][k] == sum(d[k] for d in doc["days"])  # type: ignore[literal-required]
    clock = f"T{day_start // 60:02d}:00:00"
    assert all(clock in d["start"] and clock in d["end"] for d in doc["days"])
    # The day holding the change is 23 or 25 hours from midnight; from 04:00 the change
    # falls in the day before (its night, 02:00-03:00), which is then the odd one.
    odd = change if day_start == 0 else (date.fromisoformat(change) - timedelta(days=1)).isoformat()
    lengths = {d["day"]: _hours(d) for d in doc["days"]}
    assert lengths == {d: (hours if d == odd else 24) for d in span.days()}
    assert _hours(doc["window"]) == 7 * 24 + hours - 24
    # The night session across the change: every second of it (the repeated hour too)
    # in the day it belongs to, and in no other.
    night_s = int(
        (datetime.fromisoformat(night[1]) - datetime.fromisoformat(night[0])).total_seconds()
    )
    owls = {
        d["day"]: a["active_s"] for d in doc["days"] for a in d["apps"] if a["app"] == NIGHT_APP
    }
    assert owls == {odd: night_s}
    (owl,) = [a for a in doc["apps"] if a["app"] == NIGHT_APP]
    assert (owl["active_s"], owl["busiest"], owl["days"]) == (night_s, odd, 1)
    holder = next(d for d in doc["days"] if d["day"] == odd)
    assert holder["last" if day_start else "first"] == (night[1] if day_start else night[0])
