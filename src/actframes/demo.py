"""``actframes demo``: a seeded simulated workday, compiled and shown.

Writes a native store and every output format into one folder; prints the context
block, the ledger and where the files went. The same seed gives the same bytes.
"""

from __future__ import annotations

from pathlib import Path

from .api import compile_day
from .emit.context import to_context
from .emit.html import to_html
from .emit.json_out import to_json
from .emit.markdown import to_markdown
from .emit.yaml_out import to_yaml
from .sources import open_source

DEMO_DAY = "2026-03-10"
DEMO_TZ = "Europe/Berlin"


def build_demo_store(path: Path, *, seed: int = 7) -> None:
    from .simulate.generator import simulate_day
    from .simulate.writers import write_native

    if path.exists():
        path.unlink()
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    write_native(path, [simulate_day(DEMO_DAY, DEMO_TZ, seed=seed)])


def run_demo(out: Path, *, seed: int = 7, budget: int = 1500) -> str:
    from .cli import ledger_table

    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.db"
    build_demo_store(db, seed=seed)
    src = open_source(db)
    try:
        doc = compile_day(src, DEMO_DAY, DEMO_TZ)
    finally:
        src.close()
    block = to_context(doc, budget)
    files = {
        "day.json": to_json(doc),
        "day.yaml": to_yaml(doc),
        "day.md": to_markdown(doc),
        "context.txt": block,
        "report.html": to_html(doc),
    }
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
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
