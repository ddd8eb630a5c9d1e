"""``window.resolve``: the one resolver of day / hours / since-until windows, its limits
and its one-line refusals, as the CLI and the MCP server both use it."""

from __future__ import annotations

from calendar import timegm
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.errors import UsageError
from actframes.window import (
    MAX_HOURS,
    MAX_SPAN_DAYS,
    Window,
    WindowError,
    day_window,
    resolve,
)

HOUR = 3_600_000
DAY_MS = 24 * HOUR
TZ = "Europe/Berlin"
CLI = {"hours": "--hours", "since": "--since", "until": "--until"}
CLI_DAY = {"day": "DATE", "since": "--since", "until": "--until"}


def utc(y: int, mo: int, d: int, h: int = 0, mi: int = 0) -> int:
    return timegm((y, mo, d, h, mi, 0, 0, 0, 0)) * 1000


NOW = utc(2026, 3, 10, 12)  # 13:00 in Berlin


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"day": "2026-03-09"}, day_window("2026-03-09", TZ)),
        ({"hours": 2}, Window(NOW - 2 * HOUR, NOW, TZ)),
        ({"hours": 0.5}, Window(NOW - HOUR // 2, NOW, TZ)),
        ({"hours": MAX_HOURS}, Window(NOW - MAX_HOURS * HOUR, NOW, TZ)),
        ({"since": "2026-03-10T09:00"}, Window(utc(2026, 3, 10, 8), NOW, TZ)),
        (
            {"since": "2026-03-09", "until": "2026-03-10T06:00+00:00"},
            Window(utc(2026, 3, 8, 23), utc(2026, 3, 10, 6), TZ),
        ),
        # exactly the longest span allowed
        (
            {"since": "2026-02-01T00:00Z", "until": "2026-03-04T00:00Z"},
            Window(utc(2026, 2, 1), utc(2026, 2, 1) + MAX_SPAN_DAYS * DAY_MS, TZ),
        ),
        ({}, day_window("2026-03-10", TZ)),  # nothing given: today
        ({"default_hours": 2}, Window(NOW - 2 * HOUR, NOW, TZ)),
        ({"day": "2026-03-09", "default_hours": 2}, day_window("2026-03-09", TZ)),
        # the day starts at 04:00: 03:00 local belongs to the day before
        (
            {"day_start": 240, "now_ms": utc(2026, 3, 10, 2)},
            day_window("2026-03-09", TZ, 240),
        ),
        ({"day": "2026-03-09", "day_start": 240}, day_window("2026-03-09", TZ, 240)),
    ],
)
def test_resolve_gives_the_window(args: dict[str, Any], expected: Window) -> None:
    kw: dict[str, Any] = {"tz": TZ, "now_ms": NOW, **args}
    assert resolve(**kw) == expected


