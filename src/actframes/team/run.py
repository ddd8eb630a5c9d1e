"""``actframes team compile``: the manifest's (person, day) pairs through an engine into
the datasets.

Phases, each a batch of tasks on the engine: the days of stores without a date range;
every (person, day) not known unchanged; then the routines, h and R of each person with
a changed day. The driver writes every result (so a cluster's workers need not reach
the output folder) and the state last, so an interrupted run recompiles what it had not
recorded. A day is skipped without a task when its store file is exactly as last time
(size and modification time of the file and its WAL), and skipped after reading its rows
when their digest is the one recorded (the store grew, that day did not change).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from . import datasets as ds
from .engine import Engine
from .manifest import Person, days_between
from .tasks import TASK_VERSION, DayResult, DayTask, MineResult, MineTask, mine_person, store_days
from .tasks import compile_person_day as compile_task


class Failure(NamedTuple):
    person: str
    day: str  # "" for a whole-person failure
    reason: str


class Summary(NamedTuple):
    people: int
    person_days: int
    compiled: int
    unchanged: int
    failures: list[Failure]
    source_rows: int
    wall_ms: int
    task_cpu_ms: int
    worker_peak_rss_kb: dict[int, int]  # by worker process id

    def as_dict(self) -> dict[str, Any]:
        d = self._asdict()
        d["failures"] = [f._asdict() for f in self.failures]
        d["worker_peak_rss_kb"] = {str(k): v for k, v in sorted(self.worker_peak_rss_kb.items())}
        return d


class Progress:
    """Person-days done and failed, rate and time left: one rewritten line on a terminal,
    nothing otherwise (the summary line is printed by the caller either way)."""

    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.total = total
        # Off as the other bars are (actframes.progress): ACTFRAMES_PROGRESS=0 silences it.
        off = os.environ.get("ACTFRAMES_PROGRESS", "") == "0"
        self.stream = stream if stream is not None and stream.isatty() and not off else None
        self.t0 = time.monotonic()
        self.last = 0.0
        self.done = 0
        self.failed = 0

    def step(self, failed: bool) -> None:
        self.done += 1
        self.failed += failed
        now = time.monotonic()
        if self.stream is None or (now - self.last < 0.2 and self.done < self.total):
            return
        self.last = now
        rate = self.done / max(now - self.t0, 1e-9)
        left = (self.total - self.done) / rate if rate else 0.0
        self.stream.write(
            f"\r{self.done}/{self.total} person-days, {self.failed} failed,"
            f" {rate:.1f}/s, ~{left:.0f} s left "
        )
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def store_stat(path: Path) -> str:
    """Size and modification time of the store and its WAL: equal means untouched."""
    parts = []
    for p in (path, Path(str(path) + "-wal")):
        try:
            st = p.stat()
        except OSError:
            parts.append("-")
            continue
        parts.append(f"{st.st_size}:{st.st_mtime_ns}")
    return "|".join(parts)


def store_key(path: Path) -> str:
    """The store as the state records it: a digest of its path, since a path often
    names the person (a home folder) and the datasets know people only by pseudonym."""
    return hashlib.sha256(str(path).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def compile_team(
    people: list[Person],
    out: Path,
    engine: Engine,
    *,
    with_titles: bool = False,
    docs: bool = False,
    progress: TextIO | None = None,
    report: Callable[[Failure], None] | None = None,
) -> Summary:
    t0 = time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    state = ds.load_state(out)
    known: dict[str, Any] = state["people"]
    failures: list[Failure] = []

    def fail(f: Failure) -> None:
        failures.append(f)
        if report is not None:
            report(f)

    plan = _plan_days(people, engine, fail)
    tasks: list[DayTask] = []
    skipped = 0
    stats: dict[str, str] = {}
    for p in people:
        if p.person not in plan:
            continue
        stats[p.person] = store_stat(p.store)
        prev = known.get(p.person) or {}
        same = (
            prev.get("store") == store_key(p.store)
            and prev.get("tz") == p.tz
            and prev.get("with_titles") == with_titles
            and prev.get("version") == TASK_VERSION
        )
        prev_days: dict[str, str] = prev.get("days", {}) if same else {}
        untouched = same and prev.get("stat") == stats[p.person]
        for day in plan[p.person]:
            fp = prev_days.get(day)
            if fp is not None and docs and not ds.doc_path(out, p.person, day).exists():
                fp = None  # the document was not kept last time: compile again
            if untouched and fp is not None:
                skipped += 1
                continue
            tasks.append(DayTask(p.person, str(p.store), p.tz, day, with_titles, fp))

    # Forget days no longer asked for, and people no longer listed.
    for p in people:
        if p.person in plan and p.person in known:
            for day in set(known[p.person].get("days", {})) - set(plan[p.person]):
                _drop_day(out, p.person, day)
    for gone in set(known) - {p.person for p in people}:
        for name in (*ds.DAY_DATASETS, *ds.PERSON_DATASETS, "docs"):
            ds.remove_part(out, name, gone)
        del known[gone]

    new_days: dict[str, dict[str, str]] = {}
    for p in people:
        if p.person in plan:
            prev_days = (known.get(p.person) or {}).get("days", {})
            new_days[p.person] = {d: prev_days[d] for d in plan[p.person] if d in prev_days}
    changed: set[str] = set()
    compiled = unchanged = rows = cpu = 0
    peaks: dict[int, int] = {}
    bar = Progress(len(tasks), progress)
    for done in engine.map(compile_task, tasks):
        t = tasks[done.item]
        r: DayResult | None = done.result
        if r is None or not r.ok:
            reason = done.crashed if r is None else r.reason
            fail(Failure(t.person, t.day, reason or "task failed"))
            _drop_day(out, t.person, t.day)
            new_days[t.person].pop(t.day, None)
            changed.add(t.person)
            bar.step(True)
            continue
        rows += r.rows
        cpu += r.cpu_ms
        peaks[r.pid] = max(peaks.get(r.pid, 0), r.peak_rss_kb)
        if r.unchanged:
            unchanged += 1
        else:
            compiled += 1
            changed.add(t.person)
            for name in ds.DAY_DATASETS:
                ds.write_part(out, name, getattr(r, name), t.person, t.day)
            if docs:
                ds.write_doc(out, t.person, t.day, r.doc_json)
        new_days[t.person][t.day] = r.fingerprint
        bar.step(False)

    mine_tasks = []
    for p in people:
        if p.person not in plan:
            continue
        if not new_days[p.person]:  # no day compiled: nothing to mine
            for name in ds.PERSON_DATASETS:
                ds.remove_part(out, name, p.person)
            continue
        have = ds.part_dir(out, "h", p.person).joinpath("part-0.parquet").exists()
        if p.person in changed or not have:
            steps = ds.read(out, "steps", p.person).drop_columns(["person", "day"]).to_pylist()
            mine_tasks.append(MineTask(p.person, p.tz, steps))
    for mined in engine.map(mine_person, mine_tasks):
        mt = mine_tasks[mined.item]
        m: MineResult | None = mined.result
        if m is None or not m.ok:
            fail(Failure(mt.person, "", (mined.crashed if m is None else m.reason) or "failed"))
            for name in ds.PERSON_DATASETS:
                ds.remove_part(out, name, mt.person)
            continue
        cpu += m.cpu_ms
        peaks[m.pid] = max(peaks.get(m.pid, 0), m.peak_rss_kb)
        ds.write_part(out, "routines", m.routines, mt.person)
        ds.write_part(out, "h", m.h, mt.person)

    for p in people:
        if p.person in plan:
            known[p.person] = {
                "store": store_key(p.store),
                "tz": p.tz,
                "with_titles": with_titles,
                "version": TASK_VERSION,
                # A person with a failed day keeps no file stat: their next run retries.
                "stat": stats[p.person] if not any(f.person == p.person for f in failures) else "",
                "days": dict(sorted(new_days[p.person].items())),
            }
    ds.save_state(out, state)
    n_days = sum(len(v) for v in plan.values())
    return Summary(
        people=len(people),
        person_days=n_days,
        compiled=compiled,
        unchanged=unchanged + skipped,
        failures=failures,
        source_rows=rows,
        wall_ms=int((time.monotonic() - t0) * 1000),
        task_cpu_ms=cpu,
        worker_peak_rss_kb=peaks,
    )


def _drop_day(out: Path, person: str, day: str) -> None:
    for name in ds.DAY_DATASETS:
        ds.remove_part(out, name, person, day)
    doc = ds.doc_path(out, person, day)
    if doc.exists():
        os.unlink(doc)


def _plan_days(
    people: list[Person], engine: Engine, fail: Callable[[Failure], None]
) -> dict[str, list[str]]:
    """{person: the local days to compile}; people whose store could not be read for its
    days are reported and left out."""
    plan: dict[str, list[str]] = {}
    need = [p for p in people if not (p.start and p.end)]
    for p in people:
        if p.start and p.end:
            plan[p.person] = days_between(p.start, p.end)
    items = [(p.person, str(p.store), p.tz) for p in need]
    for found in engine.map(_store_days, items):
        p = need[found.item]
        got = found.result
        if got is None or got[2]:
            fail(Failure(p.person, "", (found.crashed if got is None else got[2]) or "failed"))
            continue
        days = [d for d in got[1] if (not p.start or d >= p.start) and (not p.end or d <= p.end)]
        plan[p.person] = days
    return plan


def _store_days(item: tuple[str, str, str]) -> tuple[str, list[str], str]:
    return store_days(*item)


def print_failure(f: Failure, stream: TextIO | None = None) -> None:
    where = f"{f.person} {f.day}" if f.day else f.person
    out = stream or sys.stderr
    if out.isatty():
        out.write("\r\x1b[K")  # over the progress line, which is drawn again after it
    out.write(f"actframes: team: {where}: {f.reason}\n")
