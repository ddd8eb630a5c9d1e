"""``actframes bench``: token cost, compression, and question answering against the oracle.

Loaded only when invoked (``group.COMMANDS``).
The rules and the measured tables are in docs/bench.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import UsageError
from .common import (
    check_budget,
    default_db,
    local_day,
    machine_zone,
    out_option,
    store_options,
    write_out,
)

if TYPE_CHECKING:
    from ..bench.report import Dataset
    from ..progress import Status


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def bench() -> None:
    """Measure token cost, compression and question answering (docs/bench.md)."""


@bench.command()
@click.argument("date", required=False)
@store_options
@click.option("--budget", type=int, default=1500, show_default=True, help="Context budget.")
@click.option("--json", "as_json", is_flag=True, help="Print the measurement as JSON.")
def tokens(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    budget: int,
    as_json: bool,
) -> None:
    """Tokens of one DATE (default today) as raw rows, JSON, YAML, Markdown and the
    context block, and the compression ratio raw/context."""
    import json

    from ..bench.tokens_report import measure, render_day, tokens_markdown

    zone = tz or machine_zone()
    day = local_day(date, zone)
    path, audible = db or default_db(), not no_audible_active
    rendered = render_day(
        path, day, zone, budget=check_budget(budget), source=source, audible_active=audible
    )
    m = measure(rendered, budget)
    write_out(json.dumps(m, indent=1) + "\n" if as_json else tokens_markdown([m]))


def _days(text: str | None) -> list[str] | None:
    if text is None or text.strip() in ("", "all"):
        return None
    from ..window import parse_day

    days = [d.strip() for d in text.split(",") if d.strip()]
    for d in days:
        parse_day(d)
    return days


def _reps(text: str) -> tuple[str, ...]:
    from ..bench.report import REP_LABELS

    reps = tuple(r.strip() for r in text.split(",") if r.strip())
    unknown = [r for r in reps if r not in REP_LABELS]
    if unknown or not reps:
        known = ", ".join(REP_LABELS)
        raise UsageError(f"--reps: unknown representation {', '.join(unknown)!r} (known: {known})")
    return reps


def _progress(quiet: bool, desc: str) -> Status:
    """Progress on a terminal's stderr (a bar with the latest step), unless --quiet."""
    from ..progress import Status

    return Status(desc, on=not quiet)


@bench.command()
@store_options
@click.option(
    "--dates",
    metavar="DATES",
    help="Comma-separated YYYY-MM-DD, or 'all' (default: every day with rows).",
)
@click.option(
    "--model",
    default="none",
    show_default=True,
    help="none | anthropic:NAME | openai:NAME | cmd:'COMMAND' (reads the prompt on stdin).",
)
@click.option(
    "--reps",
    default="raw,context,json",
    show_default=True,
    help="Representations: raw, context, json, summary (with a model).",
)
@click.option("--budget", type=int, default=1500, show_default=True, help="Context budget.")
@click.option("--seed", type=int, default=0, show_default=True, help="Question seed.")
@out_option("bench-out", "Folder for results.json, report.md and chart.png.")
@click.option(
    "--max-prompt-tokens",
    type=int,
    default=180_000,
    show_default=True,
    help="Skip a question whose prompt would be longer (o200k tokens).",
)
@click.option(
    "--timeout", type=float, default=600.0, show_default=True, help="Seconds per model call."
)
@click.option("--quiet", is_flag=True, help="No progress bar on stderr.")
def qa(
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    dates: str | None,
    model: str,
    reps: str,
    budget: int,
    seed: int,
    out: Path,
    max_prompt_tokens: int,
    timeout: float,
    quiet: bool,
) -> None:
    """Answer oracle questions about each day from each representation; score them."""
    from ..bench.answerers import make_answerer
    from ..bench.report import Dataset, QAConfig, markdown, run_qa, write_outputs

    answerer = make_answerer(model, timeout)
    zone = tz or machine_zone()
    path = db or default_db()
    with _progress(quiet, "bench qa") as say:
        config = QAConfig(
            model=model,
            reps=_reps(reps),
            budget=check_budget(budget),
            seed=seed,
            max_prompt_tokens=max_prompt_tokens,
            progress=say,
        )
        dataset = Dataset(path.name, path, zone, _days(dates), source, not no_audible_active)
        results = run_qa([dataset], config, answerer)
    if not results["days"]:
        raise UsageError(f"{path}: no day with rows to ask about")
    paths = write_outputs(results, out)
    write_out(markdown(results))
    click.echo(f"wrote {paths['json']}, {paths['md']}, {paths['png']}", err=True)


