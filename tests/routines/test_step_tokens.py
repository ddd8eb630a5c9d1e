"""Routine tokens: names normalised, specificity, inherited targets, segments."""

import pytest

from actframes.routines.roles import canonical_role
from actframes.routines.step_tokens import normalise_name, segments
from actframes.routines.urls import url_template

from .helpers import DAY0, DAY_MS, click, navigate, stream, type_


@pytest.mark.parametrize(
    ("role", "name", "expected"),
    [
        ("cell", "A35", "A{row}"),
        ("cell", "AB7", "AB{row}"),
        ("button", "A35", "A35"),  # only cells have rows
        ("", "12345", "{n}"),
        ("link", "Invoice 20231", "Invoice {n}"),
        ("link", "Q3 plan", "Q3 plan"),  # short numbers are part of a name
        ("button", "  Submit \n claim ", "Submit claim"),
        ("button", "x" * 100, "x" * 79 + "…"),
        ("link", r"\n Next\n", "Next"),  # line breaks stored as backslash-n
        (
            "cell",
            "/*[name()='HTML']/*[name()='BODY'][1]/*[name()='TABLE'][1]/*[name()='TD'][2]",
            "HTML[1]/BODY[1]/TABLE[1]/TD[2]",
        ),
    ],
)
def test_normalise_name(role: str, name: str, expected: str) -> None:
    assert normalise_name(role, name) == expected


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("push button", "button"),
        ("BUTTON", "button"),
        ("entry", "textbox"),
        ("INPUT", "textbox"),
        ("combo box", "combobox"),
        ("table cell", "cell"),
        ("page_tab", "tab"),
        ("A", "link"),
        ("something new", "something new"),
        (None, ""),
    ],
)
def test_canonical_role(role: str | None, expected: str) -> None:
    assert canonical_role(role) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://127.0.0.1:8123/claims/42/edit?x=1#f", "127.0.0.1:8123/claims/{id}/edit"),
        ("https://www.github.com:443/a/pull/17", "github.com/a/pull/{id}"),
        ("https://form.jotform.com/200477494954062", "form.jotform.com/{id}"),
        ("https://x.test/u/3f2a9c0d-1b2c-4d5e-8f90-a1b2c3d4e5f6", "x.test/u/{id}"),
        ("https://x.test/deadbeef12", "x.test/{id}"),
        ("https://x.test/abcdefgh", "x.test/abcdefgh"),  # hex-looking words need a digit
        ("about:blank", None),
        (None, None),
    ],
)
def test_url_template(url: str | None, expected: str | None) -> None:
    assert url_template(url) == expected


@pytest.mark.parametrize(
    ("role", "name", "specific"),
    [
        ("push button", "Submit claim", True),
        ("push button", "OK", False),
        ("push button", "Cancel", False),
        ("entry", "", False),  # a bare field
        ("entry", "Amount", True),
        ("link", "12345", False),  # a number alone identifies nothing
    ],
)
def test_specific(role: str, name: str, specific: bool) -> None:
    (s,) = stream([click(DAY0, name, role)])
    assert s.specific is specific


def test_navigate_is_never_a_specific_target() -> None:
    (s,) = stream([navigate(DAY0, "https://x.test/a")])
    assert s.op == "navigate" and not s.specific and s.page == "x.test/a"


def test_type_inherits_the_clicked_field_until_a_navigation() -> None:
    steps = stream(
        [
            click(DAY0, "Amount", "entry", x=1, y=2),
            type_(DAY0 + 1000),
            navigate(DAY0 + 2000, "https://claims.example.test/claims/new"),
            type_(DAY0 + 3000),
        ]
    )
    assert (steps[1].role, steps[1].name, steps[1].x) == ("textbox", "Amount", 1)
    assert (steps[3].role, steps[3].name) == ("", "")


def test_focus_and_scroll_are_not_actions() -> None:
    got = stream(
        [
            {"t_ms": DAY0, "op": "focus", "id": 1, "app": "A", "events": []},
            {"t_ms": DAY0 + 1, "op": "scroll", "id": 2, "app": "A", "events": [2]},
            click(DAY0 + 2, "Go"),
        ]
    )
    assert [s.op for s in got] == ["click"]


def test_segments_split_at_gaps_midnight_and_devices() -> None:
    a = stream([click(DAY0 + i * 60_000, f"b{i}") for i in range(3)])
    b = stream([click(DAY0 + 3 * 60_000 + 301_000, "late")])  # a session gap before
    c = stream([click(DAY0 + DAY_MS, "tomorrow")])
    d = stream([click(DAY0 + 4 * 60_000 + 301_000, "other")], device="screen2")
    segs = segments(a + b + d + c)
    assert [[s.raw_name for s in seg] for seg in segs] == [
        ["b0", "b1", "b2"],
        ["late"],
        ["other"],
        ["tomorrow"],
    ]


def test_local_midnight_follows_the_zone() -> None:
    # 23:30 local in New York, then 20 and 60 minutes later: one UTC day throughout.
    t = 1_773_027_000_000  # 2026-03-09T03:30:00Z = 23:30 EDT on the 8th
    steps = stream([click(t, "a"), click(t + 20 * 60_000, "b")], tz="America/New_York")
    assert [s.day for s in steps] == ["2026-03-08", "2026-03-08"]
    steps = stream([click(t, "a"), click(t + 3_600_000, "b")], tz="America/New_York")
    assert [s.day for s in steps] == ["2026-03-08", "2026-03-09"]
