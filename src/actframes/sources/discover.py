"""Capture stores in their default places on Linux, macOS and Windows, and what each holds.

Where each project keeps its store (from its own code):

- ours: ``$XDG_DATA_HOME/actframes/capture.db`` (``~/.local/share`` without it).
- screenpipe: ``~/.screenpipe/db.sqlite`` on every platform.
- aw-server-rust: the ``dirs`` crate's data folder + ``activitywatch/aw-server-rust/sqlite.db``
  (``$XDG_DATA_HOME`` or ``~/.local/share``; ``~/Library/Application Support``;
  ``%APPDATA%``).
- aw-server (Python): platformdirs' ``user_data_dir("activitywatch")`` +
  ``aw-server/peewee-sqlite.v2.db`` (the same on Linux and macOS; on Windows
  ``%LOCALAPPDATA%\\activitywatch\\activitywatch``).
- a running ActivityWatch server: ``http://127.0.0.1:5600`` (asked with a short timeout).

Nothing found is opened for writing; a store that cannot be read is listed with its problem.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import ActframesError
from .base import connect_ro, tables

AW_SERVER_URL = "http://127.0.0.1:5600"
_PROBE_TIMEOUT_S = 1.0


@dataclass(frozen=True, slots=True)
class Found:
    where: str  # a path or a URL
    family: str  # native | screenpipe | activitywatch
    what: str  # which program's store
    size: int | None  # bytes; None for a server
    first_ms: int | None
    last_ms: int | None
    problem: str | None = None
    # A screenpipe store's newest successful migration (``_sqlx_migrations``), if it has one.
    schema: int | None = None

    @property
    def schema_status(self) -> str | None:
        """Either "checked" or "newer than checked" (SPEC.md §1.2c); None without a schema."""
        from .screenpipe.schema import version_status

        return None if self.schema is None else version_status(self.schema)


def default_places(
    env: Mapping[str, str] | None = None, platform: str | None = None, home: Path | None = None
) -> list[tuple[str, Path]]:
    """(what, path) of every default store location on this platform, in a fixed order."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    home = Path(env.get("HOME") or Path.home()) if home is None else home
    xdg = Path(env.get("XDG_DATA_HOME") or home / ".local" / "share")
    places = [("actframes", xdg / "actframes" / "capture.db")]
    places.append(("screenpipe", home / ".screenpipe" / "db.sqlite"))
    if platform == "darwin":
        support = home / "Library" / "Application Support"
        rust, python = support / "activitywatch", support / "activitywatch"
    elif platform.startswith("win"):
        roaming = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
        local = Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local")
        rust, python = roaming / "activitywatch", local / "activitywatch" / "activitywatch"
    else:
        rust = python = xdg / "activitywatch"
    places.append(("aw-server-rust", rust / "aw-server-rust" / "sqlite.db"))
    places.append(("aw-server", python / "aw-server" / "peewee-sqlite.v2.db"))
    return places


def discover(
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
    home: Path | None = None,
) -> list[Found]:
    """The stores that exist in their default places, and a running server (at
    $ACTFRAMES_AW_SERVER when set, "off" for none; else port 5600 of this machine)."""
    env = os.environ if env is None else env
    out = [describe(path, what) for what, path in default_places(env, platform, home)]
    found = [f for f in out if f is not None]
    server = env.get("ACTFRAMES_AW_SERVER") or AW_SERVER_URL
    if server != "off":
        live = probe_server(server)
        if live is not None:
            found.append(live)
    return found


def describe(path: Path, what: str) -> Found | None:
    """Family, size and time range of the store at ``path``; None when it is not there."""
    from .screenpipe.storage import described

    path, problem = described(path)
    if problem is not None:
        return Found(str(path), "?", what, 0, None, None, problem)
    if not path.is_file():
        return None
    size = path.stat().st_size
    from . import detect

    try:
        family = detect(path)
        first, last = _range(path, family)
        schema = _schema(path) if family == "screenpipe" else None
    except (ActframesError, sqlite3.DatabaseError) as exc:
        return Found(str(path), "?", what, size, None, None, str(exc).split("\n")[0])
    return Found(str(path), family, what, size, first, last, schema=schema)


def _schema(path: Path) -> int | None:
    """The store's newest successful screenpipe migration, None without ``_sqlx_migrations``."""
    from .screenpipe.schema import newest_migration

    conn = connect_ro(path)
    try:
        return newest_migration(conn) if "_sqlx_migrations" in tables(conn) else None
    finally:
        conn.close()


# (first, last) in ms of each family's rows, in SQL; times as each store keeps them.
_RANGES = {
    "native": "SELECT min(ts_ms), max(ts_ms) FROM snapshots",
    "aw-rust": "SELECT min(starttime) / 1000000, max(endtime) / 1000000 FROM events",
    "aw-peewee": "SELECT min(timestamp), max(timestamp) FROM eventmodel",
    "screenpipe": "SELECT min(timestamp), max(timestamp) FROM frames",
}


def _range(path: Path, family: str) -> tuple[int | None, int | None]:
    from ..timeparse import TimestampError, parse_iso_ms

    conn = connect_ro(path)
    try:
        names = tables(conn)
        if family == "activitywatch":
            key = "aw-peewee" if "eventmodel" in names else "aw-rust"
        else:
            key = family
        if key not in _RANGES:
            return None, None
        lo, hi = conn.execute(_RANGES[key]).fetchone()
    finally:
        conn.close()

    def ms(value: object) -> int | None:
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return parse_iso_ms(value.replace(" ", "T", 1))
            except TimestampError:
                return None
        return None

    return ms(lo), ms(hi)


def probe_server(url: str) -> Found | None:
    """A running ActivityWatch server at ``url``, with the time its buckets span."""
    try:
        with urllib.request.urlopen(url + "/api/0/buckets/", timeout=_PROBE_TIMEOUT_S) as r:
            buckets = json.loads(r.read())
    except (OSError, ValueError):
        return None
    if not isinstance(buckets, dict):
        return None
    from ..timeparse import TimestampError, parse_iso_ms

    stamps: list[int] = []
    for meta in buckets.values():
        for key in ("created", "last_updated"):
            value = meta.get(key) if isinstance(meta, dict) else None
            if isinstance(value, str):
                with contextlib.suppress(TimestampError):
                    stamps.append(parse_iso_ms(value))
    first, last = (min(stamps), max(stamps)) if stamps else (None, None)
    return Found(url, "activitywatch", "ActivityWatch server", None, first, last)
