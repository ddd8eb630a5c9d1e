"""The archived-row reader (``sources/screenpipe/payloads.py``) on one bulk file: which
columns a row's ``_archive_mask`` sends to the file, the generation and id it must find
there, and files it must refuse (SPEC.md §1.2d)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from actframes.sources.screenpipe.payloads import UI_EVENTS_COLUMNS, BulkReader

pytest.importorskip("pyarrow", reason="pyarrow missing: pip install -e '.[parquet]'")
from .screenpipe_migrate import write_payload

GEN = "g1"
REL = f"storage/{GEN}/payloads/bulk-v1/ui_events/f.parquet"
ALL_IN_FILE = 0  # every bit clear: every column archived
TITLE_KEPT = 1 << UI_EVENTS_COLUMNS.index("window_title")  # window_title still in the row


def _store(root: Path, checksum: str | None = None) -> sqlite3.Connection:
    """An index at ``<root>/storage/<G>/index.sqlite`` whose ``_bulk_files`` names one
    file of rows 10, 20 and 30 (generation 1, 1 and 2)."""
    cols: dict[str, list[Any]] = {"id": [10, 20, 30], "generation": [1, 1, 2]}
    for c in UI_EVENTS_COLUMNS:
        cols[c] = [f"{c} of {i}" for i in cols["id"]]
    digest = write_payload(root / REL, cols, 8_192)
    index = root / "storage" / GEN / "index.sqlite"
    conn = sqlite3.connect(index)
    conn.execute(
        "CREATE TABLE _bulk_files (id INTEGER PRIMARY KEY, table_name TEXT, path TEXT,"
        " checksum TEXT, state TEXT, rows INTEGER)"
    )
    conn.execute(
        "INSERT INTO _bulk_files VALUES (1, 'ui_events', ?, ?, 'published', 3)",
        (REL, digest if checksum is None else checksum),
    )
    conn.commit()
    return conn


@pytest.mark.parametrize(
    ("row", "wanted", "expected"),
    [
        ((10, 1, ALL_IN_FILE, 1), ["window_title"], {"window_title": "window_title of 10"}),
        ((20, 1, ALL_IN_FILE, 1), ["text_content", "browser_url"],
         {"text_content": "text_content of 20", "browser_url": "browser_url of 20"}),
        ((10, 1, TITLE_KEPT, 1), ["window_title"], None),  # the row still holds it
        ((10, 1, TITLE_KEPT, 1), ["window_title", "element_name"],
         {"element_name": "element_name of 10"}),
        ((30, 1, ALL_IN_FILE, 1), ["window_title"], None),  # the file holds generation 2
        ((30, 1, ALL_IN_FILE, 2), ["window_title"], {"window_title": "window_title of 30"}),
        ((15, 1, ALL_IN_FILE, 1), ["window_title"], None),  # no such id in the file
        ((10, 2, ALL_IN_FILE, 1), ["window_title"], None),  # no such file
    ],
)  # fmt: skip
def test_mask_generation_and_id(
    tmp_path: Path,
    row: tuple[int, int, int, int],
    wanted: list[str],
    expected: dict[str, str] | None,
) -> None:
    conn = _store(tmp_path)
    got = BulkReader(conn).values([row], wanted)
    assert got.get(row[0]) == expected


@pytest.mark.parametrize(
    ("checksum", "rel", "problem"),
    [
        ("0" * 64, REL, f"{REL} does not match its checksum"),
        (None, "../outside.parquet",
         "_bulk_files row 1: path '../outside.parquet' is not inside the store"),
        (None, f"storage/{GEN}/payloads/bulk-v1/ui_events/gone.parquet",
         f"storage/{GEN}/payloads/bulk-v1/ui_events/gone.parquet is missing"),
    ],
)  # fmt: skip
def test_a_file_it_cannot_trust_is_one_line(
    tmp_path: Path, checksum: str | None, rel: str, problem: str
) -> None:
    conn = _store(tmp_path, checksum)
    conn.execute("UPDATE _bulk_files SET path = ?", (rel,))
    reader = BulkReader(conn)
    assert reader.values([(10, 1, ALL_IN_FILE, 1), (20, 1, ALL_IN_FILE, 1)], ["window_title"]) == {}
    assert reader.problems == [
        f"screenpipe payload {problem}: its input events' titles, URLs and text are missing"
    ]
