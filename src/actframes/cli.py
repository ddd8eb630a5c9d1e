"""The ``actframes`` command: a thin click shell over the library.

Exit codes: 0 success, 1 a data problem (bad or unreadable store), 2 a usage problem.
Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from . import __version__
from .errors import ActframesError, UsageError
from .sources import SOURCE_KINDS

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("json", "yaml", "md", "context", "html")
# Every command, also one loaded lazily or run on its own, takes -h as well as --help.
HELP: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


# ---------------------------------------------------------------- the edge: clock, zone, paths


def default_db() -> Path:
    env = os.environ.get("ACTFRAMES_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "actframes" / "capture.db"


def machine_zone() -> str:
    """The machine's IANA zone, resolved once here at the edge (never in the compiler)."""
    from .window import WindowError, zone

    candidates = [os.environ.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError):
        candidates.append(Path("/etc/timezone").read_text().strip())
    try:
        link = os.readlink("/etc/localtime")
        if "zoneinfo/" in link:
            candidates.append(link.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    for name in candidates:
        if not name:
            continue
        try:
            zone(name)
        except WindowError:
            continue
        return name
    return "UTC"


def now_ms() -> int:
    import time

    return time.time_ns() // 1_000_000


def today(tz: str) -> str:
    from .window import local_day_of

    return local_day_of(now_ms(), tz)


# ---------------------------------------------------------------- shared options


def store_options(f: F) -> F:
    f = click.option(
        "--source",
        type=click.Choice(SOURCE_KINDS),
        help="Force the store family instead of detecting it from the file.",
    )(f)
    f = click.option(
        "--tz",
        metavar="ZONE",
        help="IANA time zone for days and times (default: the machine's zone).",
    )(f)
    f = click.option(
        "--db",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Capture store or export (default: $ACTFRAMES_DB, else the native store).",
    )(f)
    return f


def _open(db: Path | None, source: str | None) -> Any:
    from .sources import open_source

    return open_source(db or default_db(), source)


def _options(min_minutes: float) -> Any:
    from .compile.pipeline import Options

    if not math.isfinite(min_minutes) or min_minutes < 0:
        raise UsageError("--min-minutes must be a finite number of minutes, at least 0")
    return Options(min_active_s=round(min_minutes * 60))


def _render(doc: dict[str, Any], fmt: str, budget: int) -> str:
    if fmt == "json":
        from .emit.json_out import to_json

        return to_json(doc)
    if fmt == "yaml":
        from .emit.yaml_out import to_yaml

        return to_yaml(doc)
    if fmt == "md":
        from .emit.markdown import to_markdown

        return to_markdown(doc)
    if fmt == "html":
        from .emit.html import to_html

        return to_html(doc)
    from .emit.context import to_context

    return to_context(doc, budget)


def _budget(budget: int) -> int:
    if budget < 1:
        raise UsageError("--budget must be a positive number of tokens")
    return budget


def _out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


class _Process:
    """Set by ``main`` when it runs as the program itself (no ``argv`` given), so a
    command called in-process (tests, other tools) never changes the caller's process."""

    entry = False  # main() runs as the program
    exit_early = False  # the command is done: end without the interpreter's teardown


def _one_shot() -> None:
    """For commands that compile once, print and end the process: the compiler's rows
    and pieces refer to each other and live until the end anyway, so cyclic garbage
    collection only re-scans them (a third of the run time at 100k rows), and freeing
    them one by one at exit costs as much again. Only when running as the program."""
    if _Process.entry:
        gc.disable()
        _Process.exit_early = True


def _keep_compiled_patterns() -> None:
    """Store the regular expressions this run compiled, so the next one need not."""
    recache = sys.modules.get("actframes.recache")
    if recache is not None:
        recache.save()


def _exit_now() -> None:
    """End the process at once (status 0) after flushing the output, when nothing else
    would run at exit: no ``atexit`` callbacks and no other threads. Otherwise return and
    exit normally."""
    import atexit
    import threading

    pending = getattr(atexit, "_ncallbacks", None)
    if pending is None or pending() or threading.active_count() != 1:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


# ---------------------------------------------------------------- commands


# Commands that live in their own modules, imported only when invoked (or listed), so
# `actframes day` does not pay for the recorder, the MCP server or the HTML report.
LAZY_COMMANDS: dict[str, str] = {
    "verify": "actframes.cli_trust:verify",
    "tier2": "actframes.cli_trust:tier2",
    "cache": "actframes.cli_trust:cache",
    "report": "actframes.cli_report:report",
    "bench": "actframes.cli_bench:bench",
    "entity": "actframes.cli_entity:entity",
    "record": "actframes.cli_record:record",
    "mcp": "actframes.cli_mcp:mcp",
    "steps": "actframes.cli_steps:steps",
    "patterns": "actframes.cli_steps:patterns",
    "routines": "actframes.cli_routines:routines",
    "replay": "actframes.cli_replay:replay",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            import importlib

            module, _, attr = LAZY_COMMANDS[cmd_name].partition(":")
            command: click.Command = getattr(importlib.import_module(module), attr)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings=HELP)
@click.version_option(__version__, prog_name="actframes")
def cli() -> None:
    """Compile screen-activity capture into deterministic activity frames."""


@cli.command()
@click.argument("date", required=False)
@store_options
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="json", show_default=True)
@click.option(
    "--min-minutes",
    type=float,
    default=0.0,
    show_default=True,
    help="Hide frames with less active time (disclosed under 'omitted').",
)
@click.option(
    "--budget",
    type=int,
    default=1500,
    show_default=True,
    help="Token budget (o200k) for --format context.",
)
@click.option(
    "--no-cache", is_flag=True, help="Compile afresh; neither read nor write the document cache."
)
def day(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    fmt: str,
    min_minutes: float,
    budget: int,
    no_cache: bool,
) -> None:
    """Compile one local DATE (YYYY-MM-DD, default today) and print it.

    Documents are cached (in $XDG_CACHE_HOME/actframes, or $ACTFRAMES_CACHE; "off"
    disables it) and served again only while the store holds the same rows for the day.
    """
    _one_shot()
    doc = compile_day_cli(date, db, tz, source, min_minutes, no_cache)
    _out(_render(doc, fmt, _budget(budget)))


