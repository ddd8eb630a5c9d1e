"""The context block: grammar, parser round trip, and the token budget."""

from __future__ import annotations

from typing import Any

import pytest

from actframes.emit.context import to_context
from actframes.emit.context_parse import parse_context, parse_dur, split_fields
from actframes.emit.durations import fmt_dur
from actframes.emit.token_count import count_tokens
from actframes.model import Span

from ..compile.caps import at, cap, compile_, ev, snap


def busy_doc(n: int = 80) -> dict[str, Any]:
    apps = ["Code", "Slack", "Google Chrome", "Terminal", "Zoom"]
    rows, events = [], []
    t = 0.0
    for i in range(1, n + 1):
        app = apps[i % len(apps)]
        url = f"https://github.com/org/repo/pull/{i}" if app == "Google Chrome" else None
        rows.append(snap(i, t, app, url, f"{app} window {i} — with a longer title for tokens"))
        events.append(ev(i, t + 1, "key", app))
        t += 25 + (i * 7) % 80
    rows.append(snap(n + 1, t, "Code"))
    return compile_(cap(rows, events))


def test_round_trip_of_ledger_and_frames() -> None:
    doc = busy_doc(20)
    parsed = parse_context(to_context(doc, budget=100_000))
    assert parsed["header"]["day"] == "2026-03-10" and parsed["header"]["tz"] == "UTC"
    assert [(e["app"], e["site"]) for e in parsed["ledger"]] == [
        (e["app"], e.get("site")) for e in doc["ledger"]
    ]
    assert [e["keys"] for e in parsed["ledger"]] == [e["keys"] for e in doc["ledger"]]
    assert [f["id"] for f in parsed["frames"]] == [f["id"] for f in doc["frames"]]
    for p, f in zip(parsed["frames"], doc["frames"], strict=True):
        assert p["app"] == f["app"] and p["site"] == f.get("site")
        assert p["input"] == f["input"]
        assert p["active_s"] == _at_block_resolution(f["active_s"])
    assert parsed["coverage"]["rows"] == doc["coverage"]["rows"]
    assert parsed["omitted"] == []


def _at_block_resolution(s: int) -> int:
    from actframes.emit.context_parse import parse_dur

    return parse_dur(fmt_dur(s))


@pytest.mark.parametrize("budget", [400, 700, 1000, 1500])
def test_budget_leaves_out_lowest_ranked_frames_and_says_so(budget: int) -> None:
    doc = busy_doc(80)
    block = to_context(doc, budget=budget)
    parsed = parse_context(block)
    assert count_tokens(block) <= budget
    from actframes.emit.context import VIEWED_LINES

    if len(parsed.get("viewed", [])) < min(VIEWED_LINES, len(doc["viewed"])):
        assert parsed["frames"] == []  # viewed lines go only once no frame line fits
    assert len(parsed["ledger"]) == len(doc["ledger"])  # the whole ledger, always
    shown = {f["id"] for f in parsed["frames"]}
    dropped = [f for f in doc["frames"] if f["id"] not in shown]
    assert parsed["frames_total"] == len(doc["frames"])
    if dropped:
        (om,) = parsed["omitted"]
        assert om["frames"] == len(dropped)
        assert om["active_s"] == _at_block_resolution(sum(f["active_s"] for f in dropped))
        # Nothing shown is ranked below anything left out.
        if shown:
            assert min(f["active_s"] for f in doc["frames"] if f["id"] in shown) >= max(
                f["active_s"] for f in dropped
            )


def test_budget_is_maximal() -> None:
    doc = busy_doc(80)
    block = to_context(doc, budget=900)
    n = len(parse_context(block)["frames"])
    # With one more frame line the block would not fit.
    assert n < len(doc["frames"])
    assert count_tokens(to_context(doc, budget=10_000).split("\n", 1)[0]) > 0
    bigger = to_context(doc, budget=count_tokens(block) + 60)
    assert len(parse_context(bigger)["frames"]) >= n


