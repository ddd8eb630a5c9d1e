"""``actframes report``: one local day as a self-contained HTML timeline.

A thin shell like ``day``: the same store options, the same compile, then
``emit.html.to_html`` written to a file (default ``report-DATE.html``). Loaded
only when invoked (``group.COMMANDS``), so other commands never import it.
"""

from __future__ import annotations

from pathlib import Path

import click

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
    on hover or focus.
    """
    from ..emit.html import to_html

    day = local_day(date, tz or machine_zone())
    doc = compile_day_cli(day, db, tz, source, min_minutes, audible_active=not no_audible_active)
    target = out if out is not None else Path(f"report-{day}.html")
    write_atomically(target, to_html(doc).encode("utf-8"))
    write_out(f"{target}\n")
