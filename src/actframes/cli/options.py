"""The options of ``day`` (and the store options every command shares), declared once as
data: the click command is built from this table (``click_options``), and so is the
parser of a plain ``actframes day`` call that runs without importing click
(``fast_day``). Adding an option here adds it to both."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ..sources import SOURCE_KINDS

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("json", "yaml", "md", "context", "html")

if TYPE_CHECKING:
    from typing import Literal

    # How a value is read: as click's type of the same name reads it.
    Kind = Literal["path", "text", "choice", "float", "int", "flag"]


# (a NamedTuple, not a dataclass: a plain `day` call never imports dataclasses)
class Opt(NamedTuple):
    """One ``--flag`` of a command, with what click and the plain parser both need."""

    flag: str
    name: str  # the command function's parameter
    kind: Kind
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    show_default: bool = False
    # Called as click calls an option callback, (ctx, param, value); None when unused.
    callback: Callable[[Any, Any, Any], Any] | None = None
    # False: the value only feeds ``callback`` and never reaches the command (nor the
    # plain parser, which leaves such calls to click).
    expose: bool = True


def _named_zone(_ctx: object, _param: object, value: str | None) -> str | None:
    """``--tz ""`` is a usage error, never the machine's zone."""
    if value is not None and not value.strip():
        from ..errors import UsageError

        raise UsageError("--tz needs a zone name (an IANA name such as Europe/Berlin)")
    return value


def _set_day_start(_ctx: object, _param: object, text: str | None) -> None:
    # Called on every invocation, so a day start never carries over in-process.
    from ..window import DayStart, parse_day_start

    DayStart.minutes = 0 if text is None else parse_day_start(text)


class RuleFiles:
    """The rule files of this invocation (--projects, --categories): set by their options'
    callbacks on every invocation, so nothing carries over in-process; read where the
    store is opened (``common.open_cli_store``, the MCP server)."""

    projects: Path | None = None
    categories: Path | None = None


def _set_projects(_ctx: object, _param: object, value: Path | None) -> None:
    RuleFiles.projects = value


def _set_categories(_ctx: object, _param: object, value: Path | None) -> None:
    RuleFiles.categories = value


# No checks on --db: a missing, unreadable or non-file store is the source's to refuse,
# with the one exit status of every store problem (1), not click's usage status.
STORE_OPTIONS: tuple[Opt, ...] = (
    Opt(
        "--db",
        "db",
        "path",
        "Capture store or export (default: $ACTFRAMES_DB, else the native store).",
        metavar="FILE",
    ),
    Opt(
        "--tz",
        "tz",
        "text",
        "IANA time zone for days and times (default: the machine's zone).",
        metavar="ZONE",
        callback=_named_zone,
    ),
    Opt(
        "--source",
        "source",
        "choice",
        "Force the store family instead of detecting it from the file.",
        choices=SOURCE_KINDS,
    ),
    Opt(
        "--no-audible-active",
        "no_audible_active",
        "flag",
        "ActivityWatch: audible browser tabs without input are not active time"
        " (its web UI counts them by default).",
        default=False,
    ),
    Opt(
        "--day-start",
        "day_start",
        "text",
        "When a day begins (default 00:00; ActivityWatch's own is 04:00).",
        metavar="HH:MM",
        callback=_set_day_start,
        expose=False,
    ),
    Opt(
        "--projects",
        "projects",
        "path",
        "Project rules (TOML; default: $XDG_CONFIG_HOME/actframes/projects.toml if present).",
        metavar="FILE",
        callback=_set_projects,
        expose=False,
    ),
    Opt(
        "--categories",
        "categories",
        "path",
        "ActivityWatch category rules (its JSON export; default: the store's own, else"
        " ActivityWatch's defaults).",
        metavar="FILE",
        callback=_set_categories,
        expose=False,
    ),
)

MIN_MINUTES = Opt(
    "--min-minutes",
    "min_minutes",
    "float",
    "Hide frames with less active time (disclosed under 'omitted').",
    default=0.0,
    show_default=True,
)

# ``actframes day [DATE]``: these options, in the order --help lists them.
DAY_OPTIONS: tuple[Opt, ...] = (
    *STORE_OPTIONS,
    Opt(
        "--format",
        "fmt",
        "choice",
        "json (canonical), yaml, md, context (for a prompt, within --budget) or html.",
        default="json",
        choices=FORMATS,
        show_default=True,
    ),
    MIN_MINUTES,
    Opt(
        "--budget",
        "budget",
        "int",
        "Token budget (o200k) for --format context.",
        default=1500,
        show_default=True,
    ),
    Opt(
        "--no-cache",
        "no_cache",
        "flag",
        "Compile afresh; neither read nor write the document cache.",
        default=False,
    ),
)


def click_options(options: Sequence[Opt]) -> Callable[[F], F]:
    """A decorator adding ``options`` to a click command, listed in this order."""

    def add(f: F) -> F:
        for opt in reversed(options):  # click lists the last decorator applied first
            f = _click_option(opt)(f)
        return f

    return add


def _click_option(opt: Opt) -> Callable[[F], F]:
    from pathlib import Path

    import click

    kw: dict[str, Any] = {"help": opt.help}
    if opt.kind == "flag":
        kw["is_flag"] = True
    elif opt.kind == "path":
        kw["type"] = click.Path(readable=False, path_type=Path)
    elif opt.kind == "choice":
        kw["type"] = click.Choice(opt.choices)
    elif opt.kind == "float":
        kw["type"] = float
    elif opt.kind == "int":
        kw["type"] = int
    if opt.default is not None and opt.kind != "flag":
        kw["default"] = opt.default
    if opt.metavar is not None:
        kw["metavar"] = opt.metavar
    if opt.show_default:
        kw["show_default"] = True
    if opt.callback is not None:
        kw["callback"] = opt.callback
    if not opt.expose:
        kw["expose_value"] = False
    option: Callable[[F], F] = click.option(opt.flag, opt.name, **kw)
    return option
