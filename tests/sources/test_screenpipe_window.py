"""What a screenpipe-style read of a window holds: exactly the rows whose instant lies
within READ_MARGIN_MS of the window (whatever their shape and UTC offset), and the rows
no date holds — never the next day's rows, so a new row today leaves yesterday alone."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.api import compile_path
from actframes.compile.provenance import capture_digest
from actframes.sources.base import READ_MARGIN_MS
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.timeparse import parse_iso_ms
from actframes.window import day_window

from ..builders import screenpipe_db

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
DAY = "2026-03-10"


def _text(ts_ms: int, sub_ms: int, off_min: int, sep: str, zone: str, digits: int) -> str:
    """An instant (plus ``sub_ms`` millionths of a millisecond) as ISO text in a shape."""
    local = _EPOCH + timedelta(milliseconds=ts_ms, minutes=off_min)
    text = local.strftime(f"%Y-%m-%d{sep}%H:%M:%S")
    if digits:
        frac = f"{ts_ms % 1000:03d}{sub_ms:06d}"[:digits]
        text += "." + frac
    if zone == "Z":
        return text + "Z"
    if zone == "naive":
        return text
    sign = "-" if off_min < 0 else "+"
    return text + f"{sign}{abs(off_min) // 60:02d}:{abs(off_min) % 60:02d}"


def _ids(src: ScreenpipeSource, start: int, end: int) -> tuple[set[int], set[int]]:
    cap = src.read(start, end)
    frames = {s.row_id for s in cap.snapshots}
    events = {e.event_id for e in cap.events} | {i for c in cap.event_columns for i in c.ids}
    return frames, events


WINDOW = day_window(DAY, "UTC")
A, B = WINDOW.start_ms - READ_MARGIN_MS, WINDOW.end_ms + READ_MARGIN_MS
# Instants around the read span's ends (and the whole days beside it), to the millisecond.
near_end = st.sampled_from([A, B]).flatmap(lambda t: st.integers(t - 2_000, t + 2_000))
anywhere = st.integers(A - 2 * 86_400_000, B + 2 * 86_400_000)
row = st.tuples(
    st.one_of(near_end, anywhere),
    st.sampled_from([0, 499_999, 500_000, 999_999]),  # digits past the millisecond
    st.integers(-(23 * 60 + 59), 23 * 60 + 59),
    st.sampled_from(["T", " "]),
    st.sampled_from(["Z", "naive", "offset", "offset", "offset"]),
    st.sampled_from([0, 3, 6, 9]),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(row, min_size=1, max_size=40))
def test_a_read_holds_exactly_the_rows_of_its_span(rows: list[tuple[int, ...]]) -> None:
    """Whatever the shape, offset (up to ±23:59) and rounding of sub-millisecond digits,
    a row is read if and only if the Python parser places it in the read span."""
    frames, events, want = [], [], set()
    for i, (ts, sub, off, sep, zone, digits) in enumerate(rows, start=1):
        off = 0 if zone in ("Z", "naive") else off
        text = _text(ts, sub, off, sep, str(zone), int(digits))
        frames.append((i, text, "Code", f"t{i}"))
        events.append((i, text, "click", "Code"))
        if A <= parse_iso_ms(text) < B:
            want.add(i)
    with tempfile.TemporaryDirectory() as tmp:
        db = screenpipe_db(Path(tmp) / "sp.db", frames, events)
        with ScreenpipeSource(db) as src:
            got_frames, got_events = _ids(src, WINDOW.start_ms, WINDOW.end_ms)
    assert got_frames == want
    assert got_events == want


def test_today_changing_leaves_yesterday_alone(tmp_path: Path) -> None:
    """Reading day D once read the dates around it whole (D+1 among them): a new row late
    on D+1 changed D's capture, so D was compiled again. Now only D+1's first minutes
    (the read margin) can."""
    frames = [
        (1, "2026-03-10T09:00:00.000000+00:00", "Code", "a"),
        (2, "2026-03-10T23:58:00.000000+00:00", "Code", "b"),
        (3, "2026-03-11T00:02:00.000000+00:00", "Slack", "c"),  # within the margin
        (4, "2026-03-11T10:00:00.000000+00:00", "Slack", "d"),
    ]
    events = [(1, "2026-03-10T09:00:05Z", "click", "Code"), (2, "2026-03-11T10:00:05Z", "key", "")]
    before = screenpipe_db(tmp_path / "before.db", frames, events)
    later = [*frames, (5, "2026-03-11T18:00:00.000000+00:00", "Slack", "e")]
    after = screenpipe_db(
        tmp_path / "after.db", later, [*events, (3, "2026-03-11T18:00:01Z", "key", "")]
    )
    caps = []
    for db in (before, after):
        with ScreenpipeSource(db) as src:
            cap = src.read(WINDOW.start_ms, WINDOW.end_ms)
        assert sorted(s.row_id for s in cap.snapshots) == [1, 2, 3]
        caps.append(capture_digest(cap))
    assert caps[0] == caps[1]
    doc_before = compile_path(before, DAY, "UTC")
    doc_after = compile_path(after, DAY, "UTC")
    assert doc_before == doc_after


def test_rows_no_date_holds_are_read_for_every_window(tmp_path: Path) -> None:
    """Text without a date shape sorts anywhere in the index, a date such as 2026-02-30
    names no day: the skip scan finds them wherever they sort. A basic-format timestamp
    Python can place counts on its own day only; the rest are reported on every day."""
    frames = [
        (1, "2026-03-10T09:00:00Z", "Code", "ok"),
        (2, "2026-03-10T09:00:30Z", "Code", "ok"),
        (3, "20260310T090100Z", "Code", "basic format"),  # sorts among 2026-0… dates
        (4, "2026-3-10 09:02:00", "Code", "one-digit month"),
        (5, "2026-02-30T10:00:00Z", "Code", "no such date"),
        (6, "later today", "Code", "words"),
        (7, "2026-03-11T09:00:00Z", "Code", "next day"),
    ]
    db = screenpipe_db(tmp_path / "sp.db", frames)
    for day, placed in (("2026-03-10", [1, 2, 3]), ("2026-03-11", [7]), ("2026-01-20", [])):
        win = day_window(day, "UTC")
        with ScreenpipeSource(db) as src:
            cap = src.read(win.start_ms, win.end_ms)
        assert sorted(s.row_id for s in cap.snapshots) == placed
        assert sorted(int(r.row) for r in cap.rejected) == [4, 5, 6]


def test_with_and_without_a_timestamp_index_the_same_rows(tmp_path: Path) -> None:
    """screenpipe indexes ``timestamp`` on both tables and the reader searches the index
    range by range; a store without such an index is scanned once instead. Same rows."""
    import sqlite3

    base = 1_773_100_800_000  # 2026-03-10T00:00:00Z
    frames, events = [], []
    for i in range(1, 200):
        off = (i * 37) % (24 * 60) - 12 * 60
        text = _text(base + (i - 100) * 1_234_567, 0, off, "T" if i % 3 else " ", "offset", 3)
        frames.append((i, text, "Code", f"t{i % 7}"))
        events.append((i, text, "click", "Code"))
    frames += [(500, "garbage", "Code", "x"), (501, "2026-02-30T10:00:00Z", "Code", "y")]
    plain = screenpipe_db(tmp_path / "plain.db", frames, events)
    indexed = screenpipe_db(tmp_path / "indexed.db", frames, events)
    with sqlite3.connect(plain) as conn:
        conn.execute("DROP INDEX idx_frames_timestamp")
    with sqlite3.connect(indexed) as conn:
        conn.execute("CREATE INDEX idx_ui_events_timestamp ON ui_events(timestamp)")
    read = 0
    for day in ("2026-03-08", "2026-03-09", "2026-03-10", "2026-03-11", "2026-03-13"):
        win = day_window(day, "Asia/Kolkata")
        caps = []
        for db in (plain, indexed):
            with ScreenpipeSource(db) as src:
                caps.append(src.read(win.start_ms, win.end_ms))
        assert caps[0].snapshots == caps[1].snapshots
        assert capture_digest(caps[0]) == capture_digest(caps[1])
        assert {r.row for r in caps[0].rejected} == {"500", "501"}
        read += len(caps[0].snapshots)
    assert read >= 199  # every row in some day (rows near midnight in two)


def test_a_window_of_years_reads_its_rows(tmp_path: Path) -> None:
    """A window of many days has a range per date (more than SQLite's 500 terms of one
    compound SELECT): with and without the index, every row of it is read."""
    import sqlite3

    frames = [
        (i, f"20{20 + i % 6}-0{1 + i % 9}-1{i % 10}T09:00:00Z", "Code", "t") for i in range(1, 60)
    ]
    events = [(i, text, "click", "Code") for i, text, *_ in frames]
    db = screenpipe_db(tmp_path / "sp.db", frames, events)
    start, end = parse_iso_ms("2019-06-01T00:00:00Z"), parse_iso_ms("2027-01-01T00:00:00Z")
    with ScreenpipeSource(db) as src:
        assert _ids(src, start, end) == (set(range(1, 60)), set(range(1, 60)))
    with sqlite3.connect(db) as conn:
        conn.execute("DROP INDEX idx_frames_timestamp")
    with ScreenpipeSource(db) as src:
        assert _ids(src, start, end) == (set(range(1, 60)), set(range(1, 60)))
