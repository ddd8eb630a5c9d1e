"""``patterns`` on days with stale input agrees with the compiler and with ``read_steps``:
an event stamped with the app that had focus a moment before is moved to that app's
snapshot (``compile/reattribute.py``) and takes its time, in the patterns as everywhere.

The store is a screenpipe database as screenpipe writes it (one frame per trigger, a
click then its accessibility look-up row), where a click in Code is recorded just after
the switch to Chromium, still naming Code: screenpipe's input and focus arrive on
different threads."""

from __future__ import annotations

from pathlib import Path

from actframes.api import open_store
from actframes.compile.document import Clock
from actframes.routines.step_streams import read_steps
from actframes.steps.store_queries import patterns_over
from actframes.window import day_window

from ..builders import ms
from ..sources.screenpipe_versions import NEWEST, Store

DAYS = ("2026-03-10", "2026-03-11", "2026-03-12")
CYCLES = 4
TZ = "UTC"


def _store(tmp_path: Path) -> tuple[Path, set[int]]:
    """Three days of Code / Chromium cycles; (the store, the ids of the stale clicks)."""
    store = Store(tmp_path / "db.sqlite", NEWEST)
    stale: set[int] = set()

    def click(ts: int, app: str) -> int:
        eid = store.event(ts, "click", x=300, y=200, button=0, click_count=1, modifiers=0,
                          app_name=app)  # fmt: skip
        store.event(ts + 40, "click", x=300, y=200, button=0, click_count=0, modifiers=0,
                    app_name=app, element_role="AXButton", element_name="Run")  # fmt: skip
        return eid

    for d, day in enumerate(DAYS):
        for k in range(CYCLES):
            t = ms(f"{day}T09:00:00+00:00") + d * 120_000 + k * 60_000
            store.capture_event(t, "monitor_1", "Code", "a.py", None, "app_switch")
            click(t + 5_000, "Code")
            store.capture_event(t + 9_000, "monitor_1", "Code", "a.py", None, "idle")
            store.capture_event(
                t + 10_000, "monitor_1", "Chromium", "Docs", "https://example.org/d", "app_switch"
            )
            # Chromium has focus; the click names Code, whose snapshot is 1.5 s before.
            stale.add(click(t + 10_500, "Code"))
            store.capture_event(
                t + 40_000, "monitor_1", "Chromium", "Docs", "https://example.org/d", "idle"
            )
    store.close()
    return store.path, stale


def test_patterns_take_the_times_steps_and_the_compiler_give_stale_clicks(
    tmp_path: Path,
) -> None:
    path, stale = _store(tmp_path)
    start = day_window(DAYS[0], TZ).start_ms
    end = day_window(DAYS[-1], TZ).end_ms
    iso = Clock(TZ).iso

    # The compiler moves every stale click (and only those) to Code's snapshot.
    store = open_store(path, None, disk_cache=False)
    try:
        for day in DAYS:
            doc = store.compile(day_window(day, TZ), cache=False)
            assert doc["coverage"]["reattributed"]["clicks"] == CYCLES
            assert doc["coverage"]["unattributed_input"]["clicks"] == 0
    finally:
        store.close()

    # read_steps gives each click the time its re-attribution gives it.
    steps, _ = read_steps(path, None, start, end, TZ, False)
    time_of = {e: s.t_ms for s in steps if s.op == "click" for e in s.events}
    assert stale <= time_of.keys()
    recorded = {e: t for e, t in time_of.items() if e not in stale}
    assert len(recorded) == len(DAYS) * CYCLES
    assert all(time_of[e] % 60_000 == 9_000 for e in stale)  # the Code snapshot's time

    first, pats = patterns_over(path, None, TZ, len(DAYS), DAYS[-1])
    assert first == DAYS[0]
    (run,) = [p for p in pats if p["kind"] == "repeated_click"]
    assert run["target"] == {"role": "AXButton", "name": "Run"} and run["app"] == "Code"
    assert set(run["events"]) == time_of.keys() and run["count"] == len(time_of)
    assert run["first"] == iso(min(time_of.values()))
    assert run["last"] == iso(max(time_of.values()))  # a stale click, at its snapshot
    assert max(time_of.values()) == max(time_of[e] for e in stale)

    (habit,) = [p for p in pats if p["kind"] == "daily_habit" and p["what"] == "click"]
    firsts = [min(t for t in time_of.values() if day_window(day, TZ).start_ms <= t) for day in DAYS]
    assert habit["at"] == [iso(t) for t in firsts]
