"""The click group of ``actframes`` and its core commands (``day``, ``context``, ``apps``,
``demo``); the others load lazily (``LAZY_COMMANDS``). Imported only when a call needs
click: a plain ``actframes day`` runs without it (see ``cli``)."""

from __future__ import annotations

from pathlib import Path

import click

from . import __version__
from .cli import (
    FORMATS,
    HELP,
    LAZY_COMMANDS,
    _budget,
    _one_shot,
    _open,
    _options,
    _out,
    compile_day_cli,
    ledger_table,
    machine_zone,
    min_minutes_option,
    now_ms,
    out_option,
    run_day,
    since_window,
    store_options,
    today,
)
from .demo_constants import DEMO_DAY, DEMO_DAYS, DEMO_TZ
from .errors import UsageError


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            import importlib

            module, _, attr = LAZY_COMMANDS[cmd_name].partition(":")
            command: click.Command = getattr(importlib.import_module(module), attr)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings=HELP)
@click.version_option(__version__, prog_name="actframes")
def cli() -> None:
    """Compile screen-activity capture into deterministic activity frames."""


@cli.command()
@click.argument("date", required=False)
@store_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="json",
    show_default=True,
    help="json (canonical), yaml, md, context (for a prompt, within --budget) or html.",
)
@min_minutes_option
@click.option(
    "--budget",
    type=int,
    default=1500,
    show_default=True,
    help="Token budget (o200k) for --format context.",
)
@click.option(
    "--no-cache", is_flag=True, help="Compile afresh; neither read nor write the document cache."
)
def day(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    fmt: str,
    min_minutes: float,
    budget: int,
    no_cache: bool,
) -> None:
    """Compile one local DATE (YYYY-MM-DD, today or yesterday; default today).

    Documents are cached (in $XDG_CACHE_HOME/actframes, or $ACTFRAMES_CACHE; "off"
    disables it) and served again only while the store holds the same rows for the day.
    """
    run_day(date, db, tz, source, fmt, min_minutes, budget, no_cache)


@cli.command()
@click.option("--hours", type=float, help="The last N hours (default 2).")
@click.option("--since", metavar="TIME", help="Start: YYYY-MM-DD[THH:MM[:SS]], local to --tz.")
@click.option("--until", metavar="TIME", help="End (default now).")
@store_options
@click.option(
    "--budget", type=int, default=1500, show_default=True, help="Token budget (o200k tokens)."
)
@min_minutes_option
def context(
    hours: float | None,
    since: str | None,
    until: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    budget: int,
    min_minutes: float,
) -> None:
    """Print the context block for a window of time (for a prompt)."""
    _one_shot()
    from .api import compile_window
    from .emit.context import to_context
    from .window import hours_window

    zone = tz or machine_zone()
    if hours is not None and (since or until):
        raise UsageError("give --hours or --since/--until, not both")
    window = since_window(since, until, zone) or hours_window(
        hours if hours is not None else 2.0, now_ms(), zone
    )
    src = _open(db, source)
    try:
        doc = compile_window(src, window, _options(min_minutes))
    finally:
        src.close()
    _out(to_context(doc, _budget(budget)))


@cli.command()
@click.argument("date", required=False)
@store_options
@click.option("--by-host", is_flag=True, help="One block of rows per machine (ActivityWatch).")
def apps(
    date: str | None, db: Path | None, tz: str | None, source: str | None, by_host: bool
) -> None:
    """Print the ledger of DATE as a table: time per app and site.

    DATE is YYYY-MM-DD, today or yesterday (default today); active time is H:MM:SS.
    Input a source does not record shows as —, not 0.
    """
    _one_shot()
    _out(ledger_table(compile_day_cli(date, db, tz, source, 0.0), by_host))


@cli.command()
@out_option("demo-out", "Folder for the demo store and its compiled outputs.")
@click.option(
    "--days",
    type=int,
    default=DEMO_DAYS,
    show_default=True,
    help="How many days to simulate, ending yesterday; 1: the fixed one-day demo "
    f"({DEMO_DAY}, {DEMO_TZ}), the same bytes every time.",
)
@click.option(
    "--tz",
    metavar="ZONE",
    help="IANA time zone of the simulated days (default: the machine's zone; the "
    "one-day demo is always in its own).",
)
@click.option(
    "--seed",
    type=int,
    default=7,
    show_default=True,
    help="Seed of the simulation: the same seed, the same content.",
)
@click.option(
    "--budget",
    type=int,
    default=1500,
    show_default=True,
    help="Token budget (o200k) of the context block it shows.",
)
def demo(out: Path, days: int, tz: str | None, seed: int, budget: int) -> None:
    """Simulate work, compile it, and show the result (a store, the documents, a report).

    Several days (the default) end yesterday and hold routines to mine and replay; the
    dates move with the clock, the content is fixed by --seed.
    """
    from .demo import run_demo

    if days < 1:
        raise UsageError("--days must be at least 1")
    zone = tz or machine_zone()
    _out(run_demo(out, seed=seed, budget=_budget(budget), days=days, today=today(zone), tz=zone))
