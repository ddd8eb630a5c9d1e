"""What every source reader offers, and helpers they share."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

from ..errors import SourceError
from ..model import Capture

# Rows this far outside the requested window are read too, so a row just before the
# window can credit time into it and the last row in it knows its successor.
READ_MARGIN_MS = 300_000


class Source(Protocol):
    """A store opened for reading. The readers subclass it for ``with``: the block closes
    the store however it ends (``with open_source(path) as src: ...``)."""

    kind: str
    path: Path

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def read(self, start_ms: int, end_ms: int) -> Capture:
        """Every record that can matter for [start_ms, end_ms): a superset is fine,
        the compiler selects exactly."""
        ...

    def close(self) -> None: ...


def connect_ro(path: Path, check_same_thread: bool = True) -> sqlite3.Connection:
    """Open a SQLite file read-only; the user's capture data is never written.
    ``check_same_thread=False``: the connection may be handed to one other thread."""
    if not path.exists():
        raise SourceError(f"{path}: no such file")
    uri = path.resolve().as_uri() + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=5.0, check_same_thread=check_same_thread)
        conn.execute("PRAGMA query_only = ON")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise SourceError(f"{path}: not a readable SQLite database ({exc})") from exc
    return conn


def fetch(conn: sqlite3.Connection, sql: str, params: tuple[object, ...] = ()) -> list[Any]:
    """All rows of a query. Invalid UTF-8 in a text column must not abort the read: on the
    first decode failure the connection switches to decoding with replacement (U+FFFD),
    which is slower, so clean stores keep the fast default."""
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        if "decode" not in str(exc):
            raise
        conn.text_factory = _decode_replacing
        return conn.execute(sql, params).fetchall()


def _decode_replacing(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def table_columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(r[1]) for r in conn.execute(f"PRAGMA table_info({quote_ident(table)})")}


def rowid_alias(conn: sqlite3.Connection, table: str, column: str = "id") -> bool:
    """Whether ``column`` is the table's INTEGER PRIMARY KEY, an alias of the rowid: SQLite
    then keeps every value a distinct integer, so a reader need not check ids row by row.
    (A WITHOUT ROWID table, or a key declared INTEGER PRIMARY KEY DESC, is not an alias
    and keeps its key in an index of origin 'pk'.)"""
    q = quote_ident(table)
    pk = [r for r in conn.execute(f"PRAGMA table_info({q})") if r[5]]
    if len(pk) != 1 or pk[0][1] != column or str(pk[0][2]).upper() != "INTEGER":
        return False
    return not any(r[3] == "pk" for r in conn.execute(f"PRAGMA index_list({q})"))


def tables(conn: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