@bench.command()
@out_option("bench-out", "Folder for the simulated stores and every report.")
@click.option(
    "--aw",
    "aw",
    type=(click.Path(dir_okay=False, path_type=Path), str),
    multiple=True,
    metavar="FILE ZONE",
    help="Also an ActivityWatch export, read in ZONE (repeatable).",
)
@click.option("--model", default="none", show_default=True, help="As for 'bench qa'.")
@click.option("--reps", default="raw,context,json", show_default=True, help="As for 'bench qa'.")
@click.option("--budget", type=int, default=1500, show_default=True, help="Context budget.")
@click.option("--seed", type=int, default=0, show_default=True, help="Question seed.")
@click.option(
    "--max-prompt-tokens", type=int, default=180_000, show_default=True, help="As for 'bench qa'."
)
@click.option(
    "--timeout", type=float, default=600.0, show_default=True, help="Seconds per model call."
)
@click.option("--quiet", is_flag=True, help="No progress bar on stderr.")
def suite(
    out: Path,
    aw: tuple[tuple[Path, str], ...],
    model: str,
    reps: str,
    budget: int,
    seed: int,
    max_prompt_tokens: int,
    timeout: float,
    quiet: bool,
) -> None:
    """The paper's tables on the demo day, the dense benchmark day, a simulated week
    (two screens, a DST change) and any ActivityWatch exports given."""
    import json

    from ..bench.answerers import make_answerer
    from ..bench.report import Dataset, QAConfig, markdown, run_qa, write_outputs
    from ..bench.tokens_report import measure, render_day, tokens_markdown

    answerer = make_answerer(model, timeout)
    with _progress(quiet, "bench suite") as say:
        say("simulating the stores")
        datasets = simulated_datasets(out / "data")
        for path, zone in aw:
            datasets.append(Dataset(path.parent.name or path.stem, path, zone))
        config = QAConfig(
            model=model,
            reps=_reps(reps),
            budget=check_budget(budget),
            seed=seed,
            max_prompt_tokens=max_prompt_tokens,
            progress=say,
        )
        results = run_qa(datasets, config, answerer)
    paths = write_outputs(results, out)
    # Tokens: each dataset's busiest day.
    measured, names = [], []
    for d in datasets:
        seen = [x for x in results["days"] if x["dataset"] == d.name]
        if not seen:
            continue
        day = max(seen, key=lambda x: (x["rows"], x["day"]))["day"]  # the busiest
        rendered = render_day(
            d.db, day, d.tz, budget=config.budget, source=d.source, audible_active=d.audible_active
        )
        measured.append(measure(rendered, config.budget))
        names.append(d.name)
    table = tokens_markdown(measured, names)
    (out / "tokens.md").write_text(table, encoding="utf-8")
    (out / "tokens.json").write_text(json.dumps(measured, indent=1) + "\n", encoding="utf-8")
    write_out("# Token cost\n\n" + table + "\n" + markdown(results))
    click.echo(
        f"wrote {paths['json']}, {paths['md']}, {paths['png']}, {out / 'tokens.md'}", err=True
    )