@pytest.mark.parametrize(
    ("args", "names", "message"),
    [
        ({"hours": 2, "day": "2026-03-09"}, None, "give one of hours, day or since (with until)"),
        ({"hours": 2, "since": "2026-03-09"}, CLI, "give --hours or --since/--until, not both"),
        (
            {"day": "2026-03-09", "since": "2026-03-09"},
            CLI_DAY,
            "give DATE or --since/--until, not both",
        ),
        ({"until": "2026-03-09"}, None, "until needs since"),
        ({"until": "2026-03-09"}, CLI, "--until needs --since"),
        # a bare --until date is the end of its day (since = until is that day), so only
        # an instant can be no later than the start
        (
            {"since": "2026-03-10T09:00", "until": "2026-03-10T09:00"},
            None,
            "until must be after since",
        ),
        ({"since": "2026-03-11", "until": "2026-03-10"}, CLI, "--until must be after --since"),
        ({"since": "2026-03-11"}, CLI, "--until must be after --since"),  # until: now
        (
            {"since": "2016-01-01", "until": "2026-01-01"},
            CLI,
            f"a window may span at most {MAX_SPAN_DAYS} days",
        ),
        (
            {"since": "2026-02-01T00:00Z", "until": "2026-03-04T00:00:01Z"},
            None,
            f"a window may span at most {MAX_SPAN_DAYS} days",
        ),
        ({"since": "2026-01-01"}, CLI, f"a window may span at most {MAX_SPAN_DAYS} days"),
        ({"hours": 0}, None, f"hours must be above 0 and at most {MAX_HOURS}"),
        ({"hours": -1}, CLI, f"--hours must be above 0 and at most {MAX_HOURS}"),
        ({"hours": MAX_HOURS + 0.01}, CLI, f"--hours must be above 0 and at most {MAX_HOURS}"),
        ({"hours": float("nan")}, CLI, f"--hours must be above 0 and at most {MAX_HOURS}"),
        ({"default_hours": 0}, None, f"hours must be above 0 and at most {MAX_HOURS}"),
        ({"day": "2026-02-30"}, None, "no such date: '2026-02-30'"),
        ({"day": "yesterday"}, None, "not a date (YYYY-MM-DD): 'yesterday'"),
        ({"since": "soon"}, CLI, "not a date-time: 'soon'"),
        ({"day": "2026-03-09", "tz": "Mars/Base"}, None, "unknown time zone: 'Mars/Base'"),
    ],
)
def test_resolve_refuses_in_one_line(
    args: dict[str, Any], names: dict[str, str] | None, message: str
) -> None:
    kw: dict[str, Any] = {"tz": TZ, "now_ms": NOW, "names": names, **args}
    with pytest.raises(WindowError) as info:
        resolve(**kw)
    assert str(info.value) == message
    # a usage error: exit status 2, one line
    assert isinstance(info.value, UsageError) and info.value.exit_code == 2
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("command", "args", "message"),
    [
        (
            "context",
            ["--since", "2026-01-01", "--until", "2026-03-01"],
            f"a window may span at most {MAX_SPAN_DAYS} days",
        ),
        ("context", ["--hours", "745"], f"--hours must be above 0 and at most {MAX_HOURS}"),
        ("context", ["--hours", "1", "--since", "2026-03-09"], "give --hours or --since/--until"),
        (
            "comms",
            ["--since", "2026-01-01", "--until", "2026-03-01"],
            f"a window may span at most {MAX_SPAN_DAYS} days",
        ),
        ("comms", ["2026-03-09", "--since", "2026-03-09"], "give DATE or --since/--until"),
    ],
)
def test_the_cli_refuses_with_the_same_limits(
    tmp_path: Path, command: str, args: list[str], message: str
) -> None:
    """The CLI's windows go through ``resolve``: the same limits as the MCP server, a
    one-line usage error and exit status 2, before the store is read."""
    from actframes.simulate import write_native

    from .builders import run_cli

    store = write_native(tmp_path / "s.db", [])
    out = run_cli(command, *args, "--db", str(store), "--tz", "UTC")
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and message in out.stderr and out.stdout == ""


@settings(max_examples=200, deadline=None)
@given(
    start_s=st.integers(utc(2000, 1, 1) // 1000, utc(2040, 1, 1) // 1000),
    length_s=st.integers(1, (MAX_SPAN_DAYS + 2) * 86_400),
    zone=st.sampled_from(["UTC", TZ, "America/St_Johns", "Asia/Kathmandu"]),
)
def test_a_span_is_kept_exactly_up_to_the_limit(start_s: int, length_s: int, zone: str) -> None:
    """Any pair of instants given with offsets: the window is exactly that span when it
    lasts at most MAX_SPAN_DAYS days, and refused in one line otherwise, in any zone.
    The limit counts local days, so across a change back from summer time it is an hour
    longer (these zones move their clocks by at most an hour in these years)."""
    start, end = start_s * 1000, (start_s + length_s) * 1000
    since, until = _iso(start), _iso(end)
    limit = MAX_SPAN_DAYS * DAY_MS
    if end - start <= limit:
        assert resolve(tz=zone, now_ms=NOW, since=since, until=until) == Window(start, end, zone)
    elif end - start > limit + HOUR or _offset(end, zone) >= _offset(start, zone):
        with pytest.raises(WindowError, match=f"^a window may span at most {MAX_SPAN_DAYS} days$"):
            resolve(tz=zone, now_ms=NOW, since=since, until=until)
    else:  # the clocks went back: allowed up to the same wall-clock time 31 days later
        try:
            got = resolve(tz=zone, now_ms=NOW, since=since, until=until)
        except WindowError as exc:
            assert str(exc) == f"a window may span at most {MAX_SPAN_DAYS} days"
        else:
            assert got == Window(start, end, zone)


@settings(max_examples=200, deadline=None)
@given(hours=st.floats(0.001, MAX_HOURS), now=st.integers(utc(2000, 1, 1), utc(2040, 1, 1)))
def test_hours_end_now_and_last_as_long_as_asked(hours: float, now: int) -> None:
    got = resolve(tz=TZ, now_ms=now, hours=hours)
    assert got.end_ms == now and got.start_ms == now - int(hours * HOUR) and got.day is None


def _offset(ms: int, zone: str) -> timedelta:
    off = datetime.fromtimestamp(ms // 1000, ZoneInfo(zone)).utcoffset()
    assert off is not None
    return off


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms // 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
