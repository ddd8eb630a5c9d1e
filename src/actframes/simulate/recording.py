"""What a recorder writes for a simulated timeline: the rows (one per change plus
heartbeats, their interval calibrated to a row budget) and the input events (keys, clicks,
scrolls, copies, pastes) during the episodes."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..model import CLICK, COPY, KEY, PASTE, SCROLL, InputEvent, Snapshot
from .catalog import SEC, Ctx
from .timeline import Ep

# Extra monitors are mostly static, so they get a smaller share of the row budget:
# the focused screen weighs this much against 1 for each other screen.
PRIMARY_ROW_WEIGHT = 3
# Bounds of the calibrated heartbeat interval (ms): dense enough for 100k-row days,
# never sparser than a recorder's slowest heartbeat.
MIN_HEARTBEAT_MS = 20
MAX_HEARTBEAT_MS = 60 * SEC
# Share of change rows the recorder writes twice at the same millisecond (a placeholder
# title first, then the real one), as recorders do when focus and title events coincide.
SAME_TS_SHARE = 0.02
# Input hooks learn of a focus change late: events in the first seconds after a switch
# are labelled with the previous app this often (about 1% of all events overall).
STALE_LAG_MS = 8 * SEC
STALE_APP_SHARE = 0.15


# Heartbeat interval per activity, in percent of the calibrated base: a recorder writes
# more often while the screen changes (typing) than on a static one (a video, a call).
_PACE: dict[str, int] = {
    "code": 80,
    "terminal": 70,
    "write": 85,
    "chat": 100,
    "read": 120,
    "browse": 100,
    "meeting": 150,
    "video": 160,
    "glance": 100,
    "files": 90,
    "static": 140,
}

# --------------------------------------------------------------------------- rows

# A row before numbering: (ts_ms, device index, order within device, context).
RawRow = tuple[int, int, int, Ctx]


def _heartbeats(eps: list[Ep], base: int) -> int:
    """How many heartbeat rows a base interval of ``base`` ms gives (floor per episode)."""
    return sum((ep.end - ep.start) * 100 // (base * _PACE[ep.ctx.activity]) for ep in eps)


def _calibrate(eps: list[Ep], target: int) -> int:
    """The base heartbeat interval that makes changes + heartbeats come closest to target.

    Heartbeats fall as the interval grows, so a binary search over integer ms finds it.
    """
    budget = target - len(eps)
    lo, hi = MIN_HEARTBEAT_MS, MAX_HEARTBEAT_MS
    while lo < hi:
        mid = (lo + hi) // 2
        if _heartbeats(eps, mid) > budget:
            lo = mid + 1
        else:
            hi = mid
    return lo


def stream_rows(rng: random.Random, eps: list[Ep], target: int, dev: int) -> list[RawRow]:
    """A change row at each episode start, then jittered heartbeats until its end."""
    base = _calibrate(eps, target)
    rows: list[RawRow] = []
    for ep in eps:
        if rng.random() < SAME_TS_SHARE:
            placeholder = Ctx(ep.ctx.app, ep.ctx.app, ep.ctx.url, ep.ctx.activity)
            rows.append((ep.start, dev, len(rows), placeholder))
        rows.append((ep.start, dev, len(rows), ep.ctx))
        step = max(1, base * _PACE[ep.ctx.activity] // 100)
        t = ep.start + step * rng.randint(60, 140) // 100
        while t < ep.end:
            rows.append((t, dev, len(rows), ep.ctx))
            t += max(1, step * rng.randint(60, 140) // 100)
    return rows


def row_targets(rows: int, n_devices: int) -> list[int]:
    total = PRIMARY_ROW_WEIGHT + n_devices - 1
    side = rows // total
    return [rows - side * (n_devices - 1)] + [side] * (n_devices - 1)


def number_rows(raw: list[RawRow], devices: tuple[str, ...], first: int) -> list[Snapshot]:
    raw.sort(key=lambda r: (r[0], r[1], r[2]))
    return [
        Snapshot(row_id=first + i, ts_ms=ts, app=c.app, title=c.title, url=c.url, device=devices[d])
        for i, (ts, d, _, c) in enumerate(raw)
    ]


# --------------------------------------------------------------------------- input


@dataclass(frozen=True, slots=True)
class _Profile:
    """How a person uses one kind of window: action weights and timings (ms)."""

    weights: tuple[int, int, int, int, int]  # burst of keys, click, scroll, copy, paste
    burst: tuple[int, int]  # keys per burst
    pause: tuple[int, int]  # idle time after an action


_PROFILES: dict[str, _Profile] = {
    "code": _Profile((50, 15, 20, 7, 8), (3, 30), (2_500, 40_000)),
    "terminal": _Profile((60, 5, 10, 10, 15), (4, 30), (2_000, 25_000)),
    "write": _Profile((65, 10, 15, 4, 6), (5, 60), (2_500, 20_000)),
    "chat": _Profile((45, 35, 15, 2, 3), (5, 50), (2_500, 25_000)),
    "read": _Profile((6, 25, 65, 4, 0), (3, 15), (2_000, 25_000)),
    "browse": _Profile((15, 45, 35, 3, 2), (4, 25), (1_000, 15_000)),
    "meeting": _Profile((10, 60, 30, 0, 0), (3, 20), (20_000, 120_000)),
    "video": _Profile((0, 100, 0, 0, 0), (1, 1), (60_000, 300_000)),
    "glance": _Profile((0, 70, 30, 0, 0), (1, 1), (1_500, 6_000)),
    "files": _Profile((5, 80, 15, 0, 0), (3, 12), (700, 5_000)),
    "static": _Profile((20, 80, 0, 0, 0), (10, 40), (60_000, 600_000)),
}
_ACTIONS = ("burst", CLICK, SCROLL, COPY, PASTE)

# An event before numbering: (ts_ms, order, kind, app, device).
RawEvent = tuple[int, int, str, str, str]


def _action(rng: random.Random, prof: _Profile, t: int) -> list[tuple[int, str]]:
    """One action's events as (ts, kind), starting at t."""
    action = rng.choices(_ACTIONS, prof.weights)[0]
    if action == "burst":
        out = []
        for _ in range(rng.randint(*prof.burst)):
            out.append((t, KEY))
            t += rng.randint(60, 240)
        return out
    if action == CLICK and rng.random() < 0.1:  # a double click
        return [(t, CLICK), (t + rng.randint(90, 200), CLICK)]
    if action == SCROLL:
        return [(t + i * rng.randint(80, 300), SCROLL) for i in range(rng.randint(1, 4))]
    return [(t, action)]


