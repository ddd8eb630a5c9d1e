"""``actframes entity``: show the reference the rules give a URL or a window title.

For people writing and checking rules::

    actframes entity https://github.com/psf/requests/pull/6712 …
    actframes entity -                      # URLs from stdin, one a line
    actframes entity --app Code.exe --title "main.py - MHacks - Visual Studio Code"

One canonical JSON object a line, keys in a fixed order: for URLs ``input, site, kind,
entity``; for titles ``input, app, title, kind, entity, context`` (``title`` is the
cleaned title; ``kind`` and ``entity`` are null when the title names nothing typed).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

import click

from ..errors import UsageError
from .common import HELP


def url_record(url: str) -> dict[str, Any]:
    from ..entities import page_ref

    ref = page_ref(url)
    return {"input": url, "site": ref.site, "kind": ref.kind, "entity": ref.entity}


def title_record(app: str, title: str) -> dict[str, Any]:
    from ..entities import clean_title, title_ref

    ref = title_ref(app, title)
    return {
        "input": title,
        "app": app,
        "title": clean_title(app, title),
        "kind": ref.kind if ref else None,
        "entity": ref.entity if ref else None,
        "context": ref.context if ref else None,
    }


def line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


@click.command(
    name="entity",
    context_settings=HELP,
    short_help="Show the typed reference of URLs or a window title.",
)
@click.argument("urls", nargs=-1)
@click.option("--app", metavar="APP", help="App name for --title (Code.exe, slack, firefox …).")
@click.option("--title", metavar="TITLE", help="A window title to type (needs --app).")
def entity(urls: tuple[str, ...], app: str | None, title: str | None) -> None:
    """Print the page reference of each URL (or '-' for stdin), or the typed entity of
    a window title, as one JSON object a line."""
    if title is not None or app is not None:
        if urls:
            raise UsageError("give URLs, or --app with --title, not both")
        if title is None or app is None:
            raise UsageError("--app and --title go together")
        _write([line(title_record(app, title))])
        return
    if not urls:
        raise UsageError("give at least one URL, '-' to read URLs from stdin, or --app/--title")
    _write(line(url_record(u)) for u in _inputs(urls))


def _inputs(urls: Iterable[str]) -> Iterable[str]:
    for u in urls:
        if u == "-":
            for raw in sys.stdin:
                raw = raw.rstrip("\r\n")
                if raw.strip():
                    yield raw
        else:
            yield u


def _write(lines: Iterable[str]) -> None:
    out = sys.stdout
    for text in lines:
        out.write(text)
    out.flush()
