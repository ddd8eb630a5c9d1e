"""A summer-2026 workday in a store migrated to hybrid-parquet-v1 (screenpipe_migrate.py):
the same document and the same steps as the same day in plain SQLite, read through the
index and its Parquet payloads; the stale db.sqlite never read; a payload that is
missing, altered, or unreadable for want of pyarrow is said in one line, never fatal;
nothing of the store is changed (SPEC.md §1.2d)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from actframes.api import compile_path, open_store
from actframes.sources.screenpipe import payloads as screenpipe_payloads
from actframes.sources.screenpipe.input import ESTIMATE_NOTE

from .screenpipe_summer import make_summer_day
from .test_screenpipe_summer import DAY, T0, summer_store

pq = pytest.importorskip(
    "pyarrow.parquet", reason="pyarrow missing: pip install -e '.[parquet]' (or '.[all]')"
)
from .screenpipe_migrate import BULK_GROUP_ROWS, FRAME_GROUP_ROWS, migrate  # noqa: E402

EMPTY = hashlib.sha256(b"").hexdigest()
MIGRATED = T0 + 3_600_000  # screenpipe migrated the store an hour into the day
SEALED = T0 + 7_000_000  # its last sealing: later rows still staged in the index


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the plain store, the path a user gives for the migrated one), one day."""
    folder = tmp_path_factory.mktemp("hybrid")
    plain = folder / "plain.sqlite"
    summer_store(plain, make_summer_day(seed=7, start_ms=T0))
    return plain, migrate(plain, folder / "root", MIGRATED, SEALED)


def _doc(path: Path) -> dict[str, Any]:
    doc = dict(compile_path(path, DAY, "UTC"))
    doc.pop("source")  # kind and a digest of the rows read: the index's rows differ
    return doc


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_the_day_reads_as_in_plain_sqlite(stores: tuple[Path, Path]) -> None:
    plain, given = stores
    index = given.parent / "storage"
    archived = list(index.rglob("bulk-v1/ui_events/*.parquet"))
    assert archived and list(index.rglob("search.parquet"))  # the fixture sealed rows
    before = _tree(given.parent)
    assert _doc(given) == _doc(plain)
    after = _tree(given.parent)
    assert {k: after[k] for k in before} == before  # no file of the store changed
    # The index is in WAL mode (screenpipe's durable-wal): SQLite's reader of it makes
    # the shared-memory file, and an empty log, as beside a running screenpipe's store.
    new = {k: v for k, v in after.items() if k not in before}
    assert {Path(k).name for k in new} <= {"index.sqlite-shm", "index.sqlite-wal"}
    assert all(v == EMPTY for k, v in new.items() if k.endswith("-wal"))


def test_steps_take_titles_urls_and_targets_from_the_payloads(stores: tuple[Path, Path]) -> None:
    plain, given = stores
    frames = [f["id"] for f in compile_path(plain, DAY, "UTC")["frames"]]
    with open_store(plain) as a, open_store(given) as b:
        for fid in frames[:12]:
            want = a.steps("UTC", fid, DAY, include_text=True)
            assert b.steps("UTC", fid, DAY, include_text=True) == want
            assert want[1]  # the frame has steps to compare


def test_the_stale_db_sqlite_is_never_read(stores: tuple[Path, Path], tmp_path: Path) -> None:
    import shutil

    _, given = stores
    alone = tmp_path / "db.sqlite"  # the frozen copy, read without its storage.json
    shutil.copyfile(given, alone)
    stale = _doc(alone)
    doc = _doc(given)
    assert max(f["end"] for f in stale["frames"]) < "2026-08-24T10:00:01"
    assert max(f["end"] for f in doc["frames"]) > "2026-08-24T10:30:00"
    index = next(given.parent.rglob("index.sqlite"))
    assert _doc(index) == doc  # the index given itself reads the same


def test_without_pyarrow_the_note_names_the_extra(
    stores: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain, given = stores
    monkeypatch.setattr(screenpipe_payloads, "parquet_available", lambda: False)
    doc = _doc(given)
    want = _doc(plain)
    assert screenpipe_payloads.MISSING_NOTE in doc["blind_spots"]
    assert ESTIMATE_NOTE in doc["blind_spots"]  # typed characters from text_length
    assert [(e["app"], e["active_s"], e["clicks"]) for e in doc["ledger"]] == [
        (e["app"], e["active_s"], e["clicks"]) for e in want["ledger"]
    ]


def test_an_altered_payload_is_one_line_and_not_fatal(
    stores: tuple[Path, Path], tmp_path: Path
) -> None:
    import shutil

    _, given = stores
    root = tmp_path / "root"
    shutil.copytree(given.parent, root)
    bulk = next(root.rglob("bulk-v1/ui_events/*.parquet"))
    data = bytearray(bulk.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bulk.write_bytes(bytes(data))
    doc = _doc(root / "db.sqlite")
    lines = [b for b in doc["blind_spots"] if "screenpipe payload" in b]
    rel = bulk.relative_to(root).as_posix()
    assert lines == [
        f"screenpipe payload {rel} does not match its checksum: its input events' titles,"
        " URLs and text are missing"
    ]
    assert doc["ledger"] and doc["coverage"]["active_s"] > 0


def test_the_payload_files_are_laid_out_as_upstream_writes_them(
    stores: tuple[Path, Path],
) -> None:
    _, given = stores
    root = given.parent
    desc = json.loads((root / "storage.json").read_text())
    assert desc["index"] == f"storage/{desc['generation']}/index.sqlite"
    for path in root.rglob("*.parquet"):
        meta = pq.ParquetFile(path).metadata
        assert b"ARROW:schema" not in (meta.metadata or {})  # low-level writer: no schema
        assert meta.schema.column(0).name == "id" and meta.schema.column(1).name == "generation"
        rows = BULK_GROUP_ROWS if "bulk-v1" in path.parts else FRAME_GROUP_ROWS
        assert all(meta.row_group(i).num_rows <= rows for i in range(meta.num_row_groups))
        assert meta.row_group(0).column(2).compression == "ZSTD"


def test_the_cache_tells_a_read_without_pyarrow_apart(
    stores: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A day cached while pyarrow was missing is not served once it is installed."""
    from actframes.sources import open_source
    from actframes.sources.screenpipe import steps_fingerprint

    _, given = stores
    window = (T0, T0 + 86_400_000)

    def fingerprint() -> str | None:
        src = open_source(given)
        try:
            one = src.fingerprint(*window)
            assert src.fingerprints([window]) == [one]
            return one
        finally:
            src.close()

    def steps() -> str | None:
        return steps_fingerprint.fingerprints(next(given.parent.rglob("index.sqlite")), [window])[0]

    with_it, steps_with_it = fingerprint(), steps()
    monkeypatch.setattr(screenpipe_payloads, "parquet_available", lambda: False)
    without, steps_without = fingerprint(), steps()
    assert with_it and without and with_it != without
    assert steps_with_it and steps_without and steps_with_it != steps_without
