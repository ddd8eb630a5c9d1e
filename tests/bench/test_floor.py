"""benchmarks/floor.py, the floor of the `floor-*` benchmarks, fetches the very rows the
screenpipe reader reads for the day: its time is a fair lower bound only if so."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from actframes.simulate import simulate_day, write_screenpipe
from actframes.sources import open_source
from actframes.window import day_window

FLOOR = Path(__file__).resolve().parents[2] / "benchmarks" / "floor.py"
DAY, TZ = "2026-03-10", "UTC"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("floor") / "sp.db"
    write_screenpipe(db, simulate_day(DAY, TZ, seed=3, rows=400))
    return db


def test_floor_fetches_the_rows_the_reader_reads(store: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(FLOOR), str(store), DAY, TZ],
        capture_output=True,
        text=True,
        check=True,
    )
    counts = json.loads(out.stdout)
    window = day_window(DAY, TZ)
    src = open_source(store)
    try:
        cap = src.read(window.start_ms, window.end_ms)
    finally:
        src.close()
    assert counts["frames"] == len(cap.snapshots) > 300
    assert counts["events"] == len(cap.all_events()) > 1000


def test_floor_imports_nothing_of_actframes(store: Path) -> None:
    """A floor that imported the package would no longer be the least a program spends."""
    probe = (
        "import runpy, sys; sys.argv = sys.argv[1:]; "
        "runpy.run_path(sys.argv[0], run_name='__main__'); "
        "print(sorted(m for m in sys.modules if m.startswith('actframes')), file=sys.stderr)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(FLOOR), str(store), DAY, TZ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stderr.strip() == "[]"