def _remove_store(p: Path) -> None:
    """A store written by an earlier run, with its WAL files: the simulators write anew."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(p) + suffix).unlink(missing_ok=True)


def simulated_datasets(folder: Path) -> list[Dataset]:
    """The simulated stores the suite measures, written afresh into ``folder`` (the
    simulator is seeded, so the same code gives the same stores)."""
    from ..bench.report import Dataset
    from ..demo import DEMO_DAY, DEMO_TZ, build_demo_store
    from ..simulate import simulate_day, simulate_days, write_native, write_screenpipe

    folder.mkdir(parents=True, exist_ok=True)
    demo, dense, week = (folder / n for n in ("demo.db", "dense-26k.db", "week-2screens.db"))
    for p in (demo, dense, week):
        _remove_store(p)
    build_demo_store(demo)
    write_screenpipe(dense, simulate_day("2026-03-10", "UTC", seed=7, rows=26_000))
    days = simulate_days("2026-03-05", 5, "America/New_York", seed=11, devices=("eDP-1", "HDMI-1"))
    write_native(week, days)
    return [
        Dataset("demo", demo, DEMO_TZ, [DEMO_DAY]),
        Dataset("dense-26k", dense, "UTC", ["2026-03-10"]),
        Dataset("week-2screens", week, "America/New_York"),
    ]


def _screen(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or int(w) < 1 or int(h) < 1:
        raise UsageError(f"--screen {text!r} is not WIDTHxHEIGHT in pixels")
    return int(w), int(h)


@bench.command()
@out_option("bench-out", "Folder for the simulated history and the reports.")
@click.option(
    "--uilog",
    type=click.Path(dir_okay=False, path_type=Path),
    multiple=True,
    help="Also an RPA UI log (CSV); scored against its labels when it has them (repeatable).",
)
@click.option(
    "--store",
    type=(click.Path(dir_okay=False, path_type=Path), str),
    multiple=True,
    metavar="FILE ZONE",
    help="Also a capture store, read in ZONE (repeatable).",
)
@click.option("--no-sim", is_flag=True, help="Skip the simulated multi-day history.")
@click.option("--sim-days", type=int, default=15, show_default=True, help="Simulated workdays.")
@click.option("--seed", type=int, default=11, show_default=True, help="Simulator seed.")
@click.option(
    "--holdout-days",
    type=int,
    help="Out-of-sample: the last N days are measured (default: the later half).",
)
@click.option(
    "--uilog-min-days",
    type=int,
    default=1,
    show_default=True,
    help="--min-days for UI logs (each task was recorded in one sitting).",
)
@click.option("--min-days", type=int, default=2, show_default=True, help="--min-days for stores.")
@click.option(
    "--screen",
    default="1920x1080",
    show_default=True,
    help="Screen for screenshot tokens when the store recorded none (WIDTHxHEIGHT).",
)
@click.option("--screenshots", type=int, default=1, show_default=True, help="Per step.")
@click.option("--context-tokens", type=int, default=1500, show_default=True, help="Per step.")
@click.option(
    "--history-tokens", type=int, default=150, show_default=True, help="Per earlier step."
)
@click.option("--reasoning-tokens", type=int, default=250, show_default=True, help="Per step.")
def routines(
    out: Path,
    uilog: tuple[Path, ...],
    store: tuple[tuple[Path, str], ...],
    no_sim: bool,
    sim_days: int,
    seed: int,
    holdout_days: int | None,
    uilog_min_days: int,
    min_days: int,
    screen: str,
    screenshots: int,
    context_tokens: int,
    history_tokens: int,
    reasoning_tokens: int,
) -> None:
    """R (routine overhead ratio) and h (recurrence) in the paper's shape, on a
    simulated multi-day history, any stores given, and RPA UI logs (scored against
    their labels)."""
    from ..bench.routines import Target, markdown, measure, write
    from ..emit.token_count import count_tokens
    from ..routines.mine import Rules
    from ..routines.overhead import CostModel
    from ..routines.store_mining import check_rules
    from ..sources.uilog import is_uilog, read_rows

    w, h = _screen(screen)
    if holdout_days is not None and holdout_days < 1:
        raise UsageError("--holdout-days must be at least 1")
    if min(screenshots, context_tokens, history_tokens, reasoning_tokens) < 0:
        raise UsageError("cost parameters must be at least 0")
    model = CostModel(w, h, screenshots, context_tokens, history_tokens, reasoning_tokens)
    targets: list[Target] = []
    if not no_sim:
        if sim_days < 2:
            raise UsageError("--sim-days must be at least 2")
        targets.append(
            Target(
                f"simulated {sim_days} workdays",
                simulated_history(out / "data", sim_days, seed),
                "Europe/Berlin",
                check_rules(Rules(min_days=min_days)),
                False,
            )
        )
    for path, zone in store:
        if not path.is_file():
            raise UsageError(f"{path}: no such file")
        targets.append(Target(path.name, path, zone, check_rules(Rules(min_days=min_days)), False))
    for path in uilog:
        if not path.is_file() or not is_uilog(path):
            raise UsageError(f"{path}: not a UI log (a CSV naming timeStamp and eventType)")
        rows, _ = read_rows(path)
        labelled = any(("caseID" in r.labels or "idx" in r.labels) for r in rows)
        targets.append(
            Target(path.name, path, "UTC", check_rules(Rules(min_days=uilog_min_days)), labelled)
        )
    if not targets:
        raise UsageError("nothing to measure: drop --no-sim or give --uilog / --store")
    from ..progress import bar

    results = [
        measure(t, model, count_tokens, holdout_days)
        for t in bar(targets, "bench routines", total=len(targets), unit="store")
    ]
    j, md = write(results, out)
    write_out(markdown(results))
    click.echo(f"wrote {j}, {md}", err=True)


def simulated_history(folder: Path, days: int, seed: int) -> Path:
    """The simulator's multi-day history of steps, written afresh (seeded)."""
    from ..simulate.workflows import simulate_workflows, write_workflows

    folder.mkdir(parents=True, exist_ok=True)
    p = folder / f"workflows-{days}d-seed{seed}.db"
    _remove_store(p)
    return write_workflows(p, simulate_workflows(n_days=days, seed=seed))
