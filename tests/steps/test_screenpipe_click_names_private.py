"""A click on a field whose name may be its contents (SPEC.md §1.2b, ``form_roles``) keeps
the field's role and loses its name in steps, patterns and routines, unless the operator
opted in with ``--include-text``. screenpipe stores the element as found: on Windows the
click row carries the focused element and the look-up row the element at the point, each
named by UI Automation's Name, which an edit, combo box or document control may take from
its contents; macOS look-up rows name text fields too. The store is written the way the
recorders write it (``tests/sources/screenpipe_clicks.py``) and read through the real
entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from actframes.sources.screenpipe import actions as screenpipe_actions

from ..builders import ms, run_entry
from ..sources.screenpipe_clicks import Rect, click_macos, click_windows
from ..sources.screenpipe_versions import NEWEST, Store

DAYS = ["2026-03-09", "2026-03-10", "2026-03-11"]
# What the user typed into the fields, as the controls' names report it.
SECRETS = ["4111 1111 1111 1111", "Dear Ms Example, the results", "salary 98000"]
FIELD = Rect(400, 300, 600, 36)
OK = ("Button", "OK", Rect(1240, 700, 120, 36))


def _round(store: Store, t: int) -> list[int]:
    """One round of work: click into a card-number field (the click row's own, focused
    element: its bounds hold the point), click into a document (look-up row), click a
    macOS text field (look-up row), then OK. The frames' ids, first first."""
    frames = []
    for k in range(4):
        frames.append(
            store.capture_event(t + k * 10_000, "monitor_1", "Forms", "Claim", None, "click")
        )
    click_windows(store, t + 1_000, 520, 310, "Forms", ("Edit", SECRETS[0], FIELD), None)
    doc = ("Document", SECRETS[1], Rect(0, 400, 2000, 900))
    click_windows(store, t + 11_000, 900, 700, "Forms", ("Edit", SECRETS[0], FIELD), doc)
    click_macos(store, t + 21_000, 700, 465, "Forms", ("AXTextField", SECRETS[2]), SECRETS[2])
    click_windows(store, t + 25_000, 1300, 716, "Forms", None, OK)
    return frames


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """Three days, each with the round done three times half an hour apart."""
    path = tmp_path_factory.mktemp("sp") / "db.sqlite"
    s = Store(path, NEWEST)
    firsts = []
    for day in DAYS:
        for run in range(3):
            firsts.append(_round(s, ms(f"{day}T09:00:00+00:00") + run * 1_800_000)[0])
    s.close()
    return path, firsts


def test_reader_blanks_content_names_and_keeps_the_rest(store: tuple[Path, list[int]]) -> None:
    path, _ = store
    a, b = ms(f"{DAYS[0]}T08:00:00+00:00"), ms(f"{DAYS[0]}T10:00:00+00:00")
    private, _, _ = screenpipe_actions.read(path, a, b)
    shown, _, _ = screenpipe_actions.read(path, a, b, include_text=True)
    clicks = [(x.element_role, x.element_name) for x in private if x.kind == "click"]
    assert clicks[:4] == [("Edit", None), ("Document", None), ("AXTextField", None), OK[:2]]
    assert [(x.element_role, x.element_name) for x in shown if x.kind == "click"][:3] == [
        ("Edit", SECRETS[0]),
        ("Document", SECRETS[1]),
        ("AXTextField", SECRETS[2]),
    ]
    # The withheld names are marked so (the clicks stay recorded), the shown ones not.
    assert [x.name_withheld for x in private if x.kind == "click"][:4] == [True] * 3 + [False]
    assert not any(x.name_withheld for x in shown)
    # Only names change: the same actions, in the same order, otherwise.
    assert [x._replace(element_name=None, name_withheld=False) for x in private] == [
        x._replace(element_name=None) for x in shown
    ]


def _cli(path: Path, *args: str) -> str:
    code, out, err = run_entry(*args, "--db", str(path), "--tz", "UTC", cwd=path.parent)
    assert code == 0, err
    return out


def test_steps_show_the_field_not_its_contents(store: tuple[Path, list[int]]) -> None:
    path, firsts = store
    frame = ("steps", f"F{firsts[0]}", "--date", DAYS[0])
    private = [json.loads(line) for line in _cli(path, *frame).splitlines()]
    opted = _cli(path, *frame, "--include-text")
    assert not any(s in json.dumps(private) for s in SECRETS)
    assert all(s in opted for s in SECRETS)
    clicks = [s.get("target") for s in private if s["op"] == "click"]
    assert clicks == [
        {"role": "Edit", "name": ""},
        {"role": "Document", "name": ""},
        {"role": "AXTextField", "name": ""},
        {"role": "Button", "name": "OK"},
    ]
    # The store recorded each element: a withheld name does not make the click a guess.
    assert {(s["method"], s["confidence"]) for s in private if s["op"] == "click"} == {
        ("recorded", "high")
    }


def test_patterns_and_routines_show_no_contents(store: tuple[Path, list[int]]) -> None:
    path, _ = store
    window = ("--until", DAYS[-1], "--days", "3")
    # The blanked fields name no specific target (nor does OK, a generic name).
    for command, more in (("patterns", ()), ("routines", ("--min-specific", "0"))):
        private = _cli(path, command, *window, *more)
        opted = _cli(path, command, *window, *more, "--include-text")
        assert private.strip() and not any(s in private for s in SECRETS), command
        assert any(s in opted for s in SECRETS), command
