"""The team benchmark: a simulated team compiled in process and on a local Ray.

    python benchmarks/team_scale.py DATA_DIR WORK_DIR [--people 50] [--days 10] [--workers 2]

Writes the team's stores into DATA_DIR once (seeded, reused), then compiles the same
manifest with the ``local`` engine and with Ray on ``--workers`` workers into WORK_DIR,
each from scratch, and prints one JSON object: per engine the wall time, source rows
per second, person-days per second, the CPU the tasks and the driver used, and the peak resident
memory of each process that ran tasks; and whether every per-person-day document is
byte-identical between the engines. Run by ``make bench`` (``team-50x10``).

People cycle through store families: three in five a screenpipe-style store with
element names (``simulate.workflows``: routines recur), one a native store, one an
ActivityWatch export (``simulate_days``, ~2,600 rows a weekday), in six zones.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from actframes.simulate import simulate_days, write_aw_export, write_native
from actframes.simulate.workflows import simulate_workflows, write_workflows
from actframes.team.engine import LocalEngine, RayEngine
from actframes.team.manifest import load_manifest
from actframes.team.run import compile_team

FIRST_DAY = "2026-03-02"  # a Monday
ZONES = (
    "Europe/Berlin",
    "America/New_York",
    "Asia/Tokyo",
    "Europe/London",
    "America/Los_Angeles",
    "Australia/Sydney",
)


def write_team(data: Path, people: int, days: int) -> Path:
    data.mkdir(parents=True, exist_ok=True)
    last = (date.fromisoformat(FIRST_DAY) + timedelta(days=days - 1)).isoformat()
    lines = ["person,store,tz,start,end"]
    for i in range(people):
        tz = ZONES[i % len(ZONES)]
        pid = f"p{i:03d}"
        kind = ("wf", "wf", "wf", "native", "aw")[i % 5]
        if kind == "wf":
            store = data / f"{pid}.db"
            if not store.exists():
                write_workflows(store, simulate_workflows(FIRST_DAY, days, tz, seed=100 + i))
            lines.append(f"{pid},{store.name},{tz},,")  # its days: the weekdays it has
        elif kind == "native":
            store = data / f"{pid}.db"
            if not store.exists():
                write_native(store, simulate_days(FIRST_DAY, days, tz, seed=100 + i))
            lines.append(f"{pid},{store.name},{tz},{FIRST_DAY},{last}")
        else:
            store = data / f"{pid}.json"
            if not store.exists():
                write_aw_export(store, simulate_days(FIRST_DAY, days, tz, seed=100 + i))
            lines.append(f"{pid},{store.name},{tz},{FIRST_DAY},{last}")
    manifest = data / "team.csv"
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return manifest


def run(engine_name: str, manifest: Path, out: Path, workers: int) -> dict[str, Any]:
    people = load_manifest(manifest)
    shutil.rmtree(out, ignore_errors=True)
    t0, cpu0 = time.perf_counter(), time.process_time()
    engine = LocalEngine() if engine_name == "local" else RayEngine(workers)
    started = time.perf_counter() - t0
    try:
        s = compile_team(people, out, engine, docs=True)
    finally:
        engine.close()
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0  # this process: the driver (and, in process, the tasks)
    peaks = sorted(s.worker_peak_rss_kb.values())
    return {
        "engine": engine_name,
        "workers": engine.workers,
        "person_days": s.person_days,
        "failed": len(s.failures),
        "source_rows": s.source_rows,
        "wall_s": round(wall, 2),
        "engine_start_s": round(started, 2),
        "rows_per_s": round(s.source_rows / wall),
        "person_days_per_s": round(s.person_days / wall, 2),
        "task_cpu_s": round(s.task_cpu_ms / 1000, 1),
        "task_cpu_ms_per_person_day": round(s.task_cpu_ms / max(s.person_days, 1)),
        "driver_cpu_s": round(cpu, 1),
        "peak_rss_mb_per_worker": [round(kb * 1024 / 1e6, 1) for kb in peaks],
    }


def same_docs(a: Path, b: Path) -> tuple[bool, int]:
    docs_a = sorted(p.relative_to(a) for p in (a / "docs").rglob("*.json"))
    docs_b = sorted(p.relative_to(b) for p in (b / "docs").rglob("*.json"))
    if docs_a != docs_b:
        return False, len(docs_a)
    return all((a / r).read_bytes() == (b / r).read_bytes() for r in docs_a), len(docs_a)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("data", type=Path)
    ap.add_argument("work", type=Path)
    ap.add_argument("--people", type=int, default=50)
    ap.add_argument("--days", type=int, default=10)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    manifest = write_team(args.data, args.people, args.days)
    sim_s = time.perf_counter() - t0
    local = run("local", manifest, args.work / "local", args.workers)
    on_ray = run("ray", manifest, args.work / "ray", args.workers)
    identical, n_docs = same_docs(args.work / "local", args.work / "ray")
    print(
        json.dumps(
            {
                "people": args.people,
                "days": args.days,
                "simulate_s": round(sim_s, 1),
                "local": local,
                "ray": on_ray,
                "documents": n_docs,
                "documents_identical": identical,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
