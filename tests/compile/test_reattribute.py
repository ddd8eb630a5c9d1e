from actframes.compile.reattribute import STALE_MS, reattribute, reattribute_capture
from actframes.model import Action, Capture, InputEvent, Snapshot

SNAPS = [
    Snapshot(1, 10_000, "Editor", "a.txt"),
    Snapshot(2, 20_000, "Browser", "page"),
    Snapshot(3, 30_000, "Editor", "a.txt"),
]


def test_agreeing_event_stays() -> None:
    evs = [InputEvent(1, 15_000, "key", "Editor")]
    out, rep = reattribute(SNAPS, evs)
    assert out == evs and rep.moved == {} and rep.unattributed == []


def test_stale_event_across_app_switch_moves_to_nearest_same_app() -> None:
    # Editor key 1.5 s into Browser: the nearest Editor snapshot is 8.5 s away -> stays.
    out, rep = reattribute(SNAPS, [InputEvent(5, 21_500, "key", "Editor")])
    assert rep.unattributed == [5] and out[0].ts_ms == 21_500
    # Browser click stamped 1.5 s before the switch to Browser: moved to snapshot 2.
    out, rep = reattribute(SNAPS, [InputEvent(6, 18_500, "click", "Browser")])
    assert rep.moved == {6: 2} and out[0].ts_ms == 20_000
    assert rep.summary() == {"events": 1, "keys": 0, "clicks": 1, "left_unattributed": 0}


def test_boundary_exactly_two_seconds() -> None:
    _, rep = reattribute(SNAPS, [InputEvent(7, 20_000 - STALE_MS, "key", "Browser")])
    assert rep.moved == {7: 2}
    _, rep = reattribute(SNAPS, [InputEvent(8, 20_000 - STALE_MS - 1, "key", "Browser")])
    assert rep.moved == {} and rep.unattributed == [8]


def test_same_device_only() -> None:
    snaps = [
        Snapshot(1, 10_000, "Editor", device="A"),
        Snapshot(2, 10_000, "Browser", device="B"),
        Snapshot(3, 11_000, "Browser", device="A"),
    ]
    # Browser key on device A at 10.5 s: A shows Editor; A's Browser snapshot 3 is 0.5 s away.
    _, rep = reattribute(snaps, [InputEvent(1, 10_500, "key", "Browser", "A")])
    assert rep.moved == {1: 3}
    # on device B it agrees already
    _, rep = reattribute(snaps, [InputEvent(2, 10_500, "key", "Browser", "B")])
    assert rep.moved == {} and rep.unattributed == []


def test_window_title_disagreement_for_actions() -> None:
    snaps = [Snapshot(1, 10_000, "Editor", "a.txt"), Snapshot(2, 11_000, "Editor", "b.txt")]
    a = Action(1, 10_900, "key", "Editor", "b.txt")
    out, rep = reattribute(snaps, [a])
    assert rep.moved == {1: 2} and out[0].ts_ms == 11_000


def test_capture_keeps_every_event() -> None:
    cap = Capture(
        "t",
        snapshots=SNAPS,
        events=[InputEvent(i, 9_000 + i * 1000, "key", "Editor") for i in range(25)],
    )
    fixed, rep = reattribute_capture(cap)
    assert sorted(e.event_id for e in fixed.events) == list(range(25))
    assert len(rep.moved) + len(rep.unattributed) <= 25
