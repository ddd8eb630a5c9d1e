"""Steps: what the user did inside one frame, in order.

A frame's steps come from the events its evidence lists (its own and its
interruptions') and from its snapshot rows:

- ``click`` (target role and name: recorded, or resolved by hit-testing),
- ``type`` (a run of consecutive key events on one target: the key count; the text
  only when the operator opted in),
- ``copy``, ``cut``, ``paste``,
- ``scroll`` (a gesture: consecutive scroll ticks of one app, each within
  SCROLL_GESTURE_MS of the one before; ``ticks`` counts them),
- ``navigate`` (a row whose URL differs from the row before it in the frame),
- ``focus`` (the frame's first row, an interruption's first row, the first row back
  after an interruption, and a window-title change that is not a navigation).

Order: by time, then id (the event id, or the row id for row-derived steps), then op.
Every event of the frame's evidence is in exactly one step.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..compile.ranges import expand
from ..model import CLICK, KEY, SCROLL, TEXT, Action, Snapshot
from .resolve import HIGH, RECORDED, Resolution

Step = dict[str, Any]

SNAPSHOT = "snapshot"  # method of row-derived steps
SCROLL_GESTURE_MS = 1_000  # ticks closer than this belong to one scroll gesture


def frame_event_ids(frame: Mapping[str, Any]) -> list[int]:
    ids = expand(frame["evidence"]["events"])
    for i in frame.get("interruptions", []):
        ids.extend(expand(i["evidence"]["events"]))
    return ids


def frame_row_ids(frame: Mapping[str, Any]) -> list[int]:
    ids = expand(frame["evidence"]["rows"])
    for i in frame.get("interruptions", []):
        ids.extend(expand(i["evidence"]["rows"]))
    return ids


def _target(role: str | None, name: str | None) -> dict[str, str] | None:
    if not role and not name:
        return None
    return {"role": role or "", "name": name or ""}


def row_steps(rows: Sequence[Snapshot]) -> list[Step]:
    """navigate and focus steps from the frame's rows in (time, row id) order."""
    out: list[Step] = []
    prev: Snapshot | None = None
    for s in sorted(rows, key=lambda r: (r.ts_ms, r.row_id)):
        base = {
            "t_ms": s.ts_ms,
            "id": s.row_id,
            "app": s.app,
            "method": SNAPSHOT,
            "confidence": HIGH,
            "events": [],
            "row": s.row_id,
        }
        if prev is None or prev.app != s.app:
            out.append({**base, "op": "focus", "target": {"role": "app", "name": s.app}})
        elif s.url != prev.url and s.url is not None:
            out.append({**base, "op": "navigate", "url": s.url})
        elif s.title != prev.title and s.title:
            out.append({**base, "op": "focus", "target": {"role": "window", "name": s.title}})
        prev = s
    return out


