"""A typed text holding a NUL, in a screenpipe-style store: the fingerprint hashes the
text's length by the very expression the reader counts its characters with
(``screenpipe.input.STORED_CHARS``, SQLite's ``length()``, which stops at the first NUL
for both), so whatever a writer stores there — text with NULs before or after an edit,
a blob, a number, NULL — the cache serves the bytes of a fresh compile, the fingerprint
moves whenever the count the reader derives moves, and typed text is never hashed."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.cache import DocCache, compile_window_cached
from actframes.compile.pipeline import Options
from actframes.emit.json_out import to_json
from actframes.sources import open_source
from actframes.sources.screenpipe import ScreenpipeSource
from actframes.sources.screenpipe.input import STORED_CHARS

from .test_screenpipe_fingerprint import WINDOWS, _fresh, _store

FIRST = "ab\x00cd"
EDITS: list[object] = [
    "ab\x00cdef",  # after the NUL
    "ab\x00",
    "ab\x00cd\x00e",
    "abc\x00cd",  # before it
    "\x00abcd",
    b"ab\x00cd",  # a blob: its bytes
    b"ab\x00cdef",
    12345,
    1.5,
    None,
    "abcd",
    "日本\x00語",
]


def _text_row(path: Path, value: object) -> int:
    """One of the day's events made a typing burst holding ``value``; its id."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            rid = int(
                conn.execute(
                    "SELECT min(id) FROM ui_events WHERE id < 1000 AND event_type = 'key'"
                ).fetchone()[0]
            )
            conn.execute(
                "UPDATE ui_events SET event_type = 'text', text_content = ?, text_length = 7"
                " WHERE id = ?",
                (value, rid),
            )
    finally:
        conn.close()
    return rid


def _counted(conn: sqlite3.Connection, rid: int) -> object:
    """What the reader derives from the stored text, by SQLite, in the test's own query."""
    return conn.execute(f"SELECT {STORED_CHARS} FROM ui_events WHERE id = ?", (rid,)).fetchone()[0]


def _serve_after_edits(root: Path, values: list[object]) -> None:
    path = _store(root / "store.db")
    rid = _text_row(path, values[0])
    cache = DocCache(root / "cache")
    src = open_source(path)  # held across the writer's commits, as a server holds it
    writer = sqlite3.connect(path)
    w = WINDOWS["day"]
    try:
        assert isinstance(src, ScreenpipeSource)
        doc, hit = compile_window_cached(src, w, Options(), cache)
        assert not hit and to_json(doc) == _fresh(path, w)
        for value in values[1:]:
            before, counted = src.fingerprint(w.start_ms, w.end_ms), _counted(writer, rid)
            with writer:
                writer.execute("UPDATE ui_events SET text_content = ? WHERE id = ?", (value, rid))
            after = src.fingerprint(w.start_ms, w.end_ms)
            assert before is not None and after is not None
            if _counted(writer, rid) != counted:
                assert after != before, value
            doc, hit = compile_window_cached(src, w, Options(), cache)
            assert to_json(doc) == _fresh(path, w), value
    finally:
        writer.close()
        src.close()


@pytest.mark.parametrize("value", EDITS, ids=[repr(v) for v in EDITS])
def test_an_edit_beside_a_nul_serves_fresh_bytes(tmp_path: Path, value: object) -> None:
    _serve_after_edits(tmp_path, [FIRST, value])


def test_the_count_is_sqlites_to_the_nul_and_the_text_is_never_hashed(tmp_path: Path) -> None:
    """The document counts the characters before the NUL (two of "ab\\0cd"): an edit
    after it leaves the count, the fingerprint and the document as they were; one before
    it moves all three. The fingerprint's query holds the length, not the text."""
    path = _store(tmp_path / "store.db")
    rid = _text_row(path, FIRST)
    src = open_source(path)
    writer = sqlite3.connect(path)
    w = WINDOWS["day"]
    try:
        assert isinstance(src, ScreenpipeSource)
        first = (src.fingerprint(w.start_ms, w.end_ms), _fresh(path, w))
        with writer:
            writer.execute(
                "UPDATE ui_events SET text_content = ? WHERE id = ?", (FIRST + "ef", rid)
            )
        assert (src.fingerprint(w.start_ms, w.end_ms), _fresh(path, w)) == first
        with writer:
            writer.execute(
                "UPDATE ui_events SET text_content = 'abc' || ? WHERE id = ?", (FIRST, rid)
            )
        moved = (src.fingerprint(w.start_ms, w.end_ms), _fresh(path, w))
        assert moved[0] != first[0] and moved[1] != first[1]
        assert _counted(writer, rid) == 5  # "abcab", then the NUL
    finally:
        writer.close()
        src.close()


_texts = st.one_of(
    st.text(st.sampled_from('a\x00é日\n"\\'), max_size=8),
    st.binary(max_size=6),
    st.none(),
    st.integers(-99, 99_999),
)


@settings(max_examples=15, deadline=None)
@given(st.lists(_texts, min_size=2, max_size=5))
def test_any_stored_values_serve_fresh_bytes(values: list[object]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _serve_after_edits(Path(tmp), values)
