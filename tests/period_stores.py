"""Real multi-day stores for the period tests (SPEC.md §5a), and what each day's own
document says about itself, worked out here from the day document alone.

Stores are written by the simulator's own writers (``simulate_days`` + the native or
screenpipe writer, ``simulate_workflows`` + ``write_workflows`` as ``actframes demo
--days N`` does), with a day left out to have a day without capture in the middle; the
DST store adds a night session across the hour the clocks change.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from actframes.api import open_store
from actframes.compile.period import period_document
from actframes.doc_types import Document
from actframes.model import InputEvent, Snapshot
from actframes.model import Span as Away
from actframes.period_types import PeriodDocument
from actframes.periods import Span, day_windows
from actframes.simulate.generator import simulate_days
from actframes.simulate.workflows import simulate_workflows, write_workflows
from actframes.simulate.writers import write_native, write_screenpipe
from actframes.window import day_window

from .builders import ms, native_db

TZ = "Europe/Berlin"
WEEK = ("2026-11-23", "2026-11-29")  # 2026-W48, Monday to Sunday
GAP = "2026-11-26"  # the Thursday of 2026-W48 has no capture
MONTH_FIRST, MONTH_GAP = "2026-10-19", "2026-11-04"  # 31 days across the end of DST
NIGHT_APP = "Night Owl"  # the DST store's night sessions


def simulated_store(
    path: Path,
    first: str,
    n: int,
    *,
    tz: str = TZ,
    skip: Sequence[str] = (),
    rows: int = 400,
    kind: str = "native",
    devices: tuple[str, ...] = ("",),
) -> Path:
    """``n`` simulated days from ``first`` (weekends lighter) but the days in ``skip``,
    written as a native store (with away spans) or a screenpipe database."""
    sim = simulate_days(first, n, tz, rows_per_day=rows, devices=devices)
    days = [d for d in sim if d.day not in skip]
    path.unlink(missing_ok=True)
    if kind == "native":
        return write_native(path, days)
    return write_screenpipe(path, days)


def demo_store(path: Path, days: int = 31, today: str = "2026-12-01", tz: str = "UTC") -> Span:
    """The store ``actframes demo --days N`` writes on ``today`` (``demo._run_days``):
    ``days`` calendar days of office work ending yesterday; the span of its days."""
    from actframes.demo import demo_span

    first, last = demo_span(days, today)
    history = simulate_workflows(first, days, tz, seed=7, every_day=True, fill_workday=True)
    path.unlink(missing_ok=True)
    write_workflows(path, history)
    return Span(first, last)


def night_rows(first_id: int, start_iso: str, end_iso: str, step_s: int = 20) -> list[Snapshot]:
    """A session of NIGHT_APP from ``start_iso`` through ``end_iso``, a row every
    ``step_s`` seconds (no gap reaches the dwell cap: every second of it is active)."""
    start, end = ms(start_iso), ms(end_iso)
    n = (end - start) // (step_s * 1000) + 1
    return [
        Snapshot(first_id + k, start + k * step_s * 1000, NIGHT_APP, "moon.txt - Night Owl")
        for k in range(n)
    ]


# The night sessions across both changes of 2026 in Berlin: the autumn one holds the
# repeated hour (02:00-03:00 twice), the spring one the skipped hour.
AUTUMN_NIGHT = ("2026-10-25T01:30:00+02:00", "2026-10-25T02:45:00+01:00")  # 2h15m
SPRING_NIGHT = ("2026-03-29T01:15:00+01:00", "2026-03-29T03:30:00+02:00")  # 1h15m


def dst_store(path: Path) -> Path:
    """A native store of the weeks 2026-W13 (holding 2026-03-29, 23 hours) and 2026-W43
    (holding 2026-10-25, 25 hours) in Berlin, each with a night session across the
    change."""
    snaps: list[Snapshot] = []
    events: list[InputEvent] = []
    afk: list[Away] = []
    for first in ("2026-03-23", "2026-10-19"):
        for d in simulate_days(first, 7, TZ, rows_per_day=300):
            snaps += [s._replace(row_id=len(snaps) + 1 + k) for k, s in enumerate(d.snapshots)]
            events += [e._replace(event_id=len(events) + 1 + k) for k, e in enumerate(d.events)]
            afk += d.afk
    for night in (SPRING_NIGHT, AUTUMN_NIGHT):
        snaps += night_rows(len(snaps) + 1, *night)
    path.unlink(missing_ok=True)
    return native_db(path, snaps, events, afk)


def shuffled_copy(src: Path, dst: Path, rnd: random.Random, *, keyed: bool = True) -> Path:
    """A fresh SQLite file with ``src``'s schema, pragmas and rows, each table's rows
    inserted in an order drawn from ``rnd`` (ids kept): the tables first, then their
    rows, then indexes and triggers (a native store's triggers note each row's day).

    An ``id INTEGER PRIMARY KEY`` table keeps its rows in id order whatever the order
    of insertion; ``keyed=False`` makes those ids plain columns (as stores without a
    primary key have them), so a scan reads the rows in the order they were inserted."""
    dst.unlink(missing_ok=True)
    old = sqlite3.connect(src)
    new = sqlite3.connect(dst)
    try:
        for pragma in ("user_version", "application_id"):
            value = old.execute(f"PRAGMA {pragma}").fetchone()[0]
            new.execute(f"PRAGMA {pragma} = {int(value)}")
        schema = old.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL"
            " AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        ).fetchall()
        tables = [(name, sql) for kind, name, sql in schema if kind == "table"]
        for _, sql in tables:
            new.execute(sql if keyed else sql.replace("INTEGER PRIMARY KEY", "INTEGER"))
        for name, _ in tables:
            rows = old.execute(f'SELECT * FROM "{name}"').fetchall()
            rnd.shuffle(rows)
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                new.executemany(f'INSERT INTO "{name}" VALUES ({marks})', rows)
        for kind, _, sql in schema:
            if kind != "table":
                new.execute(sql)
        new.commit()
    finally:
        old.close()
        new.close()
    return dst


def day_alone(path: Path, day: str, tz: str = TZ) -> Document:
    """``day``'s own document, compiled alone from the rows (no cache)."""
    with open_store(path, disk_cache=False) as store:
        return store.compile(day_window(day, tz), cache=False)


