"""The summer-2026 screenpipe writers (screenpipe_summer.py): a workday on two monitors
with focus-aware capture, HD recording over a meeting, the clipboard poller, merged and
unmerged clicks and keys without characters; and a store that auto-updated from the
March writer at lunch. Time per app agrees with an independent computation from the
fixture's truth; input agrees with what the fixture's user did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from actframes.api import compile_path
from actframes.sources.screenpipe.frames import HD_NOTE

from ..builders import ms
from .screenpipe_summer import (
    SummerDay,
    make_summer_day,
    write_activity_ledger,
    write_summer_day,
    write_summer_input,
)
from .screenpipe_versions import NEWEST, SUMMER, Store, make_day, write_day
from .test_screenpipe_versions import assert_time, doc_input, made_input

DAY = "2026-08-24"
T0 = ms("2026-08-24T09:00:00+00:00")
LUNCH = ms("2026-08-24T12:30:00+00:00")


def summer_store(path: Path, day: SummerDay) -> list[tuple[int, str]]:
    store = Store(path, SUMMER)
    truth = write_summer_day(store, day)
    write_summer_input(store, day)
    write_activity_ledger(store, day)
    store.close()
    return truth


def assert_made(doc: dict[str, Any], want: dict[str, int]) -> None:
    got = doc_input(doc)
    for k, n in want.items():
        assert abs(got.get(k, 0) - n) <= n / 10, (k, got.get(k), n)
    # Copies, pastes and clicks are whole rows: the fixture knows them exactly.
    for k in ("copies", "pastes", "clicks"):
        assert got.get(k, 0) == want[k], (k, got.get(k), want[k])


def assert_clean(doc: dict[str, Any]) -> None:
    """HD markers said once, never rejected; a checked schema: no version note."""
    assert HD_NOTE in doc["blind_spots"]
    assert doc["rejected_rows"] == []
    assert not any("newer than the newest checked" in b for b in doc["blind_spots"])


def test_a_summer_workday(tmp_path: Path) -> None:
    day = make_summer_day(seed=7, start_ms=T0)
    truth = summer_store(tmp_path / "db.sqlite", day)
    doc = dict(compile_path(tmp_path / "db.sqlite", DAY, "UTC"))
    assert_time(doc, truth)
    assert_made(doc, day.made())
    assert_clean(doc)
    # The unfocused monitor's app-less frames and the HD markers earn no app, no time.
    assert {e["app"] for e in doc["ledger"]} <= {e.app for e in day.episodes}


def test_copies_are_not_counted_twice(tmp_path: Path) -> None:
    day = make_summer_day(seed=21, start_ms=T0)
    summer_store(tmp_path / "db.sqlite", day)
    doc = dict(compile_path(tmp_path / "db.sqlite", DAY, "UTC"))
    keyboard = sum(1 for c in day.copies if c.op in "cx")
    menu = sum(1 for c in day.copies if c.op == "p")
    assert keyboard > 10 and menu > 2  # the fixture has both kinds
    assert doc_input(doc)["copies"] == keyboard + menu


def test_a_store_upgraded_at_lunch(tmp_path: Path) -> None:
    """The March writer in the morning; screenpipe updates itself at lunch (the summer
    migrations, ocr_text dropped); the summer writers in the afternoon."""
    path = tmp_path / "db.sqlite"
    morning = make_day(seed=4, start_ms=T0, minutes=150)
    store = Store(path, NEWEST)
    truth = write_day(store, morning, "two_monitors", 30_000)
    store.write_input(morning)
    store.upgrade(SUMMER)
    afternoon = make_summer_day(seed=5, start_ms=LUNCH + 30 * 60_000)
    truth += write_summer_day(store, afternoon)
    write_summer_input(store, afternoon)
    store.close()
    assert max(t for t, _ in truth if t < LUNCH) < LUNCH  # the morning ended before lunch
    doc = dict(compile_path(path, DAY, "UTC"))
    assert_time(doc, truth)
    want = made_input(morning)
    for k, n in afternoon.made().items():
        want[k] = want.get(k, 0) + n
    assert_made(doc, want)
    assert_clean(doc)
