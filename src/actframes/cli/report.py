"""``actframes report``: one local day as a self-contained HTML timeline, or with
``--week`` a week as one page (a lane per day).

A thin shell like ``day``: the same store options, the same compile, then
``emit.html.to_html`` written to a file (default ``report-DATE.html``); a week is compiled
day by day as ``period`` does and drawn by ``emit.period_html.to_period_html`` (default
``report-YYYY-Www.html``). Loaded only when invoked (``group.COMMANDS``), so other
commands never import it.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from .common import (
    HELP,
    compile_day_cli,
    local_day,
    machine_zone,
    min_minutes_option,
    store_options,
    write_out,
)
from .write_target import check_out_file, write_atomically


@click.command(context_settings=HELP)
@click.argument("date", required=False)
@click.option(
    "--week",
    is_flag=False,
    flag_value="today",
    metavar="[DATE|YYYY-Www]",
    help="The Monday-to-Sunday week holding DATE, or that ISO week (alone: this week), as"
    " one page with a lane per day; instead of DATE.",
)
@store_options
@min_minutes_option
@click.option(
    "--html",
    "out",
    type=click.Path(dir_okay=False),
    callback=check_out_file,
    help="Where to write the page (default: report-DATE.html in the current folder).",
)
def report(
    date: str | None,
    week: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    min_minutes: float,
    out: Path | None,
) -> None:
    """Write one day as a self-contained HTML timeline and print its path.

    DATE is YYYY-MM-DD in --tz, today or yesterday (default today). The page needs no
    network: lanes per app and site, frames as bars, the ledger, and each frame's details
    on hover or focus. With --week, the week on one page, written to
    report-YYYY-Www.html by default: a lane per day, each day's active time, the week's
    ledger and its projects by day.
    """
    if week is not None:
        if date is not None:
            raise UsageError(f"give DATE or --week, not both ({date} and --week {week})")
        _week_report(week, db, tz, source, no_audible_active, min_minutes, out)
        return
    from ..emit.html import to_html

    day = local_day(date, tz or machine_zone())
    doc = compile_day_cli(day, db, tz, source, min_minutes, audible_active=not no_audible_active)
    target = out if out is not None else Path(f"report-{day}.html")
    write_atomically(target, to_html(doc).encode("utf-8"))
    write_out(f"{target}\n")


def _week_report(
    week: str,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    min_minutes: float,
    out: Path | None,
) -> None:
    """The week holding ``week`` (a DATE, today, yesterday or YYYY-Www) as one page."""
    from ..emit.period_html import to_period_html
    from ..periods import week_span
    from .common import now_ms, open_cli_store
    from .period import compile_period

    if min_minutes:
        raise UsageError("--min-minutes applies to one day's report, not to --week")
    zone = tz or machine_zone()
    span = week_span(week, zone, now_ms())
    with open_cli_store(db, source, audible_active=not no_audible_active) as store:
        period, days = compile_period(store, span, zone)
    target = out if out is not None else Path(f"report-{span.label}.html")
    write_atomically(target, to_period_html(period, days).encode("utf-8"))
    write_out(f"{target}\n")
