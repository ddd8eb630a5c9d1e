"""Input: every event in the window counted exactly once, in the piece holding its time."""

from __future__ import annotations

from .caps import at, cap, compile_, ev, seq, snap


def test_event_goes_to_the_frame_holding_its_time() -> None:
    events = [ev(1, 5, "key", "Code"), ev(2, 65, "click", "Slack"), ev(3, 70, "paste", "Slack")]
    doc = compile_(cap(seq(("Code", 60), ("Slack", 60), ("Slack", 0)), events))
    code, slack = doc["frames"]
    assert code["input"] == {"keys": 1, "clicks": 0, "scrolls": 0, "copies": 0, "pastes": 0}
    assert slack["input"]["clicks"] == 1 and slack["input"]["pastes"] == 1
    assert doc["coverage"]["unattributed_input"]["events"] == 0
    assert doc["ledger"][0]["keys"] + doc["ledger"][1]["keys"] == 1


def test_event_whose_app_disagrees_is_unattributed() -> None:
    events = [ev(1, 61, "key", "Code")]  # a stale event: Code's key lands in Slack's time
    doc = compile_(cap(seq(("Code", 60), ("Slack", 60), ("Slack", 0)), events))
    assert all(f["input"]["keys"] == 0 for f in doc["frames"])
    un = doc["coverage"]["unattributed_input"]
    assert un["events"] == 1 and un["keys"] == 1 and un["evidence"] == "1"


def test_event_outside_every_frame_is_unattributed() -> None:
    # Code's row earns 90 s of a 200 s gap before Slack: an event at 150 s lies in no frame.
    events = [ev(1, 150, "key", None), ev(2, 30, "key", None)]
    doc = compile_(cap(seq(("Code", 200), ("Slack", 0)), events))
    assert doc["frames"][0]["input"]["keys"] == 1
    assert doc["coverage"]["unattributed_input"]["evidence"] == "1"


def test_time_inside_a_frame_between_its_rows_belongs_to_it() -> None:
    # Within one frame a row holds everything up to the next row, even past the dwell cap.
    doc = compile_(cap(seq(("Code", 200), ("Code", 0)), [ev(1, 150, "key", "Code")]))
    assert doc["frames"][0]["input"]["keys"] == 1


def test_event_without_app_is_attributed_by_time() -> None:
    doc = compile_(cap(seq(("Code", 60), ("Code", 0)), [ev(1, 10, "click")]))
    assert doc["frames"][0]["input"]["clicks"] == 1


def test_two_monitors_app_breaks_the_tie() -> None:
    rows = [
        snap(1, 0, "Code", device="left"),
        snap(2, 60, "Code", device="left"),
        snap(3, 0, "Slack", device="right"),
        snap(4, 60, "Slack", device="right"),
    ]
    events = [ev(1, 10, "key", "Slack"), ev(2, 11, "key", "Code"), ev(3, 12, "key", None)]
    doc = compile_(cap(rows, events))
    by_app = {f["app"]: f for f in doc["frames"]}
    assert by_app["Slack"]["evidence"]["events"] == "1"
    # No app: the first device in name order holds it.
    assert by_app["Code"]["evidence"]["events"] == "2-3"
    assert {f["device"] for f in doc["frames"]} == {"left", "right"}


def test_event_device_limits_the_search() -> None:
    rows = [
        snap(1, 0, "Code", device="left"),
        snap(2, 60, "Code", device="left"),
        snap(3, 0, "Code", device="right"),
        snap(4, 60, "Code", device="right"),
    ]
    doc = compile_(cap(rows, [ev(1, 10, "key", "Code", device="right")]))
    right = next(f for f in doc["frames"] if f["device"] == "right")
    assert right["input"]["keys"] == 1


def test_events_outside_the_window_are_not_counted() -> None:
    from actframes.window import Window

    win = Window(at(0), at(100), "UTC")
    doc = compile_(cap(seq(("Code", 60), ("Code", 60), ("Code", 0)), [ev(1, 150, "key")]), win)
    assert doc["coverage"]["input_events"] == 0


def test_stale_event_is_moved_to_its_app_within_two_seconds_and_disclosed() -> None:
    # Slack until 60 s, then Code. A click stamped "Slack" lands 0.5 s into Code's time,
    # 1.5 s after the last Slack row, which takes it. One stamped "Slack" 30 s in stays out.
    rows = seq(("Slack", 59), ("Slack", 1), ("Code", 60), ("Code", 0))
    events = [ev(1, 60.5, "click", "Slack"), ev(2, 90, "click", "Slack")]
    doc = compile_(cap(rows, events))
    slack, code = doc["frames"]
    assert slack["input"]["clicks"] == 1 and slack["evidence"]["events"] == "1"
    assert code["input"]["clicks"] == 0
    assert doc["coverage"]["unattributed_input"]["evidence"] == "2"
    assert doc["coverage"]["reattributed"] == {
        "events": 1,
        "keys": 0,
        "clicks": 1,
        "left_unattributed": 1,
    }
