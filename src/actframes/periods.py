"""Periods: runs of whole local days (a week, a month, the days since one through
another), and a window cut into the local days it covers.

A period is named by its first and last day, both included. Weeks run Monday to Sunday
(ISO 8601: ``2026-W48`` is the week of 2026-11-23). Days begin at ``DayStart`` like every
other day, so a period's days are exactly the days ``actframes day`` compiles.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from .fast.records import FrozenRecord
from .window import (
    Window,
    WindowError,
    day_or_word,
    day_window,
    local_day_of,
    parse_day,
)

MAX_PERIOD_DAYS = 92  # a quarter: one period document holds at most this many days
_ISO_WEEK = re.compile(r"(\d{4})-[Ww](\d{2})")
_MONTH = re.compile(r"(\d{4})-(\d{2})")
_RANGE = re.compile(r"(.+?)\.\.(.+)")
RELATIVE = ("this-week", "last-week", "this-month", "last-month", "previous")


class Span(FrozenRecord):
    """The local days ``since`` through ``until`` (YYYY-MM-DD, both included); ``kind``
    says how it was named (week, month, days) and ``label`` names it (2026-W48, 2026-11,
    2026-11-28..2026-12-04)."""

    __slots__ = _fields = ("since", "until", "kind", "label")

    since: str
    until: str
    kind: str
    label: str

    def __init__(self, since: str, until: str, kind: str = "days", label: str = "") -> None:
        init = object.__setattr__
        init(self, "since", since)
        init(self, "until", until)
        init(self, "kind", kind)
        init(self, "label", label or (since if since == until else f"{since}..{until}"))

    def days(self) -> list[str]:
        first, last = date.fromisoformat(self.since), date.fromisoformat(self.until)
        return [(first + timedelta(days=k)).isoformat() for k in range((last - first).days + 1)]


def days_span(since: str, until: str, most: int = MAX_PERIOD_DAYS) -> Span:
    """The days ``since`` through ``until``; one-line errors for a reversed or too long run."""
    first, last = parse_day(since), parse_day(until)
    if last < first:
        raise WindowError(f"--until {until} is before --since {since}")
    n = (last - first).days + 1
    if n > most:
        raise WindowError(f"{n} days asked ({since} .. {until}); at most {most} at once")
    return Span(since, until)


def last_days(last: str, n: int) -> Span:
    """The ``n`` local days ending ``last`` (YYYY-MM-DD), both ends included."""
    first = date.fromisoformat(last) - timedelta(days=n - 1)
    return Span(first.isoformat(), last)


def week_span(text: str | None, tz: str, now_ms: int) -> Span:
    """The Monday-to-Sunday week holding a DATE (or today, yesterday; default today), or
    the ISO week ``YYYY-Www``."""
    text = text.strip() if text is not None else None
    m = _ISO_WEEK.fullmatch(text or "")
    if m is not None:
        try:
            monday = date.fromisocalendar(int(m[1]), int(m[2]), 1)
        except ValueError as exc:
            raise WindowError(f"no such ISO week: {text!r}") from exc
    else:
        d = parse_day(day_or_word(text or "today", tz, now_ms))
        monday = d - timedelta(days=d.weekday())
    iso = monday.isocalendar()
    try:
        sunday = monday + timedelta(days=6)
    except OverflowError as exc:  # the last week of 9999 ends in the year 10000
        raise WindowError(f"date out of range: {text!r}") from exc
    label = f"{iso.year:04d}-W{iso.week:02d}"  # (as YYYY-Www reads it back)
    return Span(monday.isoformat(), sunday.isoformat(), "week", label)


def month_span(text: str | None, tz: str, now_ms: int) -> Span:
    """The calendar month ``YYYY-MM``, or the one holding a DATE (default today)."""
    m = _MONTH.fullmatch(text or "")
    if m is not None:
        year, month = int(m[1]), int(m[2])
        if not 1 <= month <= 12 or year < 1:
            raise WindowError(f"no such month: {text!r}")
    else:
        d = parse_day(day_or_word(text or "today", tz, now_ms))
        year, month = d.year, d.month
    first = date(year, month, 1)
    nxt = date(year + month // 12, month % 12 + 1, 1) if year < 9999 or month < 12 else None
    last = (nxt - timedelta(days=1)) if nxt else date(9999, 12, 31)
    return Span(first.isoformat(), last.isoformat(), "month", f"{year:04d}-{month:02d}")


def previous(span: Span) -> Span:
    """The period just before ``span``, of its kind: the week before a week, the calendar
    month before a month, else as many days ending the day before."""
    first = date.fromisoformat(span.since)
    try:
        if span.kind == "week":
            return week_span((first - timedelta(days=7)).isoformat(), "UTC", 0)
        if span.kind == "month":
            return month_span((first - timedelta(days=1)).isoformat(), "UTC", 0)
        n = len(span.days())
        last = first - timedelta(days=1)
        return Span((last - timedelta(days=n - 1)).isoformat(), last.isoformat())
    except OverflowError as exc:
        raise WindowError(f"no period before {span.label}") from exc


def parse_span(text: str, tz: str, now_ms: int, before: Span | None = None) -> Span:
    """A period as one word: ``YYYY-Www``, ``YYYY-MM``, ``D1..D2``, a single day (a DATE,
    today, yesterday), ``this-week``, ``last-week``, ``this-month``, ``last-month``, or
    ``previous`` (the period before ``before``)."""
    t = text.strip()
    word = t.lower()
    if word == "previous":
        if before is None:
            raise WindowError("previous: no period to come before")
        return previous(before)
    if word in ("this-week", "last-week"):
        this = week_span(None, tz, now_ms)
        return this if word == "this-week" else previous(this)
    if word in ("this-month", "last-month"):
        this = month_span(None, tz, now_ms)
        return this if word == "this-month" else previous(this)
    if _ISO_WEEK.fullmatch(t):
        return week_span(t, tz, now_ms)
    if _MONTH.fullmatch(t):
        return month_span(t, tz, now_ms)
    m = _RANGE.fullmatch(t)
    if m is not None:
        since, until = (day_or_word(x.strip(), tz, now_ms) for x in (m[1], m[2]))
        return days_span(since, until)
    try:
        day = day_or_word(t, tz, now_ms)
        parse_day(day)
    except WindowError:
        raise WindowError(
            f"not a period: {text!r} (YYYY-Www, YYYY-MM, YYYY-MM-DD..YYYY-MM-DD, a date,"
            f" {', '.join(RELATIVE)})"
        ) from None
    return Span(day, day)


def day_windows(span: Span, tz: str) -> list[Window]:
    """The whole local days of ``span``, each as ``day`` compiles it."""
    return [day_window(d, tz) for d in span.days()]


def split_days(window: Window) -> list[tuple[str, Window]]:
    """``window`` cut at the local days' starts: (day, its piece) for every local day it
    touches; a piece that is the whole day is that day's own window (``day`` set)."""
    if window.day is not None:
        return [(window.day, window)]
    out: list[tuple[str, Window]] = []
    day = local_day_of(window.start_ms, window.tz)
    while True:
        whole = day_window(day, window.tz)
        start, end = max(window.start_ms, whole.start_ms), min(window.end_ms, whole.end_ms)
        if start < end:
            whole_day = (start, end) == (whole.start_ms, whole.end_ms)
            out.append((day, whole if whole_day else Window(start, end, window.tz)))
        if whole.end_ms >= window.end_ms:
            return out
        day = (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def as_day(window: Window) -> Window:
    """A span that is exactly one local day (since = until = a date) as that day's own
    window: the same document as ``day`` asks for, cached alike."""
    pieces = split_days(window)
    if len(pieces) == 1 and pieces[0][1].day is not None:
        return pieces[0][1]
    return window


def spans_days(window: Window) -> bool:
    """Whether a window is asked as a period: longer than a day (24 hours) and touching
    more than one local day. A day, or the last hours across midnight, is one document."""
    if window.day is not None or window.end_ms - window.start_ms <= 86_400_000:
        return False
    return len(split_days(window)) > 1


__all__ = [
    "MAX_PERIOD_DAYS",
    "Span",
    "as_day",
    "day_windows",
    "days_span",
    "last_days",
    "month_span",
    "parse_span",
    "previous",
    "spans_days",
    "split_days",
    "week_span",
]
