"""A DATE may be YYYY-MM-DD, "today" or "yesterday" (in --tz, by the clock at the edge);
a missing default store says how to get one."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.cli import common
from actframes.window import WindowError, local_day_of

from ..builders import cli_env, run_cli

ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago"]


@settings(max_examples=60, deadline=None)
@given(
    now=st.integers(min_value=946_684_800_000, max_value=4_102_444_700_000),
    tz=st.sampled_from(ZONES),
    word=st.sampled_from(["today", "Today", "yesterday", "YESTERDAY"]),
)
def test_words_count_back_from_the_local_day_of_now(now: int, tz: str, word: str) -> None:
    mp = pytest.MonkeyPatch()
    mp.setattr(common, "now_ms", lambda: now)
    try:
        got = common.local_day(word, tz)
        assert common.local_day(None, tz) == local_day_of(now, tz)
    finally:
        mp.undo()
    back = 1 if word.lower() == "yesterday" else 0
    assert got == (date.fromisoformat(local_day_of(now, tz)) - timedelta(days=back)).isoformat()


@given(d=st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)))
def test_a_date_is_itself(d: date) -> None:
    assert common.local_day(d.isoformat(), "UTC") == d.isoformat()


@pytest.mark.parametrize("bad", ["tomorrow", "2026-3-1", " today", "2026-03-10T09:00"])
def test_anything_else_is_a_usage_error(bad: str) -> None:
    with pytest.raises(WindowError, match="today or yesterday"):
        common.local_day(bad, "UTC")


def test_cli_words_and_the_missing_store_hint(tmp_path: Path) -> None:
    env = cli_env(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), TZ="UTC")
    bad = run_cli("day", "tomorrow", env=env)
    assert bad.returncode == 2 and "today or yesterday" in bad.stderr
    missing = run_cli("apps", "yesterday", env=env)
    assert missing.returncode == 1
    assert missing.stderr.count("\n") == 1 and "`actframes demo` writes one" in missing.stderr
