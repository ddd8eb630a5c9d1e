"""The ``actframes`` command: a thin click shell over the library.

Exit codes: 0 success, 1 a data problem (bad or unreadable store), 2 a usage problem.
Errors are one line on stderr, never a traceback.

The click group and its commands live in ``cli_click`` (click takes ~25 ms to import):
a plain ``actframes day`` call is parsed here, exactly as click would, and runs without
it; every other call, and any ``day`` call with anything unusual, goes through click.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar, cast

from .errors import INTERNAL_ERROR_EXIT, ActframesError, BusyError, SourceError, UsageError
from .sources import SOURCE_KINDS

if TYPE_CHECKING:
    from .window import Window

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("json", "yaml", "md", "context", "html")
# Every command, also one loaded lazily or run on its own, takes -h as well as --help.
HELP: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


# ---------------------------------------------------------------- the edge: clock, zone, paths


def default_db() -> Path:
    """$ACTFRAMES_DB, else our own store; without one, the single store found in its
    default place (named on stderr), or a one-line error listing several."""
    env = os.environ.get("ACTFRAMES_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    native = Path(base) / "actframes" / "capture.db"
    if native.exists():
        return native
    from .sources.discover import discover

    found = [f for f in discover() if f.problem is None]
    if len(found) == 1:
        sys.stderr.write(f"actframes: reading {found[0].what} at {found[0].where}\n")
        return Path(found[0].where)
    if len(found) > 1:
        listed = ", ".join(f"{f.what} ({f.where})" for f in found)
        raise UsageError(f"several capture stores found; pick one with --db: {listed}")
    return native


def machine_zone() -> str:
    """The machine's IANA zone, resolved once here at the edge (never in the compiler).

    ``TZ``, when set, decides (as it does for the C library): an IANA name (``:`` and a
    ``.../zoneinfo/`` path prefix allowed), or a POSIX fixed offset of whole hours such as
    ``JST-9`` (read as ``Etc/GMT-9``, the same sign convention). Anything else is a usage
    error naming it, never a silent UTC. Without ``TZ``: /etc/timezone, else the zone
    /etc/localtime links to, else UTC."""
    from .window import WindowError, zone

    tz = os.environ.get("TZ")
    if tz is not None and tz.lstrip(":") not in ("/etc/localtime", "/etc/localtime/"):
        return _zone_of_tz(tz)
    candidates = []
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


def _zone_of_tz(tz: str) -> str:
    import re

    from .window import WindowError, zone

    name = tz.removeprefix(":").strip()
    if not name:
        return "UTC"  # an empty TZ is UTC to the C library too
    if "zoneinfo/" in name:
        name = name.split("zoneinfo/", 1)[1]
    with contextlib.suppress(WindowError):
        zone(name)
        return name
    # POSIX "std offset" without daylight-saving rules; the offset is hours west of UTC.
    m = re.fullmatch(r"(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]{3,}>)([+-]?)(\d{1,2})", name)
    if m is not None:
        hours = int(m.group(2))
        etc = "UTC" if hours == 0 else f"Etc/GMT{m.group(1) or '+'}{hours}"
        with contextlib.suppress(WindowError):
            zone(etc)
            return etc
    raise UsageError(
        f"the machine's zone TZ={tz!r} is neither an IANA zone name nor a fixed offset of"
        " whole hours (such as JST-9); give --tz ZONE or set TZ to an IANA name"
    )


def now_ms() -> int:
    import time

    return time.time_ns() // 1_000_000


def today(tz: str) -> str:
    from .window import local_day_of

    return local_day_of(now_ms(), tz)


def since_window(since: str | None, until: str | None, zone: str) -> Window | None:
    """The window of --since [--until] (until defaults to now), or None without --since;
    --until alone is a usage error."""
    from .window import Window, parse_local

    if not since:
        if until:
            raise UsageError("--until needs --since")
        return None
    start = parse_local(since, zone)
    end = parse_local(until, zone) if until else now_ms()
    if end <= start:
        raise UsageError("--until must be after --since")
    return Window(start, end, zone)


# The words a DATE may be besides YYYY-MM-DD, as days back from today.
DAY_WORDS = {"today": 0, "yesterday": 1}


def local_day(text: str | None, tz: str) -> str:
    """A DATE as given: YYYY-MM-DD as it is, "today" or "yesterday" in ``tz``; default
    today."""
    from datetime import date, timedelta

    back = DAY_WORDS.get(("today" if text is None else text).lower())  # "" is no day
    if back is None:
        import re

        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text or ""):
            from .window import WindowError

            raise WindowError(f"not a date (YYYY-MM-DD, today or yesterday): {text!r}")
        return text or ""

    return (date.fromisoformat(today(tz)) - timedelta(days=back)).isoformat()


# ---------------------------------------------------------------- shared options


def store_options(f: F) -> F:
    import click

    f = click.option(
        "--day-start",
        metavar="HH:MM",
        expose_value=False,
        callback=_set_day_start,
        help="When a day begins (default 00:00; ActivityWatch's own is 04:00).",
    )(f)
    f = click.option(
        "--no-audible-active",
        is_flag=True,
        expose_value=False,
        callback=_set_audible_active,
        help="ActivityWatch: audible browser tabs without input are not active time"
        " (its web UI counts them by default).",
    )(f)
    f = click.option(
        "--source",
        type=click.Choice(SOURCE_KINDS),
        help="Force the store family instead of detecting it from the file.",
    )(f)
    f = click.option(
        "--tz",
        metavar="ZONE",
        callback=_named_zone,
        help="IANA time zone for days and times (default: the machine's zone).",
    )(f)
    # No checks here: a missing, unreadable or non-file store is the source's to refuse,
    # with the one exit status of every store problem (1), not click's usage status.
    f = click.option(
        "--db",
        type=click.Path(readable=False, path_type=Path),
        metavar="FILE",
        help="Capture store or export (default: $ACTFRAMES_DB, else the native store).",
    )(f)
    return f


def _named_zone(ctx: Any, param: Any, value: str | None) -> str | None:
    """``--tz ""`` is a usage error, never the machine's zone."""
    if value is not None and not value.strip():
        raise UsageError("--tz needs a zone name (an IANA name such as Europe/Berlin)")
    return value


