"""``--day-start HH:MM``: a day from that local time to the same time the next day."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.window import DayStart, WindowError, day_window, local_day_of, parse_day_start

from .builders import run_cli


def test_days_begin_at_the_day_start_across_dst() -> None:
    tz = "Europe/Berlin"
    spring = day_window("2026-03-29", tz, 4 * 60)  # 02:00 -> 03:00 that night
    assert spring.start_ms == day_window("2026-03-29", tz).start_ms + 3 * 3_600_000
    assert spring.end_ms - spring.start_ms == 24 * 3_600_000  # the lost hour was before 04:00
    autumn = day_window("2026-10-25", tz, 4 * 60)
    assert autumn.end_ms - autumn.start_ms == 24 * 3_600_000
    whole = day_window("2026-10-25", tz, 0)
    assert whole.end_ms - whole.start_ms == 25 * 3_600_000
    late = day_window("2026-10-24", tz, 4 * 60)
    assert late.end_ms - late.start_ms == 25 * 3_600_000  # holds the repeated hour


def test_the_day_of_an_instant_follows_the_day_start() -> None:
    at_2am = day_window("2026-06-13", "UTC", 0).start_ms + 2 * 3_600_000
    assert local_day_of(at_2am, "UTC") == "2026-06-13"
    DayStart.minutes = 4 * 60
    try:
        assert local_day_of(at_2am, "UTC") == "2026-06-12"
    finally:
        DayStart.minutes = 0


@pytest.mark.parametrize("text", ["24:00", "4", "04:60", "-1:00", "noon"])
def test_bad_day_starts(text: str) -> None:
    with pytest.raises(WindowError, match="start of day"):
        parse_day_start(text)


def test_cli_rejects_a_bad_day_start_in_one_line(tmp_path: Path) -> None:
    res = run_cli("apps", "2026-06-12", "--db", str(tmp_path / "x.db"), "--day-start", "25:00")
    assert res.returncode != 0 and res.stderr.count("\n") == 1
    assert "start of day" in res.stderr and "Traceback" not in res.stderr
