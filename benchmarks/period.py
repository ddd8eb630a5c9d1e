"""The period benchmarks: a 31-day month in a screenpipe-style store.

Used by ``benchmarks/run.py`` (``period-31d-sp``, ``period-31d-warm``):

- ``cold``: whole ``actframes period --since FIRST --until LAST`` processes (``--format
  context`` and ``json``), each with an empty document cache (``ACTFRAMES_CACHE``: a new
  folder every run, so every run reads and compiles all 31 days and writes their
  entries), beside the reference's 31 separate ``aframes day D -f json`` processes, one a
  day, summed per run, in alternating order;
- ``warm``: ``get_context(since=FIRST, until=LAST)`` on a warm ``actframes mcp`` server
  (the official client over stdio, ``warm.measure``); then on a second server while one
  frame is appended at the end of the last day before every call; then the same two
  calls in process through the server's ``Service``, to show how the resident cache
  served each day (``ResidentCache.stats``) once a row was appended.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from datetime import date, timedelta
from pathlib import Path
from typing import Any, NamedTuple

FIRST_DAY, DAYS, TZ, SEED, ROWS = "2026-01-01", 31, "UTC", 7, 3_000
LAST_DAY = (date.fromisoformat(FIRST_DAY) + timedelta(days=DAYS - 1)).isoformat()
COLD_TARGET_S = 3.0  # a cold 31-day `period`, median, each format
WARM_TARGET_MS = 50.0  # a warm 31-day get_context, median
ARGS = {"since": FIRST_DAY, "until": LAST_DAY}


def build(path: Path) -> None:
    """31 consecutive full workdays of ~3,000 frames each (weekends too: ``simulate_days``
    makes weekends a quarter as dense, and the target is stated for ~3k rows a day),
    ids continuing from day to day, written as a screenpipe-style store."""
    from actframes.simulate import write_screenpipe
    from actframes.simulate.generator import _simulate

    days, row, event = [], 1, 1
    first = date.fromisoformat(FIRST_DAY)
    for i in range(DAYS):
        day = (first + timedelta(days=i)).isoformat()
        sim = _simulate(day, TZ, SEED, ROWS, ("",), light=False, first_row=row, first_event=event)
        row, event = row + len(sim.snapshots), event + len(sim.events)
        days.append(sim)
    write_screenpipe(path, days)


def describe(db: Path) -> dict[str, Any]:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        frames = int(conn.execute("SELECT count(*) FROM frames").fetchone()[0])
        events = int(conn.execute("SELECT count(*) FROM ui_events").fetchone()[0])
    return {"rows": frames, "input_events": events, "days": DAYS, "first": FIRST_DAY}


# ---------------------------------------------------------------------------- cold


class Run(NamedTuple):
    wall_s: float
    cpu_s: float  # user + system of the process (and its threads)
    rss_mb: float | None  # peak RSS, through GNU time; None when not measured


def _run(
    argv: list[str], env: dict[str, str], out: Any = subprocess.DEVNULL, gnu_time: str | None = None
) -> Run:
    """One whole process: its wall time, its CPU time (``wait4``: unlike the wall time it
    hardly moves with the machine's other work) and, through GNU time when given, its
    peak RSS (MB of 10^6 bytes), as run.py's ``run_once`` measures it."""
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as peak:
        if gnu_time:
            argv = [gnu_time, "-f", "%M", "-o", peak.name, *argv]
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = code = os.waitstatus_to_exitcode(status)  # reaped here
        if code != 0:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-3:]
            raise RuntimeError(f"{argv[0]} exited {code}: {' | '.join(tail)}")
        rss = int(peak.read().split()[-1]) * 1024 / 1e6 if gnu_time else None
    return Run(wall, usage.ru_utime + usage.ru_stime, rss)


def _days() -> list[str]:
    first = date.fromisoformat(FIRST_DAY)
    return [(first + timedelta(days=i)).isoformat() for i in range(DAYS)]


