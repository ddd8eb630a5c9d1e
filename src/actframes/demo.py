"""``actframes demo``: seeded simulated work, compiled and shown.

One day (``days=1``): a native store of the fixed workday ``DEMO_DAY`` and every output
format; the same seed gives the same bytes. Several days: a store of ``days`` calendar
days of clicks and typing on named elements, ending yesterday, so that routines,
patterns, steps and replay have something to show and commands that count back from
today find it; its content is fixed by the seed, its dates move with the clock.
"""

from __future__ import annotations

import os
import shlex
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from .api import open_store
from .demo_constants import DEMO_DAY as DEMO_DAY  # (re-exported: the bench and tests use it)
from .demo_constants import DEMO_TZ as DEMO_TZ
from .doc_types import Document
from .emit.context import to_context
from .emit.html import to_html
from .emit.json_out import to_json
from .emit.markdown import to_markdown
from .emit.yaml_out import to_yaml
from .window import day_window


def build_demo_store(path: Path, *, seed: int = 7) -> None:
    from .simulate.generator import simulate_day
    from .simulate.writers import write_native

    _remove_store(path)
    write_native(path, [simulate_day(DEMO_DAY, DEMO_TZ, seed=seed)])


def _remove_store(path: Path) -> None:
    path.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def run_demo(
    out: Path,
    *,
    seed: int = 7,
    budget: int = 1500,
    days: int = 1,
    today: str | None = None,
    tz: str = DEMO_TZ,
) -> str:
    """Write the demo into ``out`` and return what to print. ``today`` (YYYY-MM-DD in
    ``tz``) dates a multi-day demo; the one-day demo is fixed and ignores both."""
    if days > 1:
        if today is None:
            raise ValueError("a multi-day demo needs today's date")
        return _run_days(out, seed=seed, budget=budget, days=days, today=today, tz=tz)
    return _run_one_day(out, seed=seed, budget=budget)


def _run_one_day(out: Path, *, seed: int, budget: int) -> str:
    from .emit.ledger_table import ledger_table

    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.db"
    build_demo_store(db, seed=seed)
    with open_store(db, disk_cache=False) as store:
        doc = store.compile(day_window(DEMO_DAY, DEMO_TZ))
    block = to_context(doc, budget)
    files = _write_files(out, doc, block, {})
    lines = [
        f"Simulated workday {DEMO_DAY} ({DEMO_TZ}), seed {seed}: "
        f"{doc['coverage']['rows']} snapshot rows, {doc['coverage']['input_events']} input events "
        f"-> {len(doc['frames'])} frames.",
        "",
        "== Context block (what an agent reads) ==",
        block.rstrip("\n"),
        "",
        "== Ledger ==",
        ledger_table(doc).rstrip("\n"),
        "",
        "== Files ==",
        f"store       {db}",
        *(f"{name:<11} {out / name}" for name in files),
        "",
        f"Report: {out / 'report.html'} (the day as a timeline; open it in a browser)",
        f"Try: actframes day {DEMO_DAY} --db {db} --tz {DEMO_TZ} --format md",
    ]
    return "\n".join(lines) + "\n"


def _write_files(out: Path, doc: Document, block: str, more: dict[str, str]) -> list[str]:
    """The day's document in every format, its context block and ``more`` into ``out``;
    the names written, in order."""
    files = {
        "day.json": to_json(doc),
        "day.yaml": to_yaml(doc),
        "day.md": to_markdown(doc),
        "context.txt": block,
        "report.html": to_html(doc),
        **more,
    }
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return list(files)


def demo_span(days: int, today: str) -> tuple[str, str]:
    """(first, last) local day of a ``days``-day demo run on ``today``: last is yesterday."""
    last = date.fromisoformat(today) - timedelta(days=1)
    return (last - timedelta(days=days - 1)).isoformat(), last.isoformat()


def _run_days(out: Path, *, seed: int, budget: int, days: int, today: str, tz: str) -> str:
    from .progress import Steps
    from .routines.mine import Rules
    from .routines.store_mining import to_markdown as routines_markdown
    from .routines.store_mining import window_of
    from .simulate.workflows import simulate_workflows, write_workflows

    first, last = demo_span(days, today)
    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.db"
    with Steps(f"demo, {days} days", 4) as progress:
        progress.next("simulate")
        history = simulate_workflows(first, days, tz, seed=seed, every_day=True, fill_workday=True)
        progress.next("write the store")
        _remove_store(db)
        write_workflows(db, history)
        with open_store(db, disk_cache=False) as opened:
            progress.next("compile yesterday")
            doc = opened.compile(day_window(last, tz))
            progress.next("mine routines")
            start, end = window_of(tz, days, last)
            found = opened.routines(tz, start, end, Rules()).routines
    block = to_context(doc, budget)
    files = _write_files(out, doc, block, {"routines.md": routines_markdown(found)})
    actions = sum(len(d.actions) for d in history)
    store = os.path.abspath(db)
    lines = [
        f"Simulated {days} days of office work, {first} to {last} ({tz}), seed {seed}: "
        f"{actions} clicks, keys and page changes -> {len(found)} routines.",
        "",
        f"== Yesterday, {last}, as an agent reads it ==",
        block.rstrip("\n"),
        "",
        "== Routines (the most repeated) ==",
        *_routine_lines(found),
        "",
        "== Files ==",
        f"store        {db}",
        *(f"{name:<12} {out / name}" for name in files),
        "",
        "Try (`actframes` not found? `make install` in the clone puts it on the PATH):",
        f"  export ACTFRAMES_DB={shlex.quote(store)}",
        "  actframes apps yesterday",
        "  actframes routines --format md",
        "  actframes mcp --print-config claude-code",
    ]
    return "\n".join(lines) + "\n"


def _routine_lines(found: list[dict[str, Any]], top: int = 5) -> list[str]:
    ranked = sorted(found, key=lambda r: (-r["occurrences"] * r["length"], r["id"]))[:top]
    return [
        f"{r['id']}  {r['title']} ({r['occurrences']} times on {r['days']} days)" for r in ranked
    ] or ["(none)"]
