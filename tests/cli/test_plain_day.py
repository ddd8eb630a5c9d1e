"""``actframes day`` parsed without click (cli.fast_day.plain_day) must take exactly what click
takes, with the same values, and leave every other call to click."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.cli.fast_day import plain_day

from .click_day import click_day_params as _click_params

CALLS = [
    [],
    ["2026-03-10"],
    ["2026-03-10", "--db", "x.db", "--tz", "UTC", "--format", "json", "--no-cache"],
    ["--db=x.db", "--tz=Europe/Berlin", "--format=md", "2026-03-10"],
    ["--min-minutes", "2.5", "--budget", "300", "--format", "context"],
    ["--min-minutes", " 1e1 ", "--budget", "1_000"],
    ["--min-minutes", "nan"],
    ["--source", "screenpipe"],
    ["--source", "nope"],
    ["--format", "JSON"],
    ["--budget", "x"],
    ["--budget", "1.5"],
    ["--min-minutes", "x"],
    ["--tz", "UTC", "--tz", "UTC"],
    ["a", "b"],
    ["--no-cache", "--no-cache"],
    ["2023-11-14", "--no-audible-active", "--db", "x.json"],
    ["--no-audible-active", "--no-audible-active"],
    ["--no-audible-active=1"],
    ["--no-cache=1"],
    ["--tz"],
    ["--tz", "-5"],
    ["--db", ""],
    ["--", "2026-03-10"],
    ["-h"],
    ["--help"],
    ["--bogus"],
    ["-"],
]


@pytest.mark.parametrize("args", CALLS, ids=[" ".join(a) or "none" for a in CALLS])
def test_plain_day_takes_what_click_takes(args: list[str]) -> None:
    plain = plain_day(["day", *args])
    if plain is not None:  # taken without click: exactly click's values
        clicked = _click_params(args)
        assert clicked is not None
        # (as text: NaN is not equal to NaN)
        assert repr(sorted(plain.items())) == repr(sorted(clicked.items()))


def test_plain_day_paths_as_click_checks_them(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    db.write_bytes(b"")
    assert plain_day(["day", "--db", str(db)]) == _click_params(["--db", str(db)])
    assert plain_day(["day", "--db", str(db)])["db"] == db
    # A folder passes both: the source refuses it, with every store problem's status (1).
    folder = ["--db", str(tmp_path)]
    assert plain_day(["day", *folder]) == _click_params(folder)
    assert _click_params(folder) is not None


def test_only_plain_day_calls() -> None:
    assert plain_day(["day", "2026-03-10"]) is not None
    for args in (["apps"], ["--version"], ["context", "--hours", "1"], []):
        assert plain_day(args) is None


def test_completion_is_left_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_ACTFRAMES_COMPLETE", "bash_complete")
    assert plain_day(["day", "2026-03-10"]) is None


def test_day_runs_without_click(tmp_path: Path) -> None:
    """The console script's plain `day` never imports click, nor what only a server
    needs (concurrent.futures brings logging and traceback: ~10 ms of a start)."""
    import subprocess
    import sys

    code = (
        "import sys; from actframes import cli; cli.common.exit_now = lambda: None;"
        " sys.argv = ['actframes', 'day', '2026-03-10', '--db', sys.argv[1], '--tz', 'UTC',"
        " '--no-cache']; cli.main(); sys.stdout.flush();"
        " sys.stderr.write(repr(sorted(m for m in ('click', 'dataclasses', 'inspect',"
        " 'concurrent.futures', 'logging') if m in sys.modules)))"
    )
    from ..builders import screenpipe_db

    db = screenpipe_db(tmp_path / "sp.db", [(1, "2026-03-10T09:00:00Z", "Code", "x")])
    proc = subprocess.run(
        [sys.executable, "-c", code, str(db)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "[]"
    assert '"schema_version"' in proc.stdout
