"""The click group of ``actframes``: every command lives in its own module of this
package, imported only when it runs (or when ``--help`` lists them), so ``actframes day``
does not pay for the recorder, the MCP server or the HTML report."""

from __future__ import annotations

import importlib
from typing import Any

import click

from .. import __version__
from .common import HELP, Interrupted, StdoutClosed

# Command name → "module:attribute", one line per command.
COMMANDS: dict[str, str] = {
    "day": "actframes.cli.day:day",
    "context": "actframes.cli.day:context",
    "apps": "actframes.cli.day:apps",
    "demo": "actframes.cli.demo:demo",
    "comms": "actframes.cli.comms:comms",
    "projects": "actframes.cli.projects:projects",
    "period": "actframes.cli.period:period",
    "search": "actframes.cli.search:search",
    "verify": "actframes.cli.verify:verify",
    "tier2": "actframes.cli.tier2:tier2",
    "cache": "actframes.cli.cache:cache",
    "report": "actframes.cli.report:report",
    "bench": "actframes.cli.bench:bench",
    "entity": "actframes.cli.entity:entity",
    "record": "actframes.cli.record:record",
    "mcp": "actframes.cli.mcp:mcp",
    "steps": "actframes.cli.steps:steps",
    "patterns": "actframes.cli.steps:patterns",
    "routines": "actframes.cli.routines:routines",
    "replay": "actframes.cli.replay:replay",
    "team": "actframes.cli.team:team",
    "sources": "actframes.cli.sources:sources",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            module, _, attr = COMMANDS[cmd_name].partition(":")
            command: click.Command = getattr(importlib.import_module(module), attr)
            return command
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        # Out of click's reach: ``cli.main`` ends both as the plain ``day`` path does.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise Interrupted() from exc
        except BrokenPipeError as exc:
            raise StdoutClosed() from exc


@click.group(cls=LazyGroup, context_settings=HELP)
@click.version_option(__version__, prog_name="actframes")
def cli() -> None:
    """Compile screen-activity capture into deterministic activity frames."""