def _set_day_start(_ctx: object, _param: object, text: str | None) -> None:
    # Called on every invocation, so a day start never carries over in-process.
    from .window import DayStart, parse_day_start

    DayStart.minutes = 0 if text is None else parse_day_start(text)


def _set_audible_active(_ctx: object, _param: object, off: bool) -> None:
    # Called on every invocation (flag given or not), so nothing carries over in-process.
    from .sources import AudibleActive

    AudibleActive.on = not off


def out_option(default: str, help: str) -> Callable[[F], F]:
    """``--out FOLDER`` (default ``default``) for commands that write several files."""
    import click

    return click.option(
        "--out",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path(default),
        show_default=True,
        help=help,
    )


def min_minutes_option(f: F) -> F:
    import click

    return click.option(
        "--min-minutes",
        type=float,
        default=0.0,
        show_default=True,
        help="Hide frames with less active time (disclosed under 'omitted').",
    )(f)


def _open(db: Path | None, source: str | None) -> Any:
    from .sources import open_source

    path = db or default_db()
    if db is None and not path.expanduser().exists():
        from .errors import SourceError

        raise SourceError(
            f"{path}: no such file (no store here yet: `actframes demo` writes one, "
            "`actframes record start` records one; --db or $ACTFRAMES_DB names another)"
        )
    return open_source(path, source)


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

    pending = getattr(atexit, "_ncallbacks", None)
    if pending is None or pending():
        return
    threading = sys.modules.get("threading")  # (no other thread runs without it)
    if threading is not None and threading.active_count() != 1:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


# ---------------------------------------------------------------- commands


# Commands that live in their own modules, imported only when invoked (or listed), so
# `actframes day` does not pay for the recorder, the MCP server or the HTML report.
LAZY_COMMANDS: dict[str, str] = {
    "comms": "actframes.cli_comms:comms",
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
    "team": "actframes.cli_team:team",
    "sources": "actframes.cli_sources:sources",
}


