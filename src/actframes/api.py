"""The library's public surface; the CLI and the MCP server are thin shells over it."""

from __future__ import annotations

from pathlib import Path

from .compile.document import Doc
from .compile.pipeline import Options, compile_capture
from .sources import Source, open_source
from .window import Window, day_window, span_window


def compile_window(source: Source, window: Window, options: Options | None = None) -> Doc:
    """The Tier-1 document for any window of a source."""
    cap = source.read(window.start_ms, window.end_ms)
    return compile_capture(cap, window, options)


def compile_day(source: Source, day: str, tz: str, options: Options | None = None) -> Doc:
    """The Tier-1 document for one local calendar day (23 or 25 hours across DST)."""
    return compile_window(source, day_window(day, tz), options)


def compile_path(path: str | Path, day: str, tz: str, options: Options | None = None) -> Doc:
    """Open, compile one day, close."""
    src = open_source(path)
    try:
        return compile_day(src, day, tz, options)
    finally:
        src.close()


__all__ = [
    "Options",
    "Window",
    "compile_capture",
    "compile_day",
    "compile_path",
    "compile_window",
    "day_window",
    "open_source",
    "span_window",
]
