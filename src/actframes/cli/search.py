"""``actframes search "WORDS"``: where was that on the screen? The words a store keeps of
each capture (screenpipe's OCR and accessibility text, the recorder's with
``--screen-text``), searched in an index in the cache folder and answered as activity
frames with the moment, a snippet and the capture rows (SPEC.md §10a)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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

DEFAULT_DAYS = 7


@click.command(context_settings=HELP)
@click.argument("words")
@click.option("--date", metavar="DATE", help="One day (YYYY-MM-DD, today, yesterday).")
@click.option("--since", metavar="DATE", help="First day, with --until (both included).")
@click.option("--until", metavar="DATE", help="Last day (default today).")
@click.option("--app", metavar="APP", help="Only text seen in this app (part of its name).")
@click.option(
    "--limit", type=click.IntRange(1, 200), default=10, show_default=True, help="Frames shown."
)
@click.option(
    "--fts",
    is_flag=True,
    help='WORDS is FTS5 query syntax (AND, OR, NOT, NEAR, "phrases", prefix*).',
)
@store_options
@click.option(
    "--format", "fmt", type=click.Choice(["json", "md"]), default="json", show_default=True,
    help="json: {query, results}; md: a list.",
)  # fmt: skip
def search(
    words: str,
    date: str | None,
    since: str | None,
    until: str | None,
    app: str | None,
    limit: int,
    fts: bool,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    fmt: str,
) -> None:
    """Find WORDS among the text that was on the screen (default: the last 7 days).

    Results are frames, best first (all the words as a phrase, then near each other,
    then anywhere; the latest first among equals): the frame's app, site and span, when
    the words were first on screen, a snippet with the words marked «so», and the capture
    rows that hold them. Secrets (keys, tokens, card numbers, IBANs, passwords) and form
    values are never indexed or shown. The index lies in the cache folder
    ($XDG_CACHE_HOME/actframes/screen); `actframes cache clear` deletes it.
    """
    one_shot()
    from ..periods import Span, day_windows, days_span, last_days
    from ..screen_index.config import cache_root_for_search
    from ..screen_index.query import Query
    from ..screen_index.search import ScreenSearch

    zone = tz or machine_zone()
    if date and (since or until):
        raise UsageError("give --date or --since/--until, not both")
    if until and not since:
        raise UsageError("--until needs --since")
    if date:
        span = Span(local_day(date, zone), local_day(date, zone))
    elif since:
        span = days_span(local_day(since, zone), local_day(until, zone), 31)
    else:
        span = last_days(local_day("today", zone), DEFAULT_DAYS)
    query = Query(words, fts=fts)
    with open_cli_store(db, source, audible_active=not no_audible_active) as store:
        root = cache_root_for_search(store.path)
        finder = ScreenSearch(store, root)
        try:
            results = finder.search(query, day_windows(span, zone), zone, app, limit)
        finally:
            finder.close()
    out: dict[str, Any] = {"query": words, "results": results}
    write_out(
        _markdown(out) if fmt == "md" else json.dumps(out, ensure_ascii=False, indent=1) + "\n"
    )


def _markdown(out: dict[str, Any]) -> str:
    lines = [f"# Screen text: {out['query']}", ""]
    if not out["results"]:
        return "\n".join([*lines, "No frame shows these words.", ""])
    for r in out["results"]:
        where = r["app"] + (f" / {r['site']}" if r.get("site") else "")
        frame = r["frame_id"] or "no frame"
        lines.append(f"- **{where}** {r['start']} – {r['end'][11:]} ({frame}), at {r['at'][11:19]}")
        lines.append(f"  > {r['snippet']}")
        lines.append(f"  rows {r['rows']}")
    return "\n".join(lines) + "\n"
