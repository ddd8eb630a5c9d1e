"""``actframes mcp``: the MCP server on stdio (registered lazily in cli.LAZY_COMMANDS)."""

from __future__ import annotations

from pathlib import Path

import click

from .cli import HELP, default_db, machine_zone, now_ms, store_options


@click.command(context_settings=HELP)
@store_options
@click.option(
    "--allow-replay",
    is_flag=True,
    help="Offer the replay_routine tool (drives a local Chromium; destructive steps refused).",
)
@click.option(
    "--allow-destructive-replay",
    is_flag=True,
    help="Offer replay_routine and let it send destructive steps when the call asks to.",
)
@click.option(
    "--replay-user-data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="The browser profile replays use (e.g. a logged-in one); default a fresh one.",
)
def mcp(
    db: Path | None,
    tz: str | None,
    source: str | None,
    allow_replay: bool,
    allow_destructive_replay: bool,
    replay_user_data_dir: Path | None,
) -> None:
    """Serve the user's measured activity to agents over MCP (stdio).

    Set up: `claude mcp add actframes -- actframes mcp`. The store is opened read-only on
    every call, so a recorder may keep writing it. Replaying routines in a browser is
    off unless --allow-replay (or --allow-destructive-replay) is given.
    """
    from .mcp_server import ReplayPolicy, build_server

    zone = tz or machine_zone()
    policy = ReplayPolicy(allow_replay, allow_destructive_replay, replay_user_data_dir)
    build_server(db or default_db(), zone, source, now_ms, policy).run()
