"""The "stale" benchmark day: dense, several screens, and input that often disagrees with focus.

Built from ``simulate_day`` (26k rows on three monitors), with every input event split into
a burst of ``BURST`` single events (``BURST_STEP_MS`` apart, about 180k in all), and many
stamped with another app than the one in focus, as recorders do when focus changes and
input arrive on different queues (the events name no screen, so every screen's rows are
their stream):

- a quarter of all carry the app their screen showed ``LAG_MS`` earlier: after a focus
  change a snapshot of that app lies within ``STALE_MS`` and re-attribution moves them
  (elsewhere the app is the same and nothing is stale);
- a third carry an app no screen showed at that time: re-attribution searches and
  leaves them unattributed.

Pure: the same seed gives the same rows. Used by ``benchmarks/run.py`` (benchmark ``day-stale``).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import replace

from actframes.model import InputEvent, Snapshot
from actframes.simulate import SimDay, simulate_day

ROWS = 26_000
DEVICES = ("monitor_1", "monitor_2", "monitor_3")
BURST = 10  # single events per simulated event
BURST_STEP_MS = 60
LAG_MS = 1_500  # a "lagging" event names the app shown this long before it
LAG_SHARE = 0.25
WRONG_SHARE = 1 / 3


def stale_day(day: str, tz: str, seed: int) -> SimDay:
    sim = simulate_day(day, tz, seed=seed, rows=ROWS, devices=DEVICES)
    rng = random.Random(f"stale-{seed}")
    by_dev: dict[str, list[Snapshot]] = {}
    for s in sim.snapshots:
        by_dev.setdefault(s.device, []).append(s)
    times = {d: [s.ts_ms for s in rows] for d, rows in by_dev.items()}
    apps = sorted({s.app for s in sim.snapshots})

    def shown(device: str, t: int) -> str | None:
        i = bisect_right(times[device], t)
        return by_dev[device][i - 1].app if i else None

    raw: list[tuple[int, int, str, str | None, str | None]] = []
    for e in sim.events:
        device = e.device or DEVICES[0]
        for j in range(BURST):
            t = e.ts_ms + j * BURST_STEP_MS
            app = e.app
            roll = rng.random()
            if roll < LAG_SHARE:
                app = shown(device, t - LAG_MS) or app
            elif roll < LAG_SHARE + WRONG_SHARE:
                now = {shown(d, t) for d in by_dev}
                app = rng.choice([a for a in apps if a not in now])
            raw.append((t, len(raw), e.kind, app, e.device))
    # Ids in order of arrival, as a recorder numbers them (bursts overlap in time).
    raw.sort()
    events = [InputEvent(i + 1, t, k, a, d, 1) for i, (t, _, k, a, d) in enumerate(raw)]
    return replace(sim, events=events)
