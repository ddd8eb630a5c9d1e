"""The shorter path for point rows wholly inside the window places every row as the
general path does, whatever the window's edges, the rules and ties in time."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.constants import Rules
from actframes.compile.place import AwayClock, place_stream, streams
from actframes.model import Snapshot

T0 = 1_773_129_600_000


@st.composite
def point_streams(draw: st.DrawFn) -> list[Snapshot]:
    snaps: list[Snapshot] = []
    t = T0
    for rid in range(1, draw(st.integers(0, 40)) + 1):
        t += draw(st.sampled_from([0, 0, 500, 3_000, 15_000, 95_000, 301_000, 1_200_000]))
        app = draw(st.sampled_from(["Code", "Google Chrome"]))
        url = draw(st.sampled_from([None, "https://github.com/psf/requests/pull/1"]))
        snaps.append(Snapshot(rid, t, app, "t", url if app == "Google Chrome" else None))
    return snaps


@settings(max_examples=400, deadline=None)
@given(
    point_streams(),
    st.integers(-400_000, 3_000_000),
    st.integers(0, 4_000_000),
    st.sampled_from([0, 1_000, 90_000, 400_000]),
    st.sampled_from([0, 20_000, 300_000]),
)
def test_rows_inside_the_window_are_placed_as_the_general_path_places_them(
    snaps: list[Snapshot], start: int, length: int, cap_ms: int, gap_ms: int
) -> None:
    rules = Rules(dwell_cap_ms=cap_ms, session_gap_ms=gap_ms)
    win_start = T0 + start
    win_end = win_start + length
    # The window's edges on a row's own instant, as often as not.
    if snaps and start % 2:
        win_start = snaps[len(snaps) // 3].ts_ms
        win_end = max(win_end, win_start)
        if length % 3 == 0:
            win_end = snaps[-1 - len(snaps) // 3].ts_ms
    for stream in streams(snaps).values():
        general = place_stream(stream, win_start, win_end, AwayClock([]), rules)
        short = place_stream(stream, win_start, win_end, AwayClock([]), rules, points=True)
        assert short == general
