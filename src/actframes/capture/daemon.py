"""The recorder in the background: start, stop, status, pause, resume.

Files in the XDG state folder (``$XDG_STATE_HOME/actframes``, ``~/.local/state/actframes``):

- ``recorder.pid`` — the running recorder's pid. The recorder holds an exclusive
  ``flock`` on it while it runs, so a pidfile left by a killed recorder is recognised as
  stale (nobody holds the lock) and a second recorder refuses to start;
- ``recorder.log`` — what a background recorder prints (rotated to ``recorder.log.1``
  above 5 MB when a recorder starts);
- ``paused`` — present while recording is paused. ``pause`` creates it and signals the
  recorder (SIGUSR1) so it notices at once; a recorder started later honours it too.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import ActframesError

LOG_ROTATE_BYTES = 5_000_000


class DaemonError(ActframesError):
    pass


def pidfile(state: Path) -> Path:
    return state / "recorder.pid"


def logfile(state: Path) -> Path:
    return state / "recorder.log"


def pause_flag(state: Path) -> Path:
    return state / "paused"


def running_pid(state: Path) -> int | None:
    """The pid of the recorder holding the pidfile's lock, or None."""
    path = pidfile(state)
    try:
        fh = open(path)  # noqa: SIM115 - closed below, after the lock probe
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            text = fh.read().strip()
            return int(text) if text.isdigit() else -1
        fcntl.flock(fh, fcntl.LOCK_UN)
        return None  # nobody holds it: a stale file from a killed recorder
    finally:
        fh.close()


def start(run_args: list[str], state: Path, timeout: float = 15.0) -> int:
    """Start ``actframes record run`` detached; return its pid once it records."""
    pid = running_pid(state)
    if pid is not None:
        raise DaemonError(f"a recorder is already running (pid {pid})")
    state.mkdir(parents=True, exist_ok=True)
    log = logfile(state)
    with contextlib.suppress(OSError):
        if log.stat().st_size > LOG_ROTATE_BYTES:
            log.replace(log.with_name(log.name + ".1"))
    offset = log.stat().st_size if log.exists() else 0
    argv = [sys.executable, "-m", "actframes.cli", "record", "run", *run_args]
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,  # not killed with the terminal that started it
            close_fds=True,
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if running_pid(state) == proc.pid:
            return proc.pid
        code = proc.poll()
        if code is not None:
            raise DaemonError(_failure(log, offset, code))
        time.sleep(0.05)
    with contextlib.suppress(OSError):
        proc.terminate()
    raise DaemonError(f"the recorder did not start within {timeout:.0f} s (see {log})")


def _failure(log: Path, offset: int, code: int) -> str:
    try:
        with open(log, "rb") as fh:
            fh.seek(offset)
            lines = fh.read().decode("utf-8", "replace").splitlines()
    except OSError:
        lines = []
    for line in reversed(lines):
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return f"the recorder exited with status {code} (see {log})"


def stop(state: Path, timeout: float = 15.0) -> int | None:
    """SIGTERM the recorder and wait until it has flushed; its pid, or None if none ran."""
    pid = running_pid(state)
    deadline = time.monotonic() + 5.0
    while pid is not None and pid <= 0 and time.monotonic() < deadline:
        time.sleep(0.05)  # a recorder still starting: its pid appears once it records
        pid = running_pid(state)
    if pid is None:
        return None
    if pid <= 0:
        raise DaemonError(f"{pidfile(state)} is locked but names no pid")
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if running_pid(state) is None:
            return pid
        time.sleep(0.05)
    raise DaemonError(f"the recorder (pid {pid}) did not stop within {timeout:.0f} s")


def set_paused(state: Path, paused: bool) -> int | None:
    """Create or remove the pause flag and tell a running recorder; its pid, if any."""
    flag = pause_flag(state)
    if paused:
        state.mkdir(parents=True, exist_ok=True)
        flag.write_text(f"{int(time.time())}\n")
    else:
        with contextlib.suppress(FileNotFoundError):
            flag.unlink()
    pid = running_pid(state)
    if pid is not None and pid > 0:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGUSR1)
    return pid


@dataclass(frozen=True)
class StoreStatus:
    exists: bool
    bytes: int = 0
    snapshots_today: int = 0
    events_today: int = 0
    presses_today: int = 0
    last_row_ms: int | None = None
    error: str | None = None
    session: dict[str, object] | None = None  # the last start's notes (display, wm, ...)
    silent: str | None = None  # why the window source is silent, if it is since the start


def store_status(db: Path, day_start_ms: int) -> StoreStatus:
    """Rows written since ``day_start_ms``, size on disk, newest row — read-only."""
    if not db.exists():
        return StoreStatus(exists=False)
    size = sum(
        p.stat().st_size
        for p in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"))
        if p.exists()
    )
    try:
        conn = sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True, timeout=2.0)
        try:
            snaps, last = conn.execute(
                "SELECT count(*) FILTER (WHERE ts_ms >= ?), max(ts_ms) FROM snapshots",
                (day_start_ms,),
            ).fetchone()
            events, presses = conn.execute(
                "SELECT count(*), coalesce(sum(count), 0) FROM input_events WHERE ts_ms >= ?",
                (day_start_ms,),
            ).fetchone()
            session = None
            with contextlib.suppress(sqlite3.Error, ValueError):
                found = conn.execute(
                    "SELECT detail FROM recorder_state WHERE state = 'start'"
                    " ORDER BY ts_ms DESC, id DESC LIMIT 1"
                ).fetchone()
                if found and found[0]:
                    loaded = json.loads(found[0])
                    session = loaded if isinstance(loaded, dict) else None
            silent = None
            with contextlib.suppress(sqlite3.Error):
                latest = conn.execute(
                    "SELECT state, detail FROM recorder_state"
                    " WHERE state IN ('start', 'silent', 'reporting')"
                    " ORDER BY ts_ms DESC, id DESC LIMIT 1"
                ).fetchone()
                if latest and latest[0] == "silent":
                    silent = str(latest[1] or "no window reports")
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return StoreStatus(exists=True, bytes=size, error=str(exc))
    return StoreStatus(
        True, size, int(snaps), int(events), int(presses), last, None, session, silent
    )


def process_start_ms(pid: int) -> int | None:
    """When ``pid`` started (wall clock, ms), from /proc."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        ticks = int(stat.rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    hz = os.sysconf("SC_CLK_TCK")
    age_s = uptime - ticks / hz
    return int((time.time() - age_s) * 1000)
