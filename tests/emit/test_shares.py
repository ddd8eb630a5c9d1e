"""The projects and categories in the context block, Markdown, the report and the
timesheet: what each shows is the document's, read back where a parser exists."""

from __future__ import annotations

import copy
from html import escape
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from actframes.api import compile_path
from actframes.emit.context import to_context
from actframes.emit.context_parse import parse_context
from actframes.emit.html import to_html
from actframes.emit.markdown import to_markdown
from actframes.emit.timesheet import day_rows, timesheet, to_csv

from ..test_golden import build


def golden_doc(tmp: Path) -> Any:
    return compile_path(build(tmp / "g.db"), "2026-03-10", "Europe/Berlin")


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return golden_doc(tmp_path_factory.mktemp("shares"))


def _entry(name: str, s: int, keys: int = 0) -> dict[str, Any]:
    return {"name": name, "active_s": s, "keys": keys, "clicks": 0, "frames": ["F1"],
            "evidence": {"rows": "1"}}  # fmt: skip


def test_the_block_keeps_projects_and_categories_at_any_budget(doc: Any) -> None:
    for budget in (100, 400, 1500):
        parsed = parse_context(to_context(doc, budget))
        entries = doc["projects"]["entries"]
        assert [p["name"] for p in parsed["projects"]] == [e["name"] for e in entries]
        assert parsed["projects_rules"] == doc["projects"]["rules"]
        cats = parsed["categories"]
        assert [c["name"] for c in cats] == [e["name"] for e in doc["categories"]["entries"]]
        for got, e in zip(parsed["projects"], entries, strict=True):
            assert (got["keys"], got["clicks"], got["frames"]) == (
                e["keys"], e["clicks"], len(e["frames"])
            )  # fmt: skip


def test_unassigned_and_odd_names_read_back(doc: Any) -> None:
    doc = copy.deepcopy(doc)
    doc["projects"]["entries"] = [
        _entry("(unassigned)", 120, keys=3),  # a project named as the unassigned word
        _entry("a · b", 60),
        _entry('say "hi"', 30),
    ]
    doc["projects"]["unassigned"] = {
        "active_s": 45, "keys": 1, "clicks": 0, "frames": ["F2"], "evidence": {"rows": "2"}
    }  # fmt: skip
    parsed = parse_context(to_context(doc, 1500))
    assert [p["name"] for p in parsed["projects"]] == ["(unassigned)", "a · b", 'say "hi"']
    assert parsed["unassigned"]["active_s"] == 45 and parsed["unassigned"]["keys"] == 1


def test_markdown_and_report_show_every_entry(doc: Any) -> None:
    md = to_markdown(doc)
    html = to_html(doc)
    assert "## Projects" in md and "## Categories" in md
    for e in doc["projects"]["entries"] + doc["categories"]["entries"]:
        assert f"| {e['name']} |" in md
        assert f'data-name="{escape(e["name"])}"' in html
    assert '<section id="projects"' in html and '<section id="categories"' in html


def _doc_of(day: str, entries: list[tuple[str, int]], unassigned: int) -> Any:
    total = sum(s for _, s in entries) + unassigned
    return {
        "window": {"day": day, "start": f"{day}T00:00:00+00:00", "end": "x", "tz": "UTC"},
        "coverage": {"active_s": total},
        "projects": {
            "rules": "built-in",
            "entries": [_entry(n, s) for n, s in entries],
            "unassigned": {
                "active_s": unassigned,
                "keys": 0,
                "clicks": 0,
                "frames": [],
                "evidence": {"rows": ""},
            },
        },
    }


def test_one_project_under_two_spellings_is_one_row() -> None:
    sheet = timesheet(
        [
            _doc_of("2026-03-10", [("billing-api", 100)], 5),
            _doc_of("2026-03-11", [("Billing API", 300), ("web", 10)], 0),
        ]
    )
    assert [(p["name"], p["active_s"], p["days"]) for p in sheet["projects"]] == [
        ("Billing API", 400, {"2026-03-10": 100, "2026-03-11": 300}),
        ("web", 10, {"2026-03-11": 10}),
    ]
    assert sheet["unassigned_s"] == 5 and sheet["total_s"] == 415


@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.integers(0, 30_000)),
        max_size=4,
        unique_by=lambda x: x[0],
    ),
    st.integers(0, 20_000),
)
def test_csv_rows_and_hours_add_up_to_the_day(entries: list[tuple[str, int]], rest: int) -> None:
    sheet = timesheet([_doc_of("2026-03-10", entries, rest)])
    total = sum(s for _, s in entries) + rest
    assert sum(s for _, _, s in day_rows(sheet)) == total
    lines = to_csv(sheet).splitlines()[1:]
    hours = sum(int(line.rsplit(",", 1)[1].replace(".", "")) for line in lines)
    assert hours == (total * 100 + 1800) // 3600
    for line in lines:  # each within a hundredth of its own seconds
        secs, h = line.rsplit(",", 2)[1:]
        assert abs(int(h.replace(".", "")) * 36 - int(secs)) < 36
