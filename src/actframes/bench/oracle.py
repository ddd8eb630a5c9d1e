"""The oracle: the truth about a day, read straight from the capture store.

Independent of the compiler on purpose: it imports nothing from ``actframes.compile``,
``actframes.emit`` or ``actframes.sources`` but ActivityWatch's own rules
(``sources/activitywatch/rules.py``, checked against a real aw-server's answers). It opens the
stores itself (``sqlite3`` for the native store and screenpipe-style databases, ``json``
for ActivityWatch exports) and computes every answer with the measurement rules as
SPEC.md defines them, written again here in plain Python:

- Rows are grouped into streams by device and ordered by (time, row id).
- Point sources (native, screenpipe-style): a row holds ``min(gap to the next row of its
  stream, 90 s)`` when that gap is at most 300 s, else nothing; the last row holds nothing.
- Interval sources (ActivityWatch): a row holds its observed span, cut where the next row
  of its stream begins; no cap.
- Active ("earned") time is held time minus recorded away (AFK) time, cut to the day.
- A site is the URL's host, lower-cased, without ``www.``, user-info or trailing dot, with
  a port that is not the scheme's default; a browser page or extension with its scheme
  (``about:blank``, ``chrome://newtab``); a URL that names no host its scheme (``file:``).
- ActivityWatch rows are the pieces ActivityWatch's web UI credits, host by host: window
  events flooded, cut to the host's not-AFK time (audible browser time included), browser
  time split by the URLs of the web events overlapping it.
- Frames: consecutive rows of one stream with the same (app, site), closed by a gap of
  more than 300 s; A → B → A folds into one A frame when B's first row is at most 20 s
  before A's return. A frame's active time is its own rows' active time.
- First and last activity: the first and last instant of held time outside recorded away
  time. Away periods: stretches between them with no active time, where idle stretches
  of at least 5 minutes separated by less than 60 s of activity count as one, kept when
  at least 30 minutes long.
- Keys per app: key presses in the day on the row that holds their time on their device
  (any device when none is named), counted only when the event names that app or none.
- Entities (pull requests, issues, Google Docs/Sheets/Slides): what a row's URL points at
  (a document named by its id), else, in a browser row, what its window title names (a
  document named by its title; an address shown as the title is read as the URL); an
  entity's first view is the first row that shows it. Names are spelled as the document's
  ``viewed`` key spells them, so questions name entities the way the block does.

The day is ``[local midnight, next local midnight)`` in the zone asked for.

The parts: ``oracle_store`` (reading the stores), ``oracle_entities`` (sites, entities),
``oracle_spans`` (span arithmetic); here, a day's facts.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from .oracle_entities import Entity, entity_of, site_of
from .oracle_spans import bridge, minus, split_at, union
from .oracle_store import EPOCH, OKey, ORow, Store, epoch_ms

DWELL_CAP_MS = 90_000
SESSION_GAP_MS = 300_000
FLICKER_MS = 20_000
URL_NEAR_MS = 2_000
BREAK_MIN_MS = 30 * 60_000  # away periods asked about are at least this long
IDLE_MIN_MS = 300_000  # idle stretches this long count towards an away period ...
BLIP_MS = 60_000  # ... and less activity than this between two of them does not end it


@dataclass(frozen=True, slots=True)
class OFrame:
    app: str
    site: str | None
    device: str
    start_ms: int
    end_ms: int
    active_ms: int


@dataclass
class DayFacts:
    """Everything the questions ask about one day, measured from the store."""

    day: str
    tz: str
    start_ms: int
    end_ms: int
    kind: str
    has_input: bool
    has_afk: bool
    has_urls: bool
    rows: int = 0
    app_ms: dict[str, int] = field(default_factory=dict)
    site_ms: dict[str, int] = field(default_factory=dict)
    first_ms: int | None = None
    last_ms: int | None = None
    frames: list[OFrame] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    keys_by_app: dict[str, int] = field(default_factory=dict)
    breaks: list[tuple[int, int]] = field(default_factory=list)

    @property
    def apps(self) -> list[str]:
        return sorted(self.app_ms)

    @property
    def sites(self) -> list[str]:
        return sorted(self.site_ms)


def day_bounds(day: str, tz: str) -> tuple[int, int]:
    d = date.fromisoformat(day)
    z = ZoneInfo(tz)
    n = d + timedelta(days=1)
    start = datetime(d.year, d.month, d.day, tzinfo=z)
    end = datetime(n.year, n.month, n.day, tzinfo=z)
    return epoch_ms(start), epoch_ms(end)


def store_days(store: Store, tz: str) -> list[str]:
    """Local days (in ``tz``) on which the store has at least one row."""
    z = ZoneInfo(tz)
    return sorted({(EPOCH + timedelta(milliseconds=r.ts)).astimezone(z).date().isoformat()
                   for r in store.rows})  # fmt: skip


@dataclass(slots=True)
class _Held:
    row: ORow
    site: str | None
    end: int  # end of held time
    gap_after: bool  # a session gap follows (or the stream ends)
    attrib_end: int  # input up to here belongs to this row


def _held(rows: list[ORow], interval: bool) -> list[_Held]:
    out: list[_Held] = []
    for i, r in enumerate(rows):
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        if interval:
            span_end = r.ts + (r.dur or 0)
            end = max(r.ts, min(span_end, nxt.ts)) if nxt else span_end
            gap_after = nxt is None or nxt.ts - span_end > SESSION_GAP_MS
        else:
            gap = nxt.ts - r.ts if nxt else None
            gap_after = gap is None or gap > SESSION_GAP_MS
            end = r.ts if gap is None or gap_after else r.ts + min(gap, DWELL_CAP_MS)
        out.append(_Held(r, site_of(r.url), end, gap_after, end))
    for i, h in enumerate(out[:-1]):
        nxt_h = out[i + 1]
        if not h.gap_after and (nxt_h.row.app, nxt_h.site) == (h.row.app, h.site):
            h.attrib_end = max(h.end, nxt_h.row.ts)
    return out


def _overlap(s: int, e: int, spans: list[tuple[int, int]], starts: list[int]) -> int:
    if e <= s or not spans:
        return 0
    total = 0
    i = max(0, bisect_right(starts, s) - 1)
    while i < len(spans) and spans[i][0] < e:
        a, b = spans[i]
        total += max(0, min(b, e) - max(a, s))
        i += 1
    return total


def _in_spans(t: int, spans: list[tuple[int, int]], starts: list[int]) -> bool:
    i = bisect_right(starts, t) - 1
    return i >= 0 and spans[i][0] <= t < spans[i][1]


def day_facts(store: Store, day: str, tz: str) -> DayFacts:
    """The measured facts of one local day."""
    start, end = day_bounds(day, tz)
    f = DayFacts(day, tz, start, end, store.kind, store.has_input, store.has_afk, store.has_urls)
    afk = store.afk
    afk_starts = [a for a, _ in afk]
    streams: dict[str, list[ORow]] = {}
    for r in store.rows:
        streams.setdefault(r.device, []).append(r)
    active_pieces: list[tuple[int, int]] = []
    points: list[int] = []
    placed: dict[str, list[tuple[_Held, int]]] = {}
    for device in sorted(streams):
        rows = sorted(streams[device], key=lambda r: (r.ts, r.rid))
        lo = bisect_left([r.ts for r in rows], start - 2 * 86_400_000)
        hi = bisect_left([r.ts for r in rows], end + SESSION_GAP_MS + 1)
        for h in _held(rows[lo:hi], store.interval):
            r = h.row
            if not (start <= r.ts < end or (r.ts < start < h.end)):
                continue
            s, e = max(r.ts, start), min(h.end, end)
            earned = (e - s) - _overlap(s, e, afk, afk_starts) if e > s else 0
            placed.setdefault(device, []).append((h, earned))
            f.rows += 1
            f.app_ms[r.app] = f.app_ms.get(r.app, 0) + earned
            if h.site:
                f.site_ms[h.site] = f.site_ms.get(h.site, 0) + earned
            if e > s:
                active_pieces += minus([(s, e)], afk)
            elif not _in_spans(s, afk, afk_starts):
                points.append(s)
    spans = union(active_pieces)
    bounds = [p for s in spans for p in s] + points
    if bounds:
        f.first_ms, f.last_ms = min(bounds), max(bounds)
        idle = split_at(minus([(f.first_ms, f.last_ms)], spans), sorted(set(points)))
        idle = [x for x in idle if x[1] - x[0] >= IDLE_MIN_MS]
        f.breaks = [(s, e) for s, e in bridge(idle, BLIP_MS) if e - s >= BREAK_MIN_MS]
    for device in sorted(placed):
        f.frames += _frames(placed[device], device, start, end)
    f.frames.sort(key=lambda x: (x.start_ms, x.device))
    f.entities = _entities(placed, start)
    if store.has_input:
        f.keys_by_app = _keys(store.keys, placed, start, end)
    return f


@dataclass
class _Run:
    app: str
    site: str | None
    first_ts: int
    end: int
    gap_after: bool
    active: int


def _frames(placed: list[tuple[_Held, int]], device: str, start: int, end: int) -> list[OFrame]:
    runs: list[_Run] = []
    for h, earned in placed:
        last = runs[-1] if runs else None
        if last and not last.gap_after and (last.app, last.site) == (h.row.app, h.site):
            last.end, last.gap_after = h.end, h.gap_after
            last.active += earned
        else:
            runs.append(_Run(h.row.app, h.site, h.row.ts, h.end, h.gap_after, earned))
    stack: list[_Run] = []
    for run in runs:
        stack.append(run)
        while len(stack) >= 3:
            a, b, c = stack[-3], stack[-2], stack[-1]
            if (
                (a.app, a.site) == (c.app, c.site)
                and not a.gap_after
                and not b.gap_after
                and c.first_ts - b.first_ts <= FLICKER_MS
            ):
                a.end, a.gap_after, a.active = c.end, c.gap_after, a.active + c.active
                del stack[-2:]
            else:
                break
    return [
        OFrame(r.app, r.site, device, max(r.first_ts, start), min(r.end, end), r.active)
        for r in stack
    ]


def _entities(placed: dict[str, list[tuple[_Held, int]]], start: int) -> list[Entity]:
    first: dict[tuple[str, str], tuple[int, str | None]] = {}
    for items in placed.values():
        for h, _ in items:
            r = h.row
            ent = entity_of(r.app, r.title, r.url)
            if ent is None:
                continue
            kind, name, title = ent
            t = max(r.ts, start)
            got = first.get((kind, name))
            if got is None or t < got[0]:
                first[(kind, name)] = (t, title or (got[1] if got else None))
            elif got[1] is None and title:
                first[(kind, name)] = (got[0], title)
    out = [Entity(kind, name, t, title) for (kind, name), (t, title) in first.items()]
    return sorted(out, key=lambda e: (e.first_ms, e.kind, e.name))


def _keys(
    keys: list[OKey], placed: dict[str, list[tuple[_Held, int]]], start: int, end: int
) -> dict[str, int]:
    """Key presses per app: the event goes to the row that holds its time on its device
    (any device when it names none), and only to a row of the app it names."""
    index = {
        d: ([h.row.ts for h, _ in items], [h for h, _ in items]) for d, items in placed.items()
    }
    out: dict[str, int] = {}
    for k in keys:
        if not start <= k.ts < end:
            continue
        devices = [k.device] if k.device in index else sorted(index)
        for d in devices:
            times, held = index[d]
            i = bisect_right(times, k.ts) - 1
            if i < 0:
                continue
            h = held[i]
            if not h.row.ts <= k.ts < h.attrib_end:
                continue
            if k.app is not None and k.app.casefold() != h.row.app.casefold():
                continue
            out[h.row.app] = out.get(h.row.app, 0) + k.count
            break
    return out


def local_minutes(ms: int, day: str, tz: str) -> float:
    """Wall-clock minutes after the local midnight that starts ``day`` (can exceed 1440)."""
    z = ZoneInfo(tz)
    dt = (EPOCH + timedelta(milliseconds=ms)).astimezone(z)
    days = (dt.date() - date.fromisoformat(day)).days
    return days * 1440 + dt.hour * 60 + dt.minute + dt.second / 60 + dt.microsecond / 60e6
