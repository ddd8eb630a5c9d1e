"""The raw-row fingerprint of a screenpipe-style window (sources/screenpipe/fingerprint.py):
after any insert, edit or deletion, a document the cache serves is the bytes of a fresh
compile; a change to any value the reader reads changes the fingerprint; a day nothing
touched is served from the cache without reading."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.api import compile_window
from actframes.cache import DocCache, compile_window_cached
from actframes.compile.pipeline import Options
from actframes.emit.json_out import to_json
from actframes.model import InputEvent, Snapshot
from actframes.simulate import SimDay, write_screenpipe
from actframes.simulate.writers import format_ts
from actframes.sources import open_source
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.window import Window, day_window

TZ = "UTC"
DAY, CONTROL = "2026-03-10", "2026-03-20"  # ops touch DAY's rows only, near DAY
T_DAY, T_CONTROL = 1_773_133_200_000, 1_773_997_200_000  # 09:00Z of each
APPS = ["Code", "Slack", "Google Chrome"]
KINDS = ["key", "click", "scroll", "copy", "paste"]
WINDOWS = {"day": day_window(DAY, TZ), "control": day_window(CONTROL, TZ)}


def _sim(day: str, t0: int, n: int) -> SimDay:
    snaps = [Snapshot(0, t0 + i * 7_000, APPS[i % 3], f"t{i % 4}") for i in range(n)]
    events = [InputEvent(0, t0 + 500 + k * 3_000, KINDS[k % 5], APPS[k % 2]) for k in range(n)]
    return SimDay(day, TZ, ("",), snaps, events, [])


def _store(path: Path) -> Path:
    days = [_sim(DAY, T_DAY, 30), _sim(CONTROL, T_CONTROL, 20)]
    for d in days:  # ids unique across both days
        base = 0 if d.day == DAY else 1_000
        d.snapshots[:] = [s._replace(row_id=base + i + 1) for i, s in enumerate(d.snapshots)]
        d.events[:] = [e._replace(event_id=base + i + 1) for i, e in enumerate(d.events)]
    return write_screenpipe(path, days)


# Values a writer (or a hand edit) may leave: same-length text, other types, odd times.
VALUES: list[object] = [
    "Code", "Cod", "Slack", "", "   ", "\x1b[0m", None, 0, 1, "1", "0", 1.5,
    1.0000000000000002, b"Code", "é", "ab", "clipboard", "text", "click", 99, "x,y'z",
    format_ts(T_DAY + 3_600_000), format_ts(T_DAY + 3_600_001), format_ts(T_DAY - 86_400_000),
    "2026-03-10 10:00:00", "not a date", "2026-02-30T10:00:00Z", T_DAY,
]  # fmt: skip
READ = {
    "frames": ["app_name", "window_name", "browser_url", "focused", "timestamp"],
    "ui_events": [
        "event_type", "modifiers", "text_content", "text_length", "click_count", "app_name",
        "timestamp",
    ],
}  # fmt: skip
UNREAD = {"frames": ["device_name", "name"], "ui_events": ["x", "window_title", "element_name"]}

ops = st.lists(
    st.tuples(
        st.sampled_from(["edit", "edit", "edit_unread", "delete", "append"]),
        st.sampled_from(["frames", "ui_events"]),
        st.floats(0, 1),  # which row of DAY's
        st.integers(0, 30),  # which column
        st.sampled_from(VALUES),
        st.integers(0, 86_399),  # an appended row's second of DAY
    ),
    min_size=1,
    max_size=6,
)


def _fresh(path: Path, window: Window) -> str:
    src = open_source(path)
    try:
        return to_json(compile_window(src, window))
    finally:
        src.close()


def _odd(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
    """Rows without a date near DAY's: rows no date holds are read for every window."""
    near = ("2026-03-09", "2026-03-10", "2026-03-11")
    found = []
    for table in ("frames", "ui_events"):
        for row in conn.execute(f"SELECT * FROM {table} WHERE id < 1000"):
            ts = row[3] if table == "frames" else row[1]
            if not (isinstance(ts, str) and ts[:10] in near):
                found.append((table, *row))
    return found


