"""The merge pass of re-attribution agrees with the rule as SPEC.md states it, applied
event by event with a plain search (written here as the specification, not for speed)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.reattribute import STALE_MS, reattribute
from actframes.model import Action, InputEvent, Snapshot

APPS = ["Code", "code", "Slack", "Chrome"]
TITLES = ["a", "b", None]
DEVICES = ["", "right", "left"]


def rule(snaps: list[Snapshot], events: list[InputEvent] | list[Action]) -> tuple[dict, list]:
    """Moved (event id -> row id) and left unattributed, event by event."""
    moved: dict[int, int] = {}
    left: list[int] = []
    for ev in events:
        if not ev.app:
            continue
        if ev.device is not None and not any(s.device == ev.device for s in snaps):
            continue
        stream = sorted(
            (s for s in snaps if ev.device is None or s.device == ev.device),
            key=lambda s: (s.ts_ms, s.row_id),
        )
        before = [s for s in stream if s.ts_ms <= ev.ts_ms]
        cur = before[-1] if before else None
        want = ev.app.casefold()
        title = ev.title if isinstance(ev, Action) else None
        same_app = cur is not None and cur.app.casefold() == want
        if same_app and (title is None or (cur is not None and title == cur.title)):
            continue
        near = [
            s
            for s in stream
            if abs(s.ts_ms - ev.ts_ms) <= STALE_MS
            and s.app.casefold() == want
            and (title is None or s.title == title)
        ]
        target = min(near, key=lambda s: (abs(s.ts_ms - ev.ts_ms), s.ts_ms, s.row_id), default=None)
        if target is None or (cur is not None and target.row_id == cur.row_id):
            if not same_app:
                left.append(ev.event_id)
            continue
        moved[ev.event_id] = target.row_id
    return moved, sorted(left)


times = st.integers(min_value=0, max_value=12_000).map(lambda t: t - t % 250)

snapshots = st.lists(
    st.tuples(times, st.sampled_from(APPS), st.sampled_from(TITLES), st.sampled_from(DEVICES)),
    max_size=30,
).map(lambda rows: [Snapshot(i + 1, t, a, ti, None, d) for i, (t, a, ti, d) in enumerate(rows)])
event_rows = st.lists(
    st.tuples(
        times,
        st.sampled_from([None, *APPS]),
        st.sampled_from([None, *DEVICES, "nowhere"]),
        st.sampled_from(TITLES),
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(snapshots, event_rows, st.booleans())
def test_merge_pass_equals_the_rule_event_by_event(
    snaps: list[Snapshot], rows: list[tuple[int, str | None, str | None, str | None]], actions: bool
) -> None:
    events: list[InputEvent] | list[Action]
    if actions:
        events = [
            Action(100 + i, t, "key", a, ti, device=d) for i, (t, a, d, ti) in enumerate(rows)
        ]
    else:
        events = [InputEvent(100 + i, t, "key", a, d) for i, (t, a, d, _) in enumerate(rows)]
    out, rep = reattribute(snaps, events)
    moved, left = rule(snaps, events)
    assert rep.moved == moved
    assert sorted(rep.unattributed) == left
    # Order of arrival kept; a moved event takes its snapshot's time, nothing else changes.
    by_id = {s.row_id: s for s in snaps}
    for before, after in zip(events, out, strict=True):
        assert after.event_id == before.event_id
        if before.event_id in moved:
            assert after == before._replace(ts_ms=by_id[moved[before.event_id]].ts_ms)
        else:
            assert after == before


# The column pass looks at the rows near a few events, at the whole stream for more:
# both ways (every slice near, every slice whole) against the event pass.
@pytest.mark.parametrize("near_rows", [0, 1_000_000])
@settings(max_examples=300, deadline=None)
@given(snapshots, event_rows)
def test_column_pass_equals_the_event_pass(
    near_rows: int,
    snaps: list[Snapshot],
    rows: list[tuple[int, str | None, str | None, str | None]],
) -> None:
    from actframes.compile import reattribute as module
    from actframes.compile.place import streams
    from actframes.compile.reattribute import reattribute_columns
    from actframes.model import group_events

    events = [InputEvent(100 + i, t, "key", a, d, 1 + i % 2) for i, (t, a, d, _) in enumerate(rows)]
    by_device = streams(snaps)
    out, rep = reattribute(snaps, events, by_device)
    cols = group_events(list(events))
    was, module._NEAR_ROWS = module._NEAR_ROWS, near_rows
    try:
        moved, crep = reattribute_columns(snaps, by_device, [(c, 0, len(c.ts)) for c in cols])
    finally:
        module._NEAR_ROWS = was
    assert crep.moved == rep.moved
    assert sorted(crep.unattributed) == sorted(rep.unattributed)
    assert crep.summary() == rep.summary()
    assert sorted(moved) == sorted(e for e in out if e.event_id in rep.moved)


@settings(max_examples=200, deadline=None)
@given(snapshots, event_rows)
def test_moved_events_of_a_capture_equal_reattribute_capture(
    snaps: list[Snapshot], rows: list[tuple[int, str | None, str | None, str | None]]
) -> None:
    from actframes.compile.reattribute import moved_events, reattribute_capture
    from actframes.model import Capture

    events = [InputEvent(100 + i, t, "click", a, d) for i, (t, a, d, _) in enumerate(rows)]
    cap = Capture("t", snapshots=snaps, events=events, has_input=True)
    assert moved_events(cap) == reattribute_capture(cap)[1].moved