def test_fixed_part_over_budget_keeps_header_coverage_and_ledger() -> None:
    doc = busy_doc(40)
    parsed = parse_context(to_context(doc, budget=10))
    assert parsed["frames"] == []
    assert len(parsed["ledger"]) == len(doc["ledger"])
    assert parsed["omitted"][0]["frames"] == len(doc["frames"])


def test_deterministic() -> None:
    assert to_context(busy_doc(), 700) == to_context(busy_doc(), 700)


def test_hostile_names_are_quoted_and_parse_back() -> None:
    rows = [
        snap(1, 0, "We · ird; app", None, 'a "quoted" title\\ · with; separators'),
        snap(2, 60, "We · ird; app", None, 'a "quoted" title\\ · with; separators'),
    ]
    doc = compile_(cap(rows))
    parsed = parse_context(to_context(doc))
    assert parsed["ledger"][0]["app"] == "We · ird; app"
    assert parsed["frames"][0]["app"] == "We · ird; app"
    assert parsed["frames"][0]["titles"] == ['a "quoted" title\\ · with; separators']


def test_split_fields_respects_quotes() -> None:
    assert split_fields('a · "b · c" · d') == ["a", '"b · c"', "d"]


@pytest.mark.parametrize(
    ("s", "text"),
    [
        (0, "0s"),
        (59, "59s"),
        (60, "1m"),
        (89, "1m"),
        (90, "2m"),
        (3599, "1h00m"),
        (3600, "1h00m"),
        (22_320, "6h12m"),
    ],
)
def test_durations(s: int, text: str) -> None:
    assert fmt_dur(s) == text


def test_longest_frame_is_named_even_when_left_out() -> None:
    doc = busy_doc(80)
    top = max(doc["frames"], key=lambda f: f["active_s"])
    for budget in (10, 1500, 100_000):
        parsed = parse_context(to_context(doc, budget=budget))
        assert parsed["longest"]["id"] == top["id"]
        assert parsed["longest"]["app"] == top["app"]


def test_viewed_references_round_trip() -> None:
    gh = "https://github.com/psf/requests/pull/{n}"
    rows = [snap(i, i * 30.0, "Google Chrome", gh.format(n=i % 3)) for i in range(1, 30)]
    doc = compile_(cap(rows))
    # (400: the block keeps the project and category lines with the ledger)
    parsed = parse_context(to_context(doc, budget=400))
    assert [(v["kind"], v["entity"], v["views"]) for v in parsed["viewed"]] == [
        (v["kind"], v["entity"], v["views"]) for v in doc["viewed"]
    ]
    assert {v["entity"] for v in doc["viewed"]} == {f"psf/requests#{n}" for n in range(3)}
    assert parsed["viewed"][0]["first"] == "08:00"


def test_an_app_on_several_sites_gets_a_total_line() -> None:
    rows = [
        snap(1, 0, "Google Chrome", "https://github.com/a/b"),
        snap(2, 100, "Google Chrome", "https://mail.google.com/mail/u/0/"),
        snap(3, 190, "Google Chrome"),
        snap(4, 250, "Code"),
        snap(5, 400, "Code"),
    ]
    events = [ev(1, 10, "key", "Google Chrome"), ev(2, 110, "click", "Google Chrome")]
    doc = compile_(cap(rows, events))
    block = to_context(doc)
    parsed = parse_context(block)
    chrome = [e for e in doc["ledger"] if e["app"] == "Google Chrome"]
    assert len(chrome) == 3
    # Code has one ledger line: no total for it.
    assert parsed["app_totals"] == [
        {
            "app": "Google Chrome",
            "active_s": parse_dur(fmt_dur(sum(e["active_s"] for e in chrome))),
            "keys": 1,
            "clicks": 1,
            "scrolls": 0,
            "copies": 0,
            "pastes": 0,
            "lines": 3,
        }
    ]
    assert "app totals =" in block.split("\n")[2]  # the legend explains it


