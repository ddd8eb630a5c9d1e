"""A click on a text field of a screenpipe store, whose contents screenpipe keeps twice:
as the field's ``elements.text`` (the tree walkers store a field's value) and as the
look-up row's ``element_value``. The reader reads neither, so the contents never reach
``actframes steps`` / ``actframes routines`` output nor the day-steps cache on disk, even
with ``--include-text`` (which shows what was typed); the click names the field as the
look-up row does, by its label, with ``--include-text`` only (a field's name may be its
contents: ``form_roles``). The rows are written per platform as screenpipe's
recorders write them (``tests/sources/screenpipe_clicks.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from actframes.cli.routines import routines
from actframes.cli.steps import steps

from ..builders import ms
from ..sources.screenpipe_clicks import (
    Node,
    Rect,
    click_linux,
    click_macos,
    click_windows,
    write_tree,
)
from ..sources.screenpipe_versions import NEWEST, Store

DAYS = ("2026-03-09", "2026-03-10")
SECRET = "hunter2 card 4111"
LABEL = "Card number"
SCREEN = Rect(0, 0, 1920, 1080)  # the monitor, in points (macOS) or pixels (Windows)
FIELD = Rect(100, 100, 300, 30)
SEND = Rect(500, 100, 300, 30)


def _clicks(store: Store, t: int, platform: str, role: str) -> None:
    """A click on the field, typing, a click on the Send button."""
    if platform == "macos":
        click_macos(store, t + 1_000, 150.5, 110.2, "Chromium", (role, LABEL), value=SECRET)
    elif platform == "windows":  # the focus was on Send, from the run before
        field = (role, LABEL, FIELD)
        click_windows(
            store, t + 1_000, 150, 110, "Chromium", ("Button", "Send", SEND), field, SECRET
        )
    else:
        click_linux(store, t + 1_000, -820, 340, "Chromium")
    store.event(t + 2_000, "text", text_content="abc", app_name="Chromium")
    if platform == "macos":
        click_macos(store, t + 4_000, 550, 110, "Chromium", ("AXButton", "Send"))
    elif platform == "windows":  # now the field has the focus
        focused = (role, LABEL, FIELD)
        click_windows(store, t + 4_000, 550, 110, "Chromium", focused, ("Button", "Send", SEND))
    else:
        click_linux(store, t + 4_000, -420, 340, "Chromium")


def _store(path: Path, platform: str, role: str) -> tuple[Path, int]:
    """Each day, three times: frames whose tree holds the filled-in field and a button,
    then the clicks and typing of ``_clicks``."""
    store = Store(path, NEWEST)
    send = "AXButton" if platform == "macos" else "Button"
    tree = [Node(role, SECRET, 1, FIELD), Node(send, "Send", 1, SEND)]
    first = 0
    for day in DAYS:
        for run in range(3):
            t = ms(f"{day}T09:00:00+00:00") + run * 1_800_000
            for k in range(5):  # a capture every 30 s, each with the page's tree
                fid = store.capture_event(
                    t + k * 30_000, "monitor_1", "Chromium", "Sign in", None, "click"
                )
                first = first or fid
                write_tree(store, fid, tree, SCREEN, clamp=platform != "windows")
            _clicks(store, t, platform, role)
    store.close()
    return store.path, first


def _files(root: Path) -> str:
    return "".join(p.read_text("utf-8") for p in sorted(root.rglob("*")) if p.is_file())


MAC_SEND = {"role": "AXButton", "name": "Send"}
PLATFORMS = [
    ("macos", "AXTextField", {"role": "AXTextField", "name": LABEL}, MAC_SEND),
    ("windows", "Edit", {"role": "Edit", "name": LABEL}, {"role": "Button", "name": "Send"}),
    ("linux", "Entry", None, None),  # no element is recorded for a click on Linux
]  # fmt: skip


@pytest.mark.parametrize(("platform", "role", "field", "send"), PLATFORMS)
def test_field_contents_never_shown(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    platform: str,
    role: str,
    field: dict[str, str] | None,
    send: dict[str, str] | None,
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("ACTFRAMES_CACHE", str(cache))
    db, first = _store(tmp_path / "db.sqlite", platform, role)
    base = ["--db", str(db), "--tz", "UTC"]
    window = ["--days", "2", "--until", DAYS[-1], "--min-occurrences", "2", "--min-specific", "1"]

    for extra in ([], ["--include-text"]):
        out = CliRunner().invoke(steps, [f"F{first}", *base, *extra])
        assert out.exit_code == 0, out.output
        got = list(map(json.loads, out.output.splitlines()))
        clicks = [s for s in got if s["op"] == "click"]
        # A field's name may be its contents (form_roles): its label only with the opt-in.
        shown = field if field is None or extra else {**field, "name": ""}
        assert [c.get("target") for c in clicks] == [shown, send]
        assert ("abc" in out.output) == bool(extra)  # typed text only with the opt-in
        assert SECRET not in out.output

    for fmt in ("json", "md"):
        found = CliRunner().invoke(routines, [*base, *window, "--format", fmt])
        assert found.exit_code == 0, found.output
        assert ("Send" in found.output) == (send is not None)  # mined from these clicks
        assert SECRET not in found.output
    kept = _files(cache)
    assert ("Send" in kept) == (send is not None)  # the days' steps were kept on disk
    assert SECRET not in kept

    found = CliRunner().invoke(routines, [*base, *window, "--include-text", "--format", "md"])
    assert found.exit_code == 0, found.output
    assert SECRET not in found.output
    assert SECRET not in _files(cache)
