"""screenpipe's macOS clipboard poller ('p', 112, since 2026-05-20): a 'p' row within
POLL_ECHO_MS of a 'c'/'x' row of the same app (or either without app) is the same copy;
a lone 'p' is a copy (SPEC.md §1.2, Input)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.model import COPY, KEY, PASTE
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.sources.screenpipe.input import POLL_ECHO_MS, echoes
from actframes.window import day_window

from ..builders import ms
from .screenpipe_versions import NEWEST, Store

DAY = "2026-03-10"
T0 = ms("2026-03-10T09:00:00+00:00")
P, C, X, V = ord("p"), ord("c"), ord("x"), ord("v")


def _counts(path: Path) -> dict[str, int]:
    src = ScreenpipeSource(path)
    try:
        win = day_window(DAY, "UTC")
        cap = src.read(win.start_ms, win.end_ms)
    finally:
        src.close()
    counts: dict[str, int] = defaultdict(int)
    for e in cap.all_events():
        counts[e.kind] += e.count
    return dict(counts)


def _store(path: Path, rows: list[tuple[int, int, str | None]], odd: bool = False) -> Path:
    store = Store(path, NEWEST)
    store.capture_event(T0, "monitor_1", "Code", "a.py", None, "app_switch")
    for dt, code, app in rows:
        store.event(T0 + dt, "clipboard", modifiers=code, app_name=app)
    if odd:  # a row whose time SQLite cannot parse: the row-by-row read
        store.event(T0 + 9_000_000, "key", key_code=36, app_name="Code")
        store.conn.execute(
            "UPDATE ui_events SET timestamp = '2026-03-10 10:00:00 +0000' WHERE key_code = 36"
        )
        store.conn.commit()
    store.close()
    return path


ROWS: list[tuple[int, int, str | None]] = [
    (1_000, C, "Code"),  # keyboard copy, its poller row after it
    (1_600, P, "Code"),
    (10_000, P, "Safari"),  # poller row before the keyboard cut
    (10_040, X, "Safari"),
    (20_000, P, "Notes"),  # a context-menu copy: 'p' alone
    (30_000, V, "Notes"),  # paste: 'v' alone
    (40_000, C, None),  # a March-style row without app, then its poller row
    (40_700, P, "Code"),
    (50_000, C, "Code"),  # another app's change 800 ms later is another copy
    (50_800, P, "Mail"),
]


def test_poller_rows_echo_keyboard_copies(tmp_path: Path) -> None:
    want = {COPY: 6, PASTE: 1}  # c, x, lone p, c(no app), c, Mail's p
    assert _counts(_store(tmp_path / "bulk.sqlite", ROWS)) == want


def test_row_by_row_read_pairs_the_same(tmp_path: Path) -> None:
    counts = _counts(_store(tmp_path / "odd.sqlite", ROWS, odd=True))
    assert counts[COPY] == 6 and counts[PASTE] == 1


def test_existing_codes_unchanged(tmp_path: Path) -> None:
    rows: list[tuple[int, int, str | None]] = [(0, C, "Code"), (300, X, "Code"), (600, V, "Code")]
    assert _counts(_store(tmp_path / "a.sqlite", rows)) == {COPY: 2, PASTE: 1}


rows_st = st.lists(st.tuples(st.integers(0, 5_000), st.sampled_from(["A", "B", None])), max_size=12)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(rows_st, rows_st, st.randoms())
def test_pairing_ignores_row_order(
    polled: list[tuple[int, Any]], keyboard: list[tuple[int, Any]], rnd: Any
) -> None:
    drop = echoes(polled, keyboard)
    order = list(range(len(polled)))
    rnd.shuffle(order)
    kb = list(keyboard)
    rnd.shuffle(kb)
    shuffled = echoes([polled[i] for i in order], kb)
    # The same rows are dropped, whatever order they come in (equal rows are alike).
    key = lambda r: (r[0], r[1] or "")  # noqa: E731
    assert sorted((polled[order[i]] for i in shuffled), key=key) == sorted(
        (polled[i] for i in drop), key=key
    )
    # A dropped row has a keyboard row near it, and each keyboard row repeats one row.
    assert len(drop) <= len(keyboard)
    for i in drop:
        t, a = polled[i]
        assert any(
            abs(t - u) <= POLL_ECHO_MS and (a is None or b is None or a == b) for u, b in keyboard
        )


def test_each_keyboard_copy_repeats_one_poller_row() -> None:
    # A keyboard copy and its poller row, then a menu copy 400 ms later (a lone 'p'): the
    # menu copy still counts.
    assert echoes([(1_000, "A"), (1_400, "A")], [(900, "A")]) == {0}
    assert echoes([(1_000, "A"), (5_000, "A")], [(900, "A"), (4_500, "A")]) == {0, 1}
    assert echoes([(1_000, "B")], [(900, "A")]) == set()


def test_odd_row_takes_the_row_by_row_read(tmp_path: Path, monkeypatch: Any) -> None:
    from actframes.sources.screenpipe import input as screenpipe_input

    seen: list[int] = []
    orig = screenpipe_input._read_events_rowwise
    monkeypatch.setattr(
        screenpipe_input, "_read_events_rowwise", lambda *a: (seen.append(1), orig(*a))
    )
    _counts(_store(tmp_path / "odd.sqlite", ROWS, odd=True))
    assert seen


def test_key_rows_without_characters_are_keys(tmp_path: Path) -> None:
    """Summer-2026 macOS ``key`` rows may store no characters (``text_content`` and
    ``text_length`` NULL): each is still one key press."""
    store = Store(tmp_path / "keys.sqlite", NEWEST)
    store.capture_event(T0, "monitor_1", "Code", "a.py", None, "app_switch")
    for i in range(5):
        store.event(T0 + 100 * i, "key", key_code=36 + i, app_name="Code")
    store.event(T0 + 900, "text", app_name="Code")
    store.close()
    assert _counts(store.path) == {KEY: 6}


def test_steps_show_each_copy_once(tmp_path: Path) -> None:
    from actframes.sources.screenpipe import actions as screenpipe_actions

    path = _store(tmp_path / "steps.sqlite", ROWS)
    win = day_window(DAY, "UTC")
    actions, _, _ = screenpipe_actions.read(path, win.start_ms, win.end_ms)
    kinds = [a.kind for a in actions if a.kind in ("copy", "cut", "paste")]
    assert sorted(kinds) == sorted(["copy", "cut", "copy", "paste", "copy", "copy", "copy"])
