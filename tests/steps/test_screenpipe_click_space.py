"""Which element a click on a screenpipe database names, with coordinates in the spaces
screenpipe's recorders really use (``tests/sources/screenpipe_clicks.py``): the click's
own rows decide (the look-up row, else the click row's element when its pixel bounds hold
the point); the accessibility tree never does, since its bounds are fractions of a
monitor or window the store does not size. Before, the reader rounded those fractions to
pixels, so a click in the screen's top-left corner "hit" the whole window."""

from __future__ import annotations

import random
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.sources.screenpipe import actions as screenpipe_actions
from actframes.steps.store_queries import steps_of_frame

from ..builders import ms
from ..sources.screenpipe_clicks import (
    Node,
    Rect,
    click_linux,
    click_macos,
    click_windows,
    write_tree,
)
from ..sources.screenpipe_versions import FEB_2026, NEWEST, Store

T0 = ms("2026-03-10T09:00:00+00:00")
SECRET = "4111 1111 1111 1111"

# macOS: a built-in Retina display, 1440x900 points (2880x1800 pixels); clicks and the
# tree's monitor are both in points. An external 1920x1080 display sits to its left.
RETINA = Rect(0, 0, 1440, 900)
LEFT_DISPLAY = Rect(-1920, 0, 1920, 1080)
MAC_TREE = [
    Node("AXWindow", "", 0, Rect(0, 25, 1440, 875)),
    Node("AXButton", "Save", 1, Rect(648, 450, 100, 30)),
    Node("AXTextField", SECRET, 1, Rect(400, 300, 300, 24)),
]
# Windows: a 2560x1440 monitor at 150 % scaling, in pixels; a second one to its right.
WIN_MONITOR = Rect(0, 0, 2560, 1440)
NAME_FIELD = ("Edit", "Name", Rect(400, 300, 600, 36))
OK_BUTTON = ("Button", "OK", Rect(1240, 700, 120, 36))
WIN_TREE = [
    Node("Window", "", 0, Rect(-8, -8, 2576, 1416)),  # maximized: past the edges, unclamped
    Node("Edit", SECRET, 1, NAME_FIELD[2]),
    Node("Button", "OK", 1, OK_BUTTON[2]),
]
# Linux: the tree is relative to the focused window (screen pixels of its extents).
LINUX_WINDOW = Rect(200, 100, 1280, 800)
LINUX_TREE = [
    Node("Frame", "", 0, LINUX_WINDOW),
    Node("Push Button", "OK", 1, Rect(840, 600, 90, 30)),
]

Writer = Callable[[Store, int], object]


def _frame(store: Store, tree: list[Node], ref: Rect, clamp: bool) -> int:
    """Captures every 30 s for two minutes, each with the window's tree; the first id."""
    first = 0
    for k in range(5):
        fid = store.capture_event(T0 + k * 30_000, "monitor_1", "App", "w", None, "click")
        write_tree(store, fid, tree, ref, clamp)
        first = first or fid
    return first


