"""The README's first screen is true: its commands run as written after `make demo`,
its context block is the demo's own, its picture is of the current report, and the
MCP configuration it tells users to print starts a server that answers."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from actframes.api import compile_day
from actframes.demo import DEMO_DAY, DEMO_TZ, build_demo_store
from actframes.emit.context import to_context
from actframes.emit.html import to_html
from actframes.sources import open_source

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# The `actframes` of this installation (the one `make demo` and `make install` provide).
BIN = Path(sys.executable).parent
# First words of README lines that this test does not run, and why.
NOT_RUN = {
    "make": "the test stands in for make: it runs the commands with this installation",
}
# What `make demo` runs, which the commands after it rely on.
MAKE_DEMO = "actframes demo --out demo-out"


def sh_blocks(text: str) -> list[str]:
    """The README's ```sh blocks, in order."""
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)


def three_steps(text: str) -> str:
    """The block of the "Three steps" section."""
    section = text[text.index("\n## Three steps\n") :]
    return sh_blocks(section)[0]


def sh_commands(text: str) -> list[str]:
    """Every command line of the README's ```sh blocks but the Three steps, in order."""
    steps = three_steps(text)
    out: list[str] = []
    for block in sh_blocks(text):
        if block == steps:
            continue  # run as a whole, in a fresh shell, by its own test
        for line in block.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


@pytest.fixture(scope="module")
def one_day_doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    db = tmp_path_factory.mktemp("demo1") / "demo.db"
    build_demo_store(db)
    src = open_source(db)
    try:
        return compile_day(src, DEMO_DAY, DEMO_TZ)
    finally:
        src.close()


def env(home: Path) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("ACTFRAMES_", "XDG_"))}
    return {**keep, "HOME": str(home), "PATH": f"{BIN}:/usr/bin:/bin", "TZ": "UTC"}


def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    commands = sh_commands(README.read_text(encoding="utf-8"))
    assert any(c.split()[:2] == ["make", "demo"] for c in commands)
    run = [MAKE_DEMO] + [c for c in commands if c.split()[0] not in NOT_RUN]
    assert any(c.startswith("actframes replay") for c in run)
    assert (BIN / "actframes").exists(), "this installation has no actframes command"
    home = tmp_path / "home"
    home.mkdir()
    script = "set -euo pipefail\n" + "".join(f"echo '+ {i}'\n{c}\n" for i, c in enumerate(run))
    proc = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        env=env(home),
        capture_output=True,
        text=True,
        timeout=600,
    )
    done = re.findall(r"^\+ (\d+)$", proc.stdout, flags=re.M)
    last = run[int(done[-1])] if done else "(none)"
    assert proc.returncode == 0, f"README command failed: {last}\n{proc.stderr[-2000:]}"
    assert "Unfilled slots" in proc.stdout  # the replay dry run marks what it lacks
    assert (tmp_path / "day.html").exists() and (tmp_path / "demo-out" / "demo.db").exists()
    # Typed in the clone, nothing they write shows up as untracked.
    written = sorted(p.name + ("/" if p.is_dir() else "") for p in tmp_path.iterdir())
    written.remove("home/")
    unignored = [name for name in written if not ignored_in_clone(name)]
    assert not unignored, f"README commands write files .gitignore misses: {unignored}"
    # Then the Python examples, in the same folder.
    for block in re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        py = subprocess.run(
            [sys.executable, "-c", block],
            cwd=tmp_path,
            env=env(home),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert py.returncode == 0, f"README Python example failed:\n{block}\n{py.stderr}"
        assert py.stdout.strip(), block


def ignored_in_clone(name: str) -> bool:
    """Whether the clone's .gitignore covers ``name`` written at its top."""
    proc = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "--no-index", "-q", name],
        capture_output=True,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode == 0


def tracked_tree(dest: Path) -> Path:
    """A copy of the clone's files as a fresh clone would hold them (tracked, plus new
    files not ignored), without its virtualenv or caches."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in listed:
        rel = raw.decode()
        if rel and (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    return dest


def fresh_shell_env(home: Path) -> dict[str, str]:
    """A login shell's environment on a new machine: a new HOME with nothing in
    ~/.local/bin on the PATH, and none of our machines' habits (PYTHONUNBUFFERED)."""
    python = shutil.which("python3")
    assert python is not None
    path = ":".join(dict.fromkeys([str(Path(python).parent), "/usr/local/bin", "/usr/bin", "/bin"]))
    drop = ("ACTFRAMES_", "XDG_", "PYTHON", "VIRTUAL_ENV", "PIP_USER")
    keep = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    return {**keep, "HOME": str(home), "PATH": path, "TZ": "UTC"}


