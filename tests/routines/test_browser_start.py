"""The replay's browser start (``routines/cdp_start.py``) with the real Chromium: a start
that never answers ``Target.createTarget`` is made once more in a new process; two failed
starts are one error, in the library, the CLI and the MCP server, and every browser
process started is ended.

A real Chromium that never answers: the first starts run through a wrapper that drops
``--remote-debugging-pipe`` (the browser runs, holding the pipe's ends, and never reads
or writes them) or closes the pipe's ends before Chromium starts.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from actframes.routines.cdp import CDPError, find_chromium
from actframes.routines.cdp_start import start_browser

from ..builders import run_cli
from .test_replay_cli import RID, SLOTS, browser_env, one_line_error, slot_args, write_plan
from .webapp import FIXED_POINTS, claim_routine

CHROMIUM = find_chromium()
REQUIRED = os.environ.get("ACTFRAMES_REQUIRE_BROWSER") == "1"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not REQUIRED,
    reason="no Chromium binary (apt-get install chromium, or set ACTFRAMES_CHROMIUM)",
)

# How a muted start fails: Chromium runs without reading its pipe, or the pipe is closed.
SILENT = 'args=(); for a in "$@"; do [ "$a" = --remote-debugging-pipe ] || args+=("$a"); done'
CLOSED = "exec 3<&- 4>&-"


def wrapper(tmp_path: Path, *muted: str) -> Path:
    """A browser binary whose first starts are muted, the n-th as ``muted[n]`` says; every
    start appends its pid (Chromium's own: the wrapper execs it) to ``starts``."""
    if CHROMIUM is None:
        pytest.fail("ACTFRAMES_REQUIRE_BROWSER=1, but no Chromium binary was found")
    starts = tmp_path / "starts"
    cases = "".join(f"  {n}) {how} ;;\n" for n, how in enumerate(muted))
    script = tmp_path / "chromium-wrapper"
    script.write_text(
        "#!/bin/bash\n"
        f'n=$(cat "{starts}" 2>/dev/null | wc -l)\n'
        f'echo $$ >> "{starts}"\n'
        'args=("$@")\n'
        f'case "$n" in\n{cases}esac\n'
        f'exec "{CHROMIUM}" "${{args[@]}}"\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def started_pids(tmp_path: Path) -> list[int]:
    path = tmp_path / "starts"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def assert_all_ended(pids: list[int]) -> None:
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [p for p in pids if alive(p)] == []


def test_a_start_that_never_answers_is_made_once_more(tmp_path: Path) -> None:
    binary = wrapper(tmp_path, SILENT)
    # The driver's own timeout: the second start answers within it under load, too.
    browser = start_browser(str(binary), sandbox=False)
    try:
        first, second = started_pids(tmp_path)
        assert browser.proc is not None and browser.proc.pid == second
        assert not alive(first)  # ended before the second start took the profile
        assert browser.evaluate("6 * 7") == 42
    finally:
        browser.close()
    assert_all_ended(started_pids(tmp_path))


def test_two_starts_that_never_answer_are_one_error(tmp_path: Path) -> None:
    binary = wrapper(tmp_path, SILENT, SILENT)
    with pytest.raises(CDPError) as err:
        start_browser(str(binary), timeout_ms=3_000, sandbox=False)
    assert str(err.value) == (
        "Target.createTarget: no answer within 3000 ms (started 2 times, each in a new process)"
    )
    pids = started_pids(tmp_path)
    assert len(pids) == 2
    assert_all_ended(pids)


def test_unlike_failures_are_both_named(tmp_path: Path) -> None:
    binary = wrapper(tmp_path, CLOSED, SILENT)
    with pytest.raises(CDPError) as err:
        start_browser(str(binary), timeout_ms=3_000, sandbox=False)
    assert str(err.value) == (
        "Target.createTarget: the browser closed the pipe, then Target.createTarget: no "
        "answer within 3000 ms (started 2 times, each in a new process)"
    )
    assert_all_ended(started_pids(tmp_path))


def test_cli_replay_says_in_one_line_that_the_browser_did_not_start(tmp_path: Path) -> None:
    binary = wrapper(tmp_path, CLOSED, CLOSED)
    plan = write_plan(tmp_path, claim_routine("http://127.0.0.1:9", FIXED_POINTS))
    res = run_cli(
        "replay", RID, "--plan", str(plan), "--browser", str(binary), *slot_args(SLOTS),
        env=browser_env(),
    )  # fmt: skip
    assert one_line_error(res, 1) == (
        "actframes: error: the browser did not start: Target.createTarget: the browser "
        "closed the pipe (started 2 times, each in a new process)"
    )
    pids = started_pids(tmp_path)
    assert len(pids) == 2
    assert_all_ended(pids)
    for value in SLOTS.values():
        assert value not in res.stdout + res.stderr
