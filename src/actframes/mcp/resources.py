"""The MCP resources (a day's document, today's context block) and the recap prompt,
each a small function of the ``Service`` and its arguments (registered in ``server.py``)."""

from __future__ import annotations

from ..emit.context import to_context
from ..emit.json_out import to_json
from .library import Service
from .tools import NOTICE


def day_document(svc: Service, day: str) -> str:
    """The measured document of one local day."""
    return to_json(svc.compile(svc.window(day=day)))


def context_today(svc: Service) -> str:
    """Today's context block."""
    return to_context(svc.compile(svc.window(day=svc.today())))


def recap_day(svc: Service, day: str) -> str:
    """Ask for a recap of one local day (YYYY-MM-DD, today or yesterday), grounded in its
    measured context block."""
    day = svc.day(day)  # a word is recapped as the date it names
    block = to_context(svc.compile(svc.window(day=day)))
    return (
        f"Recap what I did on {day}, using only the measured activity below. Name the "
        "main pieces of work with their times and durations, mention what took most "
        "time, and do not invent anything that is not in the data. "
        f"{NOTICE}\n\n{block}"
    )
