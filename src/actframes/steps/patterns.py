"""Measured patterns (Tier 1), each with the evidence that makes it.

- ``repeated_click``: one target (app, role, name) clicked at least ``MIN_REPEATS``
  times; ``repeated_action``: the same for type and paste on one target.
- ``url_loop``: one URL path template (host + path, numeric / hex / UUID segments
  replaced by ``{id}``, query and fragment dropped) visited at least ``MIN_REPEATS``
  times on one local day; a visit starts where a device's rows turn to the template.
- ``app_pingpong``: per device, switches alternating between the same two apps, at
  least ``PINGPONG_MIN_SWITCHES`` in a row, each stay at most ``PINGPONG_STAY_MS``.
- ``daily_habit``: one site, or one click target, first used at similar local times
  (within ``HABIT_SPAN_MIN`` minutes) on at least ``HABIT_MIN_DAYS`` days.
- ``repeated_text``: one typed or pasted text at least ``MIN_REPEATS`` times — only when
  the operator opted in (there is no text otherwise).

Sequences never cross a session gap (``SESSION_GAP_MS``), an app change or a local day
boundary: a run of ping-pong switches or a URL visit ends at a gap or at midnight, and
``sequences`` (the runs of one app) counts how many distinct runs a repetition spans.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from ..compile.site import is_id_segment, site_of
from ..model import CLICK, KEY, PASTE, TEXT, Action, Snapshot
from ..window import LocalDays

MIN_REPEATS = 3
SESSION_GAP_MS = 300_000
PINGPONG_MIN_SWITCHES = 4
PINGPONG_STAY_MS = 60_000
HABIT_MIN_DAYS = 3
HABIT_SPAN_MIN = 60
MAX_EVIDENCE = 200  # evidence ids listed per pattern (the count is always complete)

Pattern = dict[str, Any]


def template(url: str) -> str | None:
    """``site/path`` (``localhost:8501/app``, ``chrome://settings/passwords``) with id-like
    segments as ``{id}``; a browser's ``about:`` page is its site; None for a URL without
    a host (``file:``, ``data:``, a wrapped ``view-source:`` or ``blob:`` URL)."""
    host = site_of(url)
    if not host or host.endswith(":") or host.startswith(("view-source:", "blob:")):
        return None
    if host.startswith("about:"):
        return host
    try:
        parts = urlsplit(url if "//" in url else "//" + url)
    except ValueError:
        return None
    segs = [s for s in parts.path.split("/") if s]
    segs = ["{id}" if is_id_segment(s) else s for s in segs]
    return host + ("/" + "/".join(segs) if segs else "")


def sequences(actions: Sequence[Action], tz: str) -> list[list[Action]]:
    """Runs of one app and device, split at session gaps and local midnights."""
    days = LocalDays(tz)
    out: list[list[Action]] = []
    last: dict[str | None, tuple[Action, str]] = {}
    cur: dict[str | None, list[Action]] = {}
    for a in sorted(actions, key=lambda a: (a.ts_ms, a.event_id)):
        if a.app is None:
            continue
        day = days.day(a.ts_ms)
        prev = last.get(a.device)
        if (
            prev is None
            or prev[0].app != a.app
            or a.ts_ms - prev[0].ts_ms > SESSION_GAP_MS
            or prev[1] != day
        ):
            cur[a.device] = []
            out.append(cur[a.device])
        cur[a.device].append(a)
        last[a.device] = (a, day)
    return out


def _ev(ids: Sequence[int]) -> list[int]:
    return sorted(ids)[:MAX_EVIDENCE]


def repeated_targets(actions: Sequence[Action], tz: str) -> list[Pattern]:
    seq_of: dict[int, int] = {}
    for k, seq in enumerate(sequences(actions, tz)):
        for a in seq:
            seq_of[a.event_id] = k
    groups: dict[tuple[str, str, str, str], list[Action]] = {}
    for a in actions:
        if a.kind not in (CLICK, KEY, TEXT, PASTE) or not (a.element_role or a.element_name):
            continue
        op = {CLICK: "click", KEY: "type", TEXT: "type", PASTE: "paste"}[a.kind]
        key = (a.app or "", op, a.element_role or "", a.element_name or "")
        groups.setdefault(key, []).append(a)
    out = []
    for (app, op, role, name), acts in sorted(groups.items()):
        if len(acts) < MIN_REPEATS:
            continue
        acts.sort(key=lambda a: (a.ts_ms, a.event_id))
        out.append(
            {
                "kind": "repeated_click" if op == "click" else "repeated_action",
                "app": app,
                "op": op,
                "target": {"role": role, "name": name},
                "count": len(acts),
                "sequences": len({seq_of.get(a.event_id) for a in acts}),
                "first_ms": acts[0].ts_ms,
                "last_ms": acts[-1].ts_ms,
                "events": _ev([a.event_id for a in acts]),
            }
        )
    return out


def _streams(snapshots: Sequence[Snapshot]) -> dict[str, list[Snapshot]]:
    by: dict[str, list[Snapshot]] = {}
    for s in snapshots:
        by.setdefault(s.device, []).append(s)
    for ss in by.values():
        ss.sort(key=lambda s: (s.ts_ms, s.row_id))
    return by


def url_loops(snapshots: Sequence[Snapshot], tz: str) -> list[Pattern]:
    days = LocalDays(tz)
    visits: dict[tuple[str, str, str], list[Snapshot]] = {}
    for dev, ss in sorted(_streams(snapshots).items()):
        prev: tuple[str | None, str, int] | None = None
        for s in ss:
            tpl = template(s.url) if s.url else None
            day = days.day(s.ts_ms)
            new = (
                prev is None
                or prev[0] != tpl
                or prev[1] != day
                or s.ts_ms - prev[2] > SESSION_GAP_MS
            )
            if tpl is not None and new:
                visits.setdefault((day, dev, tpl), []).append(s)
            prev = (tpl, day, s.ts_ms)
    out = []
    for (day, dev, tpl), vs in sorted(visits.items()):
        if len(vs) >= MIN_REPEATS:
            pat: Pattern = {"kind": "url_loop", "template": tpl, "day": day}
            if dev:
                pat["device"] = dev
            pat.update(
                count=len(vs),
                first_ms=vs[0].ts_ms,
                last_ms=vs[-1].ts_ms,
                rows=_ev([v.row_id for v in vs]),
            )
            out.append(pat)
    return out


def _close(run: list[Snapshot], dev: str, out: list[Pattern]) -> None:
    if len(run) < PINGPONG_MIN_SWITCHES + 1:
        return
    pat: Pattern = {"kind": "app_pingpong", "apps": sorted({run[0].app, run[1].app})}
    if dev:
        pat["device"] = dev
    pat.update(
        switches=len(run) - 1,
        first_ms=run[0].ts_ms,
        last_ms=run[-1].ts_ms,
        rows=_ev([r.row_id for r in run]),
    )
    out.append(pat)


def app_pingpong(snapshots: Sequence[Snapshot], tz: str) -> list[Pattern]:
    """Per device: runs of app switches alternating between two apps."""
    days = LocalDays(tz)
    out: list[Pattern] = []
    for dev, ss in sorted(_streams(snapshots).items()):
        prev: Snapshot | None = None
        run: list[Snapshot] = []

        for s in ss:
            broken = prev is not None and (
                s.ts_ms - prev.ts_ms > SESSION_GAP_MS or days.day(s.ts_ms) != days.day(prev.ts_ms)
            )
            if broken:
                _close(run, dev, out)
                run = []
            if prev is None or broken or s.app != prev.app:
                if run and (
                    s.ts_ms - run[-1].ts_ms > PINGPONG_STAY_MS
                    or (len(run) >= 2 and s.app != run[-2].app)
                ):
                    _close(run, dev, out)
                    run = run[-1:] if s.ts_ms - run[-1].ts_ms <= PINGPONG_STAY_MS else []
                run.append(s)
            prev = s
        _close(run, dev, out)
    return out


def daily_habits(
    actions: Sequence[Action], snapshots: Sequence[Snapshot], tz: str
) -> list[Pattern]:
    days = LocalDays(tz)
    first: dict[tuple[str, str], dict[str, int]] = {}
    for s in snapshots:
        site = site_of(s.url) if s.url else None
        if site:
            d = first.setdefault(("site", site), {})
            day = days.day(s.ts_ms)
            if day not in d or s.ts_ms < d[day]:
                d[day] = s.ts_ms
    for a in actions:
        if a.kind == CLICK and a.element_name:
            key = ("click", f"{a.app or ''}: {a.element_role or ''} {a.element_name}")
            d = first.setdefault(key, {})
            day = days.day(a.ts_ms)
            if day not in d or a.ts_ms < d[day]:
                d[day] = a.ts_ms
    out = []
    for (what, name), per_day in sorted(first.items()):
        if len(per_day) < HABIT_MIN_DAYS:
            continue
        pts = sorted((days.minute(ms), day, ms) for day, ms in per_day.items())
        best: list[tuple[int, str, int]] = []
        j = 0
        for i in range(len(pts)):
            while pts[i][0] - pts[j][0] > HABIT_SPAN_MIN:
                j += 1
            if i - j + 1 > len(best):
                best = pts[j : i + 1]
        if len(best) >= HABIT_MIN_DAYS:
            out.append(
                {
                    "kind": "daily_habit",
                    "what": what,
                    "name": name,
                    "days": len(best),
                    "around": f"{best[0][0] // 60:02d}:{best[0][0] % 60:02d}"
                    f"-{best[-1][0] // 60:02d}:{best[-1][0] % 60:02d}",
                    "at_ms": sorted(p[2] for p in best),
                }
            )
    return out


def repeated_text(actions: Sequence[Action]) -> list[Pattern]:
    groups: dict[str, list[Action]] = {}
    for a in actions:
        if a.text and a.kind in (KEY, TEXT, PASTE):
            groups.setdefault(a.text, []).append(a)
    out = []
    for text, acts in sorted(groups.items()):
        if len(acts) >= MIN_REPEATS:
            out.append(
                {
                    "kind": "repeated_text",
                    "text": text,
                    "count": len(acts),
                    "first_ms": min(a.ts_ms for a in acts),
                    "last_ms": max(a.ts_ms for a in acts),
                    "events": _ev([a.event_id for a in acts]),
                }
            )
    return out


def find_patterns(
    actions: Sequence[Action],
    snapshots: Sequence[Snapshot],
    tz: str,
    include_text: bool = False,
) -> list[Pattern]:
    """Every pattern, in a fixed order: by kind as listed above, then by key."""
    pats = (
        repeated_targets(actions, tz)
        + url_loops(snapshots, tz)
        + app_pingpong(snapshots, tz)
        + daily_habits(actions, snapshots, tz)
    )
    if include_text:
        pats += repeated_text(actions)
    return pats


def evidence_ids(p: Pattern) -> list[int]:
    """The event or row ids a pattern rests on."""
    return list(p.get("events", [])) + list(p.get("rows", []))
