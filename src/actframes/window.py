"""Time windows: a local calendar day in an IANA zone, or an explicit span.

Days are resolved with the zone's own rules, so a day that loses or gains an hour to
daylight saving is 23 or 25 hours long. Nothing here reads the machine's zone.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import UsageError
from .fast.records import FrozenRecord
from .timeparse import TimestampError, parse_iso_ms


class WindowError(UsageError, ValueError):
    """A day, zone or span the user asked for that cannot be used."""


class Window(FrozenRecord):
    """A half-open span [start_ms, end_ms) in zone ``tz``; ``day`` names a local day."""

    __slots__ = _fields = ("start_ms", "end_ms", "tz", "day")

    start_ms: int
    end_ms: int
    tz: str
    day: str | None

    def __init__(self, start_ms: int, end_ms: int, tz: str, day: str | None = None) -> None:
        init = object.__setattr__
        init(self, "start_ms", start_ms)
        init(self, "end_ms", end_ms)
        init(self, "tz", tz)
        init(self, "day", day)


def zone(name: str) -> ZoneInfo:
    if not name or name.startswith(("/", ".")) or ".." in name:
        raise WindowError(f"unknown time zone: {name!r}")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise WindowError(f"unknown time zone: {name!r}") from exc


def parse_day(text: str) -> date:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise WindowError(f"not a date (YYYY-MM-DD): {text!r}")
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise WindowError(f"no such date: {text!r}") from exc


# The words a day may be given as besides YYYY-MM-DD (the CLI's DATE, the MCP tools'
# `day` and `until`), as days back from the local day "now" falls in.
DAY_WORDS = {"today": 0, "yesterday": 1}


def named_day(text: str, tz: str, now_ms: int, day_start: int | None = None) -> str:
    """``text`` with a day word (any case) replaced by the local day it names at
    ``now_ms`` in ``tz`` (the day's start as ``local_day_of`` has it, ``day_start``
    minutes after midnight); anything else is returned as given, for ``parse_day``."""
    back = DAY_WORDS.get(text.lower())
    if back is None:
        return text
    today = local_day_of(now_ms, tz, day_start)
    return (date.fromisoformat(today) - timedelta(days=back)).isoformat()


def day_or_word(text: str, tz: str, now_ms: int) -> str:
    """``named_day``, which must then have the shape of a date (the CLI's DATE, the MCP
    tools' day words); whether the date exists is ``parse_day``'s to say."""
    day = named_day(text, tz, now_ms)
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
        raise WindowError(f"not a date (YYYY-MM-DD, today or yesterday): {text!r}")
    return day


class DayStart:
    """When a day begins, in minutes after local midnight: 0 unless the CLI's
    --day-start says otherwise (for people whose day ends after midnight; ActivityWatch's
    own default is 04:00). Set once per command, before any day is resolved."""

    minutes = 0


def parse_day_start(text: str) -> int:
    """``HH:MM`` (00:00 to 23:59) as minutes after midnight."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", text.strip())
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        raise WindowError(f"not a start of day (HH:MM, 00:00 to 23:59): {text!r}")
    return int(m[1]) * 60 + int(m[2])


def days_from(since: str, until: str, most: int) -> list[str]:
    """The local days from ``since`` through ``until`` (both YYYY-MM-DD, inclusive), at
    most ``most`` of them."""
    first, last = parse_day(since), parse_day(until)
    if last < first:
        raise WindowError(f"--until {until} is before --since {since}")
    n = (last - first).days + 1
    if n > most:
        raise WindowError(f"{n} days asked ({since} .. {until}); at most {most} at once")
    return [(first + timedelta(days=k)).isoformat() for k in range(n)]


def day_window(day: str, tz: str, day_start: int | None = None) -> Window:
    """The local day ``day`` in zone ``tz``: [its start, the next day's start), the start
    being midnight plus ``day_start`` minutes (default ``DayStart.minutes``) of local wall
    time, so a day across a DST change is 23 or 25 hours long."""
    d = parse_day(day)
    z = zone(tz)
    minutes = DayStart.minutes if day_start is None else day_start
    hour, minute = divmod(minutes, 60)
    try:
        start = datetime(d.year, d.month, d.day, hour, minute, tzinfo=z)
        nxt = d + timedelta(days=1)
        end = datetime(nxt.year, nxt.month, nxt.day, hour, minute, tzinfo=z)
        return Window(_ms(start), _ms(end), tz, day)
    except OverflowError as exc:
        raise WindowError(f"date out of range: {day!r}") from exc


def span_window(start: str, end: str, tz: str) -> Window:
    """An explicit span; times without an offset are local to ``tz``."""
    s = parse_local(start, tz)
    e = parse_local(end, tz)
    if e <= s:
        raise WindowError(f"window ends before it starts: {start} .. {end}")
    return Window(s, e, tz)


def parse_local(text: str, tz: str, day_start: int | None = None) -> int:
    """An instant given as a date (its local day's start), a local date-time, or
    ISO-8601 with an offset."""
    z = zone(tz)
    t = text.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", t):
        return day_window(t, tz, day_start).start_ms
    if re.search(r"(Z|[+-]\d{2}:?\d{2})$", t):
        try:
            return parse_iso_ms(t)
        except TimestampError as exc:
            raise WindowError(str(exc)) from exc
    try:
        naive = datetime.fromisoformat(t)
    except ValueError as exc:
        raise WindowError(f"not a date-time: {text!r}") from exc
    return _ms(naive.replace(tzinfo=z))


