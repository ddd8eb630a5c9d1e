"""``actframes tier2``: check, strip or produce the inferred (Tier 2) layer of a document."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import SourceError
from .common import HELP, load_document, write_out


@click.group(context_settings=HELP)
def tier2() -> None:
    """Check, strip or produce the inferred (Tier 2) layer of a document."""


@tier2.command("validate")
@click.argument("doc_path", metavar="DOC.json", type=click.Path(dir_okay=False, path_type=Path))
def tier2_validate(doc_path: Path) -> None:
    """Refuse malformed Tier-2 entries, one reason per line (exit 1)."""
    from ..tier2 import validate

    problems = validate(load_document(doc_path))
    if problems:
        write_out("\n".join(p.line() for p in problems) + "\n")
        sys.exit(1)
    write_out("ok: every inferred entry is namespaced, graded and backed by evidence\n")


@tier2.command("strip")
@click.argument("doc_path", metavar="DOC.json", type=click.Path(dir_okay=False, path_type=Path))
def tier2_strip(doc_path: Path) -> None:
    """Print the Tier-1 document: DOC.json without its inferred layer."""
    from ..emit.json_out import to_json
    from ..tier2 import strip

    write_out(to_json(strip(load_document(doc_path))))


@tier2.command("label")
@click.argument("doc_path", metavar="DOC.json", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--rules",
    "rules_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="TOML file of [[label]] rules (regexes over app, site, title, entity).",
)
def tier2_label(doc_path: Path, rules_path: Path) -> None:
    """Add project labels from user-written rules (confidence high) and print the document."""
    from ..emit.json_out import to_json
    from ..tier2 import label_frames, load_rules, merge

    doc = load_document(doc_path)
    try:
        text = rules_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceError(f"{rules_path}: cannot read ({exc.strerror})") from exc
    rules = load_rules(text, str(rules_path))
    write_out(to_json(merge(doc, label_frames(doc, rules))))
