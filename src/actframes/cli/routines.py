"""``actframes routines``: recurring routines mined from a store, as guarded plans."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import UsageError
from .common import (
    HELP,
    default_db,
    json_or_md_option,
    local_day,
    machine_zone,
    store_options,
    write_out,
)

DEFAULT_DAYS = 28
MANY_DAYS = 7  # more days than this: a progress bar on a terminal


def mining_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The window and the mining rules (shared by routines, replay and the bench)."""
    from ..routines.mine import Rules

    d = Rules()
    for name, default, what in reversed(
        [
            ("--min-length", d.min_length, "Fewest steps in a routine."),
            ("--min-occurrences", d.min_occurrences, "Fewest non-overlapping repetitions."),
            ("--min-days", d.min_days, "Fewest distinct local days with a repetition."),
            ("--min-specific", d.min_specific, "Fewest distinct specific targets named."),
            ("--max-length", d.max_length, "Most steps in a routine."),
        ]
    ):
        f = click.option(name, type=int, default=default, show_default=True, help=what)(f)
    f = click.option(
        "--all", "whole", is_flag=True, help="Mine the whole store (default for UI logs)."
    )(f)
    f = click.option("--until", metavar="YYYY-MM-DD", help="The last day (default: today).")(f)
    f = click.option(
        "--days",
        type=int,
        help=f"The last N local days (default: {DEFAULT_DAYS}; a UI log: all of it).",
    )(f)
    return f


def resolve_window(
    path: Path, source: str | None, zone: str, days: int | None, until: str | None, whole: bool
) -> tuple[int | None, str | None]:
    """(days, until) for ``service.window_of``: None days means the whole store."""
    if whole:
        if days is not None or until is not None:
            raise UsageError("--all mines the whole store: give it without --days or --until")
        return None, None
    if days is None:
        from ..sources.actions import family

        if family(path, source) == "uilog":
            return None, None
        days = DEFAULT_DAYS
    return days, local_day(until, zone)


def rules_of(**kw: int) -> Any:
    from ..routines.mine import Rules

    return Rules(
        min_length=kw["min_length"],
        min_occurrences=kw["min_occurrences"],
        min_days=kw["min_days"],
        min_specific=kw["min_specific"],
        max_length=kw["max_length"],
    )


@click.command(context_settings=HELP)
@store_options
@mining_options
@click.option(
    "--include-text",
    is_flag=True,
    help="Use typed text: constant values become literal, examples are shown (off by default).",
)
@json_or_md_option("json: one routine per line; md: each routine's slots and guarded plan.")
def routines(
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    days: int | None,
    until: str | None,
    whole: bool,
    min_length: int,
    min_occurrences: int,
    min_days: int,
    min_specific: int,
    max_length: int,
    include_text: bool,
    fmt: str,
) -> None:
    """Recurring routines across days, each with its slots, guarded plan, minimal
    script and evidence (JSON: one routine per line)."""
    from ..api import open_store
    from ..routines.store_mining import to_markdown, window_of

    zone = tz or machine_zone()
    path = (db or default_db()).expanduser()
    n, last = resolve_window(path, source, zone, days, until, whole)
    start, end = window_of(zone, n, last)
    rules = rules_of(
        min_length=min_length,
        min_occurrences=min_occurrences,
        min_days=min_days,
        min_specific=min_specific,
        max_length=max_length,
    )
    from ..progress import Steps

    # A bar only for long windows; a week is read and mined in a blink.
    # Whole days' steps of a native store are kept on disk (the cache folder): a later
    # run reads again only the days that changed.
    with (
        Steps("routines", 2 if n is None or n > MANY_DAYS else 0) as progress,
        open_store(path, source, audible_active=not no_audible_active) as store,
    ):
        found = store.routines(zone, start, end, rules, include_text, stage=progress.next)
    if not found.steps:
        click.echo(
            "actframes: no action steps in that window (the store has no clicks or typing"
            " with targets there)",
            err=True,
        )
    if fmt == "json":
        write_out("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in found.routines))
    else:
        write_out(to_markdown(found.routines))
