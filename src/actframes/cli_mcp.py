"""``actframes mcp``: the MCP server on stdio (registered lazily in cli.LAZY_COMMANDS)."""

from __future__ import annotations

from pathlib import Path

import click

from .cli import HELP, default_db, machine_zone, now_ms, store_options


@click.command(context_settings=HELP)
@store_options
def mcp(db: Path | None, tz: str | None, source: str | None) -> None:
    """Serve the user's measured activity to agents over MCP (stdio).

    Set up: `claude mcp add actframes -- actframes mcp`. The store is opened read-only on
    every call, so a recorder may keep writing it.
    """
    from .mcp_server import build_server

    zone = tz or machine_zone()
    build_server(db or default_db(), zone, source, now_ms).run()
