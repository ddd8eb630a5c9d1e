"""The words on screen of screenpipe stores of several versions (SPEC.md §1.2e), written as
those versions' writers write them (``screenpipe_screen_text.py``): which rows hold which
kind of text, with which ids, apps and focus, in (time, kind, row id) order; ``after``
reads only what is new; the store is never changed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from actframes.model import ACCESSIBILITY, ELEMENT, OCR, ScreenText
from actframes.sources.screenpipe import screen_text as reader
from actframes.sources.screenpipe.source import ScreenpipeSource

from ..builders import screenpipe_db
from .screenpipe_screen_text import (
    DASHBOARD,
    NOTES_OCR,
    SLACK_CHROME,
    SLACK_OCR,
    T0,
    T_2024,
    TERMINAL_OCR,
    late_2024,
    newest,
    summer,
    tree_text,
)
from .screenpipe_versions import FEB_2026, Store

ALL = (0, 4_000_000_000_000)
KEY_ERROR = "KeyError: 'customer_id'"
CHURN = "Quarterly churn dashboard"
INVOICE = "Invoice INV-2291 overdue"


def _files(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.endswith("-shm")
    }


def read(path: Path, *window: int, **kw: object) -> list[ScreenText]:
    """The source's screen text, checking that no file of the store changed."""
    before = _files(path.parent)
    src = ScreenpipeSource(path)
    try:
        out = src.screen_text(*(window or ALL), **kw)  # type: ignore[arg-type]
    finally:
        src.close()
    assert {k: v for k, v in _files(path.parent).items() if k in before} == before
    return out


def ordered(rows: list[ScreenText]) -> bool:
    keys = [(r.ts_ms, r.kind, r.row_id) for r in rows]
    return keys == sorted(keys) and len(set(keys)) == len(keys)


