"""``actframes sources``: the capture stores found in their default places."""

from __future__ import annotations

import click

from ..emit.ledger_table import table
from .common import HELP, byte_size, machine_zone, write_out


@click.command(context_settings=HELP)
@click.option("--tz", metavar="ZONE", help="Zone for the dates shown (default: the machine's).")
def sources(tz: str | None) -> None:
    """List the capture stores found in their default places (this program's store,
    screenpipe's database, aw-server-rust's and aw-server's databases, an ActivityWatch
    server on port 5600) with family, size and the dates they span; for a screenpipe
    database also its schema (newest migration) and whether this reader was checked
    against it ("checked") or it is newer ("newer than checked"). Without --db or
    ACTFRAMES_DB and without a store of our own, a single store found is used."""
    from ..sources.discover import discover
    from ..window import local_day_of

    zone = tz or machine_zone()
    found = discover()
    if not found:
        write_out("no capture store found in the default places\n")
        return
    rows: list[tuple[str, ...]] = [("FAMILY", "STORE", "SIZE", "FROM", "TO", "SCHEMA", "WHERE")]
    for f in found:
        first = local_day_of(f.first_ms, zone) if f.first_ms is not None else "-"
        last = local_day_of(f.last_ms, zone) if f.last_ms is not None else "-"
        size = byte_size(f.size) if f.size is not None else "-"
        where = f.where if f.problem is None else f"{f.where} ({f.problem})"
        schema = f"{f.schema} ({f.schema_status})" if f.schema is not None else "-"
        rows.append((f.family, f.what, size, first, last, schema, where))
    write_out(table(rows, left=2))