def test_gap_and_away_of_one_stretch_are_one_line_saying_its_kind() -> None:
    rows: list = []

    def run(start: int, end: int) -> None:  # a row a minute
        rows.extend(snap(len(rows) + 1, t, "Code") for t in range(start, end + 1, 60))

    run(0, 540)  # then silent 08:09–08:40, recorded away 08:09:20–08:39:40: one away period
    run(2400, 3000)  # then silent 08:50–09:06 with no away record: a gap
    run(4000, 5400)  # recorded away 09:10–09:18 while the capture went on: away
    run(6000, 6300)  # after a second gap
    afk = [Span(at(560), at(2380)), Span(at(4200), at(4700))]
    doc = compile_(cap(rows, afk=afk))
    assert len(doc["coverage"]["gaps"]) == 3 and len(doc["coverage"]["away"]) == 2
    block = to_context(doc)
    parsed = parse_context(block)
    assert [(p["kind"], p["start"], p["end"]) for p in parsed["periods"]] == [
        ("away", "08:09", "08:40"),
        ("gap", "08:50", "09:06"),
        ("away", "09:10", "09:18"),
        ("gap", "09:29", "09:40"),
    ]
    legend = block.split("\n")[2]
    assert "gap = " in legend and "away = " in legend and "away+gap" not in legend


def test_away_then_silence_beyond_it_is_one_away_gap_period() -> None:
    rows = [snap(1, 0, "Code"), snap(2, 60, "Code"), snap(3, 3000, "Code"), snap(4, 3060, "Code")]
    doc = compile_(cap(rows, afk=[Span(at(60), at(1200))]))  # away 19 min, silent 30 more
    parsed = parse_context(to_context(doc))
    assert [(p["kind"], p["start"], p["end"]) for p in parsed["periods"]] == [
        ("away+gap", "08:01", "08:50")
    ]
    assert parsed["away"] == [{"start": "08:01", "end": "08:50", "s": 49 * 60}]
    assert "away+gap = " in to_context(doc)


def test_a_budget_below_the_smallest_block_says_so_with_its_size() -> None:
    doc = busy_doc(40)
    block = to_context(doc, budget=50)
    parsed = parse_context(block)
    assert parsed["budget_not_met"] == {"budget": 50, "tokens": count_tokens(block)}
    assert count_tokens(block) > 50
    assert parsed["frames"] == [] and "viewed" not in parsed
    # A budget that is met never carries the line.
    assert "budget_not_met" not in parse_context(to_context(doc, budget=count_tokens(block)))


def test_viewed_labels_are_quoted_and_parse_back() -> None:
    doc_url = "https://docs.google.com/document/d/1Bctq8S86erXi0o5/edit"
    rows = [
        snap(1, 0, "Google Chrome", doc_url, 'Design · "doc"; v2 - Google Docs'),
        snap(2, 30, "Code"),
    ]
    doc = compile_(cap(rows))
    (v,) = parse_context(to_context(doc))["viewed"]
    assert (v["entity"], v["label"]) == ("1Bctq8S86erXi0o5", 'Design · "doc"; v2 - Google Docs')


def test_labels_go_before_viewed_lines_when_the_budget_is_tight() -> None:
    rows = [
        snap(
            i,
            30.0 * i,
            "Google Chrome",
            f"https://github.com/psf/requests/pull/{i}",
            f"A rather long pull request title number {i} to spend tokens on",
        )
        for i in range(1, 13)
    ]
    rows.append(snap(13, 400, "Code"))
    doc = compile_(cap(rows))
    full = parse_context(to_context(doc, budget=100_000))
    assert len(full["viewed"]) == 12 and all("label" in v for v in full["viewed"])

    # A budget that holds all twelve lines bare, but not with their labels.
    def viewed_at(budget: int) -> int:
        return len(parse_context(to_context(doc, budget)).get("viewed", []))

    bare_budget = next(b for b in range(150, 2000, 5) if viewed_at(b) == 12)
    tight = parse_context(to_context(doc, bare_budget))
    assert tight["frames"] == [] and len(tight["viewed"]) == 12
    assert all("label" not in v for v in tight["viewed"])
