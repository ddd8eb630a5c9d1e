"""``actframes projects``: time per project, per day — a timesheet — and a check that
every project rule matches something."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import UsageError
from .common import (
    HELP,
    local_day,
    machine_zone,
    one_shot,
    open_cli_store,
    store_options,
    write_out,
)

FORMATS = ("json", "csv", "md")
MAX_DAYS = 366


@click.command(context_settings=HELP)
@click.argument("date", required=False)
@click.option("--since", metavar="DATE", help="First day (YYYY-MM-DD, today, yesterday).")
@click.option("--until", metavar="DATE", help="Last day, included (default: --since's day).")
@store_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="json",
    show_default=True,
    help="json, csv (date,project,seconds,hours: for invoicing and time-tracking tools) or md.",
)
@click.option(
    "--check-rules",
    is_flag=True,
    help="Instead: list every project rule with the rows its matches meet in the days;"
    " exit 1 when one meets none.",
)
def projects(
    date: str | None,
    since: str | None,
    until: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    fmt: str,
    check_rules: bool,
) -> None:
    """Time per project: a timesheet of DATE (default today) or --since/--until.

    Projects come from the user's rules (--projects; default
    $XDG_CONFIG_HOME/actframes/projects.toml) and from what the frames show: editor
    workspaces, repositories on code hosts, terminal folders, tracker keys (SPEC.md §3b).
    Each day is that day's document, so a day's rows add up to its active time; time
    with no project is "(unassigned)", never guessed.
    """
    one_shot()
    from ..window import day_window, days_from

    zone = tz or machine_zone()
    if date is not None and (since or until):
        raise UsageError("give DATE or --since/--until, not both")
    if until and not since:
        raise UsageError("--until needs --since")
    first = local_day(since or date, zone)
    days = days_from(first, local_day(until, zone) if until else first, MAX_DAYS)
    windows = [day_window(d, zone) for d in days]
    with open_cli_store(db, source, audible_active=not no_audible_active) as store:
        if check_rules:
            from ..rule_check import check_rules as check

            lines, unmatched = check(store, windows)
            write_out("".join(f"{line}\n" for line in lines))
            if unmatched:
                sys.exit(1)
            return
        docs = store.compile_many(windows)
    from ..emit import timesheet as ts

    sheet = ts.timesheet(docs)
    if fmt == "json":
        from ..emit.json_out import to_json

        write_out(to_json(sheet))
    elif fmt == "csv":
        write_out(ts.to_csv(sheet))
    else:
        write_out(ts.to_markdown(sheet))