def _apply(conn: sqlite3.Connection, op: tuple[Any, ...]) -> bool:
    """Apply one op; whether it changed a value the reader reads (or a row's presence)."""
    what, table, where, col, value, second = op
    ids = [r[0] for r in conn.execute(f"SELECT id FROM {table} WHERE id < 1000 ORDER BY id")]
    try:
        with conn:
            if what == "append":
                new = max(ids, default=0) + 1
                ts = format_ts(T_DAY + second * 1_000)
                if table == "frames":
                    conn.execute(
                        "INSERT INTO frames (id, video_chunk_id, offset_index, timestamp, name,"
                        " app_name, window_name, focused, device_name)"
                        " VALUES (?,1,0,?,'v.mp4','Code','added',1,'')",
                        (new, ts),
                    )
                else:
                    conn.execute(
                        "INSERT INTO ui_events (id, timestamp, event_type, app_name)"
                        " VALUES (?,?,'click','Code')",
                        (new, ts),
                    )
                return True
            if not ids:
                return False
            rid = ids[min(int(where * len(ids)), len(ids) - 1)]
            if what == "delete":
                conn.execute(f"DELETE FROM {table} WHERE id = ?", (rid,))
                return True
            names = READ[table] if what == "edit" else UNREAD[table]
            name = names[col % len(names)]
            if name == "timestamp" and not isinstance(value, str):
                value = format_ts(T_DAY + second * 1_000)  # stays near DAY
            old = conn.execute(f"SELECT {name} FROM {table} WHERE id = ?", (rid,)).fetchone()[0]
            conn.execute(f"UPDATE {table} SET {name} = ? WHERE id = ?", (value, rid))
            new_value = conn.execute(f"SELECT {name} FROM {table} WHERE id = ?", (rid,))
            got = new_value.fetchone()[0]
            if name == "text_content":  # only its length in characters is read
                same = (old is None) == (got is None) and (
                    old is None or len(str(old)) == len(str(got))
                )
                return what == "edit" and not same and type(old) is type(got)
            return what == "edit" and (type(old) is not type(got) or old != got)
    except sqlite3.IntegrityError:  # NOT NULL: the store refuses, nothing changed
        return False


