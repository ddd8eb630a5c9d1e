"""The library's public surface; the CLI and the MCP server are thin shells over it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .compile.document import Doc
from .compile.pipeline import Options, compile_capture
from .sources import Source, open_source
from .window import Window, day_window, span_window

if TYPE_CHECKING:
    from .emit.context import parse_context, to_context
    from .emit.json_out import to_json
    from .emit.markdown import to_markdown
    from .emit.yaml_out import to_yaml

# Emitters load on first use, so a command that prints JSON never imports the rest.
_EMITTERS = {
    "to_json": ".emit.json_out",
    "to_yaml": ".emit.yaml_out",
    "to_markdown": ".emit.markdown",
    "to_context": ".emit.context",
    "parse_context": ".emit.context",
}


def __getattr__(name: str) -> Any:
    if name in _EMITTERS:
        import importlib

        return getattr(importlib.import_module(_EMITTERS[name], __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def compile_window(source: Source, window: Window, options: Options | None = None) -> Doc:
    """The Tier-1 document for any window of a source."""
    from .sources.base import reading

    with reading(source.path):
        cap = source.read(window.start_ms, window.end_ms)
    return compile_capture(cap, window, options)


def compile_comms(source: Source, window: Window, options: Options | None = None) -> Doc:
    """The communications view of a window: e-mail, chat, meeting and social-inbox
    surfaces with their conversations (``compile/comms.py``)."""
    from .compile.comms import communications
    from .compile.pipeline import compile_pieces

    cap = source.read(window.start_ms, window.end_ms)
    doc, frames = compile_pieces(cap, window, options)
    return communications(doc, frames)


def compile_day(source: Source, day: str, tz: str, options: Options | None = None) -> Doc:
    """The Tier-1 document for one local calendar day (23 or 25 hours across DST)."""
    return compile_window(source, day_window(day, tz), options)


def compile_path(path: str | Path, day: str, tz: str, options: Options | None = None) -> Doc:
    """Open, compile one day, close."""
    with open_source(path) as src:
        return compile_day(src, day, tz, options)


__all__ = [
    "Options",
    "Window",
    "compile_capture",
    "compile_comms",
    "compile_day",
    "compile_path",
    "compile_window",
    "day_window",
    "open_source",
    "parse_context",
    "span_window",
    "to_context",
    "to_json",
    "to_markdown",
    "to_yaml",
]
