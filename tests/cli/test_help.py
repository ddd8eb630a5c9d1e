"""Every option of every command says what it does, and an option name means one thing
across commands (the same type everywhere; --days is always a count of days)."""

from __future__ import annotations

from collections.abc import Iterator

import click

from actframes.cli.group import cli


def commands(group: click.Group, prefix: list[str]) -> Iterator[tuple[str, click.Command]]:
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None
        yield " ".join([*prefix, name]), cmd
        if isinstance(cmd, click.Group):
            yield from commands(cmd, [*prefix, name])


def options() -> Iterator[tuple[str, click.Option]]:
    for path, cmd in commands(cli, []):
        for p in cmd.params:
            if isinstance(p, click.Option):
                yield path, p


def test_every_option_has_help() -> None:
    missing = [f"{path} {'/'.join(p.opts)}" for path, p in options() if not (p.help or "").strip()]
    assert not missing, missing
    assert len(list(options())) > 100  # the walk reached the lazy commands too


def test_one_meaning_per_option_name() -> None:
    kinds: dict[str, set[str]] = {}
    for path, p in options():
        kind = "flag" if p.is_flag else type(p.type).__name__
        for name in p.opts:
            kinds.setdefault(name, set()).add(kind)
            if name == "--days":
                assert isinstance(p.type, click.types.IntParamType), path
    assert {name: k for name, k in kinds.items() if len(k) > 1} == {}