@settings(max_examples=20, deadline=None)
@given(ops)
def test_served_documents_equal_a_fresh_compile(steps: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _store(Path(tmp) / "store.db")
        cache = DocCache(Path(tmp) / "cache")
        src = open_source(path)  # held across the writer's commits, as a server holds it
        writer = sqlite3.connect(path)
        try:
            assert isinstance(src, ScreenpipeSource)
            for name, w in WINDOWS.items():
                doc, hit = compile_window_cached(src, w, Options(), cache)
                assert not hit and to_json(doc) == _fresh(path, w), name
            control_print = src.fingerprint(WINDOWS["control"].start_ms, WINDOWS["control"].end_ms)
            for op in steps:
                w = WINDOWS["day"]
                before = src.fingerprint(w.start_ms, w.end_ms)
                odd_before = _odd(writer)
                changed = _apply(writer, op)
                odd_same = _odd(writer) == odd_before
                after = src.fingerprint(w.start_ms, w.end_ms)
                assert before is not None and after is not None
                if changed:
                    assert after != before, op
                for name, w in WINDOWS.items():
                    doc, hit = compile_window_cached(src, w, Options(), cache)
                    assert to_json(doc) == _fresh(path, w), (name, op)
                    if name == "control":
                        now = src.fingerprint(w.start_ms, w.end_ms)
                        if odd_same:  # nothing the control day reads changed
                            assert hit and now == control_print, op
                        control_print = now
        finally:
            writer.close()
            src.close()


def test_an_unchanged_day_is_served_without_reading(tmp_path: Path) -> None:
    path = _store(tmp_path / "store.db")
    cache = DocCache(tmp_path / "cache")
    src = open_source(path)
    w = WINDOWS["day"]
    first, hit = compile_window_cached(src, w, Options(), cache)
    src.close()
    assert not hit

    class NoRead(ScreenpipeSource):
        def read(self, start_ms: int, end_ms: int) -> Any:
            raise AssertionError("read rows although nothing changed")

    again = NoRead(path)
    try:
        doc, hit = compile_window_cached(again, w, Options(), cache)
    finally:
        again.close()
    assert hit and to_json(doc) == to_json(first)


def test_frames_without_an_app_take_it_from_ocr_text(tmp_path: Path) -> None:
    """A frame whose app cleans to nothing takes it from its ocr_text rows: an edit there
    changes the fingerprint and the document alike; an OCR row of a frame with an app of
    its own is not read, and leaves both."""
    path = _store(tmp_path / "store.db")
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE ocr_text (frame_id INTEGER NOT NULL, text TEXT NOT NULL,"
            " app_name TEXT NOT NULL DEFAULT '', window_name TEXT, focused BOOLEAN)"
        )
        conn.execute("UPDATE frames SET app_name = ' ' WHERE id = 3")
        conn.execute("INSERT INTO ocr_text VALUES (3, 'ocr', 'Terminal', 'shell', 1)")
        conn.execute("INSERT INTO ocr_text VALUES (4, 'ocr', 'Other', 'w', 1)")
    conn.close()
    w = WINDOWS["day"]
    cache = DocCache(tmp_path / "cache")

    def serve() -> tuple[str, str | None, bool]:
        src = open_source(path)
        try:
            doc, hit = compile_window_cached(src, w, Options(), cache)
            return to_json(doc), src.fingerprint(w.start_ms, w.end_ms), hit
        finally:
            src.close()

    doc0, print0, _ = serve()
    assert "Terminal" in doc0
    for sql, read in (
        ("UPDATE ocr_text SET text = 'other words' WHERE frame_id = 3", False),
        ("UPDATE ocr_text SET app_name = 'Zed' WHERE frame_id = 4", False),
        ("UPDATE ocr_text SET app_name = 'Termina1' WHERE frame_id = 3", True),
    ):
        with sqlite3.connect(path) as conn:
            conn.execute(sql)
        conn.close()
        doc, fingerprint, hit = serve()
        assert doc == _fresh(path, w)
        assert (fingerprint != print0) is read and hit is not read, sql
        assert ("Termina1" in doc) is read


def test_reals_json_writes_alike_still_change_the_marks(tmp_path: Path) -> None:
    """JSON writes a real to 15 digits: two reals it writes alike (in an integer column,
    which the reader reads) still give two fingerprints and two settled marks, as does
    text there that reads like one."""
    path = _store(tmp_path / "store.db")
    w = WINDOWS["day"]
    cut = T_DAY + 3_600_000  # after the edited row
    marks = []
    for value in (1, 1.0000000000000002, 1.0000000000000004, "1.0000000000000004", "1"):
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE ui_events SET click_count = ? WHERE id = 3", (value,))
            assert conn.execute("SELECT click_count FROM ui_events WHERE id = 3").fetchone()
        conn.close()
        src = ScreenpipeSource(path)
        try:
            mark = src.settled_mark(w.start_ms, w.end_ms, cut)
            assert mark is not None
            marks.append((src.fingerprint(w.start_ms, w.end_ms), mark.digest))
        finally:
            src.close()
    # click_count is INTEGER: '1' is stored as 1, the text of a real as that real.
    assert marks[0] == marks[4] and marks[2] == marks[3]
    assert len({m[0] for m in marks}) == len({m[1] for m in marks}) == 3
