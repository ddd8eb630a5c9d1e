"""Bare dates are whole local days everywhere: ``--until DATE`` runs through the end of
that day (23 or 25 hours at a DST change, its end per ``--day-start``), a time keeps its
exact meaning, and the 31-day limit counts local days; ``window.resolve`` and the
commands that use it (``context``, ``comms``) on a real store of several days."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from actframes.capture import store
from actframes.errors import UsageError
from actframes.model import Snapshot
from actframes.window import MAX_SPAN_DAYS, DayStart, Window, WindowError, day_window, resolve

from .builders import ms, run_cli

HOUR = 3_600_000
BERLIN, NEW_YORK = "Europe/Berlin", "America/New_York"
CLI = {"hours": "--hours", "since": "--since", "until": "--until"}
LIMIT = f"a window may span at most {MAX_SPAN_DAYS} days"


def local(day: str, tz: str, hour: int = 0, minute: int = 0) -> int:
    """Epoch ms of a local wall time (stdlib only, not the code under test)."""
    d = date.fromisoformat(day)
    return ms(datetime(d.year, d.month, d.day, hour, minute, tzinfo=ZoneInfo(tz)).isoformat())


def after(day: str, n: int = 1) -> str:
    return (date.fromisoformat(day) + timedelta(days=n)).isoformat()


NOW = local("2026-12-10", BERLIN, 13)


def span(since: str, until: str, tz: str = BERLIN, **kw: Any) -> Window:
    return resolve(tz=tz, now_ms=kw.pop("now_ms", NOW), since=since, until=until, **kw)


# ------------------------------------------------------------------ window.resolve


def test_until_a_date_runs_through_the_end_of_that_day() -> None:
    got = span("2026-12-01", "2026-12-04")
    assert got == Window(local("2026-12-01", BERLIN), local("2026-12-05", BERLIN), BERLIN)
    assert got.end_ms == day_window("2026-12-04", BERLIN).end_ms
    assert got.end_ms - got.start_ms == 4 * 24 * HOUR


@pytest.mark.parametrize("tz", [BERLIN, NEW_YORK, "UTC", "Asia/Kolkata"])
def test_since_equal_to_until_is_that_whole_day(tz: str) -> None:
    whole = day_window("2026-12-04", tz)
    got = span("2026-12-04", "2026-12-04", tz)
    assert (got.start_ms, got.end_ms) == (whole.start_ms, whole.end_ms)


@pytest.mark.parametrize(
    ("tz", "day", "hours"),
    [
        (BERLIN, "2026-10-25", 25),  # clocks go back: 03:00 CEST -> 02:00 CET
        (BERLIN, "2026-03-29", 23),  # clocks go forward: 02:00 CET -> 03:00 CEST
        (NEW_YORK, "2026-11-01", 25),
        (NEW_YORK, "2026-03-08", 23),
        (BERLIN, "2026-10-24", 24),  # the days around them are ordinary
        (NEW_YORK, "2026-11-09", 24),
    ],
)
def test_an_until_day_at_a_dst_change_is_23_or_25_hours(tz: str, day: str, hours: int) -> None:
    one = span(day, day, tz)
    assert one.end_ms - one.start_ms == hours * HOUR
    assert one.end_ms == local(after(day), tz)  # the next local midnight
    # ending on that day, from three days before: three ordinary days and this one
    longer = span(after(day, -3), day, tz)
    assert longer.start_ms == local(after(day, -3), tz)
    assert longer.end_ms == local(after(day), tz)
    assert longer.end_ms - longer.start_ms == (72 + hours) * HOUR


@pytest.mark.parametrize("how", ["argument", "global"])
def test_an_until_day_ends_at_the_next_day_start(how: str, monkeypatch: Any) -> None:
    """With days from 04:00: the day 2026-12-04 is [12-04 04:00, 12-05 04:00) local, so
    --since and --until both move; a time with a clock does not."""
    kw: dict[str, Any] = {}
    if how == "argument":
        kw["day_start"] = 240
    else:  # the CLI's --day-start sets it for the command
        monkeypatch.setattr(DayStart, "minutes", 240)
    got = span("2026-12-01", "2026-12-04", **kw)
    assert got == Window(local("2026-12-01", BERLIN, 4), local("2026-12-05", BERLIN, 4), BERLIN)
    assert got.end_ms == day_window("2026-12-04", BERLIN, 240).end_ms
    clock = span("2026-12-01T00:30", "2026-12-04T02:00", **kw)
    assert clock == Window(
        local("2026-12-01", BERLIN, 0, 30), local("2026-12-04", BERLIN, 2), BERLIN
    )


@pytest.mark.parametrize(
    ("day", "hours"),
    [("2026-10-24", 25), ("2026-10-25", 24), ("2026-03-28", 23), ("2026-03-29", 24)],
)
def test_with_a_day_start_the_changed_night_belongs_to_the_day_before(day: str, hours: int) -> None:
    # Berlin changes its clocks at 02:00/03:00, before a 04:00 day start: the 24th of
    # October holds the repeated hour (25 hours), the 28th of March the lost one (23).
    got = span(day, day, day_start=240)
    assert got.start_ms == local(day, BERLIN, 4) and got.end_ms == local(after(day), BERLIN, 4)
    assert got.end_ms - got.start_ms == hours * HOUR


@pytest.mark.parametrize(
    ("since", "until", "start", "end"),
    [
        ("2026-12-01", "2026-12-04T12:00", "2026-12-01T00:00+01:00", "2026-12-04T12:00+01:00"),
        ("2026-12-01T09:30", "2026-12-04", "2026-12-01T09:30+01:00", "2026-12-05T00:00+01:00"),
        ("2026-12-04", "2026-12-04T00:01", "2026-12-04T00:00+01:00", "2026-12-04T00:01+01:00"),
        (
            "2026-12-01",
            "2026-12-04T23:59:59",
            "2026-12-01T00:00+01:00",
            "2026-12-04T23:59:59+01:00",
        ),
        ("2026-12-01", "2026-12-04T12:00+00:00", "2026-12-01T00:00+01:00", "2026-12-04T12:00Z"),
        ("2026-12-01", "2026-12-04T11:00Z", "2026-12-01T00:00+01:00", "2026-12-04T11:00Z"),
        # at a DST change: the second 02:30 of the 25th of October is the CET one
        (
            "2026-10-25",
            "2026-10-25T02:30+01:00",
            "2026-10-25T00:00+02:00",
            "2026-10-25T02:30+01:00",
        ),
    ],
)
def test_a_time_with_a_clock_keeps_its_exact_meaning(
    since: str, until: str, start: str, end: str
) -> None:
    got = span(since, until)
    assert (got.start_ms, got.end_ms) == (ms(start), ms(end))


@pytest.mark.parametrize(
    ("since", "until", "first", "last"),
    [
        ("yesterday", "yesterday", "2026-12-09", "2026-12-09"),
        ("2026-12-01", "yesterday", "2026-12-01", "2026-12-09"),
        ("2026-12-01", "Yesterday", "2026-12-01", "2026-12-09"),
        ("yesterday", "today", "2026-12-09", "2026-12-10"),  # through the end of today
        ("today", "TODAY", "2026-12-10", "2026-12-10"),
    ],
)
def test_day_words_are_whole_days_too(since: str, until: str, first: str, last: str) -> None:
    got = span(since, until)
    assert got.start_ms == local(first, BERLIN) and got.end_ms == local(after(last), BERLIN)


def test_day_words_follow_the_day_start(monkeypatch: Any) -> None:
    # 02:00 on the 26th with days from 04:00: today is the 25th, yesterday the 24th
    monkeypatch.setattr(DayStart, "minutes", 240)
    now = local("2026-10-26", BERLIN, 2)
    got = span("yesterday", "yesterday", now_ms=now)
    assert (got.start_ms, got.end_ms) == (
        local("2026-10-24", BERLIN, 4),
        local("2026-10-25", BERLIN, 4),
    )
    assert got.end_ms - got.start_ms == 25 * HOUR
    today = span("today", "today", now_ms=now)
    assert today.end_ms == local("2026-10-26", BERLIN, 4)


@pytest.mark.parametrize(
    ("tz", "since", "until"),
    [
        (BERLIN, "2026-10-01", "2026-10-31"),  # 31 days and the 25-hour one: 745 hours
        (BERLIN, "2026-03-01", "2026-03-31"),  # 31 days and the 23-hour one: 743 hours
        (NEW_YORK, "2026-10-15", "2026-11-14"),
        (NEW_YORK, "2026-02-20", "2026-03-22"),
        ("UTC", "2026-12-01", "2026-12-31"),
    ],
)
def test_31_local_days_are_allowed_across_a_dst_change(tz: str, since: str, until: str) -> None:
    got = span(since, until, tz)
    assert (got.start_ms, got.end_ms) == (local(since, tz), local(after(until), tz))
    with pytest.raises(WindowError) as info:  # one day more is refused, in one line
        span(since, after(until), tz, names=CLI)
    assert str(info.value) == LIMIT and "\n" not in str(info.value)
    assert isinstance(info.value, UsageError) and info.value.exit_code == 2


def test_31_local_days_from_a_day_start() -> None:
    got = span("2026-10-01", "2026-10-31", day_start=240)
    assert got.end_ms == local("2026-11-01", BERLIN, 4)
    with pytest.raises(WindowError, match=f"^{LIMIT}$"):
        span("2026-10-01", "2026-11-01", day_start=240)


@pytest.mark.parametrize(
    ("since", "until"),
    [
        ("2026-12-04", "2026-12-03"),  # the 3rd ends where the 4th starts
        ("2026-12-04", "2026-12-04T00:00"),  # a time: the very start of the 4th
        ("2026-12-04T12:00", "2026-12-04T12:00"),
        ("today", "yesterday"),
    ],
)
def test_an_until_before_since_is_refused_in_one_line(since: str, until: str) -> None:
    with pytest.raises(WindowError) as info:
        span(since, until, names=CLI)
    assert str(info.value) == "--until must be after --since"


# -------------------------------------------------------- a real store of several days


def _minutes(at: str, app: str, title: str, n: int) -> Iterator[tuple[int, str, str]]:
    """A row a minute for ``n`` minutes from ``at`` (ISO-8601 with its offset)."""
    for k in range(n + 1):
        yield ms(at) + k * 60_000, app, title


def slack(channel: str) -> str:
    return f"#{channel} - Acme - Slack"


def build_days(path: Path) -> Path:
    """Three days in Berlin around the end of summer time (the 25th of October 2026 is
    25 hours long), each with its own Slack channel: the 24th's morning (#first), the
    repeated hour of the 25th's night (#repeated, 02:30 CET), the 25th's late evening
    (#lastday, and the only Zed), the night after (#after, 02:00 on the 26th: still the
    25th with days from 04:00) and the 26th's morning (#nextday)."""
    rows = [
        *_minutes("2026-10-24T10:00:00+02:00", "Code", "a.py — proj", 10),
        *_minutes("2026-10-24T10:11:00+02:00", "Slack", slack("first"), 5),
        *_minutes("2026-10-25T02:30:00+01:00", "Slack", slack("repeated"), 5),
        *_minutes("2026-10-25T23:00:00+01:00", "Slack", slack("lastday"), 10),
        *_minutes("2026-10-25T23:11:00+01:00", "Zed", "late.py — proj", 10),
        *_minutes("2026-10-26T02:00:00+01:00", "Slack", slack("after"), 5),
        *_minutes("2026-10-26T10:00:00+01:00", "Slack", slack("nextday"), 5),
    ]
    conn = store.open_store(path)
    store.write_snapshots(conn, [Snapshot(i, *row) for i, row in enumerate(rows, 1)])
    conn.close()
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_days(tmp_path_factory.mktemp("until") / "days.db")


