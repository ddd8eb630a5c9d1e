"""The period page as text, on real stores: a lane per day with a bar per frame of that
day, placed from the day's own start (23- and 25-hour days, a later start of day), the
days' totals, away periods and gaps, the period ledger, the projects by day, escaping,
and the same bytes for the same documents."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from actframes.api import open_store
from actframes.compile.period import period_document
from actframes.doc_types import Document
from actframes.emit.durations import fmt_dur
from actframes.emit.html_layout import minutes
from actframes.emit.period_html import to_period_html
from actframes.model import InputEvent, Snapshot
from actframes.model import Span as Away
from actframes.period_types import PeriodDocument
from actframes.periods import Span, day_windows, week_span
from actframes.simulate.generator import simulate_days
from actframes.window import Window, day_window

from ..builders import ms, native_db
from .test_html import HOSTILE_APP, HOSTILE_TITLE, Page, hostile_doc

TZ = "Europe/Berlin"
DST_WEEK = week_span("2026-W43", TZ, 0)  # 2026-10-19 .. 2026-10-25: Sunday has 25 hours
SPRING_WEEK = week_span("2026-03-29", TZ, 0)  # 2026-W13: Sunday has 23 hours
SKIPPED = "2026-10-22"  # the Thursday has no capture
NIGHT_APP = "Night Owl"
# A night session across the hour the clocks go back: 01:30 summer time to 02:45 winter
# time is 2 h 15 min, from 1.5 h to 3.75 h after the day's start.
AUTUMN_NIGHT = ("2026-10-25T01:30:00+02:00", "2026-10-25T02:45:00+01:00")
SPRING_NIGHT = ("2026-03-29T01:15:00+01:00", "2026-03-29T03:30:00+02:00")  # 1 h 15 min

Days = tuple[PeriodDocument, list[Document]]


def night(first_id: int, start: str, end: str, step_s: int = 20) -> list[Snapshot]:
    a, b = ms(start), ms(end)
    n = (b - a) // (step_s * 1000) + 1
    return [Snapshot(first_id + k, a + k * step_s * 1000, NIGHT_APP, "moon.txt") for k in range(n)]


def dst_week_store(path: Path) -> Path:
    """Simulated office days of 2026-W43 in Berlin (weekend lighter, away spans), the
    Thursday left out, and a night session across the change on Sunday."""
    snaps: list[Snapshot] = []
    events: list[InputEvent] = []
    afk: list[Away] = []
    for d in simulate_days(DST_WEEK.since, 7, TZ, rows_per_day=400):
        if d.day == SKIPPED:
            continue
        snaps += [s._replace(row_id=len(snaps) + 1 + k) for k, s in enumerate(d.snapshots)]
        events += [e._replace(event_id=len(events) + 1 + k) for k, e in enumerate(d.events)]
        afk += d.afk
    snaps += night(len(snaps) + 1, *AUTUMN_NIGHT)
    return native_db(path, snaps, events, afk)


def period_of(db: Path, span: Span, windows: list[Window] | None = None) -> Days:
    """The period of ``span`` and its days' documents, each compiled alone (no cache)."""
    with open_store(db, disk_cache=False) as store:
        docs = store.compile_many(windows or day_windows(span, TZ))
    days = list(zip(span.days(), docs, strict=True))
    return period_document(days, kind=span.kind, label=span.label), docs


@pytest.fixture(scope="module")
def dst_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return dst_week_store(tmp_path_factory.mktemp("week") / "week.db")


@pytest.fixture(scope="module")
def week(dst_db: Path) -> Days:
    return period_of(dst_db, DST_WEEK)


def embedded(html: str) -> Any:
    m = re.search(r'<script type="application/json" id="actframes-doc">(.*?)</script>', html, re.S)
    assert m, "the documents are embedded"
    return json.loads(m.group(1))


def box(style: str) -> tuple[float, float]:
    m = re.fullmatch(r"left:([\d.]+)%;width:([\d.]+)%(;.*)?", style)
    assert m is not None, style
    return float(m[1]), float(m[2])


