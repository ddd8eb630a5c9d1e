"""Every place the CLI writes, asked to write where it cannot: under a regular file, under a
symbolic link to nothing, or into a folder that does not exist. Everything runs as root
here, so an unwritable target is made of paths, not permissions. Each is one line on
stderr naming the path, exit 1, no traceback, before any work, and nothing left behind.
The real entry point runs in a subprocess, as the console script does."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from actframes.demo import DEMO_DAY, DEMO_TZ

from ..builders import cli_env, run_cli, run_entry


def actframes(*args: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    return run_entry(*args, cwd=cwd, env=env)


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A folder holding a regular file ``afile`` and a link ``dangling`` to nothing."""
    (tmp_path / "afile").write_bytes(b"the user's file\n")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone" / "away")
    return tmp_path


def listing(folder: Path) -> dict[str, bytes | str]:
    return {
        str(p.relative_to(folder)): os.readlink(p) if p.is_symlink() else p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_symlink() or p.is_file()
    }


TARGETS = [
    # (the target as given, the part of it that blocks, what is said about it)
    ("afile/out", "'afile' is a file, not a folder"),
    ("afile/a/b", "'afile' is a file, not a folder"),
    ("dangling", "'dangling' is a symbolic link to nothing"),
    ("dangling/out", "'dangling' is a symbolic link to nothing"),
]

FOLDER_COMMANDS = [
    ["demo", "--days", "1", "--out"],
    ["bench", "qa", "--db", "{db}", "--tz", DEMO_TZ, "--quiet", "--out"],
    ["bench", "suite", "--quiet", "--out"],
    ["bench", "routines", "--no-sim", "--store", "{db}", DEMO_TZ, "--out"],
    ["team", "compile", "manifest.csv", "--engine", "local", "--out"],
    ["team", "report", ".", "--no-charts", "--out"],
]


def assert_refused(got: tuple[int, str, str], target: str, says: str) -> None:
    code, out, err = got
    assert (code, out) == (1, ""), err
    assert err.startswith(f"actframes: error: {target}: cannot write here: ")
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


@pytest.mark.parametrize("command", FOLDER_COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize(("target", "says"), TARGETS)
def test_an_output_folder_that_cannot_be_made(
    demo_db: Path, place: Path, command: list[str], target: str, says: str
) -> None:
    (place / "manifest.csv").write_text(
        f"person,store,tz,start,end\np1,{demo_db},{DEMO_TZ},{DEMO_DAY},{DEMO_DAY}\n"
    )
    before = listing(place)
    args = [a.replace("{db}", str(demo_db)) for a in command]
    assert_refused(actframes(*args, target, cwd=place), target, says)
    assert listing(place) == before  # nothing made, the user's file as it was


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("afile/day.html", "'afile' is a file, not a folder"),
        ("dangling/day.html", "'dangling' is a symbolic link to nothing"),
        ("no-folder/day.html", "no such folder 'no-folder'"),
        # A link to a file in a folder that does not exist: the page would go there.
        ("dangling", "no such folder"),
        # A folder's name: the file "afile" is not written over.
        ("afile/", "a file name, not a folder, is needed"),
    ],
)
def test_a_report_page_that_cannot_be_written(
    demo_db: Path, place: Path, target: str, says: str
) -> None:
    before = listing(place)
    args = ["report", DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ, "--html", target]
    assert_refused(actframes(*args, cwd=place), target, says)
    assert listing(place) == before


def test_a_report_page_through_a_link_keeps_the_link(demo_db: Path, tmp_path: Path) -> None:
    """Written as a plain open() would: to the link's target, the link left in place."""
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "day.html").write_text("old page")
    link = tmp_path / "latest.html"
    link.symlink_to(pages / "day.html")
    args = ["report", DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ, "--html", str(link)]
    code, out, err = actframes(*args, cwd=tmp_path)
    assert (code, out, err) == (0, f"{link}\n", "")
    assert link.is_symlink() and os.readlink(link) == str(pages / "day.html")
    assert (pages / "day.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in pages.iterdir()) == ["day.html"]  # no temporary left


def test_a_cache_folder_that_cannot_be_made_only_costs_time(demo_db: Path, place: Path) -> None:
    """The document cache is the one write target that is not an error: a cache that
    cannot be written is only slower (SPEC), the document is the same bytes."""
    args = ["day", DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ]
    fresh = run_cli(*args, "--no-cache")
    assert fresh.returncode == 0 and json.loads(fresh.stdout)["frames"]
    before = listing(place)
    for cache in ("afile/cache", "dangling", "dangling/cache"):
        env = cli_env(ACTFRAMES_CACHE=str(place / cache))
        assert actframes(*args, cwd=place, env=env) == (0, fresh.stdout, "")
    assert listing(place) == before
