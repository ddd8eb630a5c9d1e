"""A click on a text field of a screenpipe store, whose ``elements.text`` is the field's
contents (screenpipe's tree walkers store a field's value there): the contents never
reach ``actframes steps`` / ``actframes routines`` output nor the day-steps cache on
disk, unless the operator opts in with ``--include-text``; the click still names the
field's role."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from actframes.cli.routines import routines
from actframes.cli.steps import steps

from ..builders import ms
from ..sources.screenpipe_versions import NEWEST, Store

DAYS = ("2026-03-09", "2026-03-10")
SECRET = "hunter2 card 4111"


def _store(path: Path, role: str) -> tuple[Path, int]:
    """Each day, three times: a frame whose tree holds a filled-in field and a button, a
    click on the field (resolved by hit-test, no look-up row), a typing burst and a
    click on the button named by its look-up row."""
    store = Store(path, NEWEST)
    first = 0
    for day in DAYS:
        for run in range(3):
            t = ms(f"{day}T09:00:00+00:00") + run * 1_800_000
            for k in range(5):  # a capture every 30 s, each with the page's tree
                fid = store.capture_event(
                    t + k * 30_000, "monitor_1", "Chromium", "Sign in", None, "click"
                )
                first = first or fid
                _tree(store, fid, role)
            ev = store.event
            ev(t + 1_000, "click", x=150, y=110, button=0, click_count=1, app_name="Chromium")
            ev(t + 2_000, "text", text_content="abc", app_name="Chromium")
            ev(t + 4_000, "click", x=550, y=110, button=0, click_count=1, app_name="Chromium")
            ev(
                t + 4_040,
                "click",
                x=550,
                y=110,
                button=0,
                click_count=0,
                app_name="Chromium",
                element_role="AXButton",
                element_name="Send",
            )
    store.close()
    return store.path, first


def _tree(store: Store, fid: int, role: str) -> None:
    # Pixel bounds: the reader's hit-test is exact (the store has no screen size).
    for role_, text, x in ((role, SECRET, 100), ("AXButton", "Send", 500)):
        store._insert(
            "elements",
            {
                "frame_id": fid,
                "source": "accessibility",
                "role": role_,
                "text": text,
                "depth": 1,
                "left_bound": x,
                "top_bound": 100,
                "width_bound": 300,
                "height_bound": 30,
                "sort_order": 1,
            },
        )


def _files(root: Path) -> str:
    return "".join(p.read_text("utf-8") for p in sorted(root.rglob("*")) if p.is_file())


@pytest.mark.parametrize("role", ["AXTextField", "Edit", "Entry"])
def test_field_contents_only_with_opt_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("ACTFRAMES_CACHE", str(cache))
    db, first = _store(tmp_path / "db.sqlite", role)
    base = ["--db", str(db), "--tz", "UTC"]
    window = ["--days", "2", "--until", DAYS[-1], "--min-occurrences", "2", "--min-specific", "1"]

    out = CliRunner().invoke(steps, [f"F{first}", *base])
    assert out.exit_code == 0, out.output
    clicks = [s for s in map(json.loads, out.output.splitlines()) if s["op"] == "click"]
    # The field is still the click's target, by its role alone.
    assert [c.get("target") for c in clicks] == [
        {"role": role, "name": ""},
        {"role": "AXButton", "name": "Send"},
    ]
    assert SECRET not in out.output

    for fmt in ("json", "md"):
        found = CliRunner().invoke(routines, [*base, *window, "--format", fmt])
        assert found.exit_code == 0, found.output
        assert "Send" in found.output  # a routine was mined from these clicks
        assert SECRET not in found.output
    kept = _files(cache)
    assert "Send" in kept  # the days' steps were kept on disk
    assert SECRET not in kept

    out = CliRunner().invoke(steps, [f"F{first}", *base, "--include-text"])
    assert out.exit_code == 0, out.output
    clicks = [s for s in map(json.loads, out.output.splitlines()) if s["op"] == "click"]
    assert clicks[0]["target"] == {"role": role, "name": SECRET}
    found = CliRunner().invoke(routines, [*base, *window, "--include-text", "--format", "md"])
    assert found.exit_code == 0, found.output
    assert SECRET in found.output
    assert SECRET not in _files(cache)  # steps read with the opt-in are never kept on disk
