"""What the desktop shells' window reports may look like (``desktop_bus``): the D-Bus types
a process id arrives in, and how long a source may stay quiet before it counts as silent."""

from __future__ import annotations

# A window source that has sent no window report this long after the start is silent.
SILENT_AFTER_MS = 60_000

# A JavaScript number reaches D-Bus in whatever type the shell's script engine picks:
# KWin 5.27's callDBus sends an integral number as int32 (``i``), a fraction as a double;
# KWin 6's QJSEngine may pick ``i``, ``u``, ``x`` or ``d``; the GNOME extension declares
# ``u``. Each is a process id here (docs/recorder.md).
_PID_TYPES = frozenset("iuxtd")


def is_window_report(signature: str) -> bool:
    """Whether a message of this D-Bus signature is a window report (id, app, title, pid)."""
    return len(signature) == 4 and signature[:3] == "sss" and signature[3] in _PID_TYPES


__all__ = ["SILENT_AFTER_MS", "is_window_report"]
