"""What a focused window is called, on any backend: ``WindowInfo`` (title, ``WM_CLASS``
or app id, process, executable), titles decoded with replacement (STRING is Latin-1,
UTF8_STRING and COMPOUND_TEXT are read as UTF-8, never raising), and the executable's
name from ``/proc``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_TITLE_CHARS = 1024  # far above what the compiler keeps (300); stops a runaway title


@dataclass(frozen=True, slots=True)
class WindowInfo:
    window: int
    title: str
    wm_instance: str
    wm_class: str
    pid: int | None
    exe: str | None

    @property
    def app(self) -> str:
        return self.wm_class or self.wm_instance or self.exe or "[unknown]"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n in (self.wm_class, self.wm_instance, self.exe) if n)


def decode_text(value: Any, type_name: str | None) -> str:
    """A text property's value as str, safely: never raises, drops NULs and controls."""
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    else:
        raw = bytes(value)
        # STRING is Latin-1; UTF8_STRING, COMPOUND_TEXT (ASCII/UTF-8 in practice) and
        # anything else are read as UTF-8 with replacement.
        text = raw.decode("latin-1") if type_name == "STRING" else raw.decode("utf-8", "replace")
    # A list of strings is NUL-separated; keep the first. Control characters become spaces.
    text = text.split("\x00", 1)[0]
    text = "".join(" " if (ord(c) < 32 or ord(c) == 127) else c for c in text).strip()
    if len(text) > MAX_TITLE_CHARS:
        text = text[: MAX_TITLE_CHARS - 1] + "…"
    return text


def split_wm_class(value: Any) -> tuple[str, str]:
    """WM_CLASS is "instance\\0class\\0" in Latin-1."""
    if value is None:
        return "", ""
    raw = value.encode("latin-1", "replace") if isinstance(value, str) else bytes(value)
    parts = raw.decode("latin-1").split("\x00")
    instance = decode_text(parts[0], None) if parts else ""
    klass = decode_text(parts[1], None) if len(parts) > 1 else ""
    return instance, klass


def exe_name(pid: int, proc: Path = Path("/proc")) -> str | None:
    """The executable's name: the basename of /proc/PID/exe, else /proc/PID/comm."""
    if pid <= 0:
        return None
    try:
        target = os.readlink(proc / str(pid) / "exe")
        name = os.path.basename(target.removesuffix(" (deleted)"))
        if name:
            return name
    except OSError:
        pass
    try:
        return (proc / str(pid) / "comm").read_text(errors="replace").strip() or None
    except OSError:
        return None
