"""``actframes demo``: simulate work, compile it, and show the result."""

from __future__ import annotations

from pathlib import Path

import click

from ..demo_constants import DEMO_DAY, DEMO_DAYS, DEMO_TZ
from ..errors import UsageError
from .common import HELP, check_budget, machine_zone, out_option, today, write_out


@click.command(context_settings=HELP)
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
    from ..demo import run_demo

    if days < 1:
        raise UsageError("--days must be at least 1")
    zone = tz or machine_zone()
    write_out(
        run_demo(out, seed=seed, budget=check_budget(budget), days=days, today=today(zone), tz=zone)
    )
