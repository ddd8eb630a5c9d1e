"""The period document's shape (``compile/period.py``, SPEC.md §5a): several local days,
each exactly as its own day document says, and their sums. Keys marked ``NotRequired``
are left out when empty; every other key is always present."""

from typing import NotRequired, TypedDict

from .doc_types import Compiled, SourceInfo


class NameSeconds(TypedDict):
    name: str
    active_s: int


class AppSeconds(TypedDict):
    app: str
    active_s: int


class PeriodDay(TypedDict):
    """One local day: its document's coverage and ledger in brief. A day without capture
    is listed too (``active_s`` 0, ``first``/``last`` null)."""

    day: str
    weekday: str  # Mon … Sun
    start: str  # the day's window (a span asked by times: the part of it in this day)
    end: str
    active_s: int
    away_s: int
    first: str | None
    last: str | None
    rows: int
    keys: int
    clicks: int
    apps: list[AppSeconds]  # the day's whole ledger summed over sites
    projects: list[NameSeconds]  # the day's projects (the rest of active_s has none)
    digest: str  # the day document's source digest


class PeriodLedgerEntry(TypedDict):
    app: str
    site: NotRequired[str]
    active_s: int
    keys: int
    clicks: int
    days: int  # days with time on it


class PeriodApp(TypedDict):
    app: str
    active_s: int
    keys: int
    clicks: int
    days: int
    busiest: str | None  # the day with most time on it (earliest of equals)


class PeriodShare(TypedDict):
    name: str
    active_s: int
    keys: int
    clicks: int
    days: int


class PeriodShares(TypedDict):
    rules: str
    entries: list[PeriodShare]
    unassigned_s: NotRequired[int]


class PeriodViewed(TypedDict):
    kind: str
    entity: str
    label: NotRequired[str]
    first: str  # the first view's time
    first_day: str
    last_day: str
    days: list[str]
    views: int


class PeriodWindow(TypedDict):
    since: str
    until: str
    label: str
    kind: str  # week | month | days
    tz: str
    start: str
    end: str
    days: int


class PeriodTotals(TypedDict):
    active_s: int
    away_s: int
    rows: int
    keys: int
    clicks: int
    days_active: int
    first: str | None
    last: str | None


class PeriodDocument(TypedDict):
    """The period document, schema_version 1, ``kind`` "period"."""

    schema_version: int
    kind: str
    source: SourceInfo
    compiled: Compiled
    window: PeriodWindow
    totals: PeriodTotals
    days: list[PeriodDay]
    ledger: list[PeriodLedgerEntry]
    apps: list[PeriodApp]
    projects: PeriodShares
    categories: PeriodShares
    viewed: list[PeriodViewed]
    blind_spots: list[str]
