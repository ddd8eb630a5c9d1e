"""``streams`` returns each device's rows in (time, row id) order whatever order they
came in; input already in order (as readers deliver it) is returned unchanged, and ties
(equal time and id) keep the order a stable sort gives them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from actframes.compile.place import streams
from actframes.model import Snapshot

from .caps import T0

snapshots = st.lists(
    st.builds(
        Snapshot,
        row_id=st.integers(min_value=-3, max_value=6),
        ts_ms=st.integers(min_value=T0, max_value=T0 + 5),  # few times: many ties
        app=st.sampled_from(["Code", "Slack"]),
        title=st.sampled_from(["a", "b"]),
        device=st.sampled_from(["", "laptop"]),
    ),
    max_size=30,
)


def _expected(snaps: list[Snapshot]) -> dict[str, list[Snapshot]]:
    out: dict[str, list[Snapshot]] = {}
    for s in snaps:
        out.setdefault(s.device, []).append(s)
    return {d: sorted(rows, key=lambda s: (s.ts_ms, s.row_id)) for d, rows in sorted(out.items())}


@given(snapshots)
def test_streams_sort_by_time_then_row_id(snaps: list[Snapshot]) -> None:
    got = streams(snaps)
    assert got == _expected(snaps)
    assert list(got) == sorted(got)
    # The very objects, in a stable sort's order: equal keys with other titles keep theirs.
    for device, rows in got.items():
        assert [id(s) for s in rows] == [id(s) for s in _expected(snaps)[device]]


@given(snapshots)
def test_sorted_input_is_kept_as_it_is(snaps: list[Snapshot]) -> None:
    one = sorted((s._replace(device="") for s in snaps), key=lambda s: (s.ts_ms, s.row_id))
    got = streams(one)
    assert [id(s) for s in got.get("", [])] == [id(s) for s in one]