def compile_day_cli(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    min_minutes: float,
    no_cache: bool = False,
) -> dict[str, Any]:
    """The shared path of every command that prints one day: zone, store, cache."""
    from .cache import DocCache, compile_window_cached, default_cache_dir
    from .window import day_window

    zone = tz or machine_zone()
    window = day_window(date or today(zone), zone)
    options = _options(min_minutes)
    src = _open(db, source)
    try:
        root = None if no_cache else default_cache_dir()
        doc, _ = compile_window_cached(src, window, options, DocCache(root) if root else None)
    finally:
        src.close()
    return doc


@cli.command()
@click.option("--hours", type=float, help="The last N hours (default 2).")
@click.option("--since", metavar="TIME", help="Start: YYYY-MM-DD[THH:MM[:SS]], local to --tz.")
@click.option("--until", metavar="TIME", help="End (default now).")
@store_options
@click.option(
    "--budget", type=int, default=1500, show_default=True, help="Token budget (o200k tokens)."
)
@click.option("--min-minutes", type=float, default=0.0, show_default=True)
def context(
    hours: float | None,
    since: str | None,
    until: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    budget: int,
    min_minutes: float,
) -> None:
    """Print the context block for a window of time (for a prompt)."""
    _one_shot()
    from .api import compile_window
    from .emit.context import to_context
    from .window import Window, hours_window, parse_local

    zone = tz or machine_zone()
    if hours is not None and (since or until):
        raise UsageError("give --hours or --since/--until, not both")
    if since:
        start = parse_local(since, zone)
        end = parse_local(until, zone) if until else now_ms()
        if end <= start:
            raise UsageError("--until must be after --since")
        window = Window(start, end, zone)
    else:
        if until:
            raise UsageError("--until needs --since")
        window = hours_window(hours if hours is not None else 2.0, now_ms(), zone)
    src = _open(db, source)
    try:
        doc = compile_window(src, window, _options(min_minutes))
    finally:
        src.close()
    _out(to_context(doc, _budget(budget)))


@cli.command()
@click.argument("date", required=False)
@store_options
def apps(date: str | None, db: Path | None, tz: str | None, source: str | None) -> None:
    """Print the ledger of DATE (default today) as a table: time per app and site."""
    _one_shot()
    _out(ledger_table(compile_day_cli(date, db, tz, source, 0.0)))


def ledger_table(doc: dict[str, Any]) -> str:
    rows = [("APP", "SITE", "ACTIVE", "KEYS", "CLICKS")]
    for e in doc["ledger"]:
        rows.append(
            (e["app"], e.get("site") or "-", _hms(e["active_s"]), str(e["keys"]), str(e["clicks"]))
        )
    total = doc["coverage"]["active_s"]
    rows.append(("TOTAL", "", _hms(total), "", ""))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = []
    for r in rows:
        cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1])]
        cells += [r[i].rjust(widths[i]) for i in (2, 3, 4)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def _hms(s: int) -> str:
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}"


@cli.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("demo-out"),
    show_default=True,
    help="Folder for the demo store and its compiled outputs.",
)
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--budget", type=int, default=1500, show_default=True)
def demo(out: Path, seed: int, budget: int) -> None:
    """Simulate a realistic workday, compile it, and show the result."""
    from .demo import run_demo

    _out(run_demo(out, seed=seed, budget=_budget(budget)))


# ---------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> None:
    _Process.entry = argv is None
    try:
        cli.main(args=argv, prog_name="actframes", standalone_mode=False)
        if _Process.entry:
            _keep_compiled_patterns()
        if _Process.exit_early:
            _exit_now()
    except click.exceptions.Abort:
        _fail("aborted", 1)
    except click.ClickException as exc:
        # click's own usage errors come as one line too; --help says the rest.
        code = 2 if isinstance(exc, click.UsageError) else exc.exit_code
        _fail(exc.format_message().replace("\n", " "), code)
    except ActframesError as exc:
        _fail(str(exc), exc.exit_code)
    except BrokenPipeError:
        # `actframes day | head` is not an error: stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except Exception as exc:
        if os.environ.get("ACTFRAMES_DEBUG"):
            raise
        _fail(f"internal error: {type(exc).__name__}: {exc} (ACTFRAMES_DEBUG=1 shows more)", 1)


def _fail(message: str, code: int) -> None:
    first = message.strip().splitlines()[0] if message.strip() else "error"
    sys.stderr.write(f"actframes: error: {first}\n")
    sys.exit(code)


if __name__ == "__main__":
    main()
