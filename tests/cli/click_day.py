"""What click's own ``day`` command parses: the reference the fast parser is held to."""

from __future__ import annotations

from typing import Any

import click


def click_day_params(args: list[str]) -> dict[str, Any] | None:
    """The parameters click's ``day`` command parses from ``args``, or None when it
    refuses them (or stops early, as for --help)."""
    from actframes.cli.day import day
    from actframes.cli.group import cli as group

    # Under the group's own context, as a real call (the command caches its help option
    # from the first context it sees: -h comes from the group's settings).
    parent = click.Context(group, info_name="actframes", **group.context_settings)
    try:
        ctx = day.make_context("day", list(args), parent=parent)
    except (click.exceptions.ClickException, click.exceptions.Exit):
        return None
    return dict(ctx.params)
