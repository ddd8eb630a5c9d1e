"""Where a command writes: checked before any work, written so that a failure leaves nothing.

A folder a command fills (``--out``) or the folder of a file it writes (``report --html``)
is checked when the option is parsed, before anything is read or compiled: a path under a
regular file, under a symbolic link to nothing, or in a folder this user cannot write is a
one-line error naming the path (exit 1), and nothing is created. ``write_atomically``
writes a file beside its target and renames it over, so a failed write leaves no partial
file. Used as click callbacks (``click`` itself is never imported here).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import ActframesError


class WriteError(ActframesError):
    """A file or folder the command was asked to write cannot be written."""


def blocker(folder: Path, *, create: bool) -> str | None:
    """Why ``folder`` cannot be written, or None. With ``create`` the folder and its missing
    parents are to be made, so what decides is the nearest part of the path that exists."""
    p = folder if str(folder) else Path(".")
    while True:
        if p.is_symlink() and not p.exists():
            return f"{str(p)!r} is a symbolic link to nothing ({os.readlink(p)!r})"
        if p.exists():
            if not p.is_dir():
                return f"{str(p)!r} is a file, not a folder"
            if not os.access(p, os.W_OK | os.X_OK):
                return f"the folder {str(p)!r} is not writable"
            return None
        if not create:
            return f"no such folder {str(p)!r}"
        if p.parent == p:
            return None
        p = p.parent


def target_file(path: Path) -> Path:
    """Where writing ``path`` puts the bytes: a symbolic link's target (the link stays)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_out_folder(ctx: Any, param: Any, value: Path | None) -> Path | None:
    """Click callback of a folder option the command creates and fills."""
    if value is not None:
        why = blocker(value, create=True)
        if why is not None:
            raise WriteError(f"{value}: cannot write here: {why}")
    return value


def check_out_file(ctx: Any, param: Any, value: str | None) -> Path | None:
    """Click callback of a file option the command writes (its folder must exist). The
    option is read as text: a path ending in a separator names a folder, and ``Path``
    would drop the separator and write over a file of that name."""
    if value is None:
        return None
    if value.endswith(("/", os.sep)):
        raise WriteError(f"{value}: cannot write here: a file name, not a folder, is needed")
    path = Path(value)
    why = blocker(target_file(path).parent, create=False)
    if why is not None:
        raise WriteError(f"{value}: cannot write here: {why}")
    return path


def write_atomically(path: Path, data: bytes) -> None:
    """Write beside the target and rename over it, so a reader (or a browser tab being
    reloaded) never sees half a file, and a failed write leaves the old file as it was.
    A symbolic link is written through: its target gets the bytes, the link stays."""
    import tempfile

    target = target_file(path)
    why = blocker(target.parent, create=False)
    if why is not None:
        raise WriteError(f"{path}: cannot write here: {why}")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise WriteError(f"{path}: cannot write ({exc.strerror or exc})") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        # mkstemp makes the file 0600; a report is an ordinary document, so it gets the
        # mode a plain open() would give it under the user's umask.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise WriteError(f"{path}: cannot write ({exc.strerror or exc})") from exc
