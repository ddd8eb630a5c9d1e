"""``actframes comms``: who and where — the e-mail, chat, meeting and social-inbox
surfaces of a day (or of --since/--until), with the conversations their titles name."""

from __future__ import annotations

from pathlib import Path

import click

from .common import (
    HELP,
    local_day,
    machine_zone,
    now_ms,
    one_shot,
    open_cli_store,
    store_options,
    write_out,
)

COMMS_FORMATS = ("json", "md", "context")
# How ``comms`` spells the window's parameters in its usage errors (window.resolve).
COMMS_WINDOW = {"day": "DATE", "since": "--since", "until": "--until"}


@click.command(context_settings=HELP)
@click.argument("date", required=False)
@click.option(
    "--since",
    metavar="TIME",
    help="Start: a date (YYYY-MM-DD, today, yesterday) is that day's start; a time"
    " (YYYY-MM-DDTHH:MM[:SS], local to --tz, or with an offset) is that instant.",
)
@click.option(
    "--until",
    metavar="TIME",
    help="End, with --since (default now): a date means through the end of that day"
    " (--until 2026-12-04 includes the 4th); a time is that instant.",
)
@store_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(COMMS_FORMATS),
    default="json",
    show_default=True,
    help="json (the view), md (readable) or context (a short block for a prompt).",
)
def comms(
    date: str | None,
    since: str | None,
    until: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    fmt: str,
) -> None:
    """Who and where: the communication surfaces of DATE (default today).

    DATE is YYYY-MM-DD, today or yesterday.

    E-mail, chat, meetings and social inboxes, recognised by app, site and page kind;
    per surface its active seconds (the ledger's), visits, first and last time, input
    counts, and the conversations its window titles and URLs name (channel, thread,
    subject, person), each with its own time, visits and frame ids. Message bodies are
    never read.
    """
    one_shot()
    from ..window import resolve

    zone = tz or machine_zone()
    window = resolve(
        tz=zone,
        now_ms=now_ms(),
        day=local_day(date, zone) if date or not since else None,
        since=since or None,
        until=until or None,
        names=COMMS_WINDOW,
    )
    from ..periods import as_day

    window = as_day(window)  # --since D --until D is day D
    with open_cli_store(db, source, audible_active=not no_audible_active) as store:
        view = store.comms(window)
    if fmt == "json":
        from ..emit.json_out import to_json

        write_out(to_json(view))
    elif fmt == "md":
        from ..emit.comms_text import to_comms_markdown

        write_out(to_comms_markdown(view))
    else:
        from ..emit.comms_text import to_comms_context

        write_out(to_comms_context(view))