def period_of(path: Path, span: Span, tz: str = TZ, *, disk_cache: bool = False) -> PeriodDocument:
    """The period of ``span`` as the CLI makes it: its days' documents (through the
    store's many-window entry), added up."""
    with open_store(path, disk_cache=disk_cache) as store:
        docs = store.compile_many(day_windows(span, tz))
    return period_document(
        list(zip(span.days(), docs, strict=True)), kind=span.kind, label=span.label
    )


def brief(doc: Document) -> dict[str, Any]:
    """What a period's ``days`` entry must say of a day, read off the day's document:
    its coverage, its ledger summed per app (over sites) and for keys and clicks, its
    away total and its projects."""
    cov = doc["coverage"]
    apps: dict[str, int] = {}
    for e in doc["ledger"]:
        apps[e["app"]] = apps.get(e["app"], 0) + e["active_s"]
    return {
        "start": doc["window"]["start"],
        "end": doc["window"]["end"],
        "active_s": cov["active_s"],
        "away_s": sum(p["s"] for p in cov["away"]),
        "first": cov["first"],
        "last": cov["last"],
        "rows": cov["rows"],
        "keys": sum(e["keys"] for e in doc["ledger"]),
        "clicks": sum(e["clicks"] for e in doc["ledger"]),
        "apps": apps,
        "projects": [(p["name"], p["active_s"]) for p in doc["projects"]["entries"]],
        "digest": doc["source"]["digest"],
    }


def brief_of_entry(d: Any) -> dict[str, Any]:
    """A period's ``days`` entry in ``brief``'s shape (its apps as a mapping: the order
    is checked on its own)."""
    out = {k: d[k] for k in ("start", "end", "active_s", "away_s", "first", "last")}
    out |= {k: d[k] for k in ("rows", "keys", "clicks", "digest")}
    out["apps"] = {a["app"]: a["active_s"] for a in d["apps"]}
    out["projects"] = [(p["name"], p["active_s"]) for p in d["projects"]]
    return out