def seconds(a: str, b: str) -> float:
    return (datetime.fromisoformat(b) - datetime.fromisoformat(a)) / timedelta(seconds=1)


def lanes_of(page: Page) -> list[dict[str, Any]]:
    return page.by_class("lane")


def bars_by_lane(page: Page) -> dict[int, list[dict[str, str]]]:
    out: dict[int, list[dict[str, str]]] = {}
    for b in page.by_class("bar"):
        out.setdefault(int(b["attrs"]["data-d"]), []).append(b["attrs"])
    return out


# ---------------------------------------------------------------- the lanes


def test_a_lane_per_day_and_a_bar_per_frame_of_that_day(week: Days) -> None:
    period, docs = week
    page = Page(to_period_html(period, docs))
    lanes = lanes_of(page)
    assert [ln["attrs"]["data-day"] for ln in lanes] == DST_WEEK.days() and len(lanes) == 7
    bars = bars_by_lane(page)
    for n, doc in enumerate(docs):
        frames = doc["frames"]
        got = bars.get(n, [])
        assert len(got) == len(frames), doc["window"]
        assert [int(b["data-i"]) for b in got] == list(range(len(frames)))
        for b, f in zip(got, frames, strict=True):
            assert b["data-id"] == f["id"] and int(b["data-active-s"]) == f["active_s"]
            assert (b["data-start"], b["data-end"]) == (f["start"], f["end"])
            assert b["data-app"] == f["app"] and b.get("data-site") == f.get("site")
            assert b["tabindex"] == "0" and b["aria-describedby"] == "detail"
            assert (
                f"({f['active_s']} s)" in b["aria-label"]
                and doc["window"]["day"] in (b["aria-label"])
            )
    assert len(page.by_class("bar")) == sum(len(d["frames"]) for d in docs) > 300
    skipped = DST_WEEK.days().index(SKIPPED)
    assert docs[skipped]["frames"] == [] and skipped not in bars


def test_each_days_total_is_its_active_time(week: Days) -> None:
    period, docs = week
    page = Page(to_period_html(period, docs))
    totals = page.by_class("dtotal")
    assert len(totals) == 7
    for t, doc in zip(totals, docs, strict=True):
        active = doc["coverage"]["active_s"]
        assert int(t["attrs"]["data-active-s"]) == active
        assert t["text"] == fmt_dur(active) and t["attrs"]["title"] == f"{active} s"
    assert sum(int(t["attrs"]["data-active-s"]) for t in totals) == period["totals"]["active_s"]
    # The days table says the same, to the second.
    rows = page.by_class("ptable")[0]["text"]
    for doc in docs:
        active = doc["coverage"]["active_s"]
        assert f"{minutes(active)} ({active} s)" in rows


def test_bars_are_placed_from_their_days_start_on_25_hours(week: Days) -> None:
    period, docs = week
    page = Page(to_period_html(period, docs))
    tl = page.by_class("tl")[0]
    assert tl["attrs"]["data-hours"] == "25"
    ticks = [t["text"] for t in page.by_class("tick")]
    assert ticks[:3] == ["00:00", "01:00", "02:00"] and ticks[-2:] == ["00:00", "01:00"]
    assert len(ticks) == 26
    axis_s = 25 * 3600
    lanes = lanes_of(page)
    assert [ln["attrs"]["data-s"] for ln in lanes] == ["86400"] * 6 + ["90000"]
    assert [d["text"] for d in page.by_class("dst")] == [" · 25 h"]
    assert "25 h" in lanes[-1]["text"]
    # The days of 24 hours end before the axis does; the rest is marked.
    beyond = page.by_class("beyond")
    assert [b["attrs"]["style"] for b in beyond] == ["left:96.0000%"] * 6
    for n, bars in bars_by_lane(page).items():
        start = docs[n]["window"]["start"]
        for b in bars:
            left, width = box(b["style"])
            assert abs(left / 100 * axis_s - seconds(start, b["data-start"])) < 1
            assert abs(width / 100 * axis_s - seconds(b["data-start"], b["data-end"])) < 1
    # The night session across the change: from 1.5 h after the start, 2 h 15 min long.
    owl = next(b for b in bars_by_lane(page)[6] if b["data-app"] == NIGHT_APP)
    left, width = box(owl["style"])
    assert abs(left - 1.5 / 25 * 100) < 0.01 and abs(width - 2.25 / 25 * 100) < 0.01


