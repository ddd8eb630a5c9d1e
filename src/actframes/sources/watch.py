"""Cheap answers to "has this store changed since I last looked?", for a long-lived process.

- SQLite stores (native, screenpipe-style, aw-server-rust): ``PRAGMA data_version`` on a
  read-only connection held open for the purpose. SQLite changes it whenever another
  connection commits (a recorder's append, an edit, a deletion, a checkpoint that carries
  them), and costs no read of a table. The file's device and inode go with it, so a store
  replaced by another file is a change too.
- Files read whole (ActivityWatch exports): size, modification time (ns) and inode.
- A reader that knows better (a live server's reader, say) offers ``change_token()`` and
  it is used instead.

A token that equals the one seen before means nothing changed; a different one only
means something may have: the caller then asks the window (``Source.fingerprint`` where
the store keeps change counters, else the digest of the rows it reads).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Hashable
from pathlib import Path

from . import Source
from .base import connect_ro

_SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreWatch:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._ident: tuple[int, int] | None = None

    def token(self, source: Source | None = None) -> Hashable:
        """What identifies the store's state now (see the module docstring)."""
        live = getattr(source, "change_token", None)
        if callable(live):
            found = live()
            if found is not None:
                return ("live", found)
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        ident = (st.st_dev, st.st_ino)
        if self._conn is not None and ident != self._ident:
            self.close()  # another file now: watch it afresh
        if self._conn is None and _is_sqlite(self.path):
            try:
                self._conn = connect_ro(self.path)
                self._ident = ident
            except Exception:
                self._conn = None
        if self._conn is not None:
            try:
                version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.DatabaseError:
                self.close()
                return ("stat", st.st_size, st.st_mtime_ns, st.st_ino)
            return ("sqlite", ident, version)
        return ("stat", st.st_size, st.st_mtime_ns, st.st_ino)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn, self._ident = None, None


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == _SQLITE_MAGIC
    except OSError:
        return False
