"""A screenpipe store migrated to hybrid-parquet-v1 storage (SPEC §1.2d): its
``storage.json`` is followed to the index, the stale ``db.sqlite`` beside it is never read,
a descriptor we cannot follow is a one-line error, and nothing in the store changes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from actframes.api import compile_path
from actframes.errors import SourceError
from actframes.sources import open_source
from actframes.sources.discover import describe
from actframes.sources.screenpipe.payloads import MISSING_NOTE
from actframes.sources.screenpipe.storage import StorageError, resolve

from ..builders import cli_env, run_cli, sha256
from .screenpipe_hybrid import DAY, GEN, descriptor, hybrid_store, plain_store


def _index(root: Path) -> Path:
    return root / "storage" / GEN / "index.sqlite"


def _hashes(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): sha256(p) for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("bulk", [False, True])
def test_same_document_as_plain_sqlite(tmp_path: Path, bulk: bool) -> None:
    db = hybrid_store(tmp_path / "root", bulk=bulk)
    plain = compile_path(plain_store(tmp_path / "plain.sqlite"), DAY, "UTC")
    hybrid = compile_path(db, DAY, "UTC")
    assert hybrid["ledger"] == plain["ledger"]
    assert hybrid["frames"] == plain["frames"]
    # The archived rows' text is read from their Parquet file: nothing is missing.
    assert hybrid["blind_spots"] == plain["blind_spots"]
    # The source digest covers the rows read, and archived rows hold NULLs in the index.
    skip = {"source"} if bulk else set()
    assert {k: v for k, v in hybrid.items() if k not in skip} == {
        k: v for k, v in plain.items() if k not in skip
    }


def test_every_way_in_lands_on_the_index(tmp_path: Path) -> None:
    root = tmp_path / "root"
    db = hybrid_store(root)
    assert resolve(db) == _index(root)
    assert resolve(root) == _index(root)
    assert resolve(_index(root)) == _index(root)
    for given in (db, root, _index(root)):
        src = open_source(given)
        try:
            assert src.path == _index(root)
        finally:
            src.close()
    found = describe(db, "default")
    assert found is not None and found.where == str(_index(root)) and found.family == "screenpipe"


def test_stale_db_is_never_read(tmp_path: Path) -> None:
    """The afternoon is only in the index; the stale file's own rows never appear."""
    root = tmp_path / "root"
    db = hybrid_store(root)
    doc = compile_path(db, DAY, "UTC")
    assert any(f["start"].startswith(f"{DAY}T14:") for f in doc["frames"])
    # Rewrite the stale file with an app nobody used after the migration.
    from ..builders import screenpipe_db

    screenpipe_db(db, [(1, f"{DAY}T10:00:00Z", "StaleApp", "old", None, "monitor_0")])
    again = compile_path(db, DAY, "UTC")
    assert again == doc
    assert "StaleApp" not in json.dumps(again)


def test_sqlite_mode_reads_db_sqlite(tmp_path: Path) -> None:
    root = tmp_path / "root"
    db = hybrid_store(root, desc=descriptor(mode="sqlite"))
    assert resolve(db) == db


def test_store_files_unchanged(tmp_path: Path) -> None:
    root = tmp_path / "root"
    db = hybrid_store(root, bulk=True)
    before = _hashes(root)
    compile_path(db, DAY, "UTC")
    out = run_cli("day", DAY, "--db", str(db), "--tz", "UTC", "--format", "json", "--no-cache")
    assert out.returncode == 0, out.stderr
    assert _hashes(root) == before


def _broken(root: Path, text: str) -> Path:
    db = hybrid_store(root)
    (root / "storage.json").write_text(text, encoding="utf-8")
    return db


BROKEN = {
    "format": json.dumps(descriptor(format=2)),
    "mode": json.dumps(descriptor(mode="cloud-v9")),
    "json": '{"format": 1, "mode": ',
    "index": json.dumps(descriptor(index="storage/other/index.sqlite")),
    "dotdot": json.dumps(descriptor(index=f"storage/{GEN}/../{GEN}/index.sqlite")),
    "absolute": json.dumps(descriptor(index=f"/storage/{GEN}/index.sqlite")),
    "array": "[1]",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_unfollowable_descriptor_is_an_error(tmp_path: Path, case: str) -> None:
    root = tmp_path / "root"
    db = _broken(root, BROKEN[case])
    with pytest.raises(StorageError) as err:
        open_source(db)
    assert str(root / "storage.json") in str(err.value)
    assert isinstance(err.value, SourceError)
    found = describe(db, "default")
    assert found is not None and found.family == "?" and "storage.json" in (found.problem or "")


def test_missing_index_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "root"
    db = hybrid_store(root)
    _index(root).unlink()
    with pytest.raises(StorageError, match="does not exist"):
        open_source(db)


@pytest.mark.parametrize("case", ["format", "mode", "json", "missing"])
def test_cli_error_is_one_line(tmp_path: Path, case: str) -> None:
    root = tmp_path / "root"
    if case == "missing":
        db = hybrid_store(root)
        _index(root).unlink()
    else:
        db = _broken(root, BROKEN[case])
    before = _hashes(root)
    out = run_cli("day", DAY, "--db", str(db), "--tz", "UTC", "--no-cache")
    assert out.returncode == 1
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "storage.json" in lines[0], out.stderr
    assert "Traceback" not in out.stderr
    assert _hashes(root) == before


_NO_PYARROW = """
import json, sys
sys.modules["pyarrow"] = None
sys.modules["pyarrow.parquet"] = None
from actframes.api import compile_path
doc = compile_path(sys.argv[1], sys.argv[2], "UTC")
print(json.dumps({"ledger": doc["ledger"], "blind_spots": doc["blind_spots"]}))
"""


def test_without_pyarrow(tmp_path: Path) -> None:
    db = hybrid_store(tmp_path / "root", bulk=True)
    with_it = compile_path(db, DAY, "UTC")
    out = subprocess.run(
        [sys.executable, "-c", _NO_PYARROW, str(db), DAY],
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    got: dict[str, Any] = json.loads(out.stdout)
    assert got["ledger"] == with_it["ledger"]
    assert MISSING_NOTE in got["blind_spots"]


def test_in_place_migration_without_db_sqlite(tmp_path: Path) -> None:
    """After an in-place migration db.sqlite is gone: the default place still finds the
    store, through its storage.json."""
    from actframes.sources.discover import discover

    root = tmp_path / "home" / ".screenpipe"
    db = hybrid_store(root, stale=False)
    assert not db.exists()
    plain = compile_path(plain_store(tmp_path / "plain.sqlite"), DAY, "UTC")
    assert compile_path(db, DAY, "UTC")["ledger"] == plain["ledger"]
    env = {"ACTFRAMES_AW_SERVER": "off"}
    found = [f for f in discover(env, "linux", tmp_path / "home") if f.family == "screenpipe"]
    assert [f.where for f in found] == [str(_index(root))]