def test_a_23_hour_day(tmp_path: Path) -> None:
    db = native_db(tmp_path / "spring.db", night(1, *SPRING_NIGHT))
    period, docs = period_of(db, SPRING_WEEK)
    page = Page(to_period_html(period, docs))
    assert page.by_class("tl")[0]["attrs"]["data-hours"] == "24"
    sunday = lanes_of(page)[-1]
    assert sunday["attrs"]["data-s"] == "82800" and "23 h" in sunday["text"]
    beyond = page.by_class("beyond")
    assert len(beyond) == 1 and beyond[0]["attrs"]["style"] == "left:95.8333%"
    (bar,) = page.by_class("bar")
    left, width = box(bar["attrs"]["style"])
    assert abs(left - 1.25 / 24 * 100) < 0.01 and abs(width - 1.25 / 24 * 100) < 0.01


def test_a_later_start_of_day(dst_db: Path) -> None:
    windows = [day_window(d, TZ, 4 * 60) for d in DST_WEEK.days()]
    period, docs = period_of(dst_db, DST_WEEK, windows)
    page = Page(to_period_html(period, docs))
    ticks = [t["text"] for t in page.by_class("tick")]
    assert ticks[:3] == ["04:00", "05:00", "06:00"]
    lanes = lanes_of(page)
    assert lanes[0]["attrs"]["data-start"] == "2026-10-19T04:00:00+02:00"
    # Sunday 04:00 to Monday 04:00 is 24 hours; Saturday's day holds the change.
    assert [ln["attrs"]["data-s"] for ln in lanes] == ["86400"] * 5 + ["90000", "86400"]
    for n, bars in bars_by_lane(page).items():
        for b in bars:
            left, _ = box(b["style"])
            start = docs[n]["window"]["start"]
            assert abs(left / 100 * 25 * 3600 - seconds(start, b["data-start"])) < 1
    # The night session now belongs to Saturday's day, 21.5 h after its start.
    owl = next(b for b in bars_by_lane(page)[5] if b["data-app"] == NIGHT_APP)
    assert abs(box(owl["style"])[0] - 21.5 / 25 * 100) < 0.01


def lane_chunks(html: str) -> list[Page]:
    """Each lane's own markup (its name and track), read alone."""
    chunks = html.split('<div class="lane" ')[1:]
    return [Page('<div class="lane" ' + c.split('<div class="dtotal"')[0]) for c in chunks]


def test_away_and_gaps_are_shaded_on_their_days_lane(week: Days) -> None:
    period, docs = week
    lanes = lane_chunks(to_period_html(period, docs))
    assert len(lanes) == 7
    for lane, doc in zip(lanes, docs, strict=True):
        cov = doc["coverage"]
        away = [(g["attrs"]["data-start"], g["attrs"]["data-end"]) for g in lane.by_class("away")]
        gaps = [(g["attrs"]["data-start"], g["attrs"]["data-end"]) for g in lane.by_class("gap")]
        assert away == [(g["start"], g["end"]) for g in cov["away"]]
        assert gaps == [(g["start"], g["end"]) for g in cov["gaps"]]
        assert len(lane.by_class("bar")) == len(doc["frames"])
    assert sum(len(ln.by_class("away")) for ln in lanes) >= 6


# ---------------------------------------------------------------- the ledger and projects


