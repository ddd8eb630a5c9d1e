"""The MCP server on the official SDK (MCPServer, stdio): every tool, resource and prompt
registered here, in one place, with the ``Service`` bound to it.

The tools are module-level functions (``tools.py``, ``replay.py``, ``resources.py``)
whose first parameters are what the server binds (the service, the replay policy); the
rest of the signature is the tool's input schema and its docstring its description.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.server import MCPServer

from .. import __version__
from . import project_tools, replay, resources, screen_tools, tools
from .library import Service
from .replay import ReplayPolicy
from .strict import StrictServer

INSTRUCTIONS = (
    "Activity Frames tells you what the user did at the computer: apps, sites, documents, "
    "time spent, input counts, with evidence. Start with get_context (the last hours or a "
    "day) or get_day_summary; drill into get_frame (by id, or by words with query); find "
    "past work with search_activity; who and where with get_communications. " + tools.NOTICE
)

# The tools in the order a client lists them.
TOOLS: tuple[Callable[..., Any], ...] = (
    tools.get_context,
    tools.get_activity,
    tools.get_day_summary,
    tools.get_frame,
    tools.get_communications,
    project_tools.get_projects,
    tools.search_activity,
    screen_tools.search_screen,
    tools.get_patterns,
    tools.list_routines,
    tools.get_routine,
)
RESOURCES: tuple[tuple[str, str, Callable[..., Any]], ...] = (
    ("actframes://day/{day}", "application/json", resources.day_document),
    ("actframes://context/today", "text/plain", resources.context_today),
)
PROMPTS: tuple[Callable[..., Any], ...] = (resources.recap_day,)


def build_server(
    db: Path,
    tz: str,
    source: str | None,
    now_ms: Callable[[], int],
    replay_policy: ReplayPolicy | None = None,
    *,
    audible_active: bool = True,
    projects: Path | None = None,
    categories: Path | None = None,
    screen_text: bool = True,
) -> MCPServer:
    svc = Service(
        db,
        tz,
        source,
        now_ms,
        audible_active=audible_active,
        projects=projects,
        categories=categories,
    )
    policy = replay_policy or ReplayPolicy()
    server: MCPServer = StrictServer(
        "actframes", version=__version__, instructions=INSTRUCTIONS, title="Activity Frames"
    )
    for tool in TOOLS:
        if tool is screen_tools.search_screen and not screen_text:
            continue  # --no-screen-text: the store's screen text is neither indexed nor searched
        server.add_tool(bind(tool, svc))
    if policy.enabled:
        server.add_tool(bind(replay.replay_routine, svc, policy, indent=12))
    for uri, mime, read in RESOURCES:
        server.resource(uri, mime_type=mime)(bind(read, svc))
    for prompt in PROMPTS:
        server.prompt()(bind(prompt, svc))
    return server


def bind(fn: Callable[..., Any], *leading: Any, indent: int = 8) -> Callable[..., Any]:
    """``fn`` with its first ``len(leading)`` arguments given: what the SDK sees is the
    rest of its signature (the input schema) and its docstring (the description). The
    docstring keeps the indentation it had when the tools were nested in this function
    (8 spaces; 12 for replay), so clients read the very bytes they always did."""
    sig = inspect.signature(fn, eval_str=True)
    params = list(sig.parameters.values())
    bound_names = {p.name for p in params[: len(leading)]}

    call: Callable[..., Any]
    if inspect.iscoroutinefunction(fn):
        # Stays a coroutine function: the SDK awaits it on its event loop, where it
        # awaits the store's thread, instead of running it in a worker thread of its own.

        @functools.wraps(fn)
        async def call(*args: Any, **kwargs: Any) -> Any:
            return await fn(*leading, *args, **kwargs)

    else:

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            return fn(*leading, *args, **kwargs)

    call.__signature__ = sig.replace(parameters=params[len(leading) :])  # type: ignore[attr-defined]
    call.__annotations__ = {k: v for k, v in fn.__annotations__.items() if k not in bound_names}
    if fn.__doc__:
        call.__doc__ = fn.__doc__.replace("\n    ", "\n" + " " * indent)
    return call


__all__ = ["INSTRUCTIONS", "ReplayPolicy", "Service", "build_server"]
