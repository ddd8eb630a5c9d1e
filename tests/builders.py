"""Builders of REAL SQLite test databases (no mocks), and a file hash for
"the compiler never wrote to the user's data" checks.

Screenpipe-style stores are written with plain ``sqlite3`` in the column layouts the
real recorder uses (current and older schemas); native stores are written through
``actframes.capture.store`` itself.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from actframes.capture.store import open_store, write_afk, write_events, write_snapshots
from actframes.model import InputEvent, Snapshot, Span

FRAME_FIELDS = ("id", "timestamp", "app_name", "window_name", "browser_url", "device_name")
EVENT_FIELDS = ("id", "timestamp", "event_type", "app_name")

Row = Sequence[Any] | Mapping[str, Any]

# Current screenpipe: frames with URL/device/focus columns, plus ui_events and elements.
_NEW_SCHEMA = """
CREATE TABLE frames (
    id INTEGER PRIMARY KEY,
    video_chunk_id INTEGER,
    offset_index INTEGER,
    timestamp TEXT,
    name TEXT,
    browser_url TEXT,
    app_name TEXT,
    window_name TEXT,
    focused BOOLEAN,
    device_name TEXT
);
CREATE INDEX idx_frames_timestamp ON frames (timestamp);
CREATE TABLE ui_events (
    id INTEGER PRIMARY KEY,
    timestamp TEXT,
    session_id TEXT,
    relative_ms INTEGER,
    event_type TEXT,
    x INTEGER, y INTEGER, delta_x INTEGER, delta_y INTEGER,
    button INTEGER, click_count INTEGER, key_code INTEGER, modifiers INTEGER,
    text_content TEXT, text_length INTEGER,
    app_name TEXT, app_pid INTEGER, window_title TEXT, browser_url TEXT,
    element_role TEXT, element_name TEXT, element_value TEXT, element_description TEXT,
    element_automation_id TEXT, element_bounds TEXT,
    frame_id INTEGER
);
CREATE TABLE elements (
    id INTEGER PRIMARY KEY,
    frame_id INTEGER,
    source TEXT,
    role TEXT,
    text TEXT,
    parent_id INTEGER,
    depth INTEGER,
    left_bound REAL, top_bound REAL, width_bound REAL, height_bound REAL,
    confidence REAL,
    sort_order INTEGER
);
"""

# An older screenpipe: no browser_url, no device_name, no ui_events, no elements.
_OLD_SCHEMA = """
CREATE TABLE frames (
    id INTEGER PRIMARY KEY,
    video_chunk_id INTEGER,
    offset_index INTEGER,
    timestamp TEXT,
    name TEXT,
    app_name TEXT,
    window_name TEXT
);
"""

# Current columns but no PRIMARY KEY: duplicate ids can exist.
_NOID_PK_SCHEMA = """
CREATE TABLE frames (
    id INTEGER,
    video_chunk_id INTEGER,
    offset_index INTEGER,
    timestamp TEXT,
    name TEXT,
    browser_url TEXT,
    app_name TEXT,
    window_name TEXT,
    focused BOOLEAN,
    device_name TEXT
);
CREATE TABLE ui_events (
    id INTEGER,
    timestamp TEXT,
    event_type TEXT,
    app_name TEXT
);
"""

SCHEMAS = {"new": _NEW_SCHEMA, "old": _OLD_SCHEMA, "noid_pk": _NOID_PK_SCHEMA}


def _as_dict(row: Row, fields: Sequence[str]) -> dict[str, Any]:
    if isinstance(row, Mapping):
        unknown = set(row) - set(fields)
        if unknown:
            raise ValueError(f"unknown fields {sorted(unknown)}")
        return {f: row.get(f) for f in fields}
    if len(row) > len(fields):
        raise ValueError(f"too many values in {row!r}")
    values = list(row) + [None] * (len(fields) - len(row))
    return dict(zip(fields, values, strict=True))


def screenpipe_db(
    path: Path,
    frames: Iterable[Row],
    events: Iterable[Row] = (),
    *,
    schema: str = "new",
    wal: bool = False,
) -> Path:
    """Write a screenpipe-style SQLite file.

    ``frames``: (id, timestamp, app_name, window_name, browser_url, device_name), as tuples
    (trailing fields optional) or dicts. ``events``: (id, timestamp, event_type, app_name).
    Values are stored as given: ``bytes`` become BLOBs, ints stay ints. Columns the schema
    lacks are dropped (``schema="old"`` keeps only id, timestamp, app_name, window_name).
    """
    if schema not in SCHEMAS:
        raise ValueError(f"unknown schema {schema!r}")
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    try:
        if wal:
            conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(SCHEMAS[schema])
        cols = {r[1] for r in conn.execute("PRAGMA table_info(frames)")}
        kept = [f for f in FRAME_FIELDS if f in cols]
        extra = [c for c in ("video_chunk_id", "offset_index", "name") if c in cols]
        sql = (
            f"INSERT INTO frames ({', '.join(kept + extra)}) "
            f"VALUES ({', '.join('?' * (len(kept) + len(extra)))})"
        )
        frame_rows = []
        for i, raw in enumerate(frames):
            d = _as_dict(raw, FRAME_FIELDS)
            frame_rows.append([d[f] for f in kept] + [1, i, "/data/chunk_0001.mp4"][: len(extra)])
        conn.executemany(sql, frame_rows)
        event_rows = [_as_dict(e, EVENT_FIELDS) for e in events]
        if event_rows:
            if schema == "old":
                raise ValueError("the old screenpipe schema has no ui_events table")
            conn.executemany(
                "INSERT INTO ui_events (id, timestamp, event_type, app_name) VALUES (?,?,?,?)",
                [[d[f] for f in EVENT_FIELDS] for d in event_rows],
            )
        conn.commit()
    finally:
        conn.close()
    return path


def sqlite_db(path: Path, script: str, rows: Mapping[str, Iterable[Sequence[Any]]] = {}) -> Path:
    """An arbitrary SQLite file: run ``script``, then insert ``rows`` per table."""
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    try:
        conn.executescript(script)
        for table, values in rows.items():
            values = list(values)
            if values:
                marks = ", ".join("?" * len(values[0]))
                conn.executemany(f"INSERT INTO {table} VALUES ({marks})", values)
        conn.commit()
    finally:
        conn.close()
    return path


def commit(db: Path, sql: str) -> None:
    """One statement committed on a connection of its own, as another process would."""
    conn = sqlite3.connect(db, timeout=5.0)
    try:
        with conn:
            conn.execute(sql)
    finally:
        conn.close()


def set_journal(db: Path, mode: str) -> None:
    """The database's journal mode set to ``mode`` (and checked that it took)."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute(f"PRAGMA journal_mode={mode}").fetchone()[0] == mode.lower()
    finally:
        conn.close()


