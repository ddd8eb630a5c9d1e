"""``actframes report``: one local day as a self-contained HTML timeline.

A thin shell like ``day``: the same store options, the same compile, then
``emit.html.to_html`` written to a file (default ``report-DATE.html``). Loaded
only when invoked (``group.COMMANDS``), so other commands never import it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from ..errors import ActframesError
from .common import (
    HELP,
    compile_day_cli,
    local_day,
    machine_zone,
    min_minutes_option,
    store_options,
    write_out,
)


class ReportWriteError(ActframesError):
    """The report could not be written where asked."""


@click.command(context_settings=HELP)
@click.argument("date", required=False)
@store_options
@min_minutes_option
@click.option(
    "--html",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the page (default: report-DATE.html in the current folder).",
)
def report(
    date: str | None,
    db: Path | None,
    tz: str | None,
    source: str | None,
    min_minutes: float,
    out: Path | None,
) -> None:
    """Write one day as a self-contained HTML timeline and print its path.

    DATE is YYYY-MM-DD in --tz, today or yesterday (default today). The page needs no
    network: lanes per app and site, frames as bars, the ledger, and each frame's details
    on hover or focus.
    """
    from ..emit.html import to_html

    day = local_day(date, tz or machine_zone())
    doc = compile_day_cli(day, db, tz, source, min_minutes)
    target = out if out is not None else Path(f"report-{day}.html")
    write_atomically(target, to_html(doc).encode("utf-8"))
    write_out(f"{target}\n")


def write_atomically(path: Path, data: bytes) -> None:
    """Write beside the target and rename over it, so a reader (or a browser tab being
    reloaded) never sees half a page, and a failed write leaves the old file as it was."""
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ReportWriteError(f"{path}: no such folder {str(parent)!r}")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
    except OSError as exc:
        raise ReportWriteError(f"{path}: cannot write ({exc.strerror or exc})") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        # mkstemp makes the file 0600; a report is an ordinary document, so it gets the
        # mode a plain open() would give it under the user's umask.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ReportWriteError(f"{path}: cannot write ({exc.strerror or exc})") from exc
