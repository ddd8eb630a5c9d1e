"""What the commands share: the clock, zone and store at the edge, the store options,
opening a store, compiling and printing one day, and how a one-shot command ends.
Public names; nothing here imports click at module level (a plain ``actframes day``
runs without it)."""

from __future__ import annotations

import contextlib
import gc
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..errors import SourceError, UsageError
from .options import MIN_MINUTES, STORE_OPTIONS, RuleFiles, click_options

if TYPE_CHECKING:
    from ..api import Store
    from ..doc_types import Document

F = TypeVar("F", bound=Callable[..., Any])

# Every command, also one loaded lazily or run on its own, takes -h as well as --help.
HELP: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


# ---------------------------------------------------------------- the edge: clock, zone, paths


def default_db() -> Path:
    """$ACTFRAMES_DB, else our own store; without one, the single store found in its
    default place (named on stderr), or a one-line error listing several."""
    env = os.environ.get("ACTFRAMES_DB")
    if env:
        Process.store = Path(env).expanduser()
        return Process.store
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    native = Path(base) / "actframes" / "capture.db"
    if native.exists():
        Process.store = native
        return native
    from ..sources.discover import discover

    found = [f for f in discover() if f.problem is None]
    if len(found) == 1:
        sys.stderr.write(f"actframes: reading {found[0].what} at {found[0].where}\n")
        Process.store = Path(found[0].where)
        return Process.store
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
    from ..window import WindowError, zone

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

    from ..window import WindowError, zone

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
    from ..window import local_day_of

    return local_day_of(now_ms(), tz)


def local_day(text: str | None, tz: str) -> str:
    """A DATE as given: YYYY-MM-DD as it is, "today" or "yesterday" in ``tz``; default
    today."""
    from ..window import day_or_word  # the day words: one table with MCP's

    return day_or_word("today" if text is None else text, tz, now_ms())  # "" is no day


# ---------------------------------------------------------------- shared options


def store_options(f: F) -> F:
    """The options every store command takes (``options.STORE_OPTIONS``)."""
    return click_options(STORE_OPTIONS)(f)


def json_or_md_option(help: str) -> Callable[[F], F]:
    """``--format json|md`` (default json) into ``fmt``; ``help`` says what each gives."""
    import click

    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["json", "md"]),
        default="json",
        show_default=True,
        help=help,
    )


def out_option(default: str, help: str) -> Callable[[F], F]:
    """``--out FOLDER`` (default ``default``) for commands that write several files."""
    import click

    from .write_target import check_out_folder

    return click.option(
        "--out",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path(default),
        show_default=True,
        callback=check_out_folder,
        help=help,
    )


def min_minutes_option(f: F) -> F:
    return click_options([MIN_MINUTES])(f)


def open_cli_store(
    db: Path | None, source: str | None, disk_cache: bool = True, *, audible_active: bool = True
) -> Store:
    """The store a command reads (``api.open_store``), or a one-line error when none was
    named and the default one does not exist yet. ``audible_active``: False for
    --no-audible-active."""
    from ..api import open_store

    path = db or default_db()
    if db is None and not path.expanduser().exists():
        raise SourceError(
            f"{path}: no such file (no store here yet: `actframes demo` writes one, "
            "`actframes record start` records one; --db or $ACTFRAMES_DB names another)"
        )
    kw, rf = {"disk_cache": disk_cache, "audible_active": audible_active}, RuleFiles
    return open_store(path, source, **kw, projects=rf.projects, categories=rf.categories)


def compile_options(min_minutes: float) -> Any:
    from ..compile.pipeline import Options

    if not math.isfinite(min_minutes) or min_minutes < 0:
        raise UsageError("--min-minutes must be a finite number of minutes, at least 0")
    return Options(min_active_s=round(min_minutes * 60))


def render(doc: Document, fmt: str, budget: int) -> str:
    if fmt == "json":
        from ..emit.json_out import to_json

        return to_json(doc)
    if fmt == "yaml":
        from ..emit.yaml_out import to_yaml

        return to_yaml(doc)
    if fmt == "md":
        from ..emit.markdown import to_markdown

        return to_markdown(doc)
    if fmt == "html":
        from ..emit.html import to_html

        return to_html(doc)
    from ..emit.context import to_context

    return to_context(doc, budget)


def check_budget(budget: int) -> int:
    if budget < 1:
        raise UsageError("--budget must be a positive number of tokens")
    return budget


