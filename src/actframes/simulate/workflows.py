"""A seeded multi-day history of *steps*: what a user clicked and typed, on which
element, on which page, with the routines a real office week has and the free work
around them. Written as a screenpipe-style database whose ``ui_events`` carry the
element role and name (as accessibility-aware recorders store them), so routine mining,
R and h can be measured on it.

Routines (each with variants and values that change every time):

- ``expense``: a claim form (description, amount, category, date, optional receipt),
  submitted to a claim page with a new id;
- ``review``: approving a pull request on its own numbered page;
- ``crm``: copying a spreadsheet row into a contact form, cell by cell;
- ``timesheet``: logging hours against a project at the end of the day;
- ``deploy``: running a pipeline on a branch.

Free work: editing code (file tabs, the editor), reading docs (links, scrolling), chat
and mail (messages to varying channels and threads), generic dialogs (OK / Cancel).
Times: a workday from about 09:00 with a lunch break and short breaks (session gaps),
a few seconds between actions, longer between tasks. Same seed, same bytes.

The tasks themselves are in ``workflow_tasks``.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import NamedTuple

from ..window import day_window
from .workflow_tasks import FREE_WORK, ROUTINES, Act, WorkState, timesheet_task
from .writers import SCREENPIPE_SCHEMA, format_ts, new_file


class UIAction(NamedTuple):
    ts_ms: int
    kind: str  # click, key, text, clipboard, paste, scroll
    app: str
    title: str
    url: str | None
    role: str | None
    name: str | None
    x: int | None
    y: int | None
    text: str | None = None


class StepDay(NamedTuple):
    day: str
    tz: str
    actions: list[UIAction]


def simulate_workflows(
    first_day: str = "2026-03-02",
    n_days: int = 15,
    tz: str = "Europe/Berlin",
    seed: int = 11,
    *,
    every_day: bool = False,
    fill_workday: bool = False,
) -> list[StepDay]:
    """``n_days`` consecutive workdays (weekends skipped) of steps; with ``every_day``,
    consecutive calendar days, so the content of the k-th day depends on the seed only
    (the demo moves its dates with the clock and keeps its content). ``fill_workday``
    spreads each day's free work until the end-of-day habit (``_spread``); the actions
    stay the same, only later."""
    rng = random.Random(seed)
    out: list[StepDay] = []
    d = date.fromisoformat(first_day)
    st = WorkState(first_day)
    st.claim, st.lead_row, st.pipeline = 4100, 1, 9000
    while len(out) < n_days:
        if every_day or d.weekday() < 5:
            st.today = d.isoformat()
            acts, pauses = _day(rng, st, d.isoformat(), tz)
            out.append(StepDay(d.isoformat(), tz, _spread(acts, pauses) if fill_workday else acts))
        d += timedelta(days=1)
    return out


def _day(
    rng: random.Random, st: WorkState, day: str, tz: str
) -> tuple[list[UIAction], list[tuple[int, int]]]:
    """The day's actions, and the pauses between its tasks as (index of the action after
    the pause, pause in ms)."""
    base = day_window(day, tz).start_ms
    t = base + (9 * 3600 + rng.randint(0, 1800)) * 1000
    lunch = base + (12 * 3600 + rng.randint(0, 3600)) * 1000
    end = base + (17 * 3600 + rng.randint(0, 3600)) * 1000
    tasks: list[list[Act]] = []
    # Routines of the day, at random moments among the free work.
    for fn, p in ROUTINES.values():
        k = 0
        while rng.random() < p and k < 3:
            tasks.append(fn(rng, st))
            k += 1
    n_free = rng.randint(45, 70)
    weights = [w for _, w in FREE_WORK]
    for _ in range(n_free):
        fn = rng.choices([f for f, _ in FREE_WORK], weights)[0]
        tasks.append(fn(rng, st))
    rng.shuffle(tasks)
    tasks.append(timesheet_task(rng, st))  # the end-of-day habit
    acts: list[UIAction] = []
    pauses: list[tuple[int, int]] = []
    lunched = False
    for i, task in enumerate(tasks):
        if not lunched and t >= lunch:
            t += rng.randint(40, 60) * 60_000
            lunched = True
        elif rng.random() < 0.04:
            t += rng.randint(6, 20) * 60_000  # a short break: a session gap
        if i == len(tasks) - 1:
            t = max(t, end)
        for op, app, title, url, role, name, x, y, text in task:
            # A page the last click opened ("landed") shows within a second or so.
            t += rng.randint(300, 1500) if op == "landed" else rng.randint(1500, 7000)
            acts.extend(_ui(op, app, title, url, role, name, x, y, text, t, rng))
            if op == "type" and text:
                t += 120 * len(text)  # the next action waits for the typing to end
        pause = rng.randint(8_000, 90_000)
        t += pause
        pauses.append((len(acts), pause))
    return acts, pauses


# A pause between tasks stays below the compiler's session gap (5 min, with the next
# task's first seconds): the person is at the desk, between two things.
LONGEST_PAUSE_MS = 280_000
# Time the pauses cannot take becomes breaks away from the desk of at most an hour.
LONGEST_BREAK_MS = 3_600_000


def _spread(acts: list[UIAction], pauses: list[tuple[int, int]]) -> list[UIAction]:
    """The day's free work spread over the time before its last task (the end-of-day
    habit, placed at the end of the workday): each pause between tasks grows in
    proportion, none beyond ``LONGEST_PAUSE_MS``; what is left becomes breaks (at most
    ``LONGEST_BREAK_MS`` each) at evenly spaced pauses; nothing passes the last task."""
    if len(pauses) < 2:
        return acts
    last_start = pauses[-2][0]  # the end-of-day task begins after the second-last pause
    if last_start <= 0 or last_start >= len(acts):
        return acts
    inner = pauses[:-2]
    slack = acts[last_start].ts_ms - acts[last_start - 1].ts_ms - pauses[-2][1]
    total = sum(p for _, p in inner)
    if slack <= 0 or total <= 0:
        return acts
    shift = [0] * (len(acts) + 1)
    for index, pause in inner:
        extra = min(pause * slack // total, LONGEST_PAUSE_MS - pause)
        shift[index] += max(extra, 0)
    left = slack - sum(shift)
    breaks = -(-left // LONGEST_BREAK_MS)  # ceiling: each break at most an hour
    for k in range(1, breaks + 1):
        shift[_break_after(acts, inner, k * len(inner) // (breaks + 1))] += left // breaks
    out: list[UIAction] = []
    moved = 0
    for i, a in enumerate(acts):
        if i < last_start:
            moved += shift[i]
            out.append(a._replace(ts_ms=a.ts_ms + moved))
        else:
            out.append(a)
    return out


def _ui(
    op: str,
    app: str,
    title: str,
    url: str | None,
    role: str | None,
    name: str | None,
    x: int | None,
    y: int | None,
    text: str | None,
    t: int,
    rng: random.Random,
) -> Iterator[UIAction]:
    jx = (x + rng.randint(-4, 4)) if x is not None else None
    jy = (y + rng.randint(-3, 3)) if y is not None else None
    if op in ("navigate", "landed"):
        yield UIAction(t, "navigate", app, title, url, None, None, None, None)
    elif op == "type":
        typed = text or ""
        for k, _ in enumerate(typed):
            yield UIAction(t + 120 * k, "key", app, title, url, role, name, None, None)
        yield UIAction(t + 120 * len(typed), "text", app, title, url, role, name, None, None, typed)
    elif op == "copy":
        yield UIAction(t, "clipboard", app, title, url, role, name, None, None)
    else:
        yield UIAction(t, op, app, title, url, role, name, jx, jy)


def write_workflows(path: str | Path, days: list[StepDay]) -> Path:
    """The history as a screenpipe-style database: a frame per page or window change
    and every few seconds of activity, and ``ui_events`` with elements. Typed text is
    stored in ``text`` events (a reader shows it only when the operator opts in)."""
    p = new_file(path)
    conn = sqlite3.connect(p)
    try:
        conn.executescript(SCREENPIPE_SCHEMA)
        fid = eid = 0
        with conn:
            for day in days:
                frames: list[tuple[object, ...]] = []
                events: list[tuple[object, ...]] = []
                last: tuple[str, str, str | None] | None = None
                last_t = 0
                for a in day.actions:
                    ctx = (a.app, a.title, a.url)
                    if ctx != last or a.ts_ms - last_t >= 5_000:
                        fid += 1
                        ts = format_ts(a.ts_ms)
                        frames.append(
                            (
                                fid,
                                fid // 60,
                                fid % 60,
                                ts,
                                None,
                                a.url,
                                a.app,
                                a.title,
                                1,
                                "screen0",
                            )
                        )
                        last, last_t = ctx, a.ts_ms
                    if a.kind == "navigate":
                        continue
                    eid += 1
                    events.append(
                        (
                            eid,
                            format_ts(a.ts_ms),
                            f"sim-{day.day}",
                            None,
                            a.kind,
                            a.x,
                            a.y,
                            None,
                            None,
                            0 if a.kind == "click" else None,
                            1 if a.kind == "click" else None,
                            None,
                            None,
                            a.text,
                            len(a.text) if a.text else None,
                            a.app,
                            None,
                            a.title,
                            a.url,
                            a.role,
                            a.name,
                            None,
                            None,
                            None,
                            None,
                            fid,
                        )
                    )
                conn.executemany("INSERT INTO frames VALUES (?,?,?,?,?,?,?,?,?,?)", frames)
                conn.executemany(
                    "INSERT INTO ui_events VALUES (" + ",".join("?" * 26) + ")", events
                )
    finally:
        conn.close()
    return p


def _break_after(acts: list[UIAction], pauses: list[tuple[int, int]], k: int) -> int:
    """The action index of the first pause from the k-th on that does not follow typing:
    the simulated recorder writes no row when typing ends, so a break right after it
    would leave the last keys outside any frame."""
    for index, _ in pauses[k:]:
        if acts[index - 1].kind not in ("key", "text"):
            return index
    return pauses[k][0]