def test_three_steps_run_typed_in_one_fresh_shell(tmp_path: Path) -> None:
    """The Three steps as one script in a new shell, in a copy of the clone, with a new
    HOME: `make install` really installs (from the package index) and the next lines
    find what it installed."""
    steps = three_steps(README.read_text(encoding="utf-8"))
    assert steps.splitlines()[0].startswith("make install")
    clone = tracked_tree(tmp_path / "clone")
    home = tmp_path / "home"
    home.mkdir()
    proc = subprocess.run(
        ["bash", "-e", "-c", steps],
        cwd=clone,
        env=fresh_shell_env(home),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, (
        f"the Three steps failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    )
    installed = home / ".local" / "bin" / "actframes"
    assert f"installed: {installed}" in proc.stdout
    assert f"{home}/.local/bin is not on your PATH yet" in proc.stdout  # said once, here
    assert (clone / "demo-out" / "demo.db").exists()
    line = proc.stdout.strip().splitlines()[-1]
    assert line.split() == [
        "claude",
        *("mcp", "add", "actframes", "--", str(installed)),
        *("mcp", "--db", str(clone / "demo-out" / "demo.db")),
    ]
    assert ignored_in_clone("demo-out/")
    removed = subprocess.run(
        ["make", "uninstall"], cwd=clone, env=fresh_shell_env(home), capture_output=True
    )
    assert removed.returncode == 0 and not installed.exists()
    assert not (home / ".local" / "share" / "actframes" / "venv").exists()


def tool_installs(text: str) -> list[str]:
    """The README's lines that install `actframes` without a clone."""
    section = text[text.index("\n## Three steps\n") :]
    block = re.findall(r"```console\n(.*?)```", section, flags=re.S)[0]
    return [line.removeprefix("$ ") for line in block.splitlines() if line.startswith("$ ")]


@pytest.mark.parametrize("tool", ["pipx", "uv"])
def test_install_without_a_clone_runs_as_written(tmp_path: Path, tool: str) -> None:
    """`pipx install` / `uv tool install` of the README, with `URL` a git clone's
    address: `actframes` lands in the tool's bin folder and runs the demo."""
    (line,) = [c for c in tool_installs(README.read_text(encoding="utf-8")) if c.startswith(tool)]
    origin = tmp_path / "origin"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(origin)], check=True)
    url = f"file://{origin}"
    home, bin_dir = tmp_path / "home", tmp_path / "bin"
    home.mkdir()
    e = fresh_shell_env(home)
    e["PATH"] = f"{BIN}:{e['PATH']}"  # the tools, from this installation
    e.update(
        PIPX_HOME=str(tmp_path / "pipx"),
        PIPX_BIN_DIR=str(bin_dir),
        UV_TOOL_DIR=str(tmp_path / "uv"),
        UV_TOOL_BIN_DIR=str(bin_dir),
    )
    proc = subprocess.run(
        ["bash", "-e", "-c", line.replace("URL", url)],
        cwd=tmp_path,
        env=e,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    demo = subprocess.run(
        [str(bin_dir / "actframes"), "demo", "--days", "1", "--tz", "UTC"],
        cwd=tmp_path,
        env=e,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert (tmp_path / "demo-out" / "demo.db").exists()


def test_the_printed_config_starts_a_server_that_answers(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    e = env(home)
    subprocess.run(
        ["actframes", "demo", "--days", "2"],
        cwd=tmp_path,
        env=e,
        check=True,
        capture_output=True,
        timeout=300,
    )
    shown = subprocess.run(
        ["actframes", "mcp", "--print-config", "claude-desktop", "--db", "demo-out/demo.db"],
        cwd=tmp_path,
        env=e,
        capture_output=True,
        text=True,
        check=True,
    )
    server = json.loads(shown.stdout)["mcpServers"]["actframes"]
    assert Path(server["command"]).is_absolute() and Path(server["command"]).exists()
    assert server["args"] == ["mcp", "--db", str(tmp_path / "demo-out" / "demo.db")]
    code = subprocess.run(
        ["actframes", "mcp", "--print-config", "claude-code", "--db", "demo-out/demo.db"],
        cwd=tmp_path,
        env=e,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert code.split() == [
        "claude",
        "mcp",
        "add",
        "actframes",
        "--",
        server["command"],
        *server["args"],
    ]
    yesterday = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()

    async def call() -> str:
        params = StdioServerParameters(
            command=server["command"], args=server["args"], env=e, cwd=str(home)
        )
        async with Client(params, read_timeout_seconds=120) as client:
            result = await client.call_tool("get_context", {"day": yesterday})
        return "\n".join(c.text for c in result.content)

    block = asyncio.run(call())
    assert f"# activity day {yesterday}" in block and "Google Chrome" in block


SAMPLE_LINES = 16  # the README shows the block's first lines: header, coverage, ledger top


def test_context_sample_is_the_demos_own(one_day_doc: dict[str, object]) -> None:
    """Regenerate with `UPDATE_GOLDEN=1 make test` when the context block changes."""
    text = README.read_text(encoding="utf-8")
    m = re.search(
        r"<!-- context-sample -->\n```text\n(.*?)…\n```\n<!-- context-sample -->", text, flags=re.S
    )
    assert m is not None
    block = to_context(one_day_doc, 1500)
    if os.environ.get("UPDATE_GOLDEN"):
        head = "".join(line + "\n" for line in block.splitlines()[:SAMPLE_LINES])
        README.write_text(text[: m.start(1)] + head + text[m.end(1) :], encoding="utf-8")
        return
    sample = m.group(1)
    assert len(sample.splitlines()) == SAMPLE_LINES
    assert block.startswith(sample), "README's context sample is stale: UPDATE_GOLDEN=1 make test"


def test_screenshot_is_of_the_current_report(one_day_doc: dict[str, object]) -> None:
    recorded = (ROOT / "docs" / "demo-report.sha256").read_text(encoding="utf-8").split()[0]
    now = hashlib.sha256(to_html(one_day_doc).encode("utf-8")).hexdigest()
    assert now == recorded, (
        "the demo report changed: retake the picture with `python docs/screenshot.py`"
    )
    png = (ROOT / "docs" / "demo-report.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert struct.unpack(">II", png[16:24]) == (1280, 860)
    assert "](docs/demo-report.png)" in README.read_text(encoding="utf-8")
