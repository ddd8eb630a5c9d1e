"""screenpipe databases of every schema version and set-up, written as screenpipe writes
them (screenpipe_versions.py): time per app agrees with an independent computation from
the fixture's own truth, never above the wall clock; input counts agree with the input
the fixture made; the store is never changed, even while a writer holds it."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.api import compile_path
from actframes.model import CLICK, COPY, KEY, PASTE
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.window import day_window

from ..builders import ms
from .screenpipe_versions import (
    APPS,
    FEB_2025,
    FEB_2026,
    LATE_2024,
    MID_2024,
    NEWEST,
    Day,
    Store,
    make_day,
    stamp,
    upper_first_app,
    write_day,
)

DAY = "2026-03-10"
T0 = ms("2026-03-10T09:00:00+00:00")
CAP_MS, GAP_MS = 90_000, 300_000  # SPEC.md: dwell cap, session gap


def expected_active_s(truth: list[tuple[int, str]]) -> dict[str, float]:
    """The documented rule, computed here from the fixture's truth: each focused capture
    holds the time to the next one (on any monitor), at most 90 s, none across a gap of
    more than 5 minutes."""
    obs = sorted(truth)
    out: dict[str, float] = defaultdict(float)
    for (t, app), (nxt, _) in pairwise(obs):
        gap = nxt - t
        out[app] += 0 if gap > GAP_MS else min(gap, CAP_MS) / 1000
    return dict(out)


def ledger_by_app(doc: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for e in doc["ledger"]:
        out[e["app"]] += e["active_s"]
    return {a: s for a, s in out.items() if s}


def doc_input(doc: dict[str, Any]) -> dict[str, int]:
    """Every input count the document holds: frames, their interruptions, unattributed."""
    tot: dict[str, int] = defaultdict(int)
    parts = [f["input"] for f in doc["frames"]]
    parts += [i["input"] for f in doc["frames"] for i in f.get("interruptions", [])]
    parts.append(doc["coverage"]["unattributed_input"])
    for p in parts:
        for k in ("keys", "clicks", "scrolls", "copies", "pastes"):
            tot[k] += p.get(k, 0)
    return dict(tot)


def made_input(day: Day) -> dict[str, int]:
    """What the fixture's user did: typed characters, shortcut keys (each clipboard
    shortcut is a key too), real clicks, copies (and cuts), pastes."""
    return {
        "keys": sum(len(t.text) for t in day.typed) + len(day.shortcuts) + len(day.clipboard),
        "clicks": len(day.clicks),
        "copies": sum(1 for c in day.clipboard if c[1] in "cx"),
        "pastes": sum(1 for c in day.clipboard if c[1] == "v"),
    }


def assert_time(doc: dict[str, Any], truth: list[tuple[int, str]]) -> None:
    want = expected_active_s(truth)
    got = ledger_by_app(doc)
    assert set(got) == {a for a, s in want.items() if s >= 1}
    for app, s in want.items():
        assert abs(got.get(app, 0) - s) <= max(5, s / 100), (app, got.get(app), s)
    wall_s = (max(truth)[0] - min(truth)[0]) / 1000
    assert doc["coverage"]["active_s"] == sum(e["active_s"] for e in doc["ledger"])
    assert doc["coverage"]["active_s"] <= wall_s


def assert_input(doc: dict[str, Any], day: Day) -> None:
    got, want = doc_input(doc), made_input(day)
    for k, n in want.items():
        assert abs(got[k] - n) <= n / 10, (k, got[k], n)
    # Typing rows carry no app: attributed by time, they land on the app typed in.
    typed: dict[str, int] = defaultdict(int)
    for t in day.typed:
        typed[day.app_at(t.ts_ms) or ""] += len(t.text)
    for _, app in day.shortcuts:
        typed[app] += 1
    for _, _, app in day.clipboard:
        typed[app] += 1
    keys: dict[str, int] = defaultdict(int)
    for e in doc["ledger"]:
        keys[e["app"]] += e["keys"]
    for app, n in typed.items():
        assert abs(keys[app] - n) <= max(2, n / 10), (app, keys[app], n)


def sha(*paths: Path) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes() if p.exists() else b"-")
    return h.hexdigest()


# (name, version, set-up, capture interval)
SETUPS = [
    ("mid_2024", MID_2024, "single", 2000),
    ("late_2024_all_windows", LATE_2024, "default", 2000),
    ("feb_2025", FEB_2025, "default", 2000),
    ("feb_2026_default", FEB_2026, "default", 2000),
    ("feb_2026_unfocused_windows", FEB_2026, "unfocused", 2000),
    ("feb_2026_two_monitors", FEB_2026, "two_monitors", 2000),
    ("newest_event_driven", NEWEST, "single", 30_000),
    ("newest_event_driven_two_monitors", NEWEST, "two_monitors", 30_000),
]


@pytest.mark.parametrize(("name", "version", "setup", "step"), SETUPS, ids=[s[0] for s in SETUPS])
def test_time_and_input_per_version(
    tmp_path: Path, name: str, version: str, setup: str, step: int
) -> None:
    day = make_day(seed=len(name), start_ms=T0)
    store = Store(tmp_path / "db.sqlite", version)
    truth = write_day(store, day, setup, step)
    writes_input = version >= FEB_2026  # ui_events are written since February 2026
    if writes_input:
        store.write_input(day)
    store.close()
    doc = compile_path(store.path, DAY, "UTC")
    assert doc["rejected_rows"] == []
    assert_time(doc, truth)
    if writes_input:
        assert_input(doc, day)
    else:
        assert sum(doc_input(doc).values()) == 0
    shown_beside = setup in ("unfocused", "two_monitors") and version == FEB_2026
    if shown_beside or version == LATE_2024:
        assert "Spotify" not in ledger_by_app(doc)  # visible all day, never focused
        assert any("not focused" in b for b in doc["blind_spots"])


def test_upgraded_database_keeps_old_rows_readable(tmp_path: Path) -> None:
    """A database created in mid-2024 and upgraded twice: rows of each era keep the app
    where their writer put it (frames.app_name dropped in August 2024, then added back
    empty in February 2025); every era's rows earn their time."""
    store = Store(tmp_path / "db.sqlite", MID_2024)
    first = make_day(1, T0, minutes=40)
    truth = write_day(store, first, "single")
    store.upgrade(LATE_2024)
    second = make_day(2, T0 + 3 * 3_600_000, minutes=40)
    truth += write_day(store, second, "default")
    store.upgrade(NEWEST)
    third = make_day(3, T0 + 6 * 3_600_000, minutes=40)
    truth += write_day(store, third, "two_monitors", 30_000)
    store.write_input(third)
    store.close()
    doc = compile_path(store.path, DAY, "UTC")
    assert doc["rejected_rows"] == []
    assert_time(doc, truth)
    assert_input(doc, third)


