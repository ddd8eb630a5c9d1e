"""``actframes team``: many people's stores compiled into Parquet datasets (locally or on
Ray), the team report with its k-threshold, and SQL over the datasets (docs/team.md).

Loaded only when invoked (``group.COMMANDS``); needs the ``[team]`` extra.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import ActframesError, UsageError
from .common import HELP, write_out
from .write_target import check_out_folder


def _need(module: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise UsageError(f"actframes team needs {module}: pip install 'actframes[team]'")


@click.group(context_settings=HELP)
def team() -> None:
    """Task mining for a team: compile many stores, report across people, query."""


@team.command(context_settings=HELP)
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    callback=check_out_folder,
    required=True,
    help="Folder of the datasets (created; a re-run skips unchanged days).",
)
@click.option(
    "--engine",
    type=click.Choice(["ray", "local"]),
    default="ray",
    show_default=True,
    help="ray: Ray tasks (a private local Ray, or --address); local: in this process.",
)
@click.option("--address", metavar="ADDR", help="A Ray cluster to join (default: start one).")
@click.option(
    "--workers",
    type=int,
    default=2,
    show_default=True,
    help="CPUs of the local Ray (one task per CPU).",
)
@click.option("--with-titles", is_flag=True, help="Keep window titles in the frames dataset.")
@click.option("--docs", is_flag=True, help="Also write each person-day's JSON document.")
def compile(
    manifest: Path,
    out: Path,
    engine: str,
    address: str | None,
    workers: int,
    with_titles: bool,
    docs: bool,
) -> None:
    """Compile every (person, day) of MANIFEST (CSV: person,store,tz,start,end) into
    Parquet datasets under --out, partitioned by person and day."""
    _need("pyarrow")
    from ..team.engine import make_engine
    from ..team.manifest import load_manifest
    from ..team.run import compile_team, print_failure

    people = load_manifest(manifest)
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    eng = make_engine(engine, workers, address)
    try:
        s = compile_team(
            people,
            out,
            eng,
            with_titles=with_titles,
            docs=docs,
            progress=sys.stderr,
            report=print_failure,
        )
    finally:
        eng.close()
    click.echo(
        f"actframes: team: {s.people} people, {s.person_days} person-days: {s.compiled}"
        f" compiled, {s.unchanged} unchanged, {len(s.failures)} failed"
        f" ({s.wall_ms / 1000:.1f} s, engine {eng.name}); datasets in {out}",
        err=True,
    )
    if s.failures:
        raise ActframesError(
            f"{len(s.failures)} task(s) failed (listed above); the rest is written"
        )


@team.command(context_settings=HELP)
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option(
    "--min-people",
    type=int,
    default=5,
    show_default=True,
    help="Name an app, site or routine only when at least this many people have it.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    callback=check_out_folder,
    help="Where report.md, report.json and the charts go (default: FOLDER/report).",
)
@click.option("--no-charts", is_flag=True, help="Skip the PNG charts (matplotlib).")
def report(folder: Path, min_people: int, out: Path | None, no_charts: bool) -> None:
    """Time per app and site, routines across people, h and R, from FOLDER's datasets;
    prints the Markdown."""
    _need("pyarrow")
    from ..team.report import build, to_markdown

    if min_people < 1:
        raise UsageError("--min-people must be at least 1")
    rep = build(folder, min_people)
    dest = out or folder / "report"
    dest.mkdir(parents=True, exist_ok=True)
    md = to_markdown(rep)
    (dest / "report.md").write_text(md, encoding="utf-8")
    (dest / "report.json").write_text(
        json.dumps(rep, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    if not no_charts:
        _need("matplotlib")
        from ..team.charts import write_charts

        write_charts(rep, dest)
    write_out(md)


@team.command(context_settings=HELP)
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("sql")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["tsv", "json"]),
    default="tsv",
    show_default=True,
    help="Tab-separated with a header line, or one JSON object per row.",
)
def query(folder: Path, sql: str, fmt: str) -> None:
    """Run SQL (DuckDB) over FOLDER's datasets: views ledger, frames, steps, routines, h."""
    from ..team.query import run_query, to_tsv

    cols, rows = run_query(folder, sql)
    if fmt == "json":
        write_out(
            "".join(
                json.dumps(dict(zip(cols, r, strict=True)), ensure_ascii=False, default=str) + "\n"
                for r in rows
            )
        )
    else:
        write_out(to_tsv(cols, rows))
