"""The package as a user installs it: build the sdist and the wheel, install the wheel
(with the `user` extra, as `make install` does) into a fresh virtualenv outside the
clone, run `actframes demo` there, and have the official MCP client call the server
that `actframes mcp --print-config generic` describes.

Run by .ci/run with the project's own virtualenv (it holds `build` and `mcp`):
    .venv/bin/python .ci/check_install.py
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None) -> str:
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        sys.exit(f"check_install: {' '.join(args[:4])} … failed:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout + proc.stderr


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="actframes-install-") as tmp:
        work = Path(tmp)
        dist = work / "dist"
        log = run(sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT))
        # setuptools' deprecation banners (e.g. the license table) must stay gone.
        if "deprecat" in log.lower():
            sys.exit(f"check_install: the build warns about a deprecation:\n{log}")
        wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
        assert len(wheels) == 1 and len(sdists) == 1, list(dist.iterdir())
        venv.create(work / "venv", with_pip=True)
        bin_dir = work / "venv" / "bin"
        run(str(bin_dir / "pip"), "install", "-q", f"{wheels[0]}[user]")
        cmd = bin_dir / "actframes"
        shown = run(str(cmd), "demo", "--days", "3", "--tz", "UTC", cwd=work)
        assert "Routines" in shown and (work / "demo-out" / "demo.db").exists(), shown
        config = json.loads(
            subprocess.run(
                [str(cmd), "mcp", "--print-config", "generic", "--db", "demo-out/demo.db"],
                cwd=work,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        assert config["command"] == str(cmd), config
        block = asyncio.run(context_of(config))
        assert "\n# activity day " in block and "ledger" in block, block[:300]
        print(f"check_install: {wheels[0].name} and {sdists[0].name} build and install;")
        print("check_install: demo ran; the configured MCP server answered get_context.")


async def context_of(config: dict[str, object]) -> str:
    """get_context of yesterday through the server the configuration starts."""
    from datetime import UTC, datetime, timedelta

    day = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
    params = StdioServerParameters(
        command=str(config["command"]),
        args=[*map(str, config["args"]), "--tz", "UTC"],  # type: ignore[call-overload]
        cwd="/",  # the configuration holds absolute paths: any folder works
    )
    async with Client(params, read_timeout_seconds=120) as client:
        result = await client.call_tool("get_context", {"day": day})
    return "\n".join(c.text for c in result.content)


if __name__ == "__main__":
    main()