def test_typing_estimated_from_bytes_when_text_is_not_stored(tmp_path: Path) -> None:
    """Rows whose text was not kept count their text_length, UTF-8 bytes: an estimate
    (non-ASCII letters count twice or more), and the document says so."""
    day = make_day(5, T0)
    store = Store(tmp_path / "db.sqlite", NEWEST)
    write_day(store, day, "single", 30_000)
    store.write_input(day, store_text=False)
    store.close()
    doc = compile_path(store.path, DAY, "UTC")
    typed_bytes = sum(len(t.text.encode()) for t in day.typed)
    keys = typed_bytes + len(day.shortcuts) + len(day.clipboard)
    assert abs(doc_input(doc)["keys"] - keys) <= keys / 10
    assert any("estimated from text_length" in b for b in doc["blind_spots"])
    stored = Store(tmp_path / "kept.sqlite", NEWEST)
    write_day(stored, day, "single", 30_000)
    stored.write_input(day)
    stored.close()
    kept = compile_path(stored.path, DAY, "UTC")
    assert not any("estimated" in b for b in kept["blind_spots"])


def _read_day(path: Path) -> Any:
    src = ScreenpipeSource(path)
    try:
        win = day_window(DAY, "UTC")
        return src.read(win.start_ms, win.end_ms)
    finally:
        src.close()