def cold(
    db: Path, work: Path, runs: int, aframes: Path | None, gnu_time: str | None
) -> dict[str, Any]:
    """``runs`` rounds of (ours --format context, ours --format json, the reference's 31
    day calls), the order alternating; one untimed round first, which checks the outputs
    and measures peak RSS."""
    exe = Path(sys.executable).parent / "actframes"
    made = iter(range(1_000_000))

    def ours(fmt: str, out: Any = subprocess.DEVNULL, rss: str | None = None) -> Run:
        argv = [str(exe), "period", "--since", FIRST_DAY, "--until", LAST_DAY]
        argv += ["--db", str(db), "--tz", TZ, "--format", fmt]
        cache = work / f"cache-{next(made)}"  # new, empty: every day read and compiled
        env = {**os.environ, "TZ": TZ, "ACTFRAMES_CACHE": str(cache)}
        try:
            got = _run(argv, env, out, rss)
            entries[fmt] = len(list((cache / "docs").glob("*.json")))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        return got

    def ref_round(out_dir: Path | None = None) -> Run:
        """The reference's 31 ``day`` processes, one after the other: their sums (and
        the largest peak RSS, with ``out_dir``: where their outputs go)."""
        env = {**os.environ, "TZ": TZ, "AFRAMES_DB": str(db)}
        done = []
        for d in _days():
            argv = [str(aframes), "day", d, "-f", "json"]
            if out_dir is None:
                done.append(_run(argv, env))
            else:
                with open(out_dir / f"{d}.json", "wb") as fh:
                    done.append(_run(argv, env, fh, gnu_time))
        peaks = [r.rss_mb for r in done if r.rss_mb is not None]
        return Run(
            sum(r.wall_s for r in done), sum(r.cpu_s for r in done), max(peaks, default=None)
        )

    # Untimed round: the outputs checked, each process's peak RSS, the file in the page
    # cache for both tools alike.
    entries: dict[str, int] = {}
    first: dict[str, Run] = {}
    for fmt in ("context", "json"):
        with open(work / f"out.{fmt}", "wb") as fh:
            first[fmt] = ours(fmt, fh, gnu_time)
    checks: dict[str, Any] = {f"{k}_cache_entries_written": v for k, v in entries.items()}
    doc = json.loads((work / "out.json").read_text())
    checks["period_days"] = len(doc["days"])
    text = (work / "out.context").read_text()
    checks["context_is_period_block"] = text.startswith(f"# activity period {FIRST_DAY}")
    if checks["period_days"] != DAYS or not checks["context_is_period_block"]:
        raise RuntimeError(f"period output is not a {DAYS}-day period: {checks}")
    if aframes is not None:
        ref_out = work / "ref-out"
        ref_out.mkdir()
        first["ref"] = ref_round(ref_out)
        checks["ref_frames"] = sum(
            len(json.loads(f.read_text()).get("frames", [])) for f in ref_out.glob("*.json")
        )

    timed: dict[str, list[Run]] = {"context": [], "json": [], "ref": []}
    order = ["context", "json"] + (["ref"] if aframes is not None else [])
    for i in range(runs):
        for what in order if i % 2 == 0 else order[::-1]:
            timed[what].append(ref_round() if what == "ref" else ours(what))

    def side(rs: list[Run], peak: float | None) -> dict[str, Any]:
        ws = [r.wall_s for r in rs]
        return {
            "median_s": round(statistics.median(ws), 3),
            "min_s": round(min(ws), 3),
            "max_s": round(max(ws), 3),
            "runs_s": [round(w, 3) for w in ws],
            "cpu_median_s": round(statistics.median(r.cpu_s for r in rs), 3),
            "peak_rss_mb": round(peak or 0.0, 1),
        }

    result: dict[str, Any] = {**describe(db), **checks}
    result["ours"] = side(timed["context"], first["context"].rss_mb)
    result["ours_json"] = side(timed["json"], first["json"].rss_mb)
    note = f"ours: --format context; --format json {result['ours_json']['median_s']:.2f} s"
    if timed["ref"]:
        result["ref"] = side(timed["ref"], first["ref"].rss_mb)
        result["ref"]["per_call_ms"] = round(result["ref"]["median_s"] / DAYS * 1000, 1)
        for key, mine in (("speedup", timed["context"]), ("speedup_json", timed["json"])):
            ratios = [r.wall_s / o.wall_s for o, r in zip(mine, timed["ref"], strict=True)]
            result[key] = round(statistics.median(ratios), 2)
        note += (
            f" ({result['speedup_json']:.2f}x); ref: 31 `aframes day` calls,"
            f" {result['ref']['per_call_ms']:.0f} ms each"
        )
    cpu = {
        k: result[s]["cpu_median_s"] for k, s in (("ours", "ours"), ("ref", "ref")) if s in result
    }
    result["note"] = note + "; CPU (median) " + ", ".join(f"{k} {v:.2f} s" for k, v in cpu.items())
    worst = max(result["ours"]["median_s"], result["ours_json"]["median_s"])
    result["target"] = f"cold median <= {COLD_TARGET_S:g} s (context and json)"
    result["met"] = worst <= COLD_TARGET_S
    return result


