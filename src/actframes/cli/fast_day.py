"""``actframes day`` without click: a plain call is parsed here from the same option
table as the click command (``options.DAY_OPTIONS``), exactly as click would parse it,
and run at once; anything else (help, errors, an option that only feeds a callback) is
left to click."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from ..errors import ActframesError
from .common import run_day
from .options import DAY_OPTIONS, Opt

# The options the plain parser takes: those whose value reaches the command.
_BY_FLAG = {o.flag: o for o in DAY_OPTIONS if o.expose}
DEFAULTS: dict[str, Any] = {"date": None, **{o.name: o.default for o in _BY_FLAG.values()}}
# Those it leaves to click only feed a callback, which sets a process-wide default
# (--day-start); a plain call gives none of them. Each callback, with the value click
# passes for an option not given (a flag: False, else its default).
_UNGIVEN = tuple(
    (o.callback, False if o.kind == "flag" else o.default)
    for o in DAY_OPTIONS
    if not o.expose and o.callback is not None
)


def plain_day(args: list[str]) -> dict[str, Any] | None:
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
        flag = _BY_FLAG.get(token)
        if flag is not None and flag.kind == "flag":
            if flag.name in got:
                return None
            got[flag.name] = True
            continue
        option, eq, value = token.partition("=")
        opt = _BY_FLAG.get(option)
        if opt is None or opt.kind == "flag" or opt.name in got:
            return None
        if not eq:
            value = next(rest, "")
        if not value or value.startswith("-"):
            return None
        converted = _value(opt, value)
        if converted is None:
            return None
        got[opt.name] = converted
    return {**DEFAULTS, **got}


def _value(opt: Opt, value: str) -> Any:
    """``value`` converted as the option's click type (and callback) converts it, or None
    where click would refuse it."""
    converted: Any = value  # text
    if opt.kind == "path":  # click.Path(readable=False, path_type=Path): no checks
        converted = Path(value)
    elif opt.kind == "choice":
        if value not in opt.choices:
            return None
    else:
        try:
            if opt.kind == "float":
                converted = float(value)
            elif opt.kind == "int":
                converted = int(value)
        except ValueError:
            return None
    if opt.callback is not None:
        try:
            converted = opt.callback(None, None, converted)
        except ActframesError:
            return None  # click calls it again and reports the error
    return converted


def run_plain(params: dict[str, Any]) -> None:
    """``run_day`` with what click's ``main`` (standalone_mode=False) does around a
    command: end of input becomes an Abort after a newline on stderr (an interrupt and a
    closed pipe are left to ``cli.main``, as on click's path). The options a plain call
    lacks are reset first, as click resets them."""
    for callback, value in _UNGIVEN:  # what an earlier call in this process set goes
        callback(None, None, value)
    try:
        run_day(**params)
    except EOFError as exc:
        import click

        click.echo(file=sys.stderr)
        raise click.exceptions.Abort() from exc
