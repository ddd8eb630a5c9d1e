"""Screen text of a hybrid-parquet store (SPEC.md §1.2e): sealed frames' text from their
``search.parquet``, archived elements from their element file, staged rows from the index —
the same records as the plain store; a re-staged frame and a staged element edit or
deletion win over the files; a payload that cannot be read is one line (an error, or a
problem the caller collects); nothing of the store changes."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from actframes.errors import SourceError
from actframes.model import ACCESSIBILITY, ELEMENT, OCR, ScreenText
from actframes.sources.screenpipe import screen_payloads
from actframes.sources.screenpipe.source import ScreenpipeSource
from actframes.sources.screenpipe.storage import resolve

from .screenpipe_screen_text import T0, TERMINAL_OCR, summer

pytest.importorskip(
    "pyarrow.parquet", reason="pyarrow missing: pip install -e '.[parquet]' (or '.[all]')"
)
from .screenpipe_screen_hybrid import hybrid, restage, stage_element

ALL = (0, 4_000_000_000_000)
SEALED = T0 + 10_000  # frames before it sealed: the terminal and the dashboard


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.endswith("-shm")
    }


def _read(index: Path, **kw: object) -> list[ScreenText]:
    src = ScreenpipeSource(index)
    try:
        return src.screen_text(*ALL, **kw)  # type: ignore[arg-type]
    finally:
        src.close()


@pytest.fixture()
def stores(tmp_path: Path) -> tuple[Path, Path, dict[str, int]]:
    """(the plain summer store, its migrated index, frame ids), elements archived up to
    the dashboard's last one."""
    store, ids = summer(tmp_path / "plain.sqlite")
    store.close()
    with sqlite3.connect(store.path) as conn:
        (last,) = conn.execute(
            "SELECT max(id) FROM elements WHERE frame_id = ?", (ids["dashboard"],)
        ).fetchone()
    conn.close()
    return store.path, hybrid(store.path, tmp_path / "root", SEALED, last), ids


def test_the_same_records_as_the_plain_store(stores: tuple[Path, Path, dict[str, int]]) -> None:
    plain, index, ids = stores
    root = index.parents[2]
    assert resolve(root / "db.sqlite") == index
    assert list(root.rglob("search.parquet")) and list(root.rglob("bulk-v1/elements/*.parquet"))
    before = _tree(root)
    got = _read(index)
    assert got == _read(plain)
    assert {k: v for k, v in _tree(root).items() if k in before} == before
    # the sealed frames' text was read from the files: the index holds none of it
    term = [r for r in got if r.capture_id == ids["terminal"]]
    assert [(r.kind, r.text) for r in term] == [(OCR, TERMINAL_OCR)]
    src = ScreenpipeSource(index)
    assert src.screen_text_sources() == {
        ACCESSIBILITY: "frames",
        OCR: "frames",
        ELEMENT: "elements",
    }
    src.close()


def test_staged_changes_win_over_the_files(stores: tuple[Path, Path, dict[str, int]]) -> None:
    plain, index, ids = stores
    dash = ids["dashboard"]
    redacted = "Quarterly churn dashboard\n[redacted]"
    restage(index, dash, redacted, redacted)
    rows = _read(plain)
    els = {r.text: r.row_id for r in rows if r.kind == ELEMENT and r.capture_id == dash}
    stage_element(index, els["Export CSV"])  # deleted
    stage_element(index, els["Invoice INV-2291 overdue"], text="Invoice [redacted] overdue")
    got = [r for r in _read(index) if r.capture_id == dash]
    assert [r.text for r in got if r.kind == ACCESSIBILITY] == [
        "Quarterly churn dashboard\n[redacted]"
    ]
    assert [r.text for r in got if r.kind == ELEMENT] == [
        "Quarterly churn dashboard",
        "Net revenue retention 93%",
        "Invoice [redacted] overdue",
    ]
    assert not [r for r in got if r.kind == OCR]  # full_text is the accessibility text


def test_a_payload_that_cannot_be_read(
    stores: tuple[Path, Path, dict[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain, index, ids = stores
    root = index.parents[2]
    search = next(root.rglob("search.parquet"))
    search.write_bytes(search.read_bytes()[:-1] + b"!")
    rel = search.relative_to(root).as_posix()
    with pytest.raises(SourceError, match=f"{rel} does not match its checksum"):
        _read(index)
    problems: list[str] = []
    got = _read(index, problems=problems)
    assert problems == [
        f"screenpipe payload {rel} does not match its checksum: its screen text is missing"
    ]
    sealed, archived = _moved(index)
    assert sealed == {ids["terminal"], ids["dashboard"], ids["slack"]}
    kept = [r for r in _read(plain) if r.capture_id not in sealed or r.kind == ELEMENT]
    assert got == kept
    # without pyarrow: one line that says how to install it
    monkeypatch.setattr(screen_payloads, "parquet_available", lambda: False)
    with pytest.raises(SourceError, match=r"pyarrow is not installed: pip install"):
        _read(index)
    problems.clear()
    rest = _read(index, problems=problems)
    assert problems == [screen_payloads.NO_PYARROW]
    assert rest == [r for r in kept if not (r.kind == ELEMENT and r.row_id <= archived)]
    assert {r.kind for r in rest} == {ELEMENT, OCR, ACCESSIBILITY}


def _moved(index: Path) -> tuple[set[int], int]:
    """The sealed frames and the largest archived element id of the index."""
    conn = sqlite3.connect(index)
    try:
        q = "SELECT frame_id FROM frame_payloads WHERE state = 'sealed'"
        sealed = {r[0] for r in conn.execute(q)}
        (archived,) = conn.execute("SELECT max(last_id) FROM _bulk_element_ranges").fetchone()
    finally:
        conn.close()
    return sealed, archived