def test_late_2024_each_window_s_ocr_row_with_its_own_app_and_focus(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    late_2024(path).close()
    rows = read(path)
    assert ordered(rows)
    assert {r.kind for r in rows} == {OCR}
    # ocr_text has no key of its own: a row is its rowid; the second monitor's OCR was
    # written first (rowid 1), yet the rows come in time order
    assert [(r.row_id, r.capture_id, r.app, r.focused) for r in rows] == [
        (2, 1, "Terminal", True),
        (3, 1, "Google Chrome", False),  # the window behind the terminal: on screen
        (1, 2, "Notes", False),
    ]
    assert rows[0].text == TERMINAL_OCR and KEY_ERROR in rows[0].text
    assert rows[0].ts_ms == rows[1].ts_ms == T_2024 and rows[2].ts_ms == T_2024 + 40
    assert CHURN in rows[1].text and rows[2].text == NOTES_OCR
    # the third capture's only row has no text: nothing
    src = ScreenpipeSource(path)
    assert src.screen_text_sources() == {OCR: "ocr_text"}
    src.close()


def test_2025_frames_carry_the_app_ocr_rows_the_text(tmp_path: Path) -> None:
    """2025 - Feb 2026: a frames row per captured window (app, focus), its OCR text in an
    ocr_text row without app; an unfocused window's text is on-screen context."""
    s = Store(tmp_path / "db.sqlite", FEB_2026)
    s.capture_windows(
        T0, "monitor_1", [("Spotify", "Daily Mix", None, False), ("Code", "app.py", None, True)]
    )
    s.close()
    rows = read(s.path)
    assert [(r.row_id, r.capture_id, r.app, r.focused, r.text) for r in rows] == [
        (1, 1, "Spotify", False, "Daily Mix text"),
        (2, 2, "Code", True, "app.py text"),
    ]


def test_2026_03_ocr_rows_accessibility_text_and_elements(tmp_path: Path) -> None:
    store, ids = newest(tmp_path / "db.sqlite")
    store.close()
    rows = read(store.path)
    assert ordered(rows)
    by = {(r.kind, r.capture_id): r for r in rows if r.kind != ELEMENT}
    term, dash, slack = ids["terminal"], ids["dashboard"], ids["slack"]
    # The terminal's OCR is stored as its accessibility text too (text_source 'ocr'),
    # in full_text, and in its ocr_text row: read once, from ocr_text.
    assert by[(OCR, term)].text == TERMINAL_OCR and (ACCESSIBILITY, term) not in by
    assert by[(OCR, term)].row_id == 1 and by[(OCR, term)].app == "iTerm2"
    assert by[(ACCESSIBILITY, dash)].text == tree_text(DASHBOARD)
    assert by[(ACCESSIBILITY, dash)].row_id == dash and (OCR, dash) not in by
    # A hybrid frame: thin accessibility text, the OCR its own row; full_text (both)
    # is never read as such
    assert by[(ACCESSIBILITY, slack)].text == tree_text(SLACK_CHROME)
    assert by[(OCR, slack)].text == SLACK_OCR and by[(OCR, slack)].row_id == 2
    assert all(r.text != tree_text(SLACK_CHROME) + "\n" + SLACK_OCR for r in rows)
    # Elements: the accessibility nodes with text, with their role; containers and the
    # OCR blocks (the OCR text again, line by line) are not read
    els = [(r.capture_id, r.role, r.text) for r in rows if r.kind == ELEMENT]
    assert els == [(dash, role, text) for role, text, _ in DASHBOARD if text] + [
        (slack, role, text) for role, text, _ in SLACK_CHROME if text
    ]
    assert all(r.app == "Google Chrome" for r in rows if r.capture_id == dash)
    assert not [r for r in rows if r.kind == ELEMENT and r.text in TERMINAL_OCR]
    src = ScreenpipeSource(store.path)
    assert src.screen_text_sources() == {
        ACCESSIBILITY: "frames",
        OCR: "ocr_text",
        ELEMENT: "elements",
    }
    src.close()


def test_summer_2026_ocr_from_full_text_keyed_by_frame(tmp_path: Path) -> None:
    store, ids = summer(tmp_path / "db.sqlite")
    store.close()
    rows = read(store.path)
    assert ordered(rows)
    got = {(r.kind, r.capture_id): r for r in rows if r.kind != ELEMENT}
    term = got[(OCR, ids["terminal"])]
    assert (term.row_id, term.text, term.app, term.focused) == (
        ids["terminal"],
        TERMINAL_OCR,
        "iTerm2",
        True,
    )
    assert (ACCESSIBILITY, ids["terminal"]) not in got
    # full_text = accessibility text + "\n" + OCR: the OCR is what it adds
    assert got[(OCR, ids["slack"])].text == SLACK_OCR
    assert got[(ACCESSIBILITY, ids["slack"])].text == tree_text(SLACK_CHROME)
    assert (OCR, ids["dashboard"]) not in got  # full_text is the accessibility text
    # A tree that did not match the screenshot: only the OCR, and no elements
    assert got[(OCR, ids["incoherent"])].text == "Signed lease agreement"
    assert (ACCESSIBILITY, ids["incoherent"]) not in got
    # The unchanged frame points at the dashboard's elements: its text, none of its own
    assert got[(ACCESSIBILITY, ids["unchanged"])].text == tree_text(DASHBOARD)
    els = [r for r in rows if r.kind == ELEMENT]
    assert {r.capture_id for r in els} == {ids["dashboard"], ids["slack"]}
    # Elements written after later frames: ids above theirs, still in time order
    assert min(r.row_id for r in els) > ids["incoherent"]
    assert [r.text for r in els if r.capture_id == ids["dashboard"]][-1] == INVOICE
    # A monitor without focus: no app, not focused
    other = got[(OCR, ids["unfocused"])]
    assert (other.app, other.focused, other.text) == ("", False, NOTES_OCR)


def test_after_reads_only_what_is_new(tmp_path: Path) -> None:
    store, ids = summer(tmp_path / "db.sqlite")
    first = read(store.path)
    high = {k: max(r.row_id for r in first if r.kind == k) for k in {r.kind for r in first}}
    # Later: a new capture, and the elements of the last one written after it
    late = store.snapshot(T0 + 20_000, "Google Chrome", "Churn", tree=DASHBOARD, deferred=True)
    again = store.snapshot(T0 + 25_000, "iTerm2", "pytest", ocr=KEY_ERROR)
    store.flush()
    store.close()
    everything = read(store.path)
    new = read(store.path, *ALL, after=high)
    assert new == [r for r in everything if r.row_id > high[r.kind]]
    assert sorted(first + new, key=lambda r: (r.ts_ms, r.kind, r.row_id)) == everything
    assert {r.capture_id for r in new} == {late, again}
    assert [r.text for r in new if r.kind == OCR] == [KEY_ERROR]
    # a kind left out of ``after`` is read whole
    only = read(store.path, *ALL, after={ELEMENT: high[ELEMENT]})
    assert [r for r in only if r.kind != ELEMENT] == [r for r in everything if r.kind != ELEMENT]
    assert ids


def test_the_unify_migration_moves_ocr_ids_onto_frames(tmp_path: Path) -> None:
    """screenpipe's 2026-06-13 migration drops ocr_text: the same OCR texts, now keyed by
    frame, and ``screen_text_sources`` says the kind's ids changed table."""
    store, ids = newest(tmp_path / "db.sqlite")
    before = read(store.path)
    store.upgrade("2026-06-13.130000")
    store.close()
    after = read(store.path)
    assert [r for r in after if r.kind != OCR] == [r for r in before if r.kind != OCR]
    old = [(r.capture_id, r.text) for r in before if r.kind == OCR]
    assert [(r.capture_id, r.text) for r in after if r.kind == OCR] == old
    assert all(r.row_id == r.capture_id for r in after if r.kind == OCR)
    src = ScreenpipeSource(store.path)
    assert src.screen_text_sources()[OCR] == "frames"
    src.close()
    assert ids


def test_windows_days_and_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, ids = summer(tmp_path / "db.sqlite")
    # captures stored with offsets: one whose text names the next date (still this UTC
    # day), one whose text names this date (the next UTC day)
    late, nxt, odd, unparsed = (
        store._insert(
            "frames",
            {
                "timestamp": ts,
                "app_name": "Notes",
                "focused": 1,
                "offset_index": 0,
                "accessibility_text": text,
                "text_source": "accessibility",
                "full_text": text,
            },
        )
        for ts, text in (
            ("2026-03-18T01:30:00+02:00", "tonight's list"),
            ("2026-03-17T23:30:00-03:00", "tomorrow's list"),
            ("20260317T100040Z", "basic format: no date's index range holds it"),
            ("2026-03-17T10:00:41.5+0000", "an offset SQLite does not parse"),
        )
    )
    store.close()
    whole = read(store.path)
    hour = 3_600_000
    assert [(r.capture_id, r.ts_ms) for r in whole[-2:]] == [
        (late, T0 + 13 * hour + hour // 2),
        (nxt, T0 + 16 * hour + hour // 2),
    ]
    assert [(r.capture_id, r.ts_ms) for r in whole if r.capture_id in (odd, unparsed)] == [
        (odd, T0 + 40_000),
        (unparsed, T0 + 41_500),
    ]
    monkeypatch.setattr(reader, "BATCH_FRAMES", 1)
    assert read(store.path) == whole
    # [start, end): a frame at the start is in, one at the end is not
    cut = read(store.path, T0 + 5_000, T0 + 15_000)
    assert {r.capture_id for r in cut} == {ids["dashboard"], ids["slack"], ids["unchanged"]}
    assert read(store.path, T0 + 5_000, T0 + 5_000) == []


@pytest.mark.parametrize(("schema", "sources"), [("old", {}), ("new", {ELEMENT: "elements"})])
def test_a_store_without_screen_text_gives_nothing(
    tmp_path: Path, schema: str, sources: dict[str, str]
) -> None:
    """Our fixtures' and the reference recorder's shape: no text columns (the newer one
    has an empty elements table)."""
    frame = (1, "2026-03-17T10:00:00Z", "Code", "a.py")
    path = screenpipe_db(tmp_path / "db.sqlite", [frame], schema=schema)
    assert read(path) == []
    src = ScreenpipeSource(path)
    assert src.screen_text_sources() == sources
    src.close()


def test_split_frame_text() -> None:
    split = reader.split_frame_text
    assert split("a", "a", "accessibility", True) == ("a", None)
    assert split("a", "a\nb", "hybrid", True) == ("a", "b")
    assert split("a", "a\nb", "hybrid", False) == ("a", None)  # OCR is in ocr_text
    assert split("t", "t", "ocr", True) == (None, "t")
    assert split(None, "t", "ocr", True) == (None, "t")
    assert split("t", "t", "ocr", False) == (None, None)
    assert split(None, "legacy ocr", None, True) == (None, "legacy ocr")
    assert split("a", "redacted elsewhere", "hybrid", True) == ("a", "redacted elsewhere")
    assert split("  ", "\n", None, True) == (None, None)
