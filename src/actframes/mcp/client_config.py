"""Ready-to-paste MCP client configurations for ``actframes mcp --print-config``.

Pure text from the server's absolute command line: the caller (the CLI) finds the
installed command and the store; nothing here looks at the machine.
"""

from __future__ import annotations

import json
import shlex

KINDS = ("claude-code", "claude-desktop", "generic")
SERVER_NAME = "actframes"

# Where Claude Desktop reads its configuration, per system (from its documentation).
DESKTOP_CONFIG = {
    "macOS": "~/Library/Application Support/Claude/claude_desktop_config.json",
    "Windows": "%APPDATA%\\Claude\\claude_desktop_config.json",
}


def render(kind: str, command: list[str]) -> str:
    """The configuration of ``kind`` for a stdio server started as ``command``."""
    if kind == "claude-code":
        return shlex.join(["claude", "mcp", "add", SERVER_NAME, "--", *command]) + "\n"
    entry = {"command": command[0], "args": command[1:]}
    if kind == "claude-desktop":
        return json.dumps({"mcpServers": {SERVER_NAME: entry}}, indent=2) + "\n"
    if kind == "generic":
        return json.dumps({**entry, "transport": "stdio"}, indent=2) + "\n"
    raise ValueError(f"unknown configuration kind {kind!r}; one of {', '.join(KINDS)}")


def note(kind: str) -> str:
    """One line for stderr on where the configuration goes."""
    if kind == "claude-code":
        return "run this line once; `claude mcp list` shows the server"
    if kind == "claude-desktop":
        where = "; ".join(f"{os_name}: {path}" for os_name, path in DESKTOP_CONFIG.items())
        return f"merge into claude_desktop_config.json ({where}), then restart Claude Desktop"
    return "a stdio MCP server: give your client this command and these arguments"
