"""The simulated day's timeline: when the person works, is away and meets (the plan),
and which window is focused when (episodes), including flickers and longer detours."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from ..model import Span
from ..window import zone
from .catalog import (
    MIN,
    SEC,
    SLACK_CHANNELS,
    WEEKDAY_TASKS,
    WEEKEND_TASKS,
    Catalog,
    Ctx,
    Task,
    secs,
)


@dataclass(frozen=True, slots=True)
class Ep:
    """An episode: one context focused over [start, end) (epoch ms)."""

    start: int
    end: int
    ctx: Ctx


@dataclass(frozen=True, slots=True)
class _Plan:
    """Local wall-clock offsets (ms after local midnight) of the day's shape."""

    start: int
    end: int
    away: tuple[tuple[int, int], ...]
    meetings: tuple[tuple[int, int], ...]


def _around(rng: random.Random, hh: int, mm: int, spread_min: int) -> int:
    base = (hh * 60 + mm) * MIN
    return base + rng.randint(-spread_min * MIN, spread_min * MIN)


def _span(rng: random.Random, start: int, lo_min: int, hi_min: int) -> tuple[int, int]:
    return start, start + rng.randint(lo_min * MIN, hi_min * MIN)


def day_plan(rng: random.Random, light: bool) -> _Plan:
    """The day's shape. Ranges are chosen so that no two periods can overlap."""
    if light:
        return _Plan(
            start=_around(rng, 10, 30, 15),
            end=_around(rng, 16, 5, 15),
            away=(
                _span(rng, _around(rng, 11, 20, 5), 5, 15),
                _span(rng, _around(rng, 12, 15, 10), 90, 150),
            ),
            meetings=(),
        )
    return _Plan(
        start=_around(rng, 8, 45, 8),
        end=_around(rng, 18, 30, 10),
        away=(
            _span(rng, _around(rng, 10, 30, 15), 5, 15),  # coffee
            _span(rng, _around(rng, 12, 15, 15), 40, 50),  # lunch
            _span(rng, _around(rng, 15, 20, 15), 30, 50),  # the long away period
            _span(rng, _around(rng, 16, 55, 10), 5, 15),  # afternoon break
        ),
        meetings=(
            _span(rng, _around(rng, 9, 31, 1), 12, 20),  # stand-up
            _span(rng, _around(rng, 14, 0, 5), 25, 45),
        ),
    )


def local_ms(d: date, tz: str, offset_ms: int) -> int:
    """Epoch ms of the local wall time ``offset_ms`` after midnight of ``d`` in ``tz``.

    Aware datetime + timedelta is wall-clock arithmetic, which is what a plan means by
    "08:45" even on a daylight-saving day.
    """
    wall = datetime(d.year, d.month, d.day, tzinfo=zone(tz)) + timedelta(milliseconds=offset_ms)
    return (wall - _EPOCH) // timedelta(milliseconds=1)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def present_spans(start: int, end: int, away: list[Span]) -> list[tuple[int, int]]:
    """The at-desk periods: [start, end) minus the away spans (sorted, inside)."""
    out: list[tuple[int, int]] = []
    t = start
    for s in away:
        out.append((t, s.start_ms))
        t = s.end_ms
    out.append((t, end))
    return out


def _fill(
    rng: random.Random, cat: Catalog, start: int, end: int, tasks: tuple[tuple[Task, int], ...]
) -> list[Ep]:
    """Tasks back to back from start until end; the last episode is cut at end."""
    funcs = [t for t, _ in tasks]
    weights = [w for _, w in tasks]
    eps: list[Ep] = []
    t = start
    while t < end:
        for ctx, dur in rng.choices(funcs, weights)[0](rng, cat):
            stop = min(t + dur, end)
            eps.append(Ep(t, stop, ctx))
            t = stop
            if t >= end:
                break
    return eps


def _meeting(rng: random.Random, cat: Catalog, start: int, end: int) -> list[Ep]:
    """A call with one longer detour to a pull request part-way through."""
    zoom = cat.meeting()
    cut = start + (end - start) * rng.randint(30, 70) // 100
    detour = min(end, cut + secs(rng, 30, 90))
    return [Ep(start, cut, zoom), Ep(cut, detour, cat.pr(rng)), Ep(detour, end, zoom)]


def _add_flickers(rng: random.Random, cat: Catalog, eps: list[Ep]) -> list[Ep]:
    """A → B (2-15 s) → A inside some long episodes, more often during calls."""
    out: list[Ep] = []
    for ep in eps:
        p = 0.6 if ep.ctx.activity == "meeting" else 0.18
        if ep.end - ep.start < 90 * SEC or rng.random() >= p:
            out.append(ep)
            continue
        at = rng.randint(ep.start + 20 * SEC, ep.end - 40 * SEC)
        back = at + secs(rng, 2, 15)
        b = cat.glance(rng, ep.ctx.app)
        out += [Ep(ep.start, at, ep.ctx), Ep(at, back, b), Ep(back, ep.end, ep.ctx)]
    return out


def _merge(eps: list[Ep]) -> list[Ep]:
    """Join touching episodes with the same context: the recorder sees no change there.

    Also drops slivers under a second left by cutting at a period's end.
    """
    out: list[Ep] = []
    for ep in eps:
        if out and out[-1].end == ep.start and (out[-1].ctx == ep.ctx or ep.end - ep.start < SEC):
            out[-1] = Ep(out[-1].start, ep.end, out[-1].ctx)
        else:
            out.append(ep)
    return out


def primary_timeline(
    rng: random.Random,
    cat: Catalog,
    present: list[tuple[int, int]],
    meetings: list[tuple[int, int]],
    light: bool,
) -> list[Ep]:
    tasks = WEEKEND_TASKS if light else WEEKDAY_TASKS
    eps: list[Ep] = []
    for s, e in present:
        t = s
        for ms, me in meetings:
            if s <= ms and me <= e:
                eps += _fill(rng, cat, t, ms, tasks) + _meeting(rng, cat, ms, me)
                t = me
        eps += _fill(rng, cat, t, e, tasks)
    return _merge(_add_flickers(rng, cat, _merge(eps)))


def side_timeline(rng: random.Random, cat: Catalog, present: list[tuple[int, int]]) -> list[Ep]:
    """A second monitor: Slack or a dashboard tab, changing every few to tens of minutes."""
    eps: list[Ep] = []
    for s, e in present:
        t = s
        while t < e:
            if rng.random() < 0.7:
                ctx = cat.slack(rng.choice(SLACK_CHANNELS), "static")
            else:
                page = rng.choice(
                    (
                        (
                            "Actions · acme/actframes · GitHub",
                            "https://github.com/acme/actframes/actions",
                        ),
                        (
                            "Pull requests · acme/actframes · GitHub",
                            "https://github.com/acme/actframes/pulls",
                        ),
                    )
                )
                ctx = cat.web(page[0], page[1], "static")
            stop = min(e, t + secs(rng, 4 * 60, 35 * 60))
            eps.append(Ep(t, stop, ctx))
            t = stop
    return _merge(eps)