def native_db(
    path: Path,
    snapshots: Iterable[Snapshot],
    events: Iterable[InputEvent] = (),
    afk: Iterable[Span] = (),
) -> Path:
    """A native store written by ``actframes.capture.store`` (WAL, migrated, closed)."""
    conn = open_store(path)
    try:
        write_snapshots(conn, snapshots)
        write_events(conn, events)
        write_afk(conn, afk)
    finally:
        conn.close()
    return path


def sha256(path: Path) -> str:
    """SHA-256 over a SQLite file and its -wal: the user's data.

    A missing -wal and an empty one hash alike: opening a WAL-mode store read-only makes
    SQLite create an empty -wal (and a -shm index), which holds no data.
    """
    h = hashlib.sha256()
    for p in (path, Path(str(path) + "-wal")):
        data = p.read_bytes() if p.exists() else b""
        h.update(p.name.encode() + b"\x00" + str(len(data)).encode() + b"\x00")
        h.update(data)
    return h.hexdigest()


# ---------------------------------------------------------------------------------------
# Timestamps and instants

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def ms(iso: str) -> int:
    """UTC epoch milliseconds of an ISO-8601 string with an offset (test-side, stdlib)."""
    dt = datetime.fromisoformat(iso)
    assert dt.tzinfo is not None, iso
    return (dt - _EPOCH) // timedelta(milliseconds=1)


def iso(ts_ms: int, style: str = "Z") -> str:
    """Format an instant in one of the shapes stores write.

    ``style`` is ``<offset>[/space][/fN]``: offset one of ``Z``, ``+00:00``, ``+05:30``,
    ``-08:00``, ``naive`` (no offset, UTC); ``space`` puts a space between date and time;
    ``fN`` writes N fraction digits (0-9; digits beyond ms are filled with ``499999``, just
    under half a millisecond, so the instant is the same whether a parser truncates or
    rounds).
    """
    parts = style.split("/")
    offset = parts[0]
    sep = "T"
    digits = 0
    for p in parts[1:]:
        if p == "space":
            sep = " "
        elif p.startswith("f"):
            digits = int(p[1:])
        else:
            raise ValueError(style)
    off_min = 0
    if offset not in ("Z", "naive"):
        sign = -1 if offset[0] == "-" else 1
        off_min = sign * (int(offset[1:3]) * 60 + int(offset[4:6]))
    local = _EPOCH + timedelta(milliseconds=ts_ms) + timedelta(minutes=off_min)
    text = local.strftime(f"%Y-%m-%d{sep}%H:%M:%S")
    if digits:
        frac = f"{ts_ms % 1000:03d}" + "499999"
        text += "." + frac[:digits]
    elif ts_ms % 1000:
        raise ValueError("an instant with milliseconds needs fraction digits")
    if offset == "Z":
        text += "Z"
    elif offset != "naive":
        text += offset
    return text


# ---------------------------------------------------------------------------------------
# Running the real CLI


def cli_env(**overrides: str) -> dict[str, str]:
    """The environment for a CLI run: this one without ACTFRAMES_* (no debug tracebacks,
    no default store), plus ``overrides``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACTFRAMES_")}
    env.update(overrides)
    return env


def run_cli(
    *args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m actframes.cli ARGS`` in a subprocess; output decoded as strict UTF-8."""
    return subprocess.run(
        [sys.executable, "-m", "actframes.cli", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="strict",
        env=dict(env) if env is not None else cli_env(),
        cwd=cwd,
        timeout=60,
    )


def run_cli_bytes(
    *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """As ``run_cli``, but stdout and stderr are the raw bytes."""
    return subprocess.run(
        [sys.executable, "-m", "actframes.cli", *args],
        capture_output=True,
        env=dict(env) if env is not None else cli_env(),
        timeout=60,
    )


# The console script's own entry point (``cli.main``: it maps errors to exit codes).
ENTRY = "import sys; from actframes.cli import main; sys.argv[0] = 'actframes'; main()"


def run_entry(*args: str, cwd: Path, env: Mapping[str, str] | None = None) -> tuple[int, str, str]:
    """``actframes ARGS`` through the real entry point in a subprocess: exit code, stdout,
    stderr."""
    run = subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        capture_output=True,
        text=True,
        env=dict(env) if env is not None else cli_env(),
        cwd=cwd,
        timeout=120,
    )
    return run.returncode, run.stdout, run.stderr
