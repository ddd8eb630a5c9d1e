"""The units of work an engine runs: plain functions of plain values, so they run the
same in this process or on a Ray worker.

- ``store_days``: the local days a store has rows on (for people without a date range);
- ``compile_person_day``: one (person, day) — the same compiler as ``actframes day``
  (the Tier-1 document) plus the day's action steps (as ``actframes routines`` reads
  them); the rows of each dataset come back to the driver, which writes them;
- ``mine_person``: one person's routines, h and R from the steps of all their days.

A task never raises for bad input: it returns ``ok=False`` with a one-line reason, so
one broken store is reported and the rest of the team completes.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit, urlunsplit

from .. import __version__
from ..doc_types import Frame
from ..errors import ActframesError

# Bumped when what a task produces changes, so a re-run recompiles every day.
TASK_VERSION = "team-1"

Rows = list[dict[str, Any]]


class DayTask(NamedTuple):
    person: str
    store: str
    tz: str
    day: str
    with_titles: bool = False
    previous: str | None = None  # the day's fingerprint from the last run


class DayResult(NamedTuple):
    person: str
    day: str
    ok: bool
    reason: str
    unchanged: bool  # the fingerprint matched: nothing compiled, nothing to write
    fingerprint: str
    doc_json: str
    ledger: Rows
    frames: Rows
    steps: Rows
    rows: int  # source rows read (snapshots + input events)
    cpu_ms: int
    pid: int
    peak_rss_kb: int


class MineTask(NamedTuple):
    person: str
    tz: str
    steps: Rows  # the person's ``steps`` rows, every day


class MineResult(NamedTuple):
    person: str
    ok: bool
    reason: str
    routines: Rows
    h: Rows
    cpu_ms: int
    pid: int
    peak_rss_kb: int


def _peak_rss_kb() -> int:
    # ru_maxrss is in kilobytes on Linux: this worker process's peak so far.
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _cpu_ms() -> int:
    return time.process_time_ns() // 1_000_000


def _failure(e: BaseException, store: str) -> str:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    if isinstance(e, ActframesError):
        return text
    return f"{store}: {type(e).__name__}: {text}"


# ----------------------------------------------------------------------- days of a store


def store_days(person: str, store: str, tz: str) -> tuple[str, list[str], str]:
    """(person, the local days with rows, "" or the reason it failed)."""
    from ..sources.actions import family, read_capture
    from ..window import LocalDays

    try:
        path = Path(store)
        cap = read_capture(path, family(path), 0, 4_102_444_800_000)
        days = LocalDays(tz)
        found = {days.day(s.ts_ms) for s in cap.snapshots}
        found.update(days.day(e.ts_ms) for e in cap.all_events())
        return person, sorted(found), ""
    except (ActframesError, OSError, sqlite3.Error, ValueError) as e:
        return person, [], _failure(e, store)


# ----------------------------------------------------------------------- one person-day


def strip_query(url: str | None) -> str | None:
    """The URL without query string and fragment (where secrets and search terms sit)."""
    if not url:
        return url
    try:
        p = urlsplit(url)
    except ValueError:
        return None
    return urlunsplit((p.scheme, p.netloc, p.path, "", ""))


def compile_person_day(t: DayTask) -> DayResult:
    cpu0 = _cpu_ms()

    def result(ok: bool, reason: str = "", unchanged: bool = False, **kw: Any) -> DayResult:
        base: dict[str, Any] = {
            "fingerprint": "",
            "doc_json": "",
            "ledger": [],
            "frames": [],
            "steps": [],
            "rows": 0,
        }
        base.update(kw)
        return DayResult(
            t.person,
            t.day,
            ok,
            reason,
            unchanged,
            cpu_ms=_cpu_ms() - cpu0,
            pid=os.getpid(),
            peak_rss_kb=_peak_rss_kb(),
            **base,
        )

    try:
        return _compile_day(t, result)
    except (ActframesError, OSError, sqlite3.Error, ValueError, KeyError) as e:
        return result(False, _failure(e, t.store))


def _compile_day(t: DayTask, result: Callable[..., DayResult]) -> DayResult:
    from ..compile.pipeline import Options, compile_capture
    from ..compile.provenance import capture_digest
    from ..emit.json_out import to_json
    from ..routines.step_streams import capture_steps
    from ..sources import actions as store_actions
    from ..window import day_window

    path = Path(t.store)
    fam = store_actions.family(path)
    window = day_window(t.day, t.tz)
    cap = store_actions.read_capture(path, fam, window.start_ms, window.end_ms)
    digest = capture_digest(cap)
    fingerprint = f"{TASK_VERSION}:{__version__}:{int(t.with_titles)}:{digest}"
    n_rows = len(cap.snapshots) + len(cap.all_events())
    if t.previous == fingerprint:
        return result(True, unchanged=True, fingerprint=fingerprint, rows=n_rows)
    doc = compile_capture(cap, window, Options(), digest=digest)
    steps, _ = capture_steps(path, fam, cap, window.start_ms, window.end_ms, t.tz, False)
    return result(
        True,
        fingerprint=fingerprint,
        doc_json=to_json(doc),
        ledger=[
            {
                "app": e["app"],
                "site": e.get("site") or "",
                "active_s": e["active_s"],
                "keys": e["keys"],
                "clicks": e["clicks"],
            }
            for e in doc["ledger"]
        ],
        frames=[_frame_row(f, t.with_titles) for f in doc["frames"]],
        steps=[
            {
                "t_ms": s.t_ms,
                "device": s.device,
                "op": s.op,
                "app": s.app,
                "page": s.page,
                "role": s.role,
                "name": s.name,
                "raw_name": s.raw_name,
                "url": strip_query(s.url) or "",
                "x": s.x,
                "y": s.y,
                "events": list(s.events),
                "row": s.row,
                "method": s.method,
            }
            for s in steps
        ],
        rows=n_rows,
    )


def _frame_row(f: Frame, with_titles: bool) -> dict[str, Any]:
    inp = f.get("input") or {}
    row = {
        "id": f["id"],
        "app": f["app"],
        "site": f.get("site") or "",
        "start": f["start"],
        "end": f["end"],
        "active_s": f["active_s"],
        "wall_s": f["wall_s"],
        "keys": inp.get("keys", 0),
        "clicks": inp.get("clicks", 0),
        "copies": inp.get("copies", 0),
        "pastes": inp.get("pastes", 0),
        "interruptions": len(f.get("interruptions") or ()),
        "titles": json.dumps(f.get("titles") or [], ensure_ascii=False) if with_titles else "",
    }
    return row


# ----------------------------------------------------------------------- one person's routines


def mine_person(t: MineTask) -> MineResult:
    cpu0 = _cpu_ms()
    try:
        routines, h = _mine(t)
        ok, reason = True, ""
    except (ActframesError, ValueError, KeyError) as e:
        routines, h, ok, reason = [], [], False, _failure(e, t.person)
    return MineResult(
        t.person, ok, reason, routines, h, _cpu_ms() - cpu0, os.getpid(), _peak_rss_kb()
    )


def _mine(t: MineTask) -> tuple[Rows, Rows]:
    from ..emit.token_count import count_tokens
    from ..routines.mine import Corpus, Rules, mine
    from ..routines.overhead import CostModel, cost
    from ..routines.recurrence import in_sample, out_of_sample, split_days
    from ..routines.step_tokens import RStep
    from ..routines.store_mining import mine_steps
    from ..window import LocalDays

    days = LocalDays(t.tz)
    steps = [
        RStep(
            t_ms=r["t_ms"],
            device=r["device"],
            day=days.day(r["t_ms"]),
            op=r["op"],
            app=r["app"],
            page=r["page"],
            role=r["role"],
            name=r["name"],
            raw_name=r["raw_name"],
            url=r["url"] or None,
            text=None,
            x=r["x"],
            y=r["y"],
            events=tuple(r["events"]),
            row=r["row"],
            method=r["method"],
        )
        for r in sorted(t.steps, key=lambda r: (r["device"], r["t_ms"], r["row"] or 0, r["op"]))
    ]
    rules = Rules()
    segs, corpus, mined, routines = mine_steps(steps, t.tz, rules)
    train, test, how = split_days(segs, None)
    ctrain, ctest = Corpus(train), Corpus(test)
    hin = in_sample(corpus, mined, rules)
    hout = out_of_sample(ctrain, ctest, mine(ctrain, rules), rules)
    model = CostModel()
    out_r: Rows = []
    for r in routines:
        c = cost(r, model, count_tokens)
        out_r.append(
            {
                "id": r["id"],
                "title": r["title"],
                "length": r["length"],
                "occurrences": r["occurrences"],
                "days": r["days"],
                "day_list": sorted({e["day"] for e in r["evidence"]}),
                "sites": list(r["sites"]),
                "apps": list(r["apps"]),
                "script": "\n".join(r["script"]),
                "rederive_tokens": c.rederive,
                "plan_tokens": c.plan,
                "script_tokens": c.script,
                "r_operational": round(c.r_operational, 3),
                "r_ceiling": round(c.r_ceiling, 3),
            }
        )
    h = [
        {
            "days": len({s.day for s in steps}),
            "steps": hin.steps,
            "raw_steps": hin.raw,
            "delegable_steps": hin.delegable,
            "holdout_split": how,
            "holdout_steps": hout.steps,
            "holdout_raw_steps": hout.raw,
            "holdout_delegable_steps": hout.delegable,
            "routines": len(routines),
        }
    ]
    return out_r, h
