"""The replay_routine tool (offered only when the operator allowed replay): a routine's
guarded plan replayed in a real browser, every step checked first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from ..errors import ActframesError
from .library import Service, one_line
from .limits import Day, MinDays, RoutineDays
from .tools import result


class ReplayPolicy:
    """What the operator allowed when starting the server: no replay (default), replay
    of non-destructive steps, or also destructive ones; and the browser profile."""

    def __init__(
        self, enabled: bool = False, destructive: bool = False, profile: Path | None = None
    ) -> None:
        self.enabled = enabled or destructive
        self.destructive = destructive
        self.profile = profile


def replay_routine(
    svc: Service,
    policy: ReplayPolicy,
    routine_id: str,
    slots: dict[str, str],
    dry_run: bool = False,
    allow_destructive: bool = False,
    days: RoutineDays = 28,
    until: Day | None = None,
    min_days: MinDays = 2,
) -> CallToolResult:
    """Replay a routine's guarded plan in a real browser, checking every step first.

    `slots` gives a value for each of the routine's slots (see get_routine). The
    first guard that does not hold stops the replay before anything more is sent;
    the result is then a hand-off: the step, the guard, what was expected and
    found. Destructive steps (submit, send, delete, pay …) need
    `allow_destructive` and a server started with --allow-destructive-replay.
    `dry_run` says what would be done and sends nothing.
    """
    report = run_replay(
        svc, policy, routine_id, slots, dry_run, allow_destructive, days, until, min_days
    )
    status = report["status"]
    head = f"replay of {routine_id}: {status}"
    if report.get("stopped"):
        st = report["stopped"]
        head += f" at step {st['n']}: {st['message']}"
    return result(head + "\n" + json.dumps(report, ensure_ascii=False), {"report": report})


def run_replay(
    svc: Service,
    policy: ReplayPolicy,
    routine_id: str,
    slots: dict[str, str],
    dry_run: bool,
    allow_destructive: bool,
    days: int,
    until: str | None,
    min_days: int,
) -> dict[str, Any]:
    from ..routines import replay as engine
    from ..routines.cdp import CDPError, find_chromium
    from ..routines.cdp_start import start_browser

    if allow_destructive and not policy.destructive:
        raise ToolError("destructive steps need the server started with --allow-destructive-replay")
    routine = svc.routine(routine_id, days, until, min_days)
    try:
        engine.validate(routine)
        engine.check_slots(routine, slots)
    except ActframesError as exc:
        raise ToolError(one_line(str(exc))) from exc
    if dry_run:
        return engine.dry_run(routine, slots, allow_destructive=allow_destructive)
    binary = find_chromium()
    if binary is None:
        raise ToolError("no Chromium found: install chromium or set $ACTFRAMES_CHROMIUM")
    try:
        browser = start_browser(binary, user_data_dir=policy.profile)
    except OSError as exc:
        raise ToolError(f"the browser did not start: {exc.strerror or exc}") from None
    except CDPError as exc:
        raise ToolError(one_line(f"the browser did not start: {exc}")) from None
    try:
        return engine.replay(routine, slots, browser, allow_destructive=allow_destructive)
    except CDPError as exc:
        raise ToolError(one_line(f"the browser failed: {exc}")) from None
    finally:
        browser.close()