def test_ledger_rows_are_the_periods_ledger(week: Days) -> None:
    period, docs = week
    page = Page(to_period_html(period, docs))
    rows = page.by_class("plrow")
    ledger = period["ledger"]
    assert len(rows) == len(ledger) > 5
    for row, e in zip(rows, ledger, strict=True):
        a = row["attrs"]
        assert (a["data-app"], a.get("data-site")) == (e["app"], e.get("site"))
        assert int(a["data-active-s"]) == e["active_s"] and int(a["data-days"]) == e["days"]
        assert (int(a["data-keys"]), int(a["data-clicks"])) == (e["keys"], e["clicks"])
        label = e["app"] + (f" · {e['site']}" if "site" in e else "")
        assert row["text"].startswith(label)
        assert (
            f"{minutes(e['active_s'])}{e['active_s']} s{e['keys']}{e['clicks']}{e['days']}"
            in (row["text"])
        )
    # Every day's app time is in it: the ledger is the days' ledgers summed.
    by_app: dict[str, int] = {}
    for doc in docs:
        for e in doc["ledger"]:
            by_app[e["app"]] = by_app.get(e["app"], 0) + e["active_s"]
    shown: dict[str, int] = {}
    for row in rows:
        app = row["attrs"]["data-app"]
        shown[app] = shown.get(app, 0) + int(row["attrs"]["data-active-s"])
    assert shown == by_app
    total = period["totals"]["active_s"]
    assert sum(by_app.values()) == total
    assert f"Total {minutes(total)} ({total} s)" in [t["text"] for t in page.by_class("total")]


def test_a_bar_has_its_ledger_rows_colour(week: Days) -> None:
    period, docs = week
    html = to_period_html(period, docs)
    rows = re.findall(
        r'<tr class="plrow" data-app="([^"]*)"(?: data-site="([^"]*)")?[^>]*>'
        r'.*?<i class="swatch" style="background:([^"]*)"',
        html,
    )
    colour = {(unescape(app), unescape(site) or None): c for app, site, c in rows}
    assert len(colour) == len(period["ledger"]) == len(set(colour.values()))
    for b in Page(html).by_class("bar"):
        a = b["attrs"]
        assert a["style"].endswith(f";--c:{colour[(a['data-app'], a.get('data-site'))]}")


def test_stacked_projects_add_up_to_each_days_active_time(week: Days) -> None:
    period, docs = week
    assert period["projects"]["entries"], "the simulated office days have projects"
    page = Page(to_period_html(period, docs))
    html = to_period_html(period, docs)
    rows = html.split('<li class="prow" ')[1:]
    assert len(rows) == 7 and len(page.by_class("prow")) == 7
    colour_of: dict[str, str] = {}
    for chunk, pd, doc in zip(rows, period["days"], docs, strict=True):
        row = Page('<li class="prow" ' + chunk.split("</li>")[0] + "</li>")
        segs = [s["attrs"] for s in row.by_class("pseg")]
        assert sum(int(s["data-active-s"]) for s in segs) == doc["coverage"]["active_s"]
        named = [
            (s["data-name"], int(s["data-active-s"])) for s in segs if "data-unassigned" not in s
        ]
        assert named == [(p["name"], p["active_s"]) for p in doc["projects"]["entries"]]
        rest = [int(s["data-active-s"]) for s in segs if "data-unassigned" in s]
        assert rest == ([doc["projects"]["unassigned"]["active_s"]] if rest else [])
        # Segments follow one another from the left, none overlapping.
        end = 0.0
        for s in segs:
            left, width = box(s["style"])
            assert abs(left - end) < 0.0002
            end = left + width
            name, colour = s["data-name"], s["style"].rsplit("background:", 1)[1]
            assert colour_of.setdefault(name, colour) == colour  # one colour a project
        top = max(d["active_s"] for d in period["days"])
        assert abs(end - 100 * pd["active_s"] / top) < 0.001
    assert len(set(colour_of.values())) == len(colour_of)
    keys = [k["attrs"]["data-name"] for k in page.elements if "data-name" in k["attrs"]]
    assert [e["name"] for e in period["projects"]["entries"]] == keys[
        : len(period["projects"]["entries"])
    ]


def test_no_projects_no_project_bars(week: Days) -> None:
    period, docs = week
    bare: Any = json.loads(json.dumps(period))
    bare["projects"]["entries"] = []
    html = to_period_html(bare, docs)
    assert 'id="projects"' not in html and 'class="prow"' not in html
    assert 'id="projects"' in to_period_html(period, docs)


