"""``actframes mcp``: the MCP server on stdio (loaded only when invoked)."""

from __future__ import annotations

import gc
import os
import shutil
import signal
import sys
from pathlib import Path

import click

from ..mcp.client_config import KINDS
from .common import HELP, Process, default_db, machine_zone, now_ms, store_options, write_out


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
@click.option(
    "--no-screen-text",
    is_flag=True,
    help="Do not offer search_screen: the store's screen text is neither indexed nor searched.",
)
@click.option(
    "--print-config",
    "print_config",
    type=click.Choice(KINDS),
    help="Print a client configuration that starts this server (absolute paths of the "
    "command and the store, and the options given here) instead of serving.",
)
def mcp(
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    allow_replay: bool,
    allow_destructive_replay: bool,
    replay_user_data_dir: Path | None,
    no_screen_text: bool,
    print_config: str | None,
) -> None:
    """Serve the user's measured activity to agents over MCP (stdio).

    Set up: `actframes mcp --print-config claude-code` prints the line that registers it
    (claude-desktop, generic: the JSON for other clients). The store is opened read-only
    and a recorder may keep writing it: what the server compiled is kept (in memory, and
    whole days in the cache `actframes cache info` shows) and used again only while the
    store holds the same rows for it. Replaying routines in a browser is off unless
    --allow-replay (or --allow-destructive-replay) is given.
    """
    if print_config is not None:
        _print_config(
            print_config,
            db,
            tz,
            source,
            allow_replay,
            allow_destructive_replay,
            replay_user_data_dir,
            no_audible_active,
            no_screen_text,
        )
        return
    from ..mcp.server import ReplayPolicy, build_server
    from ..progress import quiet

    quiet()  # stdio belongs to the protocol: no progress bars, whatever the terminal

    zone = tz or machine_zone()
    policy = ReplayPolicy(allow_replay, allow_destructive_replay, replay_user_data_dir)
    from ..rule_files import category_rules, project_rules
    from .options import RuleFiles

    # A bad rules file stops the server before it serves (one line, exit 2), not at
    # the first call.
    project_rules(RuleFiles.projects)
    category_rules(RuleFiles.categories)
    server = build_server(
        db or default_db(),
        zone,
        source,
        now_ms,
        policy,
        audible_active=not no_audible_active,
        projects=RuleFiles.projects,
        categories=RuleFiles.categories,
        screen_text=not no_screen_text,
    )
    # What the imports made (the SDK, pydantic, the compiler) lives as long as the
    # process: frozen out of the collector, a full collection walks only what the calls
    # keep, not ~all of it (70-130 ms pauses on a busy 2-core machine, the slow calls of
    # a warm server).
    gc.freeze()
    # The SDK reads stdin in a worker thread that no cancel reaches: on Ctrl-C, asyncio
    # would wait for a line that may never come. End at once, as ``cli.main`` reports it.
    restore = None
    if Process.entry and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        restore = signal.signal(signal.SIGINT, _interrupted)
    try:
        server.run()
    finally:
        if restore is not None:
            signal.signal(signal.SIGINT, restore)


def _interrupted(signum: int, frame: object) -> None:
    os.write(2, b"actframes: error: interrupted\n")
    os._exit(130)


def _print_config(
    kind: str,
    db: Path | None,
    tz: str | None,
    source: str | None,
    allow_replay: bool,
    allow_destructive_replay: bool,
    replay_user_data_dir: Path | None,
    no_audible_active: bool = False,
    no_screen_text: bool = False,
) -> None:
    from ..mcp.client_config import note, render
    from .options import RuleFiles

    store = Path(os.path.abspath((db or default_db()).expanduser()))
    args = [*_server_command(), "mcp", "--db", str(store)]
    if tz:
        args += ["--tz", tz]
    if source:
        args += ["--source", source]
    if no_audible_active:
        args.append("--no-audible-active")
    if no_screen_text:
        args.append("--no-screen-text")
    for flag, given in (("--projects", RuleFiles.projects), ("--categories", RuleFiles.categories)):
        if given is not None:
            args += [flag, os.path.abspath(given.expanduser())]
    if allow_destructive_replay:
        args.append("--allow-destructive-replay")
    elif allow_replay:
        args.append("--allow-replay")
    if replay_user_data_dir is not None:
        args += ["--replay-user-data-dir", os.path.abspath(replay_user_data_dir.expanduser())]
    write_out(render(kind, args))
    click.echo(f"actframes: {note(kind)}", err=True)
    if not store.exists():
        click.echo(
            f"actframes: no store at {store} yet (`actframes demo` writes one; "
            "`actframes record start` records one)",
            err=True,
        )


def _server_command() -> list[str]:
    """The absolute command that runs this same installation: the ``actframes`` script
    that was started (its path kept as given, so a link in ~/.local/bin stays valid
    across reinstalls), else the one on the PATH, else this interpreter."""
    started = sys.argv[0] if sys.argv else ""
    if os.path.basename(started) == "actframes" and os.access(started, os.X_OK):
        return [os.path.abspath(started)]
    found = shutil.which("actframes")
    if found:
        return [os.path.abspath(found)]
    return [sys.executable, "-m", "actframes.cli"]
