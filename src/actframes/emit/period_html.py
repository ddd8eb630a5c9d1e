"""Several days as a picture: one self-contained HTML page for a period (a week, a month,
a run of days), drawn from the period document and the documents of its days, so its
numbers agree with ``actframes period`` and ``actframes day`` to the second.

What it shows is in docs/report.md ("The week page"). It follows the day report's rules
(``emit/html.py``) and shares its page frame, style, script and policy:

- Everything is rendered here from the documents: one lane per day on a common axis of
  hours, one bar per frame of that day (coloured per app and site by the period's ledger
  rank), away periods and session gaps shaded, the day's active time beside its lane,
  the period ledger as a table, and a stacked bar per day by project.
- The period document and every day's document are embedded as JSON (escaped as the day
  report's is); the script fills the detail panel from them with ``textContent``.
- A pure function of its input: no clock, positions in integers, times sliced from the
  documents' ISO strings.

The parts: ``period_html_view`` (header, lanes, days table, notes),
``period_html_ledger`` (the ledger table and the projects by day),
``period_html_assets`` (the page's extra style).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..doc_types import Document
from ..period_types import PeriodDocument
from .html import embed_json, page
from .html_assets import CSS
from .period_html_assets import PERIOD_CSS
from .period_html_ledger import ledger_section, projects_section
from .period_html_view import PeriodView


def to_period_html(period: PeriodDocument, days: Sequence[Document]) -> str:
    """Render ``period`` and its days' documents (in its days' order, one per day) as one
    self-contained HTML page."""
    if len(days) != len(period["days"]):
        raise ValueError(
            f"the period has {len(period['days'])} days but {len(days)} documents were given"
        )
    for pd, doc in zip(period["days"], days, strict=True):
        if doc["window"].get("day", pd["day"]) != pd["day"]:
            raise ValueError(f"day {pd['day']} was given the document of {doc['window']['day']}")
    view = PeriodView(period, days)
    body = [
        '<a class="skip" href="#ledger">Skip to the ledger</a>',
        view.header(),
        '<main class="period">',
        view.timeline(),
        ledger_section(period, view.colours, view.has_input),
        projects_section(period),
        view.days_table(),
        view.notes(),
        "</main>",
    ]
    embedded = embed_json({"period": period, "documents": list(days)})
    return page(view.title, body, embedded, CSS + PERIOD_CSS)


__all__ = ["to_period_html"]
