"""When snapshots are written: focus, title, URL, click, typing pause, heartbeat, and never
more than five rows a second — with a fake clock."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from actframes.capture.policy import Decision, SnapshotPolicy, View

A = View(1, "Code", "main.py")
B = View(2, "Firefox", "Docs", "https://docs.python.org/")


def _write(p: SnapshotPolicy, now: int, view: View, seen: int | None = None) -> Decision | None:
    d = p.decide(now, view, seen)
    if d is not None:
        p.written(d, view, now)
    return d


def test_first_row_is_a_focus_row_at_the_time_it_was_seen() -> None:
    p = SnapshotPolicy()
    assert _write(p, 1_000, A, seen=900) == Decision("focus", 900)
    assert p.decide(1_100, A) is None


def test_focus_title_and_url_changes() -> None:
    p = SnapshotPolicy()
    _write(p, 0, A)
    assert _write(p, 5_000, B, seen=4_990) == Decision("focus", 4_990)
    assert _write(p, 6_000, View(2, "Firefox", "Other")) == Decision("title", 6_000)
    moved = View(2, "Firefox", "Other", "https://example.com/")
    assert _write(p, 7_000, moved) == Decision("url", 7_000)
    assert _write(p, 7_100, moved) is None


def test_same_app_other_window_is_a_focus_change() -> None:
    p = SnapshotPolicy()
    _write(p, 0, A)
    assert _write(p, 1_000, View(9, "Code", "main.py")) == Decision("focus", 1_000)


def test_click_and_typing_pause() -> None:
    p = SnapshotPolicy()
    _write(p, 0, A)
    p.on_click(2_000)
    assert _write(p, 2_010, A) == Decision("click", 2_010)
    for t in range(3_000, 4_000, 100):
        p.on_key(t)
    assert p.decide(4_800, A) is None  # 0.9 s since the last key
    assert p.next_due_ms(4_800, A) == 4_900
    assert _write(p, 4_900, A) == Decision("typing", 4_900)
    assert p.decide(5_900, A) is None  # one row per typing burst


def test_heartbeat_on_a_static_screen() -> None:
    p = SnapshotPolicy(heartbeat_ms=30_000)
    _write(p, 0, A)
    assert p.next_due_ms(10_000, A) == 30_000
    assert p.decide(29_999, A) is None
    assert _write(p, 30_000, A) == Decision("heartbeat", 30_000)


def test_rate_limit_defers_and_keeps_the_latest_state() -> None:
    p = SnapshotPolicy()
    for i in range(5):
        assert _write(p, 100 * i, View(i, f"app{i}", "")) is not None
    late = View(99, "late", "")
    assert p.decide(500, late, 500) is None  # the sixth row inside one second
    assert p.next_due_ms(500, late) == 1_000
    assert _write(p, 1_000, late, seen=500) == Decision("focus", 500)


def test_rows_never_go_back_in_time() -> None:
    p = SnapshotPolicy()
    _write(p, 5_000, A)
    assert _write(p, 6_000, B, seen=4_000) == Decision("focus", 5_000)


views = st.builds(View, st.integers(0, 3), st.sampled_from(["a", "b"]), st.sampled_from(["x", "y"]))


@given(
    st.lists(
        st.tuples(st.integers(0, 400), views, st.sampled_from(["none", "key", "click"])),
        max_size=200,
    )
)
def test_never_more_than_five_rows_a_second(events: list[tuple[int, View, str]]) -> None:
    p = SnapshotPolicy(heartbeat_ms=200)
    now = 0
    written: list[int] = []
    stamps: list[int] = []
    for gap, view, action in events:
        now += gap
        if action == "key":
            p.on_key(now)
        elif action == "click":
            p.on_click(now)
        d = _write(p, now, view, seen=now)
        if d is not None:
            written.append(now)
            stamps.append(d.ts_ms)
    assert all(written[i + 5] - written[i] >= 1_000 for i in range(len(written) - 5))
    assert stamps == sorted(stamps)