# ---------------------------------------------------------------------------- warm


def warm(db: Path, work: Path, runs: int) -> dict[str, Any]:
    """The warm server's latency, then with a new frame at the end of the last day
    before every call (a second server, its disk cache the first one's), then the
    resident cache's account of one call after one new frame (in process)."""
    from actframes.timeparse import parse_iso_ms
    from warm import Appender, measure

    store = work / "store.db"
    shutil.copyfile(db, store)  # frames are appended to it
    cache = work / "cache"
    cpu: list[float] = []
    client: list[float] = []
    ours, _ = measure(store, TZ, ARGS, max(runs, 20), cache, server_cpu=cpu, client_cpu=client)
    with closing(sqlite3.connect(store)) as c:
        last = parse_iso_ms(c.execute("SELECT max(timestamp) FROM frames").fetchone()[0])
    writer = Appender(store, "screenpipe", last)
    app_cpu: list[float] = []
    try:
        appended, _ = measure(store, TZ, ARGS, max(runs, 10), cache,
                              between=writer.step, server_cpu=app_cpu)  # fmt: skip
        account = _in_process(store, work / "cache-in-process", writer)
    finally:
        writer.close()
    result: dict[str, Any] = {**describe(db), "ours": _latency(ours)}
    if cpu:
        result["ours"]["server_cpu_ms"] = round(cpu[0] * 1000, 1)
    if client:
        result["ours"]["client_cpu_ms"] = round(client[0] * 1000, 2)
    result["after_append"] = _latency(appended)
    if app_cpu:
        result["after_append"]["server_cpu_ms"] = round(app_cpu[0] * 1000, 1)
    result["in_process"] = account
    after = result["after_append"]
    result["note"] = (
        f"after one new frame on the last day, before each call: median"
        f" {after['median_ms']:.0f} ms, p95 {after['p95_ms']:.0f} ms; in process the days were"
        f" served {account['append_again']['days']} ({account['append_again']['ms']:.0f} ms)"
    )
    result["target"] = f"median <= {WARM_TARGET_MS:g} ms"
    result["met"] = result["ours"]["median_ms"] <= WARM_TARGET_MS
    return result


def _in_process(store: Path, cache: Path, writer: Any) -> dict[str, Any]:
    """get_context over the 31 days through the server's ``Service``: cold (an empty disk
    cache), warm, and after one appended frame, with how the resident cache served the
    days each time (its ``stats`` counted over that call)."""
    from actframes.mcp.library import Service
    from actframes.mcp.tools import get_context

    saved = os.environ.get("ACTFRAMES_CACHE")
    os.environ["ACTFRAMES_CACHE"] = str(cache)
    try:
        svc = Service(store, TZ, None, lambda: int(time.time() * 1000))
    finally:
        if saved is None:
            os.environ.pop("ACTFRAMES_CACHE")
        else:
            os.environ["ACTFRAMES_CACHE"] = saved
    resident = svc.store.resident
    assert resident is not None
    out: dict[str, Any] = {}
    try:
        for label in ("cold", "warm", "append", "append_again"):
            if label.startswith("append"):
                writer.step()
            before = dict(resident.stats)
            t0 = time.perf_counter()
            got = asyncio.run(get_context(svc, since=FIRST_DAY, until=LAST_DAY))
            wall = time.perf_counter() - t0
            if got.is_error or (got.structured_content or {}).get("kind") != "period":
                raise RuntimeError(f"get_context did not answer a period: {got.content}")
            served = {k: v - before[k] for k, v in resident.stats.items() if v != before[k]}
            out[label] = {"ms": round(wall * 1000, 1), "days": served}
    finally:
        svc.close()
    return out


def _latency(seconds: list[float]) -> dict[str, Any]:
    ms = sorted(t * 1000 for t in seconds)
    med = statistics.median(ms)
    return {
        "median_s": med / 1000,
        "peak_rss_mb": 0.0,
        "median_ms": round(med, 1),
        "p95_ms": round(ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))], 1),
        "max_ms": round(ms[-1], 1),
        "calls": len(ms),
    }
