"""``actframes day``, ``context`` and ``apps``: one window of the store, compiled and
printed. A plain ``day`` call runs without click (``fast_day``); its options are
declared once, in ``options.DAY_OPTIONS``."""

from __future__ import annotations

from pathlib import Path

import click

from ..emit.ledger_table import ledger_table
from .common import (
    HELP,
    check_budget,
    compile_day_cli,
    compile_options,
    machine_zone,
    min_minutes_option,
    now_ms,
    one_shot,
    open_cli_store,
    run_day,
    store_options,
    write_out,
)
from .options import DAY_OPTIONS, click_options


@click.command(context_settings=HELP)
@click.argument("date", required=False)
@click_options(DAY_OPTIONS)
def day(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    fmt: str,
    min_minutes: float,
    budget: int,
    no_cache: bool,
) -> None:
    """Compile one local DATE (YYYY-MM-DD, today or yesterday; default today).

    Documents are cached (in $XDG_CACHE_HOME/actframes, or $ACTFRAMES_CACHE; "off"
    disables it) and served again only while the store holds the same rows for the day.
    """
    run_day(date, db, tz, source, no_audible_active, fmt, min_minutes, budget, no_cache)


# How ``context`` spells the window's parameters in its usage errors (window.resolve).
CONTEXT_WINDOW = {"hours": "--hours", "since": "--since", "until": "--until"}


@click.command(context_settings=HELP)
@click.option("--hours", type=float, help="The last N hours (default 2).")
@click.option(
    "--since",
    metavar="TIME",
    help="Start: a date (YYYY-MM-DD, today, yesterday) is that day's start; a time"
    " (YYYY-MM-DDTHH:MM[:SS], local to --tz, or with an offset) is that instant.",
)
@click.option(
    "--until",
    metavar="TIME",
    help="End (default now): a date means through the end of that day (--until 2026-12-04"
    " includes the 4th); a time is that instant.",
)
@store_options
@click.option(
    "--budget",
    type=int,
    help="Token budget (o200k tokens; default 1500, 2000 for a period of several days).",
)
@min_minutes_option
def context(
    hours: float | None,
    since: str | None,
    until: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    budget: int | None,
    min_minutes: float,
) -> None:
    """Print the context block for a window of time (for a prompt).

    A window longer than a day that touches several local days prints the period block
    (one line per day, the period's ledger and app totals; `actframes period`).
    """
    one_shot()
    from ..emit.context import DEFAULT_BUDGET, to_context
    from ..window import resolve

    zone = tz or machine_zone()
    window = resolve(
        tz=zone,
        now_ms=now_ms(),
        hours=hours,
        since=since or None,
        until=until or None,
        default_hours=2.0,
        names=CONTEXT_WINDOW,
    )
    from ..periods import as_day, spans_days

    window = as_day(window)
    with open_cli_store(db, source, audible_active=not no_audible_active) as store:
        if spans_days(window):
            from .period import PERIOD_BUDGET, period_block

            write_out(
                period_block(store, window, min_minutes, check_budget(budget or PERIOD_BUDGET))
            )
            return
        doc = store.compile(window, compile_options(min_minutes))
    write_out(to_context(doc, check_budget(budget or DEFAULT_BUDGET)))


@click.command(context_settings=HELP)
@click.argument("date", required=False)
@store_options
@click.option("--by-host", is_flag=True, help="One block of rows per machine (ActivityWatch).")
def apps(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    by_host: bool,
) -> None:
    """Print the ledger of DATE as a table: time per app and site.

    DATE is YYYY-MM-DD, today or yesterday (default today); active time is H:MM:SS.
    Input a source does not record shows as —, not 0.
    """
    one_shot()
    doc = compile_day_cli(date, db, tz, source, 0.0, audible_active=not no_audible_active)
    write_out(ledger_table(doc, by_host))
