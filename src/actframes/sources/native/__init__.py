"""The native store's reader (``source``: ``NativeSource``) and its actions and element
trees for steps (``actions``).

``NativeSource`` loads on first use: a store of another family never imports the reader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .source import NativeSource


def __getattr__(name: str) -> Any:
    if name == "NativeSource":
        from .source import NativeSource

        return NativeSource
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["NativeSource"]
