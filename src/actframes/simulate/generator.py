"""A seeded, realistic simulated workday: what a screen recorder and an input hook would
have written for one person's day.

Pure: the same (day, tz, seed, rows, devices) gives the same records on any machine. It
never reads the clock or the global ``random``; every draw comes from a ``random.Random``
seeded with a string built from the arguments (string seeds are hashed with SHA-512, so
they do not depend on ``PYTHONHASHSEED``).

The day is built in three layers, each with its own generator so that changing one knob
does not reshuffle the others:

1. the *timeline* — when the person works, is away, meets, and which window is focused
   (episodes of one app/title/URL), including flickers and longer detours;
2. the *rows* — what the recorder writes for that timeline: one row per change plus
   heartbeats on a static screen, their interval calibrated so the day has about ``rows``
   rows (the same human day, recorded sparsely or densely);
3. the *input* — key presses, clicks, scrolls, copies and pastes during the episodes.

The layers: ``timeline``, ``recording`` (rows and input); what the person looks at:
``catalog``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from ..model import InputEvent, Snapshot, Span
from ..window import parse_day
from .catalog import Catalog, persona_of
from .recording import (
    RawEvent,
    RawRow,
    number_events,
    number_rows,
    record_input,
    row_targets,
    stream_rows,
)
from .timeline import day_plan, local_ms, present_spans, primary_timeline, side_timeline

# A weekend day in ``simulate_days`` has this fraction of the weekday row budget.
WEEKEND_ROWS_DIVISOR = 4


@dataclass(frozen=True, slots=True)
class SimDay:
    """One simulated local day: what a recorder stored for it."""

    day: str
    tz: str
    devices: tuple[str, ...]  # devices[0] is the screen with focus (where input goes)
    snapshots: list[Snapshot]
    events: list[InputEvent]
    afk: list[Span]


def simulate_day(
    day: str,
    tz: str,
    *,
    seed: int = 7,
    rows: int = 2600,
    devices: tuple[str, ...] = ("",),
) -> SimDay:
    """A weekday ~08:45-18:30 local in ``tz`` with about ``rows`` snapshot rows in total.

    ``rows`` sets the recorder's density (heartbeat interval), not the person's day: the
    timeline, AFK spans and input events are the same for any ``rows``. A day has a few
    hundred focus changes, each a row, so targets below that are not reached. With several
    ``devices``, ``devices[0]`` has focus and gets most rows; the others are mostly static.
    """
    return _simulate(day, tz, seed, rows, devices, light=False, first_row=1, first_event=1)


def simulate_days(
    start_day: str,
    n_days: int,
    tz: str,
    seed: int = 7,
    rows_per_day: int = 2600,
    *,
    devices: tuple[str, ...] = ("",),
) -> list[SimDay]:
    """Consecutive days from ``start_day``; weekends are lighter; ids continue across days.

    A weekday here has the same timeline and input as ``simulate_day`` for that date and
    seed, only with ids shifted.
    """
    if n_days < 1:
        raise ValueError("n_days must be at least 1")
    first = parse_day(start_day)
    out: list[SimDay] = []
    next_row, next_event = 1, 1
    for i in range(n_days):
        d = first + timedelta(days=i)
        light = d.weekday() >= 5
        target = max(1, rows_per_day // WEEKEND_ROWS_DIVISOR) if light else rows_per_day
        sim = _simulate(d.isoformat(), tz, seed, target, devices, light, next_row, next_event)
        next_row += len(sim.snapshots)
        next_event += len(sim.events)
        out.append(sim)
    return out


# --------------------------------------------------------------------------- assembly


def _simulate(
    day: str,
    tz: str,
    seed: int,
    rows: int,
    devices: tuple[str, ...],
    light: bool,
    first_row: int,
    first_event: int,
) -> SimDay:
    if rows < 1:
        raise ValueError("rows must be at least 1")
    if not devices or len(set(devices)) != len(devices):
        raise ValueError("devices must be a non-empty tuple of distinct names")
    d = parse_day(day)
    cat = Catalog(persona_of(seed))
    trng = random.Random(f"{seed}:{day}:timeline")
    plan = day_plan(trng, light)
    afk = [Span(local_ms(d, tz, a), local_ms(d, tz, b)) for a, b in plan.away]
    present = present_spans(local_ms(d, tz, plan.start), local_ms(d, tz, plan.end), afk)
    meetings = [(local_ms(d, tz, a), local_ms(d, tz, b)) for a, b in plan.meetings]
    streams = [primary_timeline(trng, cat, present, meetings, light)]
    for i in range(1, len(devices)):
        streams.append(side_timeline(random.Random(f"{seed}:{day}:screen{i}"), cat, present))

    raw_rows: list[RawRow] = []
    raw_events: list[RawEvent] = []
    for i, (eps, target) in enumerate(zip(streams, row_targets(rows, len(devices)), strict=True)):
        raw_rows += stream_rows(random.Random(f"{seed}:{day}:rows{i}"), eps, target, i)
        record_input(random.Random(f"{seed}:{day}:input{i}"), eps, devices[i], raw_events)
    return SimDay(
        day=day,
        tz=tz,
        devices=devices,
        snapshots=number_rows(raw_rows, devices, first_row),
        events=number_events(raw_events, first_event),
        afk=afk,
    )