def write_out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def byte_size(n: int) -> str:
    """A size in bytes as people read it: 950 B, 12.3 kB, 4.1 MB (powers of 1000)."""
    if n < 1000:
        return f"{n} B"
    value = float(n)
    for unit in ("kB", "MB", "GB"):
        value /= 1000
        if value < 1000 or unit == "GB":
            break
    return f"{value:.1f} {unit}"


class Process:
    """Set by ``main`` when it runs as the program itself (no ``argv`` given), so a
    command called in-process (tests, other tools) never changes the caller's process."""

    entry = False  # main() runs as the program
    exit_early = False  # the command is done: end without the interpreter's teardown
    store: Path | None = None  # the store default_db() chose (named in a late error)


class Interrupted(Exception):
    """Ctrl-C in a click command, carried past click's ``main`` (which would print a blank
    line and raise Abort, status 1) to ``cli.main`` (status 130, one line)."""


class StdoutClosed(Exception):
    """A closed pipe in a click command, carried past click's ``main`` (which would end
    with status 1) to ``cli.main`` (status 0)."""


def store_named(args: list[str]) -> str | None:
    """The store a command reads, for an error met outside its reader: ``--db``, else
    the one ``default_db`` chose; None when neither is known."""
    for k, arg in enumerate(args):
        if arg == "--db" and k + 1 < len(args):
            return str(Path(args[k + 1]).expanduser())
        if arg.startswith("--db="):
            return str(Path(arg[5:]).expanduser())
    return str(Process.store) if Process.store is not None else None


def one_shot() -> None:
    """For commands that compile once, print and end the process: the compiler's rows
    and pieces refer to each other and live until the end anyway, so cyclic garbage
    collection only re-scans them (a third of the run time at 100k rows), and freeing
    them one by one at exit costs as much again. Only when running as the program."""
    if Process.entry:
        gc.disable()
        Process.exit_early = True


def keep_compiled_patterns() -> None:
    """Store the regular expressions this run compiled, so the next one need not."""
    recache = sys.modules.get("actframes.fast.recache")
    if recache is not None:
        recache.save()


def exit_now() -> None:
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


def run_day(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    no_audible_active: bool,
    fmt: str,
    min_minutes: float,
    budget: int,
    no_cache: bool,
) -> None:
    """The ``day`` command's work, once its arguments are parsed."""
    one_shot()
    doc = compile_day_cli(
        date, db, tz, source, min_minutes, no_cache, audible_active=not no_audible_active
    )
    from ..emit.usable import unusable, usability_line

    line = usability_line(doc)
    if line is not None and not unusable(doc):
        sys.stderr.write(f"actframes: warning: {line}\n")
    write_out(render(doc, fmt, check_budget(budget)))
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
    *,
    audible_active: bool = True,
) -> Document:
    """The shared path of every command that prints one day: zone, store, cache.
    ``audible_active``: False for --no-audible-active."""
    from ..window import day_window

    zone = machine_zone() if tz is None else tz
    window = day_window(local_day(date, zone), zone)
    # The default options are the compiler's own (None), so that the compiler and the
    # emitter need not load before the read: a reader loads them while it waits for a
    # query in another thread (``sources.base.while_waiting``).
    options = compile_options(min_minutes) if min_minutes else None
    from ..sources.base import while_waiting

    while_waiting(_load_compiler)
    try:
        with open_cli_store(db, source, not no_cache, audible_active=audible_active) as store:
            return store.compile(window, options)
    finally:
        while_waiting(None)


def _load_compiler() -> None:
    """What a day's compile and its output load on first use (the read waits meanwhile)."""
    from ..compile import pipeline, reattribute  # noqa: F401
    from ..emit import json_out, usable  # noqa: F401
    from ..entities import url_rules  # noqa: F401
    from ..fast import recache

    recache.preload()


def load_document(path: Path) -> Document:
    """A document written by ``actframes day`` (``verify``, ``tier2``), or a one-line
    error naming the file."""
    import json

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror})") from exc
    except ValueError as exc:
        raise SourceError(f"{path}: not a JSON document ({exc})") from exc
    if not isinstance(doc, dict) or doc.get("schema_version") != 1:
        raise SourceError(f"{path}: not an actframes document (schema_version 1)")
    # The boundary where a user's file becomes a document. Only its schema version is
    # known here; verify and tier2 check each field they read, and report what is wrong.
    return cast("Document", doc)
