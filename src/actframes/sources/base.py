"""What every source reader offers, and helpers they share."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

from ..errors import BusyError, SourceError, locked_message
from ..model import Capture

# Rows this far outside the requested window are read too, so a row just before the
# window can credit time into it and the last row in it knows its successor.
READ_MARGIN_MS = 300_000

# How long a reader waits for another process's lock before it says "locked, try again".
BUSY_TIMEOUT_S = 5.0

# Work a caller wants done while a reader waits for a query running in another thread
# (the ``day`` command loads the compiler then: ~10 ms of imports beside SQLite's work).
# One slot, taken by the first read that waits; nothing is lost when no read takes it.
_IDLE_WORK: list[Callable[[], object]] = []


def while_waiting(work: Callable[[], object] | None) -> None:
    """Have ``work`` done by the next read that waits on another thread (None: nothing)."""
    _IDLE_WORK[:] = [] if work is None else [work]


def idle_work() -> None:
    """Do the work ``while_waiting`` left, once (a reader calls this before it waits)."""
    while _IDLE_WORK:
        _IDLE_WORK.pop()()


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


def check_file(path: Path) -> None:
    """Refuse at once what cannot be a store: a missing path, a folder, a pipe or device
    (opening a FIFO would wait for a writer forever), standard input (``-``), an
    unreadable file. Every refusal is a ``SourceError``, so one exit status (1)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        if str(path) == "-":
            raise SourceError(
                "-: stores are not read from standard input; save the export to a file"
                " and give its path"
            ) from None
        raise SourceError(f"{path}: no such file") from None
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror})") from exc
    if stat.S_ISDIR(st.st_mode):
        raise SourceError(f"{path}: is a directory, not a capture database or export")
    if not stat.S_ISREG(st.st_mode):
        raise SourceError(
            f"{path}: not a regular file (a pipe, socket or device); save the store or"
            " export to a file and give its path"
        )
    if not os.access(path, os.R_OK):
        raise SourceError(f"{path}: cannot read (permission denied)")


def connect_ro(path: Path, check_same_thread: bool = True) -> sqlite3.Connection:
    """Open a SQLite file read-only; the user's capture data is never written.
    ``check_same_thread=False``: the connection may be handed to one other thread.

    A WAL store in a folder this user cannot write, without its ``-shm`` file (another
    user's store, a read-only mount), cannot be opened read-only: SQLite would have to
    create the ``-shm`` file. When no ``-wal`` file holds changes the main file lacks,
    it is read with ``immutable=1`` (exactly what is in the main file); otherwise the
    error says why it cannot be read."""
    check_file(path)
    uri = path.resolve().as_uri()
    try:
        return _open_checked(uri + "?mode=ro", check_same_thread)
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path}: damaged SQLite database (its schema is not UTF-8)") from exc
    except sqlite3.DatabaseError as exc:
        if is_locked(exc):
            raise locked(path) from exc
        if not _cannot_make_shm(exc, path):
            raise SourceError(f"{path}: not a readable SQLite database ({exc})") from exc
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise SourceError(
            f"{path}: a WAL store in a folder this user cannot write, with changes in"
            f" {wal.name} not yet in the main file: SQLite must create {path.name}-shm to"
            " read them. Read it as its owner, or copy the store with its -wal file"
        )
    try:
        return _open_checked(uri + "?mode=ro&immutable=1", check_same_thread)
    except sqlite3.DatabaseError as exc:
        raise SourceError(f"{path}: not a readable SQLite database ({exc})") from exc


def _open_checked(uri: str, check_same_thread: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(
        uri, uri=True, timeout=BUSY_TIMEOUT_S, check_same_thread=check_same_thread
    )
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """SQLite errors met while reading a store (a page damaged past its header, a lock
    taken between two reads) as the one-line store errors that name it."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        if is_locked(exc):
            raise locked(path) from exc
        raise SourceError(f"{path}: damaged SQLite database ({exc})") from exc
    except UnicodeDecodeError as exc:  # schema text (table and column names) not UTF-8
        raise SourceError(f"{path}: damaged SQLite database (text not UTF-8)") from exc


def locked(path: Path | str) -> BusyError:
    """The error of a store another process holds locked, met when it is opened or while
    it is read: one line, exit status 75 (try again)."""
    return BusyError(locked_message(path))


def read_failed(path: Path | str, exc: sqlite3.DatabaseError) -> SourceError:
    """The error of a query that failed while a store was read: ``locked`` when another
    process holds the lock (a writer mid-transaction; a retry will do), else "cannot
    read"."""
    return locked(path) if is_locked(exc) else SourceError(f"{path}: cannot read ({exc})")


def is_locked(exc: BaseException) -> bool:
    """Whether a SQLite error is another process's lock (busy), not a broken file."""
    return "database is locked" in str(exc) or "database table is locked" in str(exc)


def _cannot_make_shm(exc: sqlite3.DatabaseError, path: Path) -> bool:
    """The read-only open failed because the ``-shm`` file of a WAL store is missing and
    its folder is not writable by this user."""
    if "readonly" not in str(exc) and "unable to open" not in str(exc):
        return False
    if Path(f"{path}-shm").exists() or os.access(path.parent, os.W_OK):
        return False
    try:
        with path.open("rb") as fh:
            header = fh.read(20)
    except OSError:
        return False
    return header[18:20] == b"\x02\x02"  # file format versions 2/2: WAL mode


def data_version(conn: sqlite3.Connection) -> int | None:
    """``PRAGMA data_version`` of a reader's connection: SQLite changes it whenever any
    other connection commits to the file, in WAL and rollback-journal mode alike, and
    never changes it back (two equal readings mean no commit landed between them). None
    when it cannot be read. (A file ``connect_ro`` opened ``immutable`` shows no commits:
    SQLite then takes the file as unchanging, and so does every read of it.)"""
    try:
        return int(conn.execute("PRAGMA data_version").fetchone()[0])
    except sqlite3.DatabaseError:
        return None


class CommitWatch:
    """The commits other connections make to a SQLite store, from when this was made:
    ``data_version`` on a read-only connection of its own. Two equal ``version()``
    readings mean no commit landed between them, so whatever was read in between, on
    any connection (a fingerprint on one, the rows it identifies on another), is of one
    state of the store. None when it cannot tell (not a SQLite file, unreadable)."""

    def __init__(self, path: Path) -> None:
        self._conn: sqlite3.Connection | None = None
        with suppress(SourceError, sqlite3.DatabaseError):
            self._conn = connect_ro(path)
        self.first = self.version()  # the reading when made

    def version(self) -> int | None:
        return None if self._conn is None else data_version(self._conn)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


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