def _episode_input(
    rng: random.Random, ep: Ep, prev_app: str | None, device: str, out: list[RawEvent]
) -> None:
    prof = _PROFILES[ep.ctx.activity]
    t = ep.start + rng.randint(250, 3_000)
    while t < ep.end:
        for ts, kind in _action(rng, prof, t):
            if ts >= ep.end:
                break
            lagging = prev_app is not None and ts - ep.start < STALE_LAG_MS
            stale = lagging and rng.random() < STALE_APP_SHARE
            app = prev_app if stale and prev_app is not None else ep.ctx.app
            out.append((ts, len(out), kind, app, device))
            t = ts
        t += rng.randint(*prof.pause)


def record_input(rng: random.Random, eps: list[Ep], device: str, out: list[RawEvent]) -> None:
    prev: str | None = None
    for ep in eps:
        _episode_input(rng, ep, prev if prev != ep.ctx.app else None, device, out)
        prev = ep.ctx.app


def number_events(raw: list[RawEvent], first: int) -> list[InputEvent]:
    raw.sort(key=lambda e: (e[0], e[1]))
    return [
        InputEvent(event_id=first + i, ts_ms=ts, kind=kind, app=app, device=dev)
        for i, (ts, _, kind, app, dev) in enumerate(raw)
    ]