def cli(db: Path, *args: str) -> str:
    out = run_cli(*args, "--db", str(db), "--tz", BERLIN)
    assert out.returncode == 0, out.stderr
    return out.stdout


def channels(view: dict[str, Any]) -> set[str]:
    return {c["entity"] for s in view["surfaces"] for c in s["conversations"]}


@pytest.mark.parametrize(
    ("args", "start", "end", "found"),
    [
        (
            ["--since", "2026-10-24", "--until", "2026-10-25"],
            "2026-10-24T00:00:00+02:00",
            "2026-10-26T00:00:00+01:00",
            {"first", "repeated", "lastday"},
        ),
        (
            ["--since", "2026-10-25", "--until", "2026-10-25"],
            "2026-10-25T00:00:00+02:00",
            "2026-10-26T00:00:00+01:00",
            {"repeated", "lastday"},
        ),
        (
            ["--since", "2026-10-24", "--until", "2026-10-24"],
            "2026-10-24T00:00:00+02:00",
            "2026-10-25T00:00:00+02:00",
            {"first"},
        ),
        (
            ["--since", "2026-10-25", "--until", "2026-10-25", "--day-start", "04:00"],
            "2026-10-25T04:00:00+01:00",
            "2026-10-26T04:00:00+01:00",
            {"lastday", "after"},
        ),
        (
            ["--since", "2026-10-24", "--until", "2026-10-25", "--day-start", "04:00"],
            "2026-10-24T04:00:00+02:00",
            "2026-10-26T04:00:00+01:00",
            {"first", "repeated", "lastday", "after"},
        ),
        (
            ["--since", "2026-10-25", "--until", "2026-10-25T23:05"],
            "2026-10-25T00:00:00+02:00",
            "2026-10-25T23:05:00+01:00",
            {"repeated", "lastday"},
        ),
        (
            ["--since", "2026-10-01", "--until", "2026-10-31"],  # 31 days, 745 hours
            "2026-10-01T00:00:00+02:00",
            "2026-11-01T00:00:00+01:00",
            {"first", "repeated", "lastday", "after", "nextday"},
        ),
    ],
)
def test_comms_until_a_date_includes_that_day(
    db: Path, args: list[str], start: str, end: str, found: set[str]
) -> None:
    view = json.loads(cli(db, "comms", *args))
    assert (view["window"]["start"], view["window"]["end"]) == (start, end)
    assert channels(view) == {f"{c} (Acme)" for c in found}