CASES: list[tuple[str, list[Node], Rect, bool, Writer, dict[str, str] | None, str]] = [
    (
        "macos-retina-lookup-names-the-button",
        MAC_TREE, RETINA, True,
        lambda s, t: click_macos(s, t, 700.6, 465.2, "App", ("AXButton", "Save")),
        {"role": "AXButton", "name": "Save"}, "recorded",
    ),
    (
        "macos-retina-no-lookup-stays-unresolved",  # the tree has Save there, in fractions
        MAC_TREE, RETINA, True,
        lambda s, t: click_macos(s, t, 700, 465, "App", None),
        None, "unresolved",
    ),
    (
        "macos-menu-bar-corner-is-not-the-window",  # was: exact hit on the AXWindow root
        MAC_TREE, RETINA, True,
        lambda s, t: click_macos(s, t, 0, 0, "App", ("AXMenuBarItem", "Apple")),
        None, "unresolved",
    ),
    (
        "macos-before-2026-03-02-window-fractions",  # the tree relative to the window then
        MAC_TREE, Rect(300, 200, 900, 600), True,
        lambda s, t: click_macos(s, t, 700, 465, "App", None),
        None, "unresolved",
    ),
    (
        "macos-display-left-of-main-negative-points",
        MAC_TREE, LEFT_DISPLAY, True,
        lambda s, t: click_macos(s, t, -1000.5, 500, "App", ("AXLink", "Docs")),
        {"role": "AXLink", "name": "Docs"}, "recorded",
    ),
    (
        "windows-lookup-wins-over-the-focused-field",
        WIN_TREE, WIN_MONITOR, False,
        lambda s, t: click_windows(s, t, 1300, 716, "App", NAME_FIELD, OK_BUTTON),
        {"role": "Button", "name": "OK"}, "recorded",
    ),
    (
        "windows-focused-field-elsewhere-no-lookup",
        WIN_TREE, WIN_MONITOR, False,
        lambda s, t: click_windows(s, t, 1300, 716, "App", NAME_FIELD, None),
        None, "unresolved",
    ),
    (
        "windows-click-inside-the-focused-field",
        WIN_TREE, WIN_MONITOR, False,
        lambda s, t: click_windows(s, t, 520, 310, "App", NAME_FIELD, None),
        # An edit's name may be its contents: its role only; recorded, the name withheld.
        {"role": "Edit", "name": ""}, "recorded",
    ),
    (
        "windows-field-right-edge-is-outside",  # half-open: x + width is not in the box
        WIN_TREE, WIN_MONITOR, False,
        lambda s, t: click_windows(s, t, 1000, 310, "App", NAME_FIELD, None),
        None, "unresolved",
    ),
    (
        "windows-second-monitor",
        WIN_TREE, WIN_MONITOR, False,
        lambda s, t: click_windows(
            s, t, 3000, 200, "App", None, ("Button", "Apply", Rect(2950, 180, 100, 40))
        ),
        {"role": "Button", "name": "Apply"}, "recorded",
    ),
    (
        "windows-focused-without-bounds-is-kept",  # the store cannot tell: as recorded
        WIN_TREE, WIN_MONITOR, False,
        lambda s, t: click_windows(s, t, 1300, 716, "App", ("Edit", "Name", None), None),
        {"role": "Edit", "name": ""}, "recorded",
    ),
    (
        "linux-relative-moves-never-hit-test",
        LINUX_TREE, LINUX_WINDOW, True,
        lambda s, t: click_linux(s, t, -340, 1210, "App"),
        None, "unresolved",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tree", "ref", "clamp", "write", "target", "method"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_a_click_names_what_its_own_rows_say(
    tmp_path: Path,
    tree: list[Node],
    ref: Rect,
    clamp: bool,
    write: Writer,
    target: dict[str, str] | None,
    method: str,
) -> None:
    store = Store(tmp_path / "db.sqlite", NEWEST)
    fid = _frame(store, tree, ref, clamp)
    write(store, T0 + 1_000)
    store.close()
    _, steps = steps_of_frame(store.path, None, "UTC", f"F{fid}")
    clicks = [s for s in steps if s["op"] == "click"]
    assert len(clicks) == 1
    assert clicks[0].get("target") == target
    assert clicks[0]["method"] == method
    assert SECRET not in repr(steps)


def test_the_tree_is_fractions_and_is_not_read(tmp_path: Path) -> None:
    """The fixture's trees are what screenpipe writes (fractions, clamped on macOS), and
    the reader returns no tree and no screen size for any of them."""
    store = Store(tmp_path / "db.sqlite", NEWEST)
    _frame(store, MAC_TREE, RETINA, True)
    _frame(store, WIN_TREE, WIN_MONITOR, False)
    store.close()
    rows = store_rows(store.path)
    assert ("AXButton", 0.45, 0.5, 0.06944, 0.03333) in rows  # 648/1440, 450/900, ...
    assert ("Window", -0.00313, -0.00556, 1.00625, 0.98333) in rows  # unclamped
    _, trees, screens = screenpipe_actions.read(store.path, T0 - 60_000, T0 + 60_000)
    assert (trees, screens) == ([], {})


@pytest.mark.parametrize("version", [FEB_2026, NEWEST])
def test_clicks_are_named_alike_before_and_after_the_elements_table(
    tmp_path: Path, version: str
) -> None:
    """February 2026 (``ui_events`` written, no ``elements``) and March 2026 name the same
    clicks the same way: the look-up row's element, or the own element where its bounds
    hold the point, or nothing."""
    store = Store(tmp_path / "db.sqlite", version)
    click_macos(store, T0, 700, 465, "App", ("AXButton", "Save"))
    click_macos(store, T0 + 5_000, 700, 465, "App", None)
    click_windows(store, T0 + 10_000, 1300, 716, "App", NAME_FIELD, OK_BUTTON)
    click_windows(store, T0 + 15_000, 1300, 716, "App", NAME_FIELD, None)
    click_windows(store, T0 + 20_000, 520, 310, "App", NAME_FIELD, None)
    click_linux(store, T0 + 25_000, -340, 1210, "App")
    store.close()
    acts, _, _ = screenpipe_actions.read(store.path, T0 - 1_000, T0 + 60_000)
    assert [(a.element_role, a.element_name) for a in acts] == [
        ("AXButton", "Save"),
        (None, None),
        ("Button", "OK"),
        (None, None),
        ("Edit", None),  # an edit's name may be its contents (form_roles)
        (None, None),
    ]


def store_rows(path: Path) -> set[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        got = conn.execute(
            "SELECT role, left_bound, top_bound, width_bound, height_bound FROM elements"
        ).fetchall()
    finally:
        conn.close()
    return {(r, *(round(v, 5) for v in b)) for r, *b in got if None not in b}


# ---------------------------------------------------------------- property

_point = st.tuples(st.integers(-3000, 6000), st.integers(-1500, 3000))
_rect = st.builds(
    Rect, st.integers(-3000, 6000), st.integers(-1500, 3000), st.integers(1, 900),
    st.integers(1, 400),
)  # fmt: skip
_click = st.tuples(
    _point,
    st.one_of(st.none(), st.tuples(st.sampled_from(["Edit", "Pane"]), st.text("ab", max_size=3),
                                   st.one_of(st.none(), _rect))),
    st.one_of(st.none(), st.tuples(st.sampled_from(["Button", "Document"]),
                                   st.text("cd", max_size=3),
                                   st.integers(0, 2_500), st.booleans())),
)  # fmt: skip


def _expected(click: Any) -> tuple[str | None, str | None]:
    (x, y), focused, look = click
    if look is not None and look[2] <= 2_000 and look[3]:
        return look[0], _shown(look[0], look[1])
    if focused is None:
        return None, None
    r = focused[2]
    if r is None or (r.x <= x < r.x + r.w and r.y <= y < r.y + r.h):
        return focused[0], _shown(focused[0], focused[1])
    return None, None


def _shown(role: str, name: str) -> str | None:
    """Edits and documents may be named by their contents: never shown (no opt-in here)."""
    return None if role in ("Edit", "Document") else name or None


@settings(max_examples=40, deadline=None)
@given(st.lists(_click, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_targets_follow_the_rows_in_any_order(clicks: list[Any], rnd: random.Random) -> None:
    """Each click (5 s apart) names the look-up row's element when one lies at its point
    within 2 s, else its own element when that element's bounds hold the point or are
    absent, else nothing — whatever order the rows were written in; an edit or a
    document keeps its role only."""
    rows: list[tuple[int, str, dict[str, object]]] = []
    for k, ((x, y), focused, look) in enumerate(clicks):
        t = T0 + k * 5_000
        own: dict[str, object] = {}
        if focused is not None:
            r = focused[2]
            own = {"element_role": focused[0], "element_name": focused[1]}
            own["element_bounds"] = (
                None if r is None else f'{{"x":{r.x},"y":{r.y},"width":{r.w},"height":{r.h}}}'
            )
        rows.append((t, "click", {"x": x, "y": y, "click_count": 1, **own}))
        if look is not None:
            lx = x if look[3] else x + 1
            cols = {"x": lx, "y": y, "click_count": 0}
            rows.append((t + look[2], "click", {**cols, "element_role": look[0],
                                                "element_name": look[1]}))  # fmt: skip
    rnd.shuffle(rows)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "db.sqlite", NEWEST)
        for t, kind, cols in rows:
            store.event(t, kind, **cols)
        store.close()
        acts, _, _ = screenpipe_actions.read(store.path, T0 - 1_000, T0 + 60_000)
    got = [(a.element_role, a.element_name) for a in acts if a.kind == "click"]
    assert got == [_expected(c) for c in clicks]
