"""An MCP server that says no to what it does not understand.

The SDK's argument models ignore names they do not know, so a call with a misspelt
argument (`get_day_summary {"date": …}`) would silently answer another question. Here an
unknown argument is a one-line tool error naming what the tool takes, every tool's input
schema says `additionalProperties: false`, a schema violation (a limit, a type) is one
line too, and a prompt given an unknown or missing argument answers with an
invalid-params error rather than a server-side traceback.
"""

from __future__ import annotations

from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from pydantic import ValidationError


class StrictServer(MCPServer):
    # Each tool's argument names, taken from the tool list once (it changes only when a
    # tool is added or removed), not rebuilt at every call.
    _arguments: dict[str, set[str]] | None = None

    def add_tool(self, *args: Any, **kwargs: Any) -> None:
        self._arguments = None
        super().add_tool(*args, **kwargs)

    def remove_tool(self, name: str) -> None:
        self._arguments = None
        super().remove_tool(name)

    async def list_tools(self) -> list[Any]:
        tools = await super().list_tools()
        for t in tools:
            t.input_schema["additionalProperties"] = False
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        if self._arguments is None:
            self._arguments = {
                t.name: set(t.input_schema.get("properties", {}))
                for t in await super().list_tools()
            }
        allowed = self._arguments.get(name)
        if allowed is not None:
            unknown(name, arguments, allowed, ToolError)
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(f"{name}: {one_line(exc.__cause__)}") from exc.__cause__
            raise

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Any = None
    ) -> Any:
        prompts = {p.name: p for p in await self.list_prompts()}
        prompt = prompts.get(name)
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"unknown prompt {name!r}")
        args = arguments or {}
        declared = prompt.arguments or []
        unknown(name, args, {a.name for a in declared}, _invalid_params)
        missing = sorted(a.name for a in declared if a.required and a.name not in args)
        if missing:
            raise MCPError(INVALID_PARAMS, f"{name}: missing argument {', '.join(missing)}")
        try:
            return await super().get_prompt(name, args, context)
        except MCPError:
            raise
        except Exception as exc:  # the prompt's own one-line refusal (a bad day, a store)
            # The SDK wraps the prompt's own refusal (a ToolError): say what the prompt said.
            while not isinstance(exc, ToolError) and exc.__cause__ is not None:
                exc = exc.__cause__  # type: ignore[assignment]
            text = str(exc).strip().splitlines()
            raise MCPError(INVALID_PARAMS, f"{name}: {text[0] if text else 'error'}") from None


def _invalid_params(message: str) -> MCPError:
    return MCPError(INVALID_PARAMS, message)


def unknown(name: str, given: dict[str, Any], allowed: set[str], error: Any) -> None:
    """Raise ``error`` when ``given`` holds a name the tool or prompt does not take."""
    extra = sorted(set(given) - allowed)
    if extra:
        takes = ", ".join(sorted(allowed)) or "no arguments"
        raise error(f"{name}: unknown argument {', '.join(extra)} (it takes: {takes})")


def one_line(exc: ValidationError) -> str:
    """Pydantic's report in one line: each field and what was wrong with it."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)