def run_day(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    fmt: str,
    min_minutes: float,
    budget: int,
    no_cache: bool,
) -> None:
    """The ``day`` command's work, once its arguments are parsed."""
    _one_shot()
    doc = compile_day_cli(date, db, tz, source, min_minutes, no_cache)
    from .emit.usable import unusable, usability_line

    line = usability_line(doc)
    if line is not None and not unusable(doc):
        sys.stderr.write(f"actframes: warning: {line}\n")
    _out(_render(doc, fmt, _budget(budget)))
    if line is not None and unusable(doc):
        # The document says why; the exit status says the day could not be read.
        raise SourceError(f"{db if db is not None else 'the store'}: {line}")


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
    from .sources.base import reading
    from .window import day_window

    zone = machine_zone() if tz is None else tz
    window = day_window(local_day(date, zone), zone)
    options = _options(min_minutes)
    src = _open(db, source)
    try:
        root = None if no_cache else default_cache_dir()
        with reading(src.path):
            doc, _ = compile_window_cached(src, window, options, DocCache(root) if root else None)
    finally:
        src.close()
    return doc


UNMEASURED = "—"  # a count the source does not record (never shown as 0)


def ledger_table(doc: dict[str, Any], by_host: bool = False) -> str:
    """The ledger as a table; ``by_host``: one block of rows per machine (the document's
    ``hosts``, else the whole ledger under the one host its frames name)."""
    from .compile.document import NO_INPUT_SPOT

    measured = NO_INPUT_SPOT not in doc.get("blind_spots", [])
    if not by_host:
        rows: list[tuple[str, ...]] = [("APP", "SITE", "ACTIVE", "KEYS", "CLICKS")]
        rows += [_ledger_row(e, measured) for e in doc["ledger"]]
        rows.append(("TOTAL", "", _hms(doc["coverage"]["active_s"]), "", ""))
        return _table(rows, left=2)
    hosts = doc.get("hosts")
    if hosts is None:
        devices = sorted({f.get("device", "") for f in doc["frames"]}) or [""]
        name = devices[0] if len(devices) == 1 else "-"
        hosts = [{"host": name, "active_s": doc["coverage"]["active_s"], "ledger": doc["ledger"]}]
    table: list[tuple[str, ...]] = [("HOST", "APP", "SITE", "ACTIVE", "KEYS", "CLICKS")]
    for h in hosts:
        # Per-host entries carry time only: input counts live in the whole ledger.
        host = str(h["host"] or "-")
        table += [(host, *_ledger_row(e, measured and "keys" in e)) for e in h["ledger"]]
        table.append((host, "TOTAL", "", _hms(h["active_s"]), "", ""))
    return _table(table, left=3)


def _ledger_row(e: dict[str, Any], measured: bool) -> tuple[str, str, str, str, str]:
    keys = str(e["keys"]) if measured else UNMEASURED
    clicks = str(e["clicks"]) if measured else UNMEASURED
    return (e["app"], e.get("site") or "-", _hms(e["active_s"]), keys, clicks)


def _table(rows: Sequence[tuple[str, ...]], left: int) -> str:
    """Columns padded to their widest cell: the first ``left`` to the left, the rest right."""
    n = len(rows[0])
    widths = [max(len(r[i]) for r in rows) for i in range(n)]
    lines = []
    for r in rows:
        cells = [r[i].ljust(widths[i]) for i in range(left)]
        cells += [r[i].rjust(widths[i]) for i in range(left, n)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def _hms(s: int) -> str:
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}"


# ---------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> None:
    _Process.entry = argv is None
    plain = _plain_day(sys.argv[1:] if argv is None else list(argv))
    try:
        if plain is not None:
            _run_plain(plain)
        else:
            from .cli_click import cli

            cli.main(args=argv, prog_name="actframes", standalone_mode=False)
        if _Process.entry:
            _keep_compiled_patterns()
        if _Process.exit_early:
            _exit_now()
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
        from_click = _click_error(exc)
        if from_click is not None:
            _fail(*from_click)
        if type(exc).__name__ == "OperationalError" and "is locked" in str(exc):
            # A writer took the store's lock between two reads (sqlite3 not imported here).
            _fail("the capture store is locked by another process; try again", BusyError.exit_code)
        if os.environ.get("ACTFRAMES_DEBUG"):
            raise
        _fail(
            f"internal error: {type(exc).__name__}: {exc} (ACTFRAMES_DEBUG=1 shows more)",
            INTERNAL_ERROR_EXIT,
        )


