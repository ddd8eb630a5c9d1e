"""A store's action steps over a time range, one stream per device: read through
``sources/actions.py``, re-attributed as the compiler does, resolved (``read_steps``, or
``capture_steps`` on a capture already read), then streamed (``stream``, pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..compile.reattribute import reattributed
from ..model import Action, Capture, Snapshot
from ..sources import actions as store_actions
from ..steps.build import action_steps, row_steps
from ..steps.resolve import Resolution, resolve_all
from .step_tokens import RStep, rsteps


def read_steps(
    path: Path,
    source: str | None,
    start_ms: int,
    end_ms: int,
    tz: str,
    include_text: bool,
    *,
    audible_active: bool = True,
) -> tuple[list[RStep], dict[str, tuple[int, int]]]:
    """(action steps of [start_ms, end_ms) in (device, time) order, screen sizes by
    device). Stale events are re-attributed first, as the compiler does.
    ``audible_active``: as for ``sources.open_source``."""
    fam = store_actions.family(path, source)
    cap = store_actions.read_capture(path, fam, start_ms, end_ms, audible_active=audible_active)
    return capture_steps(path, fam, cap, start_ms, end_ms, tz, include_text)


def capture_steps(
    path: Path, fam: str, cap: Capture, start_ms: int, end_ms: int, tz: str, include_text: bool
) -> tuple[list[RStep], dict[str, tuple[int, int]]]:
    """``read_steps`` on a capture already read from the store (of family ``fam``) for
    [start_ms, end_ms): for callers that compile the same capture too."""
    acts, elements, screens = store_actions.actions(path, fam, cap, start_ms, end_ms, include_text)
    acts, how = resolve_all(reattributed(acts, cap), elements, screens)
    snaps = [s for s in cap.snapshots if start_ms <= s.ts_ms < end_ms]
    return stream(acts, snaps, how, tz, include_text), {
        d: (s.w, s.h) for d, s in sorted(screens.items())
    }


def stream(
    acts: Sequence[Action],
    snaps: Sequence[Snapshot],
    how: Mapping[int, Resolution],
    tz: str,
    include_text: bool,
) -> list[RStep]:
    """One stream of action steps per input device. Navigations come from each screen's
    rows separately (two monitors never fake a navigation) and join the stream of the
    device with their name, or the unnamed one (stores that record no device on input
    events, like screenpipe's ``ui_events``)."""
    by_dev_a: dict[str, list[Action]] = {}
    for a in acts:
        by_dev_a.setdefault(a.device or "", []).append(a)
    by_dev_s: dict[str, list[Snapshot]] = {}
    for s in snaps:
        by_dev_s.setdefault(s.device or "", []).append(s)
    steps_of: dict[str, list[dict[str, Any]]] = {}
    for dev, acts_d in by_dev_a.items():
        steps_of.setdefault(dev, []).extend(action_steps(acts_d, how, include_text))
    for dev, snaps_d in by_dev_s.items():
        key = dev if dev in by_dev_a else ""
        steps_of.setdefault(key, []).extend(s for s in row_steps(snaps_d) if s["op"] == "navigate")
    out: list[RStep] = []
    for dev in sorted(steps_of):
        steps = steps_of[dev]
        steps.sort(key=lambda s: (s["t_ms"], s["id"], s["op"]))
        out.extend(rsteps(steps, dev, tz))
    return out
