"""Commands that audit documents and manage what is derived from them:
``verify``, ``tier2``, ``cache``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from .cli import HELP, _open, _out, store_options
from .errors import SourceError, UsageError


def _load_doc(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror})") from exc
    except ValueError as exc:
        raise SourceError(f"{path}: not a JSON document ({exc})") from exc
    if not isinstance(doc, dict) or doc.get("schema_version") != 1:
        raise SourceError(f"{path}: not an actframes document (schema_version 1)")
    return doc


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
def verify(doc_path: Path, db: Path | None, tz: str | None, source: str | None, fmt: str) -> None:
    """Recompile DOC.json's window from the store and report every field that differs.

    The first line is the verdict; then one line per difference, "store" giving what the
    store compiles to now and "document" what DOC.json says (a document from another
    source shows only its first differences; --format json lists all). Exit 0 only when
    everything matches and the store holds the same rows as when the document was made.
    """
    from .verify import verify as run_verify

    doc = _load_doc(doc_path)
    if tz is not None and tz != doc.get("window", {}).get("tz"):
        raise UsageError("--tz must match the document's own zone (or be left out)")
    src = _open(db, source)
    try:
        report = run_verify(doc, src)
    finally:
        src.close()
    if fmt == "json":
        _out(
            json.dumps(
                {
                    "ok": report.ok,
                    "verdict": report.verdict(),
                    "other_source": report.other_source,
                    "store_changed": report.store_changed,
                    "affected_days": report.affected_days,
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
        _out(_verify_text(report, limit=_SHOWN_FROM_OTHER_SOURCE if report.other_source else None))
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
    if report.store_changed:
        days = ", ".join(report.affected_days) or "unknown"
        lines.append(f"store changed since the document was made (digest differs); days: {days}")
    return "\n".join(lines) + "\n"


@click.group(context_settings=HELP)
def tier2() -> None:
    """Check, strip or produce the inferred (Tier 2) layer of a document."""


@tier2.command("validate")
@click.argument("doc_path", metavar="DOC.json", type=click.Path(dir_okay=False, path_type=Path))
def tier2_validate(doc_path: Path) -> None:
    """Refuse malformed Tier-2 entries, one reason per line (exit 1)."""
    from .tier2 import validate

    problems = validate(_load_doc(doc_path))
    if problems:
        _out("\n".join(p.line() for p in problems) + "\n")
        sys.exit(1)
    _out("ok: every inferred entry is namespaced, graded and backed by evidence\n")


@tier2.command("strip")
@click.argument("doc_path", metavar="DOC.json", type=click.Path(dir_okay=False, path_type=Path))
def tier2_strip(doc_path: Path) -> None:
    """Print the Tier-1 document: DOC.json without its inferred layer."""
    from .emit.json_out import to_json
    from .tier2 import strip

    _out(to_json(strip(_load_doc(doc_path))))


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
    from .emit.json_out import to_json
    from .tier2 import label_frames, load_rules, merge

    doc = _load_doc(doc_path)
    try:
        text = rules_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceError(f"{rules_path}: cannot read ({exc.strerror})") from exc
    rules = load_rules(text, str(rules_path))
    _out(to_json(merge(doc, label_frames(doc, rules))))


@click.group(context_settings=HELP)
def cache() -> None:
    """The cache of compiled documents."""


@cache.command("clear")
def cache_clear() -> None:
    """Delete every cached document (and the compiled regular expressions)."""
    import shutil

    from .cache import DocCache, default_cache_dir

    root = default_cache_dir()
    n = DocCache(root).clear() if root else 0
    if root:
        shutil.rmtree(root / "rx", ignore_errors=True)
    _out(f"removed {n} cached document(s)\n")


@cache.command("info")
def cache_info() -> None:
    """Where the cache is and what it holds."""
    from .cache import DocCache, default_cache_dir

    root = default_cache_dir()
    if root is None:
        _out("cache: off ($ACTFRAMES_CACHE)\n")
        return
    s = DocCache(root).stats()
    _out(f"cache: {s['path']}\nentries: {s['entries']}\nbytes: {s['bytes']}\n")


__all__ = ["cache", "store_options", "tier2", "verify"]