def _click_error(exc: Exception) -> tuple[str, int] | None:
    """The one-line message and exit code of click's own errors (never raised before
    click is loaded)."""
    if "click" not in sys.modules:
        return None
    import click

    if isinstance(exc, click.exceptions.Abort):
        return "aborted", 1
    if isinstance(exc, click.ClickException):
        # click's own usage errors come as one line too; --help says the rest.
        code = 2 if isinstance(exc, click.UsageError) else exc.exit_code
        return exc.format_message().replace("\n", " "), code
    return None


# ---------------------------------------------------------------- `day` without click

# The `day` command's options that take a value, as click declares them (cli_click):
# option -> parameter name.
_DAY_OPTIONS = {
    "--db": "db",
    "--tz": "tz",
    "--source": "source",
    "--format": "fmt",
    "--min-minutes": "min_minutes",
    "--budget": "budget",
}
_DAY_DEFAULTS: dict[str, Any] = {
    "date": None,
    "db": None,
    "tz": None,
    "source": None,
    "fmt": "json",
    "min_minutes": 0.0,
    "budget": 1500,
    "no_cache": False,
}


def _plain_day(args: list[str]) -> dict[str, Any] | None:
    """The parameters of a plain ``day`` call — the date, each option at most once as
    ``--opt VALUE`` or ``--opt=VALUE`` with a value click accepts — exactly as click would
    parse them; None for any other call (help, errors, anything unusual), which click
    then parses and reports."""
    if not args or args[0] != "day" or "_ACTFRAMES_COMPLETE" in os.environ:
        return None  # (that variable asks click for shell completion)
    got: dict[str, Any] = {}
    rest = iter(args[1:])
    for token in rest:
        if not token.startswith("-"):
            if not token or "date" in got:
                return None
            got["date"] = token
            continue
        if token == "--no-cache" and "no_cache" not in got:
            got["no_cache"] = True
            continue
        option, eq, value = token.partition("=")
        name = _DAY_OPTIONS.get(option)
        if name is None or name in got:
            return None
        if not eq:
            value = next(rest, "")
        if not value or value.startswith("-"):
            return None
        converted = _day_value(name, value)
        if converted is None:
            return None
        got[name] = converted
    return {**_DAY_DEFAULTS, **got}


def _day_value(name: str, value: str) -> Any:
    """``value`` converted as the option's click type converts it, or None where click
    would refuse it."""
    if name == "db":  # click.Path(readable=False, path_type=Path): no checks
        return Path(value)
    if name == "source":
        return value if value in SOURCE_KINDS else None
    if name == "fmt":
        return value if value in FORMATS else None
    try:
        if name == "min_minutes":
            return float(value)
        if name == "budget":
            return int(value)
    except ValueError:
        return None
    return value  # --tz: text


def _run_plain(params: dict[str, Any]) -> None:
    """``run_day`` with what click's ``main`` (standalone_mode=False) does around a
    command: an interrupt becomes an Abort after a newline on stderr, and a closed pipe
    ends the process with status 1, its streams' flushes quieted."""
    try:
        run_day(**params)
    except (EOFError, KeyboardInterrupt) as exc:
        import click

        click.echo(file=sys.stderr)
        raise click.exceptions.Abort() from exc
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout = cast(TextIO, _QuietFlush(sys.stdout))
        sys.stderr = cast(TextIO, _QuietFlush(sys.stderr))
        sys.exit(1)


class _QuietFlush:
    """A stream whose flush ignores a closed pipe (click's wrapper, without click)."""

    def __init__(self, wrapped: TextIO) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.wrapped, attr)


# The click group and the commands defined with it, loaded on first use.
_IN_CLI_CLICK = frozenset({"cli", "LazyGroup", "day", "context", "apps", "demo"})


def __getattr__(name: str) -> Any:
    if name in _IN_CLI_CLICK:
        from . import cli_click

        return getattr(cli_click, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _fail(message: str, code: int) -> None:
    first = message.strip().splitlines()[0] if message.strip() else "error"
    sys.stderr.write(f"actframes: error: {first}\n")
    sys.exit(code)


if __name__ == "__main__":
    # `python -m actframes.cli`: cli_click and the lazy commands import this module by
    # name; they find this one (and its _Process) rather than load a second copy.
    sys.modules.setdefault("actframes.cli", sys.modules[__name__])
    main()
