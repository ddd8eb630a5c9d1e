"""The flicker fold, by time away from A (first row of B to first row of A again)."""

from __future__ import annotations

import pytest

from .caps import cap, compile_, ev, seq, snap


@pytest.mark.parametrize(("away_s", "folds"), [(1, True), (19, True), (20, True), (21, False)])
def test_fold_threshold_is_time_away(away_s: float, folds: bool) -> None:
    doc = compile_(cap(seq(("Code", 60), ("Slack", away_s), ("Code", 60), ("Code", 0))))
    if folds:
        assert len(doc["frames"]) == 1
        f = doc["frames"][0]
        assert f["app"] == "Code"
        assert f["interruptions"][0]["app"] == "Slack"
        assert f["interruptions"][0]["active_s"] == away_s
        assert f["active_s"] == 120  # B's time is not added to A
        assert f["evidence"]["rows"] == "1,3-4"
        assert f["interruptions"][0]["evidence"]["rows"] == "2"
    else:
        assert [f["app"] for f in doc["frames"]] == ["Code", "Slack", "Code"]


def test_b_with_several_rows_folds_when_the_whole_detour_is_short() -> None:
    doc = compile_(cap(seq(("Code", 60), ("Slack", 5), ("Slack", 5), ("Code", 10), ("Code", 0))))
    assert len(doc["frames"]) == 1
    assert doc["frames"][0]["interruptions"][0]["active_s"] == 10


def test_long_detour_is_not_a_flicker() -> None:
    # One B snapshot, then minutes of static screen: B earns 90 s and the return is late.
    doc = compile_(cap(seq(("Code", 60), ("Slack", 240), ("Code", 30), ("Code", 0))))
    assert [f["app"] for f in doc["frames"]] == ["Code", "Slack", "Code"]


def test_no_fold_across_a_session_gap() -> None:
    doc = compile_(cap(seq(("Code", 400), ("Slack", 5), ("Code", 10), ("Code", 0))))
    assert [f["app"] for f in doc["frames"]] == ["Code", "Slack", "Code"]


def test_folds_chain() -> None:
    doc = compile_(
        cap(seq(("Code", 30), ("Slack", 5), ("Code", 30), ("Mail", 3), ("Code", 30), ("Code", 0)))
    )
    assert len(doc["frames"]) == 1
    assert [i["app"] for i in doc["frames"][0]["interruptions"]] == ["Slack", "Mail"]
    assert doc["frames"][0]["active_s"] == 90


def test_interruption_keeps_its_own_input() -> None:
    events = [ev(1, 10, "key", "Code"), ev(2, 31, "click", "Slack"), ev(3, 40, "key", "Code")]
    doc = compile_(cap(seq(("Code", 30), ("Slack", 5), ("Code", 30), ("Code", 0)), events))
    f = doc["frames"][0]
    assert f["input"]["keys"] == 2 and f["input"]["clicks"] == 0
    assert f["interruptions"][0]["input"]["clicks"] == 1
    assert f["evidence"]["events"] == "1,3"
    assert f["interruptions"][0]["evidence"]["events"] == "2"


def test_site_change_is_a_key_change() -> None:
    gh, hn = "https://github.com/x", "https://news.ycombinator.com/"
    rows = [
        snap(1, 0, "Chrome", gh),
        snap(2, 60, "Chrome", hn),
        snap(3, 65, "Chrome", gh),
        snap(4, 125, "Chrome", gh),
    ]
    doc = compile_(cap(rows))
    assert len(doc["frames"]) == 1
    assert doc["frames"][0]["site"] == "github.com"
    assert doc["frames"][0]["interruptions"][0]["site"] == "news.ycombinator.com"
