"""The same team on Ray: a private local Ray of 2 workers on the loopback interface,
started once for this module. Every dataset and every per-person-day document is the
same as the in-process compile's, byte for byte for the documents."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from actframes.cli import main
from actframes.team import datasets as ds
from actframes.team.engine import RayEngine, _plasma_directory
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


def test_plasma_directory_is_ray_own_where_shm_is_writable(tmp_path: Path) -> None:
    assert _plasma_directory(str(tmp_path)) is None
    assert _plasma_directory(str(tmp_path / "absent")) == tempfile.gettempdir()


NO_SHM = """
import ray
from actframes.team.engine import RayEngine
eng = RayEngine(1)
try:
    assert ray.get(ray.put(b"x" * 300_000)) == b"x" * 300_000  # through the object store
finally:
    eng.close()
print("ran")
"""
# A /dev of a few device nodes and no shm, in a mount namespace of the test's own.
BARE_DEV = """set -e
mkdir -p "$1" && mount --bind /dev "$1" && mount -t tmpfs tmpfs /dev
for n in null zero urandom random full; do touch /dev/$n; mount --bind "$1/$n" /dev/$n; done
ln -s /proc/self/fd /dev/fd
shift
exec "$@"
"""


def test_ray_runs_without_dev_shm(tmp_path: Path) -> None:
    """A machine with no /dev/shm (a chroot, some containers): the team's Ray still
    starts and moves objects, through the temp folder."""
    unshare = shutil.which("unshare")
    if unshare is None or os.geteuid() != 0:
        pytest.skip("needs root and unshare (util-linux) to hide /dev/shm")
    bare = [unshare, "--mount", "--propagation", "private", "sh", "-c", BARE_DEV, "sh"]
    proc = subprocess.run(
        [*bare, str(tmp_path / "dev"), sys.executable, "-c", NO_SHM],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0 and "mount:" in proc.stderr and "ran" not in proc.stdout:
        pytest.skip(f"cannot mount a /dev here: {proc.stderr.strip()[:200]}")
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ran"), proc.stderr[-2000:]
