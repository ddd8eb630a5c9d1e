"""``actframes mcp --print-config``: each kind's shape, absolute paths, and the server
options carried into the command it configures."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from actframes.mcp.client_config import KINDS, render

from ..builders import cli_env, run_cli


def test_each_kind_renders_the_same_command() -> None:
    cmd = ["/opt/x y/actframes", "mcp", "--db", "/data/my store.db"]
    code = render("claude-code", cmd)
    assert shlex.split(code) == ["claude", "mcp", "add", "actframes", "--", *cmd]
    desktop = json.loads(render("claude-desktop", cmd))
    assert desktop == {"mcpServers": {"actframes": {"command": cmd[0], "args": cmd[1:]}}}
    generic = json.loads(render("generic", cmd))
    assert generic == {"command": cmd[0], "args": cmd[1:], "transport": "stdio"}
    assert set(KINDS) == {"claude-code", "claude-desktop", "generic"}
    with pytest.raises(ValueError):
        render("cursor", cmd)


def test_options_and_absolute_store(tmp_path: Path) -> None:
    res = run_cli(
        "mcp",
        "--print-config",
        "generic",
        "--db",
        "rel/store.db",
        "--tz",
        "Europe/Berlin",
        "--allow-replay",
        cwd=tmp_path,
        env=cli_env(HOME=str(tmp_path)),
    )
    assert res.returncode == 0, res.stderr
    cfg = json.loads(res.stdout)
    assert Path(cfg["command"]).is_absolute()
    assert cfg["args"][-6:] == [
        "mcp",
        "--db",
        str(tmp_path / "rel" / "store.db"),
        "--tz",
        "Europe/Berlin",
        "--allow-replay",
    ]
    # The store does not exist yet: said on stderr, the configuration still printed.
    assert "no store at" in res.stderr
    bad = run_cli("mcp", "--print-config", "vim", env=cli_env(HOME=str(tmp_path)))
    assert bad.returncode == 2 and bad.stdout == ""
