"""The MCP server: a thin shell over the library's ``Store`` (``api.open_store``).

``server.py`` builds it and registers every tool in one place; ``tools.py``,
``replay.py`` and ``resources.py`` hold the tools, one small function each;
``library.py`` the calls behind them; ``limits.py`` their argument limits;
``strict.py`` the refusal of unknown arguments; ``config.py`` the client
configurations of ``actframes mcp --print-config``. ``actframes mcp`` serves it on
stdio.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ReplayPolicy", "build_server"]


def __getattr__(name: str) -> Any:
    # The SDK loads with the server only: ``actframes mcp --print-config`` (config.py)
    # and ``--help`` never import it.
    if name in __all__:
        from . import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
