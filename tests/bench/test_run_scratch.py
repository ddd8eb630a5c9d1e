"""benchmarks/run.py removes each benchmark's work folders when it ends, however it ends,
and keeps the cached datasets (.bench/data)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

RUN = Path(__file__).resolve().parents[2] / "benchmarks" / "run.py"


@pytest.fixture
def bench(tmp_path: Path) -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("bench_run_scratch", RUN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run_scratch"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    module.BENCH_DIR = tmp_path / ".bench"
    module.DATA_DIR = module.BENCH_DIR / "data"
    module.RESULTS = module.BENCH_DIR / "results.json"
    yield module
    del sys.modules["bench_run_scratch"]


def test_a_real_benchmark_leaves_only_its_dataset_and_the_results(bench: ModuleType) -> None:
    """mcp-context builds the demo store once (kept in data/) and serves it with a cache
    folder of its own (removed)."""
    pytest.importorskip("mcp", reason="needs mcp: pip install -e '.[mcp]'")
    assert bench.main(["--only", "mcp-context", "--runs", "1", "--no-ref"]) == 0
    assert sorted(p.name for p in bench.BENCH_DIR.iterdir()) == ["data", "results.json"]
    assert [p.suffix for p in bench.DATA_DIR.iterdir()] == [".db"]


def test_a_failing_benchmark_removes_its_folders_too(bench: ModuleType) -> None:
    bench.BENCH_DIR.mkdir()
    made: list[Path] = []

    def broken(ctx: Any) -> dict[str, Any]:
        for prefix in ("today-", "warm-cache-"):
            work = bench._scratch(prefix)
            (work / "store.db").write_bytes(b"rows")
            made.append(work)
        raise RuntimeError("the benchmark broke")

    bench.benchmark("broken", "fails half-way")(broken)
    with pytest.raises(RuntimeError, match="broke"):
        bench.run_benchmark("broken", None)
    assert len(made) == 2 and not any(p.exists() for p in made)
    assert list(bench.BENCH_DIR.iterdir()) == []
