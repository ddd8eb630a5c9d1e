"""The ActivityWatch readers: ``source`` (the bucket export JSON and aw-server-rust's
``sqlite.db``), ``stores`` (aw-server's peewee file and a running server), ``records``
(the events and what they mean), ``rules`` (ActivityWatch's own rules for active time),
``capture`` (a Capture made of them) and ``steps_fingerprint``.

The names below load on first use: a store of another family never imports the reader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .source import AWExportSource, AWSqliteSource, json_event, json_object

_LAZY = frozenset({"AWExportSource", "AWSqliteSource", "json_event", "json_object"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import source

        return getattr(source, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AWExportSource", "AWSqliteSource", "json_event", "json_object"]
