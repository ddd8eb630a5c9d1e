"""The day words shared by the CLI's DATE and the MCP tools' `day`/`until`: a word is the
local day of the given instant in the given zone (or the one before), whatever the machine's
zone; anything else is left for the date parser; the CLI resolves words the same way."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.cli import common
from actframes.window import named_day

ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
NOW = st.integers(min_value=946_684_800_000, max_value=4_102_444_700_000)


@settings(max_examples=80, deadline=None)
@given(now=NOW, tz=st.sampled_from(ZONES), word=st.sampled_from(["today", "Yesterday", "TODAY"]))
def test_a_word_is_a_local_day_of_now(now: int, tz: str, word: str) -> None:
    local = (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=now)).astimezone(
        ZoneInfo(tz)
    )
    back = 1 if word.lower() == "yesterday" else 0
    assert named_day(word, tz, now) == (local.date() - timedelta(days=back)).isoformat()
    mp = pytest.MonkeyPatch()
    mp.setattr(common, "now_ms", lambda: now)
    try:
        assert common.local_day(word, tz) == named_day(word, tz, now)
    finally:
        mp.undo()


@settings(max_examples=40, deadline=None)
@given(now=NOW, text=st.text(max_size=12))
def test_anything_else_is_left_as_given(now: int, text: str) -> None:
    if text.lower() not in ("today", "yesterday"):
        assert named_day(text, "UTC", now) == text
