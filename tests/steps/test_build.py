from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.pipeline import compile_capture
from actframes.compile.ranges import expand
from actframes.compile.reattribute import reattribute_capture
from actframes.model import Action, Capture, InputEvent, Snapshot
from actframes.steps.build import frame_steps
from actframes.window import day_window

W = day_window("2026-03-10", "UTC")
T0 = W.start_ms + 3_600_000
APPS = ["Editor", "Browser", "Term"]


def test_navigate_focus_and_type_merge() -> None:
    snaps = [
        Snapshot(1, T0, "Browser", "A", "https://x.org/a"),
        Snapshot(2, T0 + 10_000, "Browser", "B", "https://x.org/b"),
        Snapshot(3, T0 + 20_000, "Browser", "B2", "https://x.org/b"),
    ]
    events = [InputEvent(i, T0 + 1000 + i, "key", "Browser") for i in range(3)]
    events.append(InputEvent(9, T0 + 12_000, "click", "Browser"))
    doc = compile_capture(Capture("t", snapshots=snaps, events=events, has_input=True), W)
    (frame,) = doc["frames"]
    acts = [Action(e.event_id, e.ts_ms, e.kind, e.app) for e in events]
    steps = frame_steps(frame, acts, snaps, {})
    assert [s["op"] for s in steps] == ["focus", "type", "navigate", "click", "focus"]
    assert steps[1]["keys"] == 3 and steps[1]["events"] == [0, 1, 2]
    assert "text" not in steps[1]
    assert steps[2]["url"] == "https://x.org/b"
    assert steps[4]["target"] == {"role": "window", "name": "B2"}


def test_text_only_when_opted_in() -> None:
    snaps = [Snapshot(1, T0, "Editor", "a")]
    acts = [Action(1, T0 + 5, "text", "Editor", text="secret")]
    frame = {"evidence": {"rows": "1", "events": "1"}, "interruptions": []}
    assert "text" not in frame_steps(frame, acts, snaps, {})[1]
    assert frame_steps(frame, acts, snaps, {}, include_text=True)[1]["text"] == "secret"


snap_st = st.lists(
    st.tuples(st.integers(0, 600_000), st.sampled_from(APPS), st.sampled_from(["", "M2"])),
    min_size=1,
    max_size=25,
)
ev_st = st.lists(
    st.tuples(
        st.integers(-10_000, 700_000),
        st.sampled_from([*APPS, None]),
        st.sampled_from(["key", "click", "copy"]),
        st.sampled_from([None, "", "M2"]),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(snap_st, ev_st)
def test_steps_ordered_and_every_event_once(
    snaps_in: list[tuple[int, str, str]], evs_in: list[tuple[int, str | None, str, str | None]]
) -> None:
    snaps = [Snapshot(i + 1, T0 + t, a, a + "-t", None, d) for i, (t, a, d) in enumerate(snaps_in)]
    events = [InputEvent(i + 1, T0 + t, k, a, d) for i, (t, a, k, d) in enumerate(evs_in)]
    cap = Capture("t", snapshots=snaps, events=events, has_input=True)
    fixed, _ = reattribute_capture(cap)
    doc = compile_capture(fixed, W)
    acts = [Action(e.event_id, e.ts_ms, e.kind, e.app, device=e.device) for e in fixed.events]
    seen: list[int] = []
    for frame in doc["frames"]:
        steps = frame_steps(frame, acts, fixed.snapshots, {})
        keys = [(s["t_ms"], s["id"]) for s in steps]
        assert keys == sorted(keys)
        for s in steps:
            seen.extend(s["events"])
    seen.extend(expand(doc["coverage"]["unattributed_input"]["evidence"]))
    assert sorted(seen) == sorted(set(seen))
    in_window = sorted(e.event_id for e in fixed.events if W.start_ms <= e.ts_ms < W.end_ms)
    assert sorted(seen) == in_window