def test_only_typing_rows_are_estimated_from_their_length(tmp_path: Path) -> None:
    """A text_length without stored text is an estimate only on a typing row (its type
    compared as SQL's NOCASE does, ASCII only); a clipboard or key row carrying one
    counts once and adds no note."""
    store = Store(tmp_path / "db.sqlite", NEWEST)
    store.capture_event(T0, "monitor_1", "Code", "a.py", None, "app_switch")
    store.event(T0 + 100, "text", text_content="hello", app_name="Code")
    store.event(T0 + 200, "clipboard", modifiers=ord("c"), text_length=40, app_name="Code")
    store.event(T0 + 300, "key", key_code=36, text_length=7, app_name="Code")
    store.close()
    cap = _read_day(store.path)
    counts: dict[str, int] = defaultdict(int)
    for e in cap.all_events():
        counts[e.kind] += e.count
    assert dict(counts) == {KEY: 5 + 1, COPY: 1}
    assert not any("estimated" in n for n in cap.notes)

    later = Store(tmp_path / "later.sqlite", NEWEST)
    later.capture_event(T0, "monitor_1", "Code", "a.py", None, "app_switch")
    later.event(T0 + 100, "Text", text_length=3, app_name="Code")
    later.close()
    cap = _read_day(later.path)
    assert [e.count for e in cap.all_events()] == [3]
    assert any("estimated" in n for n in cap.notes)


def test_counts_follow_the_rows_screenpipe_writes(tmp_path: Path) -> None:
    """One click = one click (its look-up row is not a second one); pastes are pastes,
    copies and cuts copies; a typing burst counts its characters."""
    store = Store(tmp_path / "db.sqlite", NEWEST)
    t = T0 + 1000
    store.capture_event(T0, "monitor_1", "Code", "a.py", None, "app_switch")
    store.capture_event(T0 + 60_000, "monitor_1", "Code", "a.py", None, "idle")
    store.event(t, "click", x=1, y=2, click_count=1, button=0, modifiers=0, app_name="Code")
    store.event(
        t + 30,
        "click",
        x=1,
        y=2,
        click_count=0,
        button=0,
        modifiers=0,
        app_name="Code",
        element_role="AXButton",
        element_name="Run",
    )
    store.event(t + 100, "text", text_content="naïve 日本")
    store.event(t + 200, "clipboard", modifiers=ord("c"))
    store.event(t + 300, "clipboard", modifiers=ord("x"))
    store.event(t + 400, "clipboard", modifiers=ord("v"), app_name="Code")
    store.event(t + 500, "app_switch", text_content="Code", app_name="Code")
    store.close()
    src = ScreenpipeSource(store.path)
    try:
        win = day_window(DAY, "UTC")
        cap = src.read(win.start_ms, win.end_ms)
    finally:
        src.close()
    counts: dict[str, int] = defaultdict(int)
    for e in cap.all_events():
        counts[e.kind] += e.count
    assert dict(counts) == {CLICK: 1, KEY: 8, COPY: 2, PASTE: 1}


def test_blind_spots_name_what_a_version_lacks(tmp_path: Path) -> None:
    day = make_day(7, T0, minutes=20)
    store = Store(tmp_path / "db.sqlite", MID_2024)
    write_day(store, day, "single")
    store.close()
    doc = compile_path(store.path, DAY, "UTC")
    spots = " ".join(doc["blind_spots"])
    assert "no window focus" in spots
    assert "no ui_events table" in spots
    assert "input is unmeasured" in spots


def test_read_only_while_screenpipe_writes_in_wal_mode(tmp_path: Path) -> None:
    """The file and its WAL are byte for byte the same after reading, while a writer
    holds an open write transaction; the committed rows are read."""
    day = make_day(9, T0, minutes=30)
    store = Store(tmp_path / "db.sqlite", NEWEST)
    truth = write_day(store, day, "single", 30_000)
    store.write_input(day)
    store.conn.execute("BEGIN IMMEDIATE")
    store.capture_event(T0 + 5 * 3_600_000, "monitor_1", "Late", "x", None, "idle")
    files = [store.path, store.path.with_name("db.sqlite-wal")]
    before = sha(*files)
    doc = compile_path(store.path, DAY, "UTC")
    assert sha(*files) == before
    assert "Late" not in ledger_by_app(doc)  # not committed: not seen
    assert_time(doc, truth)
    store.conn.rollback()
    store.close()
    before = sha(store.path)
    compile_path(store.path, DAY, "UTC")
    assert sha(store.path) == before


