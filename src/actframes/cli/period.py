"""``actframes period``: several local days (a week, a month, --since through --until) as
one period document, its context block, Markdown, CSV or HTML; with ``--vs``, two
periods side by side (SPEC.md §5a)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import UsageError
from .common import HELP, now_ms, one_shot, open_cli_store, store_options, write_out

if TYPE_CHECKING:
    from ..api import Store
    from ..doc_types import Document
    from ..period_types import PeriodDocument
    from ..periods import Span
    from ..window import Window

FORMATS = ("json", "md", "context", "csv", "html")
PERIOD_BUDGET = 2000


def period_options(f: Any) -> Any:
    """--since/--until, --week [X], --month [X]: the period a command covers."""
    for opt in reversed(
        [
            click.option(
                "--since", metavar="DATE", help="First day (YYYY-MM-DD, today, yesterday)."
            ),
            click.option(
                "--until",
                metavar="DATE",
                help="Last day, included: the period runs through its end (default today).",
            ),
            click.option(
                "--week",
                is_flag=False,
                flag_value="today",
                metavar="[DATE|YYYY-Www]",
                help="The Monday-to-Sunday week holding DATE, or that ISO week (default: this"
                " week).",
            ),
            click.option(
                "--month",
                is_flag=False,
                flag_value="today",
                metavar="[YYYY-MM|DATE]",
                help="That calendar month, or the one holding DATE (alone: this month).",
            ),
        ]
    ):
        f = opt(f)
    return f


def span_of(
    since: str | None, until: str | None, week: str | None, month: str | None, zone: str
) -> Span:
    """The period asked; none of the options: this week."""
    from ..periods import days_span, month_span, week_span
    from ..window import day_or_word

    asked = [n for n, v in (("--since", since), ("--week", week), ("--month", month)) if v]
    if len(asked) > 1:
        raise UsageError(
            f"give one of --since/--until, --week or --month, not {' and '.join(asked)}"
        )
    if until and not since:
        raise UsageError("--until needs --since")
    now = now_ms()
    if week is not None:
        return week_span(week, zone, now)
    if month is not None:
        return month_span(month, zone, now)
    if since is not None:
        last = day_or_word(until or "today", zone, now)
        return days_span(day_or_word(since, zone, now), last)
    return week_span(None, zone, now)


def compile_period(store: Store, span: Span, zone: str) -> tuple[PeriodDocument, list[Document]]:
    """The period's days, each as ``day`` compiles it (cached), and their sums: the period
    document and the days' documents."""
    from ..compile.period import period_document
    from ..periods import day_windows

    docs = store.compile_many(day_windows(span, zone))
    days = list(zip(span.days(), docs, strict=True))
    return period_document(days, kind=span.kind, label=span.label), docs


def period_block(store: Store, window: Window, min_minutes: float, budget: int) -> str:
    """The period block of the local days ``window`` touches (``context`` over days)."""
    from ..compile.period import period_document
    from ..emit.period_context import to_period_context
    from ..periods import split_days

    if min_minutes:
        raise UsageError("--min-minutes applies to one day's frames, not to several days")
    pieces = split_days(window)
    docs = store.compile_many([w for _, w in pieces])
    days = [d for d, _ in pieces]
    doc = period_document(list(zip(days, docs, strict=True)))
    return to_period_context(doc, budget)


@click.command(context_settings=HELP)
@period_options
@click.option(
    "--vs",
    metavar="PERIOD",
    help="Compare with PERIOD: YYYY-Www, YYYY-MM, DATE..DATE, a DATE, last-week,"
    " last-month or previous (the period just before).",
)
@store_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="json",
    show_default=True,
    help="json (the period document), md, context (the period block), csv (a row per day"
    " and app), html (a page: one lane per day).",
)
@click.option(
    "--budget",
    type=int,
    default=PERIOD_BUDGET,
    show_default=True,
    help="Token budget of --format context (o200k tokens).",
)
def period(
    since: str | None,
    until: str | None,
    week: str | None,
    month: str | None,
    vs: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    fmt: str,
    budget: int,
) -> None:
    """Several days at once: per day its first and last activity, active time and apps;
    the period's ledger, app totals, projects and the references viewed most.

    The period is --week (default), --month, or --since DATE --until DATE (both whole
    local days, --until included). Each day is exactly what `actframes day` gives for
    it; the period adds the days up. --vs PERIOD prints both side by side with the
    differences (json, md, context or csv).
    """
    one_shot()
    from .common import check_budget, machine_zone

    zone = tz or machine_zone()
    span = span_of(since, until, week, month, zone)
    if vs is not None and fmt == "html":
        raise UsageError("--vs prints json, md, context or csv, not html")
    with open_cli_store(db, source, audible_active=not no_audible_active) as store:
        doc, day_docs = compile_period(store, span, zone)
        if vs is not None:
            from ..periods import parse_span

            other, _ = compile_period(store, parse_span(vs, zone, now_ms(), span), zone)
    if vs is not None:
        write_out(_compared(doc, other, fmt))
        return
    if fmt == "json":
        from ..emit.json_out import to_json

        write_out(to_json(doc))
    elif fmt == "md":
        from ..emit.period_markdown import period_markdown

        write_out(period_markdown(doc))
    elif fmt == "csv":
        from ..emit.period_csv import period_csv

        write_out(period_csv(doc))
    elif fmt == "html":
        from ..emit.period_html import to_period_html

        write_out(to_period_html(doc, day_docs))
    else:
        from ..emit.period_context import to_period_context

        write_out(to_period_context(doc, check_budget(budget)))


def _compared(doc: PeriodDocument, other: PeriodDocument, fmt: str) -> str:
    from ..compile.period_compare import compare

    cmp = compare(doc, other)
    if fmt == "json":
        from ..emit.json_out import to_json

        return to_json(cmp)
    if fmt == "md":
        from ..emit.period_markdown import compare_markdown

        return compare_markdown(cmp)
    if fmt == "csv":
        from ..emit.period_csv import compare_csv

        return compare_csv(cmp)
    from ..emit.compare_text import compare_lines

    return compare_lines(cmp)
