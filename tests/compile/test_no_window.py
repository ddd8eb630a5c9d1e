"""Rows that say no window had the focus (``[none]``, ``[silent]``) hold their time but
earn none: the app before them stops earning where they begin, and no ledger line,
frame or total credits time nobody's window had."""

from __future__ import annotations

import pytest

from .caps import cap, compile_, seq


@pytest.mark.parametrize("placeholder", ["[none]", "[silent]"])
def test_no_focused_window_earns_nothing(placeholder: str) -> None:
    doc = compile_(cap(seq(("Code", 30), (placeholder, 60), (placeholder, 60), ("Slack", 40),
                           ("Slack", 0))))  # fmt: skip
    by_app = {e["app"]: e["active_s"] for e in doc["ledger"]}
    assert by_app.get("Code") == 30 and by_app.get("Slack") == 40
    assert by_app.get(placeholder, 0) == 0
    assert doc["coverage"]["active_s"] == 70
    assert [f["app"] for f in doc["frames"]] == ["Code", placeholder, "Slack"]
    assert [f["active_s"] for f in doc["frames"]] == [30, 0, 40]


def test_a_brief_none_between_two_visits_of_one_app_credits_the_app_only_its_rows() -> None:
    # A -> [none] -> A folds into one frame (a flicker); the [none] seconds stay uncredited.
    doc = compile_(cap(seq(("Code", 30), ("[none]", 5), ("Code", 20), ("Code", 0))))
    assert doc["coverage"]["active_s"] == 50
    assert sum(e["active_s"] for e in doc["ledger"] if e["app"] == "Code") == 50


def test_an_app_named_like_a_placeholder_only_by_its_letters_still_earns() -> None:
    doc = compile_(cap(seq(("none", 30), ("Code", 0))))
    assert doc["coverage"]["active_s"] == 30