def test_a_day_of_unusable_rows_is_loud(tmp_path: Path) -> None:
    """Rows whose app cannot be found anywhere are rejected; the context block and the
    Markdown say why, ``day`` says so on stderr, and exits 1 when nothing was usable."""
    import subprocess
    import sys

    from actframes.api import to_context, to_markdown

    store = Store(tmp_path / "db.sqlite", FEB_2025)
    for k in range(20):  # captures whose windows were all filtered out: no ocr_text row
        store._insert(
            "frames",
            {
                "video_chunk_id": 1,
                "offset_index": k,
                "timestamp": stamp(T0 + k * 2000),
                "device_name": "m",
            },
        )
    store.close()
    doc = compile_path(store.path, DAY, "UTC")
    assert doc["coverage"]["rows"] == 0
    ctx, md = to_context(doc), to_markdown(doc)
    for text in (ctx, md):
        assert "no usable rows, 20 rejected (frames: empty app name (20))" in text
    run = [
        sys.executable,
        "-m",
        "actframes.cli",
        "day",
        DAY,
        "--db",
        str(store.path),
        "--tz",
        "UTC",
        "--no-cache",
    ]
    r = subprocess.run(run, capture_output=True, text=True, check=False)
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "no usable rows" in r.stderr
    assert "Traceback" not in r.stderr
    # some usable rows beside rejected ones: a warning, exit 0
    store = Store(tmp_path / "mixed.sqlite", FEB_2025)
    write_day(store, make_day(4, T0, minutes=20), "single")
    store._insert(
        "frames",
        {"video_chunk_id": 1, "offset_index": 0, "timestamp": stamp(T0 + 1), "device_name": "m"},
    )
    store.close()
    run[run.index("--db") + 1] = str(store.path)
    r = subprocess.run(run, capture_output=True, text=True, check=False)
    assert r.returncode == 0
    assert r.stderr.startswith("actframes: warning: ") and r.stderr.count("\n") == 1
    assert "1 rejected (frames: empty app name (1))" in r.stderr


# One capture: (seconds from T0, the apps of its windows, the focused app's index or
# None): focus is system-wide, so every window of the focused app is marked focused.
_CAPTURE = st.tuples(
    st.integers(0, 3_000),
    st.lists(st.integers(0, 4), min_size=1, max_size=3),
    st.one_of(st.none(), st.integers(0, 2)),
)


def _windows(capture: Any) -> list[tuple[str, str, bool]]:
    _, apps, focus = capture
    chosen = apps[focus] if focus is not None and focus < len(apps) else None
    return [(APPS[a][0], f"{APPS[a][1]} {k}", a == chosen) for k, a in enumerate(apps)]


def _write_captures(path: Path, version: str, captures: list[Any], order: list[int]) -> Path:
    """The captures written in ``order`` (row ids follow it): per-window ocr_text rows
    (late 2024) or per-window frames rows (February 2026)."""
    store = Store(path, version, wal=False)
    for k in order:
        ts, named = T0 + captures[k][0] * 1000, _windows(captures[k])
        if version == LATE_2024:
            store.capture_ocr_windows(ts, named)
        else:
            store.capture_windows(ts, "m", [(a, t, None, f) for a, t, f in named])
    store.close()
    return store.path


def _focused_truth(captures: list[Any]) -> list[tuple[int, str]]:
    out = []
    for c in captures:
        focused = sorted(a for a, _, f in _windows(c) if f)
        if focused:
            out.append((T0 + c[0] * 1000, focused[0]))
    return out


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    captures=st.lists(_CAPTURE, min_size=1, max_size=12, unique_by=lambda c: c[0]),
    version=st.sampled_from([LATE_2024, FEB_2026]),
    seed=st.randoms(use_true_random=False),
)
def test_focus_rule_holds_in_any_row_order(
    tmp_path: Path, captures: list[Any], version: str, seed: Any
) -> None:
    """Whatever the windows, their focus flags and the order rows were written in: only
    focused windows earn time, the same per app as the rule computed here (one focused
    window per instant: the least app name when several claim focus), and the document is
    the same for every order but its row ids."""
    order = list(range(len(captures)))
    docs = []
    for n in range(2):
        if n:
            seed.shuffle(order)
        path = _write_captures(tmp_path / f"{n}.db", version, captures, order)
        docs.append(compile_path(path, DAY, "UTC"))
    truth = _focused_truth(captures)
    for doc in docs:
        want = expected_active_s(truth)
        got = ledger_by_app(doc)
        assert got == {a: round(s) for a, s in want.items() if round(s)}
        windows = sum(f for c in captures for _, _, f in _windows(c))
        assert doc["coverage"]["rows"] == (len(truth) if version == LATE_2024 else windows)
    assert [e for e in docs[0]["ledger"]] == [e for e in docs[1]["ledger"]]


