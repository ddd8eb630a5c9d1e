"""docs/cli.md is generated from the commands' own --help; this fails when they drift.

Regenerate with `UPDATE_GOLDEN=1 make test`.
"""

from __future__ import annotations

import os
from pathlib import Path

import click
from click.testing import CliRunner

from actframes.cli.group import cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _walk(group: click.Group, prefix: list[str]) -> list[list[str]]:
    ctx = click.Context(group)
    paths = []
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None
        paths.append([*prefix, name])
        if isinstance(cmd, click.Group):
            paths += _walk(cmd, [*prefix, name])
    return paths


def render() -> str:
    runner = CliRunner()
    parts = [
        "# Command line reference",
        "",
        "Generated from `actframes … --help`; `tests/cli/test_docs.py` keeps it current.",
    ]
    for path in [[], *_walk(cli, [])]:
        result = runner.invoke(cli, [*path, "--help"], prog_name="actframes", terminal_width=88)
        assert result.exit_code == 0, result.output
        title = " ".join(["actframes", *path])
        parts += ["", f"## `{title}`", "", "```", result.output.rstrip(), "```"]
    return "\n".join(parts) + "\n"


def test_cli_reference_is_current() -> None:
    text = render()
    if os.environ.get("UPDATE_GOLDEN"):
        DOC.parent.mkdir(exist_ok=True)
        DOC.write_text(text, encoding="utf-8")
    assert DOC.exists() and DOC.read_text(encoding="utf-8") == text, (
        "docs/cli.md is out of date: run UPDATE_GOLDEN=1 make test"
    )