# The one set of limits of a window asked for by hours or by since/until, for the CLI and
# the MCP server alike (SPEC.md, "Windows"): a day-by-day question fits in a month, and a
# longer span is one huge document nobody reads whole.
MAX_SPAN_DAYS = 31
MAX_HOURS = MAX_SPAN_DAYS * 24

# How each caller spells the window's parameters in its messages (the CLI: "--hours",
# "DATE"; the MCP tools: "hours", "day"). The keys it offers, in this order, are the
# alternatives a conflict message lists.
MCP_NAMES = {"hours": "hours", "day": "day", "since": "since", "until": "until"}


def hours_window(hours: float, now_ms: int, tz: str, name: str = "--hours") -> Window:
    """The last ``hours`` (above 0, at most ``MAX_HOURS``) before ``now_ms``."""
    if not 0 < hours <= MAX_HOURS:
        raise WindowError(f"{name} must be above 0 and at most {MAX_HOURS}")
    zone(tz)
    return Window(now_ms - int(hours * 3_600_000), now_ms, tz)


def resolve(
    *,
    tz: str,
    now_ms: int,
    day: str | None = None,
    hours: float | None = None,
    since: str | None = None,
    until: str | None = None,
    day_start: int | None = None,
    default_hours: float | None = None,
    names: dict[str, str] | None = None,
) -> Window:
    """The one window resolver of the CLI and the MCP server.

    At most one of ``day`` (YYYY-MM-DD), ``hours`` (back from ``now_ms``) and ``since``
    (with ``until``, default now) may be given; none gives the last ``default_hours``, or
    without it the local day ``now_ms`` falls in. Spans are limited to ``MAX_SPAN_DAYS``
    days and hours to ``MAX_HOURS``. Every refusal is a one-line ``WindowError`` (a usage
    error, exit status 2) naming the parameters as ``names`` spells them.
    """
    spell = names or MCP_NAMES
    offered = [spell[k] for k in ("hours", "day", "since") if k in spell]
    if sum(x is not None for x in (hours, day, since)) > 1:
        if len(offered) == 2:
            raise WindowError(f"give {offered[0]} or {offered[1]}/{spell['until']}, not both")
        alternatives = ", ".join(offered[:-1]) + f" or {offered[-1]}"
        raise WindowError(f"give one of {alternatives} (with {spell['until']})")
    if until is not None and since is None:
        raise WindowError(f"{spell['until']} needs {spell['since']}")
    if day is not None:
        return day_window(day, tz, day_start)
    if since is not None:
        # A bare date (or day word) is a whole local day: --since its start, --until
        # its end, so "--until 2026-12-04" means through the 4th.
        start = parse_local(named_day(since.strip(), tz, now_ms, day_start), tz, day_start)
        end = (
            now_ms
            if until is None
            else _until(named_day(until.strip(), tz, now_ms, day_start), tz, day_start)
        )
        if end <= start:
            raise WindowError(f"{spell['until']} must be after {spell['since']}")
        if end > _days_after(start, tz, MAX_SPAN_DAYS):
            raise WindowError(f"a window may span at most {MAX_SPAN_DAYS} days")
        return Window(start, end, tz)
    if hours is not None or default_hours is not None:
        h = hours if hours is not None else default_hours
        assert h is not None
        return hours_window(h, now_ms, tz, spell.get("hours", "hours"))
    return day_window(local_day_of(now_ms, tz, day_start), tz, day_start)


def _until(text: str, tz: str, day_start: int | None) -> int:
    """The end of a window: a bare date is the end of that local day (the next day's
    start, 23 or 25 hours after its own across DST), anything else the instant given."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return day_window(text, tz, day_start).end_ms
    return parse_local(text, tz, day_start)


def _days_after(start_ms: int, tz: str, days: int) -> int:
    """``days`` local days after ``start_ms`` at the same wall-clock time (so a span of
    31 days across a DST change is 31 days, not 31 × 24 hours)."""
    local = datetime.fromtimestamp(start_ms / 1000, zone(tz)).replace(tzinfo=None)
    later = (local + timedelta(days=days)).replace(tzinfo=zone(tz))
    return max(_ms(later), start_ms + days * 86_400_000)


class LocalDays:
    """Local dates and times of epoch milliseconds in one zone, resolved once (exact:
    timedelta arithmetic, no float seconds)."""

    _EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

    def __init__(self, tz: str) -> None:
        self._zone = zone(tz)

    def local(self, ms: int) -> datetime:
        return (self._EPOCH + timedelta(milliseconds=ms)).astimezone(self._zone)

    def day(self, ms: int) -> str:
        return self.local(ms).date().isoformat()

    def minute(self, ms: int) -> int:
        d = self.local(ms)
        return d.hour * 60 + d.minute


def local_day_of(ts_ms: int, tz: str, day_start: int | None = None) -> str:
    """The day ``ts_ms`` belongs to: its local date, one earlier before the day's start
    (``day_start`` minutes after midnight, default ``DayStart.minutes``)."""
    local = datetime.fromtimestamp(ts_ms / 1000, zone(tz))
    minutes = DayStart.minutes if day_start is None else day_start
    if minutes and local.hour * 60 + local.minute < minutes:
        return (local.date() - timedelta(days=1)).isoformat()
    return local.date().isoformat()


def _ms(dt: datetime) -> int:
    try:
        return int(dt.astimezone(UTC).timestamp()) * 1000
    except (OverflowError, ValueError) as exc:
        raise WindowError(f"date out of range: {dt.date().isoformat()}") from exc
