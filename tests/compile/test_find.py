"""Frames found by words (compile/find.py)."""

from __future__ import annotations

from typing import Any

from actframes.compile.find import find_frames, query_words


def frame(fid: str, app: str, titles: list[str], active_s: int, **kw: Any) -> dict[str, Any]:
    return {
        "id": fid,
        "app": app,
        "start": f"2026-03-10T09:{int(fid[1:]):02d}:00+01:00",
        "end": f"2026-03-10T09:{int(fid[1:]):02d}:30+01:00",
        "active_s": active_s,
        "titles": titles,
        "pages": kw.get("pages", []),
        "interruptions": kw.get("interruptions", []),
        **({"site": kw["site"]} if "site" in kw else {}),
    }


DOC = {
    "frames": [
        frame("F1", "Code", ["expense_report.py — tools"], 300),
        frame(
            "F2",
            "Google Chrome",
            ["Expenses · Acme Finance"],
            120,
            site="finance.acme.dev",
            pages=[{"kind": "form", "entity": "expense-report-q3"}],
        ),
        frame("F3", "Slack", ["#finance - Acme - Slack"], 600),
        frame("F4", "Google Chrome", ["File a report"], 60, site="reports.example.com"),
    ]
}


def test_query_words_drop_stop_words_and_repeats() -> None:
    assert query_words("File the expense report, the REPORT") == ["file", "expense", "report"]
    assert query_words("the of and") == []


def test_best_first_by_words_then_what_then_time() -> None:
    hits = find_frames(DOC, "file the expense report")
    assert [h["id"] for h in hits] == ["F1", "F2", "F4"]  # F3 matches nothing
    assert [h["matched_words"] for h in hits] == [2, 2, 2]
    # F1 and F2 tie on words and on words in titles/entities: the more active first.
    assert hits[0]["matched"] == ["expense_report.py — tools"]


def test_words_match_word_starts_only() -> None:
    assert [h["id"] for h in find_frames(DOC, "finance")] == ["F3", "F2"]
    assert find_frames(DOC, "inance") == []


def test_no_words_no_hits_and_limit() -> None:
    assert find_frames(DOC, "") == []
    assert len(find_frames(DOC, "expense report file", limit=1)) == 1
