"""Routines from a store path: the library calls behind ``actframes routines``,
``actframes replay``, ``actframes bench routines`` and the MCP routine tools."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date as Date
from datetime import timedelta
from pathlib import Path
from typing import Any, NamedTuple

from ..compile.document import Clock
from ..errors import UsageError
from ..sources import actions as store_actions
from ..window import Window, day_window, local_day_of
from .mine import Corpus, Mined, Rules, mine
from .plan import build_plan
from .step_streams import read_steps
from .step_tokens import SESSION_GAP_MS, RStep, segments

# Without --days: the whole store (UI logs are one recording each); far-future end.
ALL_START_MS = 0
ALL_END_MS = 4_102_444_800_000  # 2100-01-01
# Longer windows of whole days are read in one piece (a day at a time would open the
# store thousands of times); the MCP server's limit is far below.
MAX_SPLIT_DAYS = 366


class Mining(NamedTuple):
    steps: list[RStep]
    segs: list[list[RStep]]
    corpus: Corpus
    mined: list[Mined]
    routines: list[dict[str, Any]]
    screens: dict[str, tuple[int, int]]
    start_ms: int
    end_ms: int


def window_of(zone: str, days: int | None, until: str | None) -> tuple[int, int]:
    """[start, end) of the ``days`` local days ending on ``until``; everything if None."""
    if days is None:
        return ALL_START_MS, ALL_END_MS
    if days < 1:
        raise UsageError("--days must be at least 1")
    if until is None:
        raise UsageError("--until is needed with --days")
    last = day_window(until, zone)
    try:
        first = Date.fromisoformat(last.day or until) - timedelta(days=days - 1)
    except OverflowError:
        raise UsageError(f"--days {days} before {until} reaches before year 1") from None
    return day_window(first.isoformat(), zone).start_ms, last.end_ms


def check_rules(rules: Rules) -> Rules:
    if rules.min_length < 2:
        raise UsageError("--min-length must be at least 2")
    if rules.min_occurrences < 2:
        raise UsageError("--min-occurrences must be at least 2")
    if rules.min_days < 1:
        raise UsageError("--min-days must be at least 1")
    if rules.min_specific < 0:
        raise UsageError("--min-specific must be at least 0")
    if rules.max_length < rules.min_length:
        raise UsageError("--max-length must be at least --min-length")
    return rules


def mine_steps(
    steps: list[RStep], zone: str, rules: Rules, include_text: bool = False
) -> tuple[list[list[RStep]], Corpus, list[Mined], list[dict[str, Any]]]:
    """The pure part: steps → segments → routines with their plans."""
    segs = segments(steps, SESSION_GAP_MS)
    corpus = Corpus(segs)
    mined = mine(corpus, check_rules(rules))
    iso = Clock(zone).iso
    return segs, corpus, mined, [build_plan(m, corpus, iso, include_text) for m in mined]


class DaySteps(NamedTuple):
    """The routine steps of one local day, read as that day's document reads it (its
    capture with the read margin, stale events re-attributed within it), with the
    screen sizes by device: a piece a long-lived process can keep per day."""

    steps: tuple[RStep, ...]
    screens: tuple[tuple[str, tuple[int, int]], ...]


def day_windows(zone: str, start_ms: int, end_ms: int) -> list[Window] | None:
    """The local days that tile [start_ms, end_ms) exactly, in order; None when the
    window is not whole days (the whole store, an odd span) or longer than
    ``MAX_SPLIT_DAYS``: it is then read in one piece."""
    if end_ms <= start_ms or (start_ms, end_ms) == (ALL_START_MS, ALL_END_MS):
        return None
    w = day_window(local_day_of(start_ms, zone), zone)
    out: list[Window] = []
    while w.start_ms < end_ms and len(out) <= MAX_SPLIT_DAYS:
        out.append(w)
        w = day_window((Date.fromisoformat(w.day or "") + timedelta(days=1)).isoformat(), zone)
    if not out or out[0].start_ms != start_ms or out[-1].end_ms != end_ms:
        return None
    return out if len(out) <= MAX_SPLIT_DAYS else None


def by_day(path: Path, source: str | None) -> bool:
    """Is the store read a day at a time? Where a day's steps can be fingerprinted
    (``sources.actions.days_fingerprinted``), so that keeping days pays; other readers pay
    a fixed cost per read (an export parsed whole, a scan for rows without a usable time),
    and read in one piece."""
    return store_actions.days_fingerprinted(path, store_actions.family(path, source))


def read_day(
    path: Path,
    source: str | None,
    zone: str,
    window: Window,
    include_text: bool,
    *,
    audible_active: bool = True,
) -> DaySteps:
    steps, screens = read_steps(
        path,
        source,
        window.start_ms,
        window.end_ms,
        zone,
        include_text,
        audible_active=audible_active,
    )
    return DaySteps(tuple(steps), tuple(sorted(screens.items())))


def join_days(days: Sequence[DaySteps]) -> tuple[list[RStep], dict[str, tuple[int, int]]]:
    """One stream of the days' steps in (device, day, time) order — each device's days
    one after another, as ``read_steps`` orders a window — and the screens (a later
    day's size of a device wins)."""
    steps = sorted((s for d in days for s in d.steps), key=lambda s: s.device)  # stable
    screens: dict[str, tuple[int, int]] = {}
    for d in days:
        screens.update(d.screens)
    return steps, dict(sorted(screens.items()))


def mine_store(
    path: Path,
    source: str | None,
    zone: str,
    start_ms: int,
    end_ms: int,
    rules: Rules,
    include_text: bool = False,
    stage: Callable[[str], None] | None = None,
    *,
    audible_active: bool = True,
) -> Mining:
    """Read the window's steps and mine them; ``stage`` hears each stage's name first
    (a progress bar). A window of whole local days of a store read ``by_day`` is read a
    day at a time (``read_day``) and the days joined (``join_days``): what a long-lived
    process that keeps the days it read (``resident_routines``) mines too, byte for
    byte. ``audible_active``: as for ``sources.open_source``."""
    if stage is not None:
        stage("read steps")
    windows = day_windows(zone, start_ms, end_ms) if by_day(path, source) else None
    if windows is None:
        steps, screens = read_steps(
            path, source, start_ms, end_ms, zone, include_text, audible_active=audible_active
        )
    else:
        days = [
            read_day(path, source, zone, w, include_text, audible_active=audible_active)
            for w in windows
        ]
        steps, screens = join_days(days)
    if stage is not None:
        stage("mine routines")
    return mine_joined(steps, screens, zone, start_ms, end_ms, rules, include_text)


def mine_joined(
    steps: list[RStep],
    screens: dict[str, tuple[int, int]],
    zone: str,
    start_ms: int,
    end_ms: int,
    rules: Rules,
    include_text: bool = False,
) -> Mining:
    segs, corpus, mined, routines = mine_steps(steps, zone, rules, include_text)
    return Mining(steps, segs, corpus, mined, routines, screens, start_ms, end_ms)


def find_routine(
    path: Path,
    source: str | None,
    zone: str,
    routine_id: str,
    days: int | None,
    until: str | None,
    rules: Rules | None = None,
    include_text: bool = False,
    *,
    audible_active: bool = True,
) -> dict[str, Any]:
    """The routine ``routine_id`` mined from the store with ``rules`` (default: the
    defaults); UsageError when absent. ``audible_active``: as for ``sources.open_source``."""
    start, end = window_of(zone, days, until)
    rules = rules or Rules()
    found = mine_store(
        path, source, zone, start, end, rules, include_text, audible_active=audible_active
    )
    for r in found.routines:
        if r["id"] == routine_id:
            return r
    raise UsageError(
        f"{path}: no routine {routine_id} in that window"
        f" ({len(found.routines)} found; list them with 'actframes routines')"
    )


def to_markdown(routines: list[dict[str, Any]]) -> str:
    lines = [f"# Routines ({len(routines)})", ""]
    for r in routines:
        lines.append(f"## {r['id']} — {r['title']}")
        lines.append("")
        lines.append(
            f"{r['length']} steps, {r['occurrences']} times on {r['days']} day(s),"
            f" {r['first']} … {r['last']}; apps: {', '.join(r['apps']) or '-'}"
        )
        if r["slots"]:
            lines.append("")
            lines.append("Slots: " + ", ".join(f"`{s['name']}` ({s['kind']})" for s in r["slots"]))
        lines.append("")
        for st in r["plan"]:
            what = st["op"]
            if "target" in st:
                what += f" {st['target']['role']} “{st['target']['name']}”"
            if "value" in st:
                what += f" ← {st['value']}"
            if "url" in st:
                what += f" {st['url']}"
            if st.get("destructive"):
                what += " **(destructive)**"
            guards = ", ".join(g["check"] for g in st["guards"])
            lines.append(f"{st['n']}. {what} — guards: {guards}")
        lines.append("")
    return "\n".join(lines)
