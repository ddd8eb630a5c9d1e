"""``actframes steps FRAME_ID`` and ``actframes patterns --days N``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from .cli import HELP, _out, default_db, machine_zone, store_options, today
from .steps.layouts import LAYOUTS


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
@click.argument("frame_id")
@_store
@click.option("--date", metavar="YYYY-MM-DD", help="The frame's local day (default: found).")
@click.option("--format", "fmt", type=click.Choice(["json", "md"]), default="json")
def steps(
    frame_id: str,
    db: Path | None,
    tz: str | None,
    source: str | None,
    include_text: bool,
    layout: str | None,
    date: str | None,
    fmt: str,
) -> None:
    """The ordered steps (click, type, copy, paste, navigate, focus) of one frame."""
    from .steps.build import to_markdown
    from .steps.service import steps_of_frame

    zone = tz or machine_zone()
    path = (db or default_db()).expanduser()
    _, rendered = steps_of_frame(path, source, zone, frame_id, date, include_text, layout)
    _out(_json_lines(rendered) if fmt == "json" else to_markdown(frame_id, rendered))


@click.command(context_settings=HELP)
@click.option("--days", type=int, default=7, show_default=True, help="The last N local days.")
@click.option("--until", metavar="YYYY-MM-DD", help="The last day (default: today).")
@_store
@click.option("--format", "fmt", type=click.Choice(["json", "md"]), default="json")
def patterns(
    days: int,
    until: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    include_text: bool,
    layout: str | None,
    fmt: str,
) -> None:
    """Measured patterns over the last N days, each with its evidence."""
    from .steps.service import patterns_over

    zone = tz or machine_zone()
    last = until or today(zone)
    path = (db or default_db()).expanduser()
    first, out = patterns_over(path, source, zone, days, last, include_text, layout)
    if fmt == "json":
        _out(_json_lines(out))
        return
    lines = [f"# Patterns, {first} to {last} ({zone})", ""]
    for q in out:
        ev = q.get("events") or q.get("rows") or q.get("at") or []
        head = {k: v for k, v in q.items() if k not in ("events", "rows", "at")}
        lines.append(f"- {json.dumps(head, ensure_ascii=False)} — evidence: {len(ev)} items")
    _out("\n".join(lines) + "\n")