# ---------------------------------------------------------------- the page as a whole


def test_embedded_documents_are_the_documents(week: Days) -> None:
    period, docs = week
    assert embedded(to_period_html(period, docs)) == {"period": period, "documents": docs}


def test_same_documents_same_bytes(week: Days, dst_db: Path) -> None:
    period, docs = week
    first = to_period_html(period, docs)
    assert to_period_html(*json.loads(json.dumps([period, docs]))) == first
    again, again_docs = period_of(dst_db, DST_WEEK)  # compiled once more
    assert to_period_html(again, again_docs) == first


def test_same_bytes_under_any_machine_zone_and_locale(week: Days, tmp_path: Path) -> None:
    src = tmp_path / "week.json"
    src.write_text(json.dumps(list(week)), encoding="utf-8")
    code = (
        "import json,sys; from actframes.emit.period_html import to_period_html;"
        "p, d = json.load(open(sys.argv[1], encoding='utf-8'));"
        "sys.stdout.buffer.write(to_period_html(p, d).encode('utf-8'))"
    )
    outs = set()
    for tz, lang in (("Pacific/Chatham", "C"), ("America/Los_Angeles", "de_DE.UTF-8")):
        env = {**os.environ, "TZ": tz, "LANG": lang, "LC_ALL": lang}
        run = subprocess.run(
            [sys.executable, "-c", code, str(src)], capture_output=True, env=env, timeout=60
        )
        assert run.returncode == 0, run.stderr
        outs.add(run.stdout)
    assert outs == {to_period_html(*week).encode("utf-8")}


def test_the_days_must_be_the_periods(week: Days) -> None:
    period, docs = week
    with pytest.raises(ValueError, match="7 days but 6 documents"):
        to_period_html(period, docs[:6])
    with pytest.raises(ValueError, match="day 2026-10-19 was given the document of 2026-10-20"):
        to_period_html(period, [docs[1], *docs[1:]])


def test_an_empty_week(tmp_path: Path) -> None:
    db = native_db(tmp_path / "empty.db", night(1, *SPRING_NIGHT))
    span = week_span("2026-W20", TZ, 0)
    period, docs = period_of(db, span)
    page = Page(to_period_html(period, docs))
    assert len(page.by_class("lane")) == 7 and page.by_class("bar") == []
    assert page.by_class("plrow") == [] and page.by_class("beyond") == []
    assert [t["text"] for t in page.by_class("dtotal")] == ["0s"] * 7


def test_hostile_text_is_escaped() -> None:
    doc: Any = hostile_doc()
    period = period_document([(doc["window"]["day"], doc)])
    html = to_period_html(period, [doc])
    assert html.count("<script") == 2 and html.count("</script>") == 2
    page = Page(html)
    assert [e["tag"] for e in page.elements if e["tag"] in ("img", "b")] == []
    apps = [b["attrs"]["data-app"] for b in page.by_class("bar")]
    assert HOSTILE_APP in apps
    assert any(r["attrs"]["data-app"] == HOSTILE_APP for r in page.by_class("plrow"))
    assert embedded(html) == {"period": period, "documents": [doc]}
    assert any(HOSTILE_TITLE in f["titles"] for f in embedded(html)["documents"][0]["frames"])
    script = html.split('id="actframes-doc">', 1)[1].split("</script>", 1)[0]
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in script


def test_the_day_reports_policy_and_nothing_points_at_the_network(week: Days) -> None:
    from actframes.emit.html_assets import CSP, SCRIPT

    period, docs = week
    html = to_period_html(period, docs)
    page = Page(html)
    refs = [
        (e["tag"], k, v)
        for e in page.elements
        for k, v in e["attrs"].items()
        if k in ("src", "href", "action", "srcset", "poster", "data")
    ]
    assert refs == [("link", "href", "data:,"), ("a", "href", "#ledger")]
    assert "url(" not in html.split("<body>", 1)[0]
    csp = next(e for e in page.tags("meta") if e["attrs"].get("http-equiv"))["attrs"]["content"]
    assert csp == CSP and page.tags("script")[-1]["text"] == SCRIPT
