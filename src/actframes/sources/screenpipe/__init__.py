"""The screenpipe-style reader (screenpipe's ``db.sqlite`` and the reference recorder's
databases): ``source`` (``ScreenpipeSource``), ``schema``, ``storage`` (a migrated store's
index) and ``payloads`` (its Parquet files), ``frames``, ``input``, ``timestamps``, the
raw-row fingerprints (``fingerprint``, ``steps_fingerprint``, ``rowtext``), the settled
mark of a growing day (``tail``, ``settled``, ``settled_parts``, ``settled_stats``),
steps (``actions``, ``clicks``), the parts a read makes at once (``parallel_parts``), and
the words on screen for the search index (``screen_text``, ``screen_payloads``).

The names below load on first use: a store of another family, and anything that needs
only ``storage`` or ``schema``, never imports the reader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .input import CLIPBOARD_OPS, EVENT_KINDS, clipboard_op
    from .source import ScreenpipeSource
    from .timestamps import date_bounds

_LAZY = {
    "CLIPBOARD_OPS": ".input",
    "EVENT_KINDS": ".input",
    "ScreenpipeSource": ".source",
    "clipboard_op": ".input",
    "date_bounds": ".timestamps",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CLIPBOARD_OPS", "EVENT_KINDS", "ScreenpipeSource", "clipboard_op", "date_bounds"]
