"""``steps`` on a screenpipe database as screenpipe writes it: typing runs from text rows,
one step per click named by its look-up row, scroll gestures, copy / cut / paste."""

from __future__ import annotations

from pathlib import Path

from actframes.steps.store_queries import steps_of_frame

from ..builders import ms
from ..sources.screenpipe_versions import NEWEST, Store

T0 = ms("2026-03-10T09:00:00+00:00")


def _store(tmp_path: Path) -> tuple[Path, int]:
    store = Store(tmp_path / "db.sqlite", NEWEST)
    first = 0
    for k in range(11):  # captures every 30 s on two monitors, one focused app
        for j, dev in enumerate(("monitor_1", "monitor_2")):
            trigger = "app_switch" if k == 0 else "idle"
            fid = store.capture_event(T0 + k * 30_000 + j * 9, dev, "Code", "a.py", None, trigger)
            first = first or fid
    ev = store.event
    ev(T0 + 1_000, "text", text_content="hello wörld")
    ev(T0 + 1_500, "text", text_content=" again")
    ev(T0 + 5_000, "click", x=300, y=200, button=0, click_count=1, modifiers=0, app_name="Code")
    ev(
        T0 + 5_040,
        "click",
        x=300,
        y=200,
        button=0,
        click_count=0,
        modifiers=0,
        app_name="Code",
        element_role="AXButton",
        element_name="Run",
    )
    for k in range(5):
        ev(T0 + 8_000 + k * 50, "scroll", x=1, y=1, delta_y=-3, app_name="Code")
    for k in range(3):
        ev(T0 + 20_000 + k * 50, "scroll", x=1, y=1, delta_y=3, app_name="Code")
    ev(T0 + 25_000, "clipboard", modifiers=ord("c"))
    ev(T0 + 26_000, "clipboard", modifiers=ord("x"))
    ev(T0 + 27_000, "clipboard", modifiers=ord("v"), app_name="Code", text_content="secret")
    ev(T0 + 28_000, "move", x=5, y=5, app_name="Code")
    store.close()
    return store.path, first


def test_steps_follow_what_the_user_did(tmp_path: Path) -> None:
    path, first = _store(tmp_path)
    _, steps = steps_of_frame(path, None, "UTC", f"F{first}")
    ops = [s["op"] for s in steps if s["op"] != "focus"]
    assert ops == ["type", "click", "scroll", "scroll", "copy", "cut", "paste"]
    typed = next(s for s in steps if s["op"] == "type")
    assert typed["keys"] == len("hello wörld") + len(" again")
    assert "text" not in typed
    click = next(s for s in steps if s["op"] == "click")
    assert click["target"] == {"role": "AXButton", "name": "Run"}
    assert [s["ticks"] for s in steps if s["op"] == "scroll"] == [5, 3]
    assert all(s["app"] == "Code" for s in steps)
    assert not any("text" in s for s in steps)


def test_typed_text_only_when_opted_in(tmp_path: Path) -> None:
    path, first = _store(tmp_path)
    _, steps = steps_of_frame(path, None, "UTC", f"F{first}", include_text=True)
    typed = next(s for s in steps if s["op"] == "type")
    assert typed["text"] == "hello wörld again"
    assert next(s for s in steps if s["op"] == "paste")["text"] == "secret"