def test_context_until_a_date_includes_rows_of_that_day(db: Path) -> None:
    period = cli(db, "context", "--since", "2026-10-24", "--until", "2026-10-25")
    assert period.startswith("# activity period 2026-10-24..2026-10-25")
    [day] = [line for line in period.splitlines() if line.startswith("- 10-25 Sun · ")]
    assert "Zed" in day and "Slack" in day
    assert "- Zed · " in period and "lastday (Acme)" in period
    assert "after (Acme)" not in period and "nextday (Acme)" not in period
    one = cli(db, "context", "--since", "2026-10-25", "--until", "2026-10-25")
    assert one.startswith("# activity day 2026-10-25 ")
    assert '"late.py — proj"' in one and "lastday (Acme)" in one
    assert "first (Acme)" not in one and "after (Acme)" not in one
    # the same document as the day asked by its date
    assert one == cli(db, "day", "2026-10-25", "--format", "context")
    late = cli(
        db, "context", "--since", "2026-10-25", "--until", "2026-10-25", "--day-start", "04:00"
    )
    assert late.startswith("# activity day 2026-10-25 ")
    assert "after (Acme)" in late and "repeated (Acme)" not in late


def test_32_days_are_refused_in_one_line(db: Path) -> None:
    for command in ("context", "comms"):
        out = run_cli(
            command,
            "--since",
            "2026-10-01",
            "--until",
            "2026-11-01",
            "--db",
            str(db),
            "--tz",
            BERLIN,
        )
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.count("\n") == 1 and LIMIT in out.stderr


@pytest.mark.parametrize("command", ["context", "comms"])
def test_the_help_says_a_date_is_a_whole_day(command: str) -> None:
    out = run_cli(command, "--help")
    text = " ".join(out.stdout.split())
    assert "a date means through the end of that day" in text
    assert "is that day's start" in text and "a time is that instant" in text
