"""The HTML report's layout arithmetic, pure functions of the document: the drawn time
range and its hour ticks, the lanes and their colours, positions as integer percentages,
minutes shown to a tenth."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from html import escape
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..doc_types import Document, Frame, LedgerEntry
from ..period_types import PeriodLedgerEntry

Doc = Document
Lane = tuple[str, str | None]

# Positions are percentages of the timeline with 4 decimals, computed in integers
# (PCT_SCALE units = 100 %), so the same document gives the same bytes on any machine.
PCT_SCALE = 1_000_000
# More hours than this on the axis and only every second hour is labelled.
DENSE_AXIS_HOURS = 16
# Distinct, colour-blind-aware colours (Tableau 10, then darker companions) for the
# busiest ledger keys, in rank order.
PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
    "#ff9da7", "#9c755f", "#79706e", "#2f5d8a", "#b5651d", "#3b7a3a", "#a33b3d",
    "#4a8f8a", "#b8962e", "#7d4f73", "#5f4a3c",
)  # fmt: skip
OTHER_COLOUR = "#79706e"  # a key the ledger lacks (every frame's is there: SPEC §2.9)


def minutes(s: int) -> str:
    """Minutes shown for ``s`` seconds: s / 60 rounded half up to a tenth ("43.9 min").
    The page script formats with the same integer rule; exact seconds sit beside it."""
    tenths = (s * 10 + 30) // 60
    return f"{tenths // 10}.{tenths % 10} min"


def clock(iso: str, day: str) -> str:
    """HH:MM:SS sliced from an ISO time (its offset is the requested zone's); the date is
    added when the instant lies outside the local ``day``."""
    return iso[11:19] if iso[:10] == day else f"{iso[5:10]} {iso[11:19]}"


def parse_iso(iso: str) -> datetime:
    # Aware datetimes with the document's own offsets: differences are exact instants.
    return datetime.fromisoformat(iso)


def pct(units: int) -> str:
    whole, frac = divmod(units, PCT_SCALE // 100)
    return f"{whole}.{frac:04d}%"


def lane_name(app: str, site: str | None) -> str:
    return f"{app} · {site}" if site is not None else app


def lane_colours(doc: Doc) -> dict[Lane, str]:
    """A colour per (app, site) by ledger rank, from a palette of distinct colours, so
    the lane and its ledger bar match and the busiest lanes never share a colour. Keys
    past the palette get a hue from CRC-32 (not ``hash``, which is salted per process)."""
    return ledger_colours(doc["ledger"])


def ledger_colours(ledger: Sequence[LedgerEntry | PeriodLedgerEntry]) -> dict[Lane, str]:
    """``lane_colours`` of a ledger in rank order (a day's, or a period's)."""
    out: dict[Lane, str] = {}
    for n, e in enumerate(ledger):
        key = (e["app"], e.get("site"))
        if n < len(PALETTE):
            out[key] = PALETTE[n]
        else:
            hue = zlib.crc32(f"{key[0]}\x00{key[1] or ''}".encode()) % 360
            out[key] = f"hsl({hue} 45% 45%)"
    return out


def name_html(app: str, site: str | None) -> str:
    """App and site as separate spans: where the label is cut, the app gives way first,
    since the site is what tells a browser's lanes apart."""
    if site is None:
        return f'<span class="n-app solo">{escape(app)}</span>'
    return (
        f'<span class="n-app">{escape(app)}</span><span class="n-sep"> · </span>'
        f'<span class="n-site">{escape(site)}</span>'
    )


def frames_count(doc: Doc) -> str:
    shown = len(doc["frames"])
    hidden = (doc.get("omitted") or {}).get("frames", 0)
    return f"{shown} shown, {hidden} hidden" if hidden else str(shown)


def _instants(doc: Doc) -> Iterable[tuple[str, str]]:
    cov = doc["coverage"]
    first, last = cov["first"], cov["last"]
    if first and last:
        yield first, last
    for f in doc["frames"]:
        yield f["start"], f["end"]
    for key in ("gaps", "away"):
        for g in cov[key]:
            yield g["start"], g["end"]


def drawn_range(doc: Doc) -> tuple[datetime, datetime]:
    """The drawn range: what the document holds, widened to whole local hours and cut to
    the window; the whole window when it holds nothing. A day is mostly night, and a
    timeline of 24 hours would squeeze the working hours into a third of the width."""
    w = doc["window"]
    ws, we = parse_iso(w["start"]), parse_iso(w["end"])
    spans = [(parse_iso(a), parse_iso(b)) for a, b in _instants(doc)]
    if not spans:
        return ws, we
    lo = min(a for a, _ in spans)
    hi = max(b for _, b in spans)
    # The document's offsets are the zone's, so replacing minutes and seconds floors to
    # the local hour without consulting any zone.
    lo = lo.replace(minute=0, second=0, microsecond=0)
    hi_floor = hi.replace(minute=0, second=0, microsecond=0)
    hi = hi_floor if hi_floor == hi else hi_floor + timedelta(hours=1)
    lo, hi = max(lo, ws), min(hi, we)
    if hi <= lo:
        return ws, we
    return lo, hi


def hour_ticks(t0: datetime, t1: datetime, tz: str) -> list[tuple[datetime, str]]:
    """One tick per hour from ``t0``, labelled with local time in the document's zone
    (its named zone, never the machine's), so a DST day shows 01:00, 03:00 honestly."""
    try:
        z: Any = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        # An unknown zone on this machine: the offset the window started with.
        z = t0.tzinfo
    out = []
    t = t0.replace(minute=0, second=0, microsecond=0)
    if t < t0:
        t += timedelta(hours=1)
    while t <= t1:
        out.append((t, t.astimezone(z).strftime("%H:%M")))
        t += timedelta(hours=1)
    return out


def lanes(doc: Doc) -> list[tuple[Lane, list[int]]]:
    """Lanes: one per (app, site) that has a shown frame. Apps are ordered by their
    ledger total (most first, then name); a browser's site lanes sit together, in ledger
    order. Frame indices keep the document's order (by start)."""
    frames: list[Frame] = doc["frames"]
    by_lane: dict[Lane, list[int]] = {}
    for i, f in enumerate(frames):
        by_lane.setdefault((f["app"], f.get("site")), []).append(i)
    app_total: dict[str, int] = {}
    rank: dict[Lane, int] = {}
    for n, e in enumerate(doc["ledger"]):
        app_total[e["app"]] = app_total.get(e["app"], 0) + e["active_s"]
        rank[(e["app"], e.get("site"))] = n
    # Every frame's key is in the ledger (SPEC §2.9); a key that is not sorts last.
    last = len(rank)

    def order(key: Lane) -> tuple[int, str, int, str]:
        app, site = key
        return (-app_total.get(app, 0), app, rank.get(key, last), site or "")

    return [(key, by_lane[key]) for key in sorted(by_lane, key=order)]