def test_grouped_and_row_by_row_reads_agree_on_every_era(tmp_path: Path) -> None:
    """Frames are read grouped by what they show unless a row needs a look of its own
    (then row by row): both give the same snapshots, focus and app look-ups included."""
    import shutil
    import sqlite3

    store = Store(tmp_path / "clean.db", MID_2024, wal=False)
    truth = write_day(store, make_day(11, T0, minutes=30), "single")
    store.upgrade(LATE_2024)
    truth += write_day(store, make_day(12, T0 + 3_600_000, minutes=30), "default")
    store.upgrade(FEB_2026)
    truth += write_day(store, make_day(13, T0 + 7_200_000, minutes=30), "unfocused")
    store.close()
    odd = shutil.copy(store.path, tmp_path / "odd.db")
    with sqlite3.connect(odd) as conn:
        conn.execute(
            "INSERT INTO frames (video_chunk_id, offset_index, timestamp, app_name)"
            " VALUES (1, 0, '2026-03-10T25:00:00+00:00', 'Code')"
        )
    win = day_window(DAY, "UTC")
    caps = []
    for path in (store.path, Path(odd)):
        src = ScreenpipeSource(path)
        try:
            caps.append(src.read(win.start_ms, win.end_ms))
        finally:
            src.close()
    grouped, rowwise = caps
    assert grouped.snapshots == rowwise.snapshots
    assert sorted(set(grouped.notes)) == sorted(set(rowwise.notes))
    assert [r.reason for r in rowwise.rejected] == ["no such time"]
    assert len(grouped.snapshots) == len(truth)


@pytest.mark.parametrize(("name", "version", "setup", "step"), SETUPS, ids=[s[0] for s in SETUPS])
def test_raw_row_fingerprint_on_every_schema(
    tmp_path: Path, name: str, version: str, setup: str, step: int
) -> None:
    """On each upstream schema point the document cache's raw-row fingerprint serves an
    unchanged day, and changes after a same-length edit of the app a frame names (in
    ``frames`` or, for the eras without its column, ``ocr_text``) and after a deleted
    frame; what is served then is a fresh compile's bytes."""
    import sqlite3

    from actframes.cache import DocCache, compile_window_cached
    from actframes.compile.pipeline import Options
    from actframes.emit.json_out import to_json

    day = make_day(seed=len(name), start_ms=T0)
    store = Store(tmp_path / "db.sqlite", version)
    write_day(store, day, setup, step)
    if version >= FEB_2026:
        store.write_input(day)
    store.close()
    win = day_window(DAY, "UTC")
    cache = DocCache(tmp_path / "cache")

    def cached() -> tuple[str, bool, str | None]:
        src = ScreenpipeSource(store.path)
        try:
            doc, hit = compile_window_cached(src, win, Options(), cache)
            return to_json(doc), hit, src.fingerprint(win.start_ms, win.end_ms)
        finally:
            src.close()

    first, hit, mark = cached()
    assert not hit and mark is not None
    again, hit, same = cached()
    assert hit and again == first and same == mark

    upper_first_app(store.path)
    # a changed fingerprint makes the cache read and digest the rows again; it may still
    # serve the stored document when the capture is the same (an unfocused frame's app)
    edited, _, after_edit = cached()
    assert after_edit != mark
    assert edited == to_json(compile_path(store.path, DAY, "UTC"))

    with sqlite3.connect(store.path) as conn:
        conn.execute("DELETE FROM frames WHERE id = (SELECT max(id) FROM frames)")
    deleted, _, after_delete = cached()
    assert after_delete not in (mark, after_edit)
    assert deleted == to_json(compile_path(store.path, DAY, "UTC"))
