"""Loaded by the ``actframes`` program, the CLI holds the cyclic collector off through its
imports: a plain ``day`` keeps it off (one shot), every other command turns it back on (a
server or a recorder runs for hours), and a library import never touches it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ..builders import screenpipe_db

# argv[0] as the console script sets it; main() then runs the command given after it.
LAUNCH = (
    "import gc, sys; sys.argv = [{prog!r}, *sys.argv[1:]]; import actframes.cli as cli;"
    " sys.stderr.write(f'import:{{gc.isenabled()}} '); cli.common.exit_now = lambda: None\n"
    "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
    "sys.stdout.flush(); sys.stderr.write(f'after:{{gc.isenabled()}}')"
)


def _run(prog: str, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", LAUNCH.format(prog=prog), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.stderr.strip().splitlines()[-1]


def test_plain_day_keeps_it_off(tmp_path: Path) -> None:
    db = screenpipe_db(tmp_path / "sp.db", [(1, "2026-03-10T09:00:00Z", "Code", "x")])
    day = ("day", "2026-03-10", "--db", str(db), "--tz", "UTC", "--no-cache")
    assert _run("/usr/local/bin/actframes", *day) == "import:False after:False"


def test_any_other_command_turns_it_back_on() -> None:
    assert _run("/usr/local/bin/actframes", "--version") == "import:False after:True"
    assert _run("actframes", "day", "--help") == "import:False after:True"


def test_another_program_importing_the_cli_is_left_alone() -> None:
    assert _run("python", "--version").endswith("import:True after:True")
