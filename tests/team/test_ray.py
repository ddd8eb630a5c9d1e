"""The same team on Ray: a private local Ray of 2 workers on the loopback interface,
started once for this module. Every dataset and every per-person-day document is the
same as the in-process compile's, byte for byte for the documents."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from actframes.cli import main
from actframes.team import datasets as ds
from actframes.team.engine import RayEngine
from actframes.team.run import compile_team

from .conftest import Team


@pytest.fixture(scope="module")
def engine() -> Iterator[RayEngine]:
    assert not ray.is_initialized()
    eng = RayEngine(2)
    try:
        yield eng
    finally:
        eng.close()
    assert not ray.is_initialized()


def test_ray_is_local_on_loopback_with_two_workers(engine: RayEngine) -> None:
    nodes = ray.nodes()
    assert len(nodes) == 1 and nodes[0]["NodeManagerAddress"] == "127.0.0.1"
    assert ray.cluster_resources()["CPU"] == 2
    assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")


def test_ray_gives_the_in_process_results(
    engine: RayEngine, team: Team, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ray"
    s = compile_team(team.people, out, engine, docs=True)
    assert [(f.person, f.day) for f in s.failures] == [("broken", "2026-03-02")]
    assert s.failures[0].reason == team.summary.failures[0].reason
    assert (s.compiled, s.source_rows) == (team.summary.compiled, team.summary.source_rows)
    # The tasks ran in Ray's worker processes, not in this one.
    assert s.worker_peak_rss_kb and os.getpid() not in s.worker_peak_rss_kb

    local_docs = sorted(p.relative_to(team.out) for p in (team.out / "docs").rglob("*.json"))
    ray_docs = sorted(p.relative_to(out) for p in (out / "docs").rglob("*.json"))
    assert ray_docs == local_docs and len(ray_docs) == s.compiled
    for rel in local_docs:
        assert (out / rel).read_bytes() == (team.out / rel).read_bytes(), rel
    for name in ds.SCHEMAS:
        assert ds.read(out, name).equals(ds.read(team.out, name)), name

    # The command, on the Ray this module started: a re-run compiles nothing again.
    with pytest.raises(SystemExit) as e:
        main(["team", "compile", str(team.manifest), "--out", str(out), "--docs"])
    assert e.value.code == 1  # the broken store is still broken
    err = capsys.readouterr().err
    assert f"0 compiled, {s.compiled} unchanged, 1 failed" in err and "engine ray" in err
