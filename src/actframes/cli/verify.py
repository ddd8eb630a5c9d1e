"""``actframes verify``: recompile a document's window and report every difference."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import UsageError
from .common import HELP, load_document, open_cli_store, store_options, write_out


@click.command(context_settings=HELP)
@click.argument("doc_path", metavar="DOC.json", type=click.Path(dir_okay=False, path_type=Path))
@store_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: the verdict, then one line per difference; json: all of it as one object.",
)
def verify(
    doc_path: Path,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    fmt: str,
) -> None:
    """Recompile DOC.json's window from the store and report every field that differs.

    The first line is the verdict; then one line per difference, "store" giving what the
    store compiles to now and "document" what DOC.json says (a document from another
    source shows only its first differences; --format json lists all). Exit 0 only when
    everything matches and the store holds the same rows as when the document was made.
    """
    doc = load_document(doc_path)
    if tz is not None and tz != doc.get("window", {}).get("tz"):
        raise UsageError("--tz must match the document's own zone (or be left out)")
    with open_cli_store(
        db, source, disk_cache=False, audible_active=not no_audible_active
    ) as store:
        report = store.verify(doc)
    if fmt == "json":
        write_out(
            json.dumps(
                {
                    "ok": report.ok,
                    "verdict": report.verdict(),
                    "other_source": report.other_source,
                    "store_changed": report.store_changed,
                    "affected_days": report.affected_days,
                    "unchecked": report.unchecked,
                    "differences": [
                        {
                            "where": d.where,
                            "field": d.field,
                            "expected": d.expected,
                            "found": d.found,
                        }
                        for d in report.differences
                    ],
                },
                ensure_ascii=False,
            )
            + "\n"
        )
    else:
        write_out(
            _verify_text(report, limit=_SHOWN_FROM_OTHER_SOURCE if report.other_source else None)
        )
    if not report.ok:
        sys.exit(1)


# A document from another store differs everywhere: its first lines say enough.
_SHOWN_FROM_OTHER_SOURCE = 10


def _verify_text(report: Any, limit: int | None) -> str:
    lines = [report.verdict()]
    shown = report.differences if limit is None else report.differences[:limit]
    lines += [d.line() for d in shown]
    if len(shown) < len(report.differences):
        lines.append(f"… and {len(report.differences) - len(shown)} more (--format json lists all)")
    if report.unchecked:
        lines.append(report.unchecked)
    if report.store_changed:
        days = ", ".join(report.affected_days) or "unknown"
        lines.append(f"store changed since the document was made (digest differs); days: {days}")
    return "\n".join(lines) + "\n"
