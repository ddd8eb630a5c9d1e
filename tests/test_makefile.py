"""`make` on a machine whose Python cannot run the project: one line saying what to
install, before anything is made, instead of a failed virtualenv or a traceback."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Stand-ins for a machine's `python3`, answering the checks' `-c` programs as that
# Python would: by the program's text, the version it prints or the status it exits with.
PYTHONS = {
    "old": 'case "$2" in *print*) echo 3.9;; *version_info*) exit 1;; *) exit 0;; esac',
    "no-venv": 'case "$2" in *print*) echo 3.11;; *ensurepip*) exit 1;; *) exit 0;; esac',
    "broken": "exit 127",
}
SAID = {
    "old": "python3 is Python 3.9",
    "no-venv": "python3 3.11 has no venv module",
    "broken": "python3 does not run",
    "missing": "no python3 on the PATH",
}


def machine(tmp_path: Path, kind: str) -> tuple[Path, dict[str, str]]:
    """A copy of what `make` reads, and a PATH whose `python3` is of ``kind``."""
    clone = tmp_path / "clone"
    (clone / "tools").mkdir(parents=True)
    for rel in ("Makefile", "pyproject.toml", "tools/need-python.sh"):
        shutil.copy2(ROOT / rel, clone / rel)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("sh", "make", "rm", "mkdir", "ln", "touch", "echo"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    if kind in PYTHONS:
        fake = bin_dir / "python3"
        fake.write_text(f"#!/bin/sh\n{PYTHONS[kind]}\n")
        fake.chmod(0o755)
    return clone, {"PATH": str(bin_dir), "HOME": str(tmp_path / "home"), "LANG": "C"}


@pytest.mark.parametrize("target", ["demo", "test", "install"])
@pytest.mark.parametrize("kind", sorted(SAID))
def test_a_python_that_cannot_run_it_gets_one_line(tmp_path: Path, kind: str, target: str) -> None:
    clone, env = machine(tmp_path, kind)
    proc = subprocess.run(["make", target], cwd=clone, env=env, capture_output=True, text=True)
    assert proc.returncode != 0
    ours = [line for line in proc.stderr.splitlines() if not line.startswith("make")]
    assert len(ours) == 1, proc.stderr  # make adds its own "Error 1" line
    line = ours[0]
    assert line.startswith(f"actframes needs Python 3.11+ with venv ({SAID[kind]})")
    for distro in ("sudo apt install python3 python3-venv", "sudo dnf install python3", "brew"):
        assert distro in line
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not (clone / ".venv").exists()  # nothing made before the check
    assert not (tmp_path / "home" / ".local").exists()


def test_a_good_python_passes_the_check() -> None:
    proc = subprocess.run(
        [str(ROOT / "tools" / "need-python.sh"), shutil.which("python3") or "python3"],
        capture_output=True,
        text=True,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