def action_steps(
    actions: Sequence[Action],
    resolutions: Mapping[int, Resolution],
    include_text: bool = False,
) -> list[Step]:
    """One step per action, except that consecutive key/text actions of one app and
    target merge into one ``type`` step, and consecutive scroll ticks of one app into
    one ``scroll`` gesture."""
    ordered = sorted(actions, key=lambda a: (a.ts_ms, a.event_id))
    out: list[Step] = []
    last_tick = 0
    for a in ordered:
        target = _target(a.element_role, a.element_name)
        if a.kind == SCROLL:
            last = out[-1] if out else None
            if (
                last is not None
                and last["op"] == "scroll"
                and last["app"] == a.app
                and a.ts_ms - last_tick <= SCROLL_GESTURE_MS
            ):
                last["ticks"] += a.count
                last["events"].append(a.event_id)
                last_tick = a.ts_ms
                continue
            last_tick = a.ts_ms
        if a.kind in (KEY, TEXT):
            keys = len(a.text) if a.kind == TEXT and a.text else a.count
            last = out[-1] if out else None
            if (
                last is not None
                and last["op"] == "type"
                and last["app"] == a.app
                and last.get("target") == target
            ):
                last["keys"] += keys
                last["events"].append(a.event_id)
                if include_text and a.text:
                    last["text"] = last.get("text", "") + a.text
                continue
            step: Step = {
                "t_ms": a.ts_ms,
                "id": a.event_id,
                "op": "type",
                "app": a.app,
                "keys": keys,
                "method": RECORDED,
                "confidence": HIGH,
                "events": [a.event_id],
            }
            if include_text and a.text:
                step["text"] = a.text
        else:
            op = a.kind
            step = {
                "t_ms": a.ts_ms,
                "id": a.event_id,
                "op": op,
                "app": a.app,
                "method": RECORDED,
                "confidence": HIGH,
                "events": [a.event_id],
            }
            if a.kind == CLICK:
                r = resolutions.get(a.event_id)
                if r is not None:
                    step["method"], step["confidence"] = r.method, r.confidence
                if a.x is not None and a.y is not None:
                    step["x"], step["y"] = a.x, a.y
            if a.kind == SCROLL:
                step["ticks"] = a.count
            if include_text and a.text and a.kind in ("copy", "cut", "paste"):
                step["text"] = a.text
        if target is not None:
            step["target"] = target
        if a.url:
            step["url"] = a.url
        out.append(step)
    return out


def frame_steps(
    frame: Mapping[str, Any],
    actions: Sequence[Action],
    snapshots: Sequence[Snapshot],
    resolutions: Mapping[int, Resolution],
    include_text: bool = False,
) -> list[Step]:
    """The frame's steps in order (times still in ms: ``render`` formats them)."""
    ev_ids = set(frame_event_ids(frame))
    row_ids = set(frame_row_ids(frame))
    rows = [s for s in snapshots if s.row_id in row_ids]
    mine = _with_apps([a for a in actions if a.event_id in ev_ids], rows)
    steps = action_steps(mine, resolutions, include_text) + row_steps(rows)
    steps.sort(key=lambda s: (s["t_ms"], s["id"], s["op"]))
    return steps


def _with_apps(actions: list[Action], rows: Sequence[Snapshot]) -> list[Action]:
    """Actions recorded without an app (screenpipe's typing and copy rows) take the app
    of the frame's row in focus at their time, as the compiler attributed them."""
    if all(a.app is not None for a in actions) or not rows:
        return actions
    ordered = sorted(rows, key=lambda r: (r.ts_ms, r.row_id))
    times = [r.ts_ms for r in ordered]
    out = []
    for a in actions:
        if a.app is None:
            i = max(bisect_right(times, a.ts_ms) - 1, 0)
            a = a._replace(app=ordered[i].app)
        out.append(a)
    return out


_KEYS = (
    "t",
    "op",
    "app",
    "target",
    "keys",
    "ticks",
    "text",
    "url",
    "x",
    "y",
    "method",
    "confidence",
    "events",
)


def render(steps: Sequence[Step], iso: Callable[[int], str]) -> list[dict[str, Any]]:
    """Steps as JSON objects in a fixed key order, times as ISO with the zone's offset."""
    out = []
    for s in steps:
        obj = {**s, "t": iso(s["t_ms"])}
        out.append({k: obj[k] for k in _KEYS if k in obj and obj[k] is not None})
    return out


def to_markdown(frame_id: str, rendered: Sequence[Mapping[str, Any]]) -> str:
    lines = [f"# Steps of {frame_id}", ""]
    for s in rendered:
        what = s["op"]
        if "target" in s:
            what += f" {s['target']['role']} “{s['target']['name']}”"
        if "keys" in s:
            what += f" ({s['keys']} keys)"
        if "ticks" in s:
            what += f" ({s['ticks']} ticks)"
        if "text" in s:
            what += f": {s['text']!r}"
        if "url" in s and s["op"] == "navigate":
            what += f" {s['url']}"
        lines.append(f"- {s['t']} {what} [{s['method']}, {s['confidence']}]")
    return "\n".join(lines) + "\n"
