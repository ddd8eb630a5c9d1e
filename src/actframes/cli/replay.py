"""``actframes replay ROUTINE_ID``: run a routine's guarded plan in a real browser.

Exit codes: 0 every step ran (or a dry run), 1 the replay stopped (a guard failed, a
destructive step was not allowed, the browser failed) or a bad plan file, 2 a usage
problem (missing or unknown slot values, bad options). The report goes to stdout; a
stopped replay also says so in one line on stderr.
"""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path
from typing import Any

import click

from ..errors import ActframesError, SourceError, UsageError
from .common import HELP, default_db, json_or_md_option, machine_zone, store_options, write_out
from .routines import mining_options, rules_of


def _parse_slots(pairs: tuple[str, ...]) -> dict[str, str]:
    slots: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        name = name.strip()
        if not eq or not name:
            raise UsageError(f"--slot takes NAME=VALUE, got {name or '(empty)'!r} without '='")
        if name in slots:
            raise UsageError(f"--slot {name} is given twice")
        slots[name] = value
    return slots


def _routine(
    routine_id: str,
    plan: Path | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    days: int | None,
    until: str | None,
    whole: bool,
    rules: Any,
    audible_active: bool,
) -> dict[str, Any]:
    if plan is not None:
        from ..routines.replay import load_plan

        return load_plan(plan, routine_id)
    # Mined afresh, over the same window `actframes routines` uses by default.
    from ..routines.store_mining import find_routine
    from .routines import resolve_window

    zone = tz or machine_zone()
    path = (db or default_db()).expanduser()
    n, last = resolve_window(path, source, zone, days, until, whole)
    return find_routine(
        path, source, zone, routine_id, n, last, rules=rules, audible_active=audible_active
    )


@click.command(context_settings=HELP)
@click.argument("routine_id")
@click.option(
    "--slot",
    "slot_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A value for the plan's {NAME} placeholders (repeat for each slot).",
)
@click.option(
    "--plan",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Read the routine from this JSON / JSON-lines file instead of the store.",
)
@click.option(
    "--allow-destructive",
    is_flag=True,
    help="Also send destructive steps (submit, send, delete, pay …); without it the "
    "replay stops before the first one.",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print what each step would do; send nothing. Slots without a --slot value are "
    "marked unfilled.",
)
@click.option(
    "--loose-position",
    is_flag=True,
    help="Skip position guards (weaker: only role, name and URL are checked).",
)
@click.option(
    "--headless/--no-headless",
    default=True,
    show_default=True,
    help="Run the browser without a window (--no-headless needs a display).",
)
@click.option(
    "--browser",
    "browser_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The Chromium binary (default: $ACTFRAMES_CHROMIUM, else the installed one).",
)
@click.option(
    "--user-data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="A browser profile to reuse (e.g. one that is logged in); close other browsers "
    "using it first.",
)
@mining_options
@store_options
@json_or_md_option("json: the report as one object; md: a table of steps and the hand-off.")
def replay(
    routine_id: str,
    slot_pairs: tuple[str, ...],
    plan: Path | None,
    allow_destructive: bool,
    dry_run: bool,
    loose_position: bool,
    headless: bool,
    browser_path: Path | None,
    user_data_dir: Path | None,
    days: int | None,
    until: str | None,
    whole: bool,
    min_length: int,
    min_occurrences: int,
    min_days: int,
    min_specific: int,
    max_length: int,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    fmt: str,
) -> None:
    """Replay a routine's plan in a browser, checking every step's guards first.

    The first guard that does not hold stops the replay before anything more is sent,
    and the report is a hand-off: the step, the guard, what was expected and found.
    """
    from ..routines import replay as engine

    slots = _parse_slots(slot_pairs)
    rules = rules_of(
        min_length=min_length,
        min_occurrences=min_occurrences,
        min_days=min_days,
        min_specific=min_specific,
        max_length=max_length,
    )
    routine = _routine(
        routine_id, plan, db, tz, source, days, until, whole, rules, not no_audible_active
    )
    # Check the plan and the slots before any browser starts.
    engine.validate(routine)
    engine.check_slots(routine, slots, allow_missing=dry_run)
    render = engine.to_json if fmt == "json" else engine.to_markdown
    if dry_run:
        write_out(render(engine.dry_run(routine, slots, allow_destructive=allow_destructive)))
        return
    report = _run(
        routine, slots, allow_destructive, loose_position, headless, browser_path, user_data_dir
    )
    write_out(render(report))
    stopped = report.get("stopped")
    if stopped:
        sys.stderr.write(
            f"actframes: replay stopped at step {stopped['n']}: {stopped['message']}\n"
        )
        sys.exit(1)


def _run(
    routine: dict[str, Any],
    slots: dict[str, str],
    allow_destructive: bool,
    loose_position: bool,
    headless: bool,
    browser_path: Path | None,
    user_data_dir: Path | None,
) -> dict[str, Any]:
    import os

    from ..routines.cdp import CDPError, find_chromium
    from ..routines.cdp_start import start_browser
    from ..routines.replay import replay

    if browser_path is not None:
        if not os.access(browser_path, os.X_OK):
            raise UsageError(f"--browser {browser_path}: not an executable file")
        binary: str | None = str(browser_path)
    else:
        binary = find_chromium()
    if binary is None:
        raise SourceError(
            "no Chromium found: install chromium, set $ACTFRAMES_CHROMIUM or pass --browser"
        )
    # The browser runs in a process group of its own, so a SIGTERM to us never reaches it:
    # turn the signal into an exit that runs the `finally` below, which ends that group.
    restore = None
    if threading.current_thread() is threading.main_thread():
        restore = signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        browser = start_browser(binary, headless=headless, user_data_dir=user_data_dir)
    except OSError as exc:
        _restore(restore)
        raise SourceError(f"the browser did not start: {exc.strerror or exc}") from None
    except CDPError as exc:
        _restore(restore)
        hint = " (is another browser using --user-data-dir?)" if user_data_dir else ""
        raise ActframesError(f"the browser did not start: {exc}{hint}") from None
    try:
        from ..progress import bar

        return replay(
            routine,
            slots,
            browser,
            allow_destructive=allow_destructive,
            loose_position=loose_position,
            steps_bar=lambda steps: bar(steps, "replay", total=len(steps), unit="step"),
        )
    finally:
        browser.close()  # always: the whole process group ends here
        _restore(restore)


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _restore(handler: Any) -> None:
    if handler is not None:
        signal.signal(signal.SIGTERM, handler)
