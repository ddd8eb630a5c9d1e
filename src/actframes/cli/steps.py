"""``actframes steps FRAME_ID`` and ``actframes patterns --days N``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ..errors import UsageError
from ..steps.layouts import LAYOUTS
from .common import (
    HELP,
    default_db,
    json_or_md_option,
    local_day,
    machine_zone,
    store_options,
    write_out,
)


def _store(f: Any) -> Any:
    """The store options every command takes, plus opting in to typed text."""
    f = store_options(f)
    f = click.option(
        "--include-text", is_flag=True, help="Show typed and clipboard text (off by default)."
    )(f)
    f = click.option(
        "--layout",
        type=click.Choice(list(LAYOUTS)),
        help="Keyboard layout of the store's typed text (only with --include-text).",
    )(f)
    return f


def _json_lines(items: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items)


@click.command(context_settings=HELP)
@click.argument("frame_id", required=False)
@_store
@click.option("--date", metavar="YYYY-MM-DD", help="The frame's local day (default: found).")
@click.option(
    "--find",
    "query",
    metavar="WORDS",
    help="Find the frame by words (app, site, titles, entities) on --date (default today): "
    "the matching frames best first, then the steps of the best one.",
)
@json_or_md_option("json: one step per line; md: a Markdown list.")
def steps(
    frame_id: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    include_text: bool,
    layout: str | None,
    date: str | None,
    query: str | None,
    fmt: str,
) -> None:
    """The ordered steps (click, type, copy, paste, navigate, focus) of one frame.

    Name the frame by its id (F1234), or find it with --find "words".
    """
    from ..api import open_store
    from ..steps.build import to_markdown

    zone = tz or machine_zone()
    path = (db or default_db()).expanduser()
    if (frame_id is None) == (query is None):
        raise UsageError("give a FRAME_ID or --find WORDS (one of them)")
    matches: list[dict[str, Any]] | None = None
    audible = not no_audible_active
    with open_store(path, source, disk_cache=False, audible_active=audible) as store:
        if query is not None:
            date = local_day(date, zone)
            matches = store.find(zone, query, date)
            if not matches:
                raise UsageError(f"no frame on {date} ({zone}) matches {query!r}")
            frame_id = matches[0]["id"]
        assert frame_id is not None
        day, rendered = store.steps(zone, frame_id, date, include_text, layout)
    if matches is None:
        write_out(_json_lines(rendered) if fmt == "json" else to_markdown(frame_id, rendered))
    elif fmt == "json":
        found = {"query": query, "day": day, "matches": matches, "frame": frame_id}
        write_out(json.dumps({**found, "steps": rendered}, ensure_ascii=False, indent=1) + "\n")
    else:
        write_out(_find_markdown(str(query), day, matches) + "\n" + to_markdown(frame_id, rendered))


def _find_markdown(query: str, day: str, matches: list[dict[str, Any]]) -> str:
    out = [f"# Frames matching {json.dumps(query, ensure_ascii=False)} on {day}", ""]
    for m in matches:
        where = m["app"] + (f" · {m['site']}" if m.get("site") else "")
        words = f"{m['matched_words']}/{m['of_words']} words"
        shown = "; ".join(m["matched"]).replace("\n", " ")
        out.append(f"- {m['id']} {m['start'][11:16]}–{m['end'][11:16]} {where} ({words}): {shown}")
    return "\n".join(out) + "\n"


@click.command(context_settings=HELP)
@click.option("--days", type=int, default=7, show_default=True, help="The last N local days.")
@click.option("--until", metavar="YYYY-MM-DD", help="The last day (default: today).")
@_store
@json_or_md_option("json: one pattern per line, with its evidence; md: a Markdown list by kind.")
def patterns(
    days: int,
    until: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    include_text: bool,
    layout: str | None,
    fmt: str,
) -> None:
    """Measured patterns over the last N days, each with its evidence."""
    from ..api import open_store

    zone = tz or machine_zone()
    last = local_day(until, zone)
    path = (db or default_db()).expanduser()
    audible = not no_audible_active
    with open_store(path, source, disk_cache=False, audible_active=audible) as store:
        first, out = store.patterns(zone, days, last, include_text, layout)
    if fmt == "json":
        write_out(_json_lines(out))
        return
    from ..steps.patterns_md import to_markdown

    write_out(to_markdown(out, first, last, zone))
