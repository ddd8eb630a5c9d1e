"""The recorder's pidfile: held open and locked while it runs, so a second one refuses to
start, and empty until it records, so ``record start`` can tell a failure from a pid."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import TextIO

from ..errors import ActframesError
from .row_writer import StoreWriteError


class AlreadyRunning(ActframesError):
    pass


class PidFile:
    def __init__(self, state_dir: Path | None) -> None:
        self.state_dir = state_dir
        self._fh: TextIO | None = None

    def take(self) -> None:
        if self.state_dir is None:
            return
        path = self.state_dir / "recorder.pid"
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            fh = open(path, "a+")  # noqa: SIM115 - held open (and locked) while running
        except OSError as exc:
            raise StoreWriteError(f"cannot write the pidfile {path}: {exc.strerror}") from exc
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.seek(0)
            other = fh.read().strip()
            fh.close()
            raise AlreadyRunning(
                f"a recorder is already running (pid {other or '?'}); "
                "`actframes record stop` stops it"
            ) from None
        # Locked but empty until the recorder is actually recording: `start` waits for
        # the pid to appear, so it can report a failure to start instead of a pid.
        fh.seek(0)
        fh.truncate()
        fh.flush()
        self._fh = fh

    def announce(self) -> None:
        if self._fh is not None:
            self._fh.write(f"{os.getpid()}\n")
            self._fh.flush()

    def release(self) -> None:
        if self._fh is None or self.state_dir is None:
            return
        with contextlib.suppress(OSError):
            (self.state_dir / "recorder.pid").unlink()
        self._fh.close()
        self._fh = None
