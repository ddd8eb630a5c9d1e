"""The oracle: the truth about a day, read straight from the capture store.

Independent of the compiler on purpose: it imports nothing from ``actframes.compile``,
``actframes.emit`` or ``actframes.sources`` but ActivityWatch's own rules
(``sources/aw_rules.py``, checked against a real aw-server's answers). It opens the
stores itself (``sqlite3`` for the native store and screenpipe-style databases, ``json``
for ActivityWatch exports) and computes every answer with the measurement rules as
SPEC.md defines them, written again here in plain Python:

- Rows are grouped into streams by device and ordered by (time, row id).
- Point sources (native, screenpipe-style): a row holds ``min(gap to the next row of its
  stream, 90 s)`` when that gap is at most 300 s, else nothing; the last row holds nothing.
- Interval sources (ActivityWatch): a row holds its observed span, cut where the next row
  of its stream begins; no cap.
- Active ("earned") time is held time minus recorded away (AFK) time, cut to the day.
- A site is the URL's host, lower-cased, without ``www.``, port, user-info or trailing dot.
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
"""

from __future__ import annotations

import json
import re
import sqlite3
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

DWELL_CAP_MS = 90_000
SESSION_GAP_MS = 300_000
FLICKER_MS = 20_000
URL_NEAR_MS = 2_000
BREAK_MIN_MS = 30 * 60_000  # away periods asked about are at least this long
IDLE_MIN_MS = 300_000  # idle stretches this long count towards an away period ...
BLIP_MS = 60_000  # ... and less activity than this between two of them does not end it

_SQLITE_MAGIC = b"SQLite format 3\x00"
_LATEST_MS = 4_102_444_800_000  # 2100-01-01T00:00Z: the readers' horizon for any instant
_INVISIBLE = re.compile("[\u200b\u200e\u200f\u2060\ufeff]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_KEY_TYPES = {"key", "keydown", "key_press"}


class OracleError(Exception):
    """A store the oracle cannot read; one line, naming the file."""


# ---------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class ORow:
    """One snapshot row: the focused window at ``ts`` (epoch ms, UTC)."""

    rid: int
    ts: int
    app: str
    title: str
    url: str | None
    device: str
    dur: int | None = None  # observed span (interval sources only)


@dataclass(frozen=True, slots=True)
class OKey:
    """Key presses recorded at ``ts`` (``count`` of them)."""

    ts: int
    app: str | None
    device: str | None
    count: int


@dataclass
class Store:
    path: Path
    kind: str  # native | screenpipe | activitywatch
    rows: list[ORow]
    keys: list[OKey] = field(default_factory=list)
    afk: list[tuple[int, int]] = field(default_factory=list)
    has_input: bool = False
    has_afk: bool = False
    has_urls: bool = False
    _text: str | None = field(default=None, repr=False, compare=False)

    @property
    def interval(self) -> bool:
        return self.kind == "activitywatch"

    def mentions(self, word: str) -> bool:
        """Whether ``word`` occurs (case-insensitively) in any app, title or URL."""
        if self._text is None:
            parts = {r.app for r in self.rows} | {r.title for r in self.rows}
            parts |= {r.url for r in self.rows if r.url}
            self._text = "\n".join(sorted(parts)).casefold()
        return word.casefold() in self._text


# ---------------------------------------------------------------------------- loading


def load_store(path: str | Path) -> Store:
    """Read a whole store: native, screenpipe-style, or an ActivityWatch export (JSON)."""
    p = Path(path)
    try:
        head = p.read_bytes()[:512] if p.is_file() else b""
    except OSError as exc:
        raise OracleError(f"{p}: cannot read ({exc.strerror})") from exc
    if not head:
        raise OracleError(f"{p}: no such store (missing, empty or not a file)")
    if head.startswith(_SQLITE_MAGIC):
        return _load_sqlite(p)
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        return _load_aw_export(p)
    raise OracleError(f"{p}: not a store the oracle reads (neither SQLite nor JSON)")


def _load_sqlite(p: Path) -> Store:
    conn = sqlite3.connect(p.resolve().as_uri() + "?mode=ro", uri=True)
    conn.text_factory = lambda b: b.decode("utf-8", "replace")
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if {"snapshots", "input_events"} <= names:
            return _load_native(p, conn, names)
        if "frames" in names:
            return _load_screenpipe(p, conn, names)
        if {"buckets", "events"} <= names:
            raise OracleError(f"{p}: the oracle reads ActivityWatch exports (JSON), not sqlite.db")
        raise OracleError(f"{p}: SQLite database of an unknown family")
    except sqlite3.DatabaseError as exc:
        raise OracleError(f"{p}: cannot read ({exc})") from exc
    finally:
        conn.close()


def _clean(value: object) -> str:
    if value is None:
        return ""
    s = _INVISIBLE.sub("", str(value))
    return " ".join(_CONTROL.sub(" ", s).split())


def _url(value: object) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _load_native(p: Path, conn: sqlite3.Connection, names: set[str]) -> Store:
    rows = []
    for rid, ts, device, app, title, url in conn.execute(
        "SELECT id, ts_ms, device, app, title, url FROM snapshots"
    ):
        if isinstance(rid, int) and isinstance(ts, int) and _clean(app):
            rows.append(ORow(rid, ts, _clean(app), _clean(title), _url(url), device or ""))
    keys = [
        OKey(ts, _clean(app) or None, device or None, n if isinstance(n, int) and n > 0 else 1)
        for ts, app, device, n in conn.execute(
            "SELECT ts_ms, app, device, count FROM input_events WHERE kind = 'key'"
        )
        if isinstance(ts, int)
    ]
    afk: list[tuple[int, int]] = []
    if "afk" in names:
        afk = [
            (s, e)
            for s, e in conn.execute("SELECT start_ms, end_ms FROM afk")
            if isinstance(s, int) and isinstance(e, int) and e > s
        ]
    return Store(p, "native", rows, keys, _union(afk), True, True, True)


def _load_screenpipe(p: Path, conn: sqlite3.Connection, names: set[str]) -> Store:
    """screenpipe as SPEC.md reads it: only focused rows (``focused`` 0 is a window on
    screen, not attention), all monitors one stream; typing from ``text`` rows (their
    characters, else ``text_length``) and shortcut ``key`` rows. (The app is read from
    ``frames`` only: the stores the benchmarks build keep it there.)"""
    cols = {r[1] for r in conn.execute("PRAGMA table_info(frames)")}
    pick = ", ".join(c if c in cols else "NULL" for c in ("window_name", "browser_url", "focused"))
    rows = []
    for rid, stamp, app, title, url, focused in conn.execute(
        f"SELECT id, timestamp, app_name, {pick} FROM frames"
    ):
        ts = parse_instant(stamp)
        if focused in (0, "0", "false") or not isinstance(rid, int) or ts is None:
            continue
        if _clean(app):
            rows.append(ORow(rid, ts, _clean(app), _clean(title), _url(url), ""))
    keys: list[OKey] = []
    has_input = False
    if "ui_events" in names:
        ecols = {r[1] for r in conn.execute("PRAGMA table_info(ui_events)")}
        if {"timestamp", "event_type"} <= ecols:
            has_input = True
            got = ", ".join(
                c if c in ecols else "NULL" for c in ("app_name", "text_content", "text_length")
            )
            for stamp, kind, app, text, nbytes in conn.execute(
                f"SELECT timestamp, event_type, {got} FROM ui_events"
            ):
                kind = kind.lower() if isinstance(kind, str) else ""
                if kind == "text":
                    n = len(text) if isinstance(text, str) and text else nbytes
                elif kind in _KEY_TYPES:
                    n = 1
                else:
                    continue
                ts = parse_instant(stamp)
                if ts is not None:
                    size = n if isinstance(n, int) and n > 0 else 1
                    keys.append(OKey(ts, _clean(app) or None, None, size))
    return Store(p, "screenpipe", rows, keys, [], has_input, False, "browser_url" in cols)


_ISO = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?"
    r"\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?)?\Z",
    re.IGNORECASE,
)


def parse_instant(text: object) -> int | None:
    """ISO-8601 text (any offset, or none = UTC) as epoch ms; None if it is not one."""
    if not isinstance(text, str):
        return None
    m = _ISO.match(text.strip())
    if not m:
        return None
    y, mo, d, h, mi = (int(m.group(i)) for i in range(1, 6))
    sec = min(int(m.group(6) or 0), 59)
    ms = int((m.group(7) or "0")[:3].ljust(3, "0"))
    off = m.group(8) or "Z"
    if off.upper() in ("Z", "UTC"):
        minutes = 0
    else:
        digits = off[1:].replace(":", "")
        minutes = int(digits[:2]) * 60 + int(digits[2:4] or 0)
        minutes = -minutes if off[0] == "-" else minutes
    try:
        dt = datetime(y, mo, d, h, mi, sec, tzinfo=UTC) - timedelta(minutes=minutes)
    except ValueError:
        return None
    return _epoch_ms(dt) + ms


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _epoch_ms(dt: datetime) -> int:
    return (dt - _EPOCH) // timedelta(milliseconds=1)


# ---------------------------------------------------------------------------- ActivityWatch


_BROWSER_APPS = (
    ("firefox", "firefox"),
    ("librewolf", "firefox"),
    ("waterfox", "firefox"),
    ("chromium", "chromium"),
    ("chrome", "chromium"),
    ("brave", "chromium"),
    ("msedge", "chromium"),
    ("microsoft edge", "chromium"),
    ("microsoft-edge", "chromium"),
    ("opera", "chromium"),
    ("vivaldi", "chromium"),
    ("safari", "safari"),
)


def _family_of_app(app: str) -> str | None:
    a = app.casefold()
    return next((fam for frag, fam in _BROWSER_APPS if frag in a), None)


def _aw_events(bucket: dict[str, Any]) -> Iterator[tuple[int, int, dict[str, Any], Any]]:
    for ev in bucket.get("events") or []:
        if not isinstance(ev, dict) or not isinstance(ev.get("data"), dict):
            continue
        ts = parse_instant(ev.get("timestamp"))
        dur = ev.get("duration")
        if ts is None or isinstance(dur, bool) or not isinstance(dur, int | float):
            continue
        if dur < 0 or dur != dur or dur == float("inf"):
            continue
        if ts + dur * 1000 >= _LATEST_MS:  # ends after 2099: an impossible row
            continue
        yield ts, int(dur * 1000 + 0.5), ev["data"], ev.get("id")


def _load_aw_export(p: Path) -> Store:
    from ..sources.aw_rules import Ev, HostInput, host_pieces

    try:
        doc = json.loads(p.read_bytes())
    except (OSError, ValueError) as exc:
        raise OracleError(f"{p}: not a readable JSON export ({exc})") from exc
    buckets = doc.get("buckets") if isinstance(doc, dict) else None
    if not isinstance(buckets, dict):
        raise OracleError(f'{p}: not an ActivityWatch export (no "buckets" object)')
    windows: list[tuple[int, int, str, str, str, str, Any, str]] = []
    webs: list[tuple[str, str, Ev]] = []  # (host, bucket, event)
    afk: dict[str, list[Ev]] = {}
    away: list[tuple[int, int]] = []
    for bid in sorted(buckets, key=str):
        b = buckets[bid]
        if not isinstance(b, dict):
            continue
        kind, host = str(b.get("type") or ""), _clean(b.get("hostname"))
        if kind == "currentwindow":
            for ts, dur, data, eid in _aw_events(b):
                app = _clean(data.get("app"))
                if app:
                    key = json.dumps(data, sort_keys=True)
                    windows.append(
                        (ts, dur, app, _clean(data.get("title")), str(bid), host, eid, key)
                    )
        elif kind == "web.tab.current":
            for ts, dur, data, _ in _aw_events(b):
                url = _url(data.get("url"))
                if url:
                    ref = (url, data.get("audible") is True)
                    key = json.dumps(data, sort_keys=True)
                    webs.append((host, str(bid), Ev(ts, dur, key, ref, (dur, key))))
        elif kind == "afkstatus":
            mine = afk.setdefault(host, [])
            for ts, dur, data, _ in _aw_events(b):
                status = data.get("status")
                if status in ("afk", "not-afk"):
                    mine.append(Ev(ts, dur, status, None, (dur, status)))
                if status == "afk":
                    away.append((ts, ts + dur))
    if not windows:
        raise OracleError(f"{p}: no window events (bucket type 'currentwindow')")
    windows.sort(key=lambda w: (w[0], w[1], w[2], w[3], w[7], w[4]))
    next_id = 1 + max((w[6] for w in windows if isinstance(w[6], int)), default=0)
    by_host: dict[str, list[Ev]] = {}
    seen_ids: set[int] = set()
    for ts, dur, app, title, _bid, host, eid, key in windows:
        if not isinstance(eid, int) or isinstance(eid, bool):
            eid, next_id = next_id, next_id + 1
        if eid in seen_ids:
            continue
        seen_ids.add(eid)
        by_host.setdefault(host, []).append(Ev(ts, dur, key, (eid, app, title), (dur, key, eid)))
    rows: list[ORow] = []
    web_hosts = {h for h, _, _ in webs}
    for host, evs in sorted(by_host.items()):
        web: dict[str, list[Ev]] = {}
        for h, bid, e in webs:
            if h == host or (host not in web_hosts and h.casefold() in ("", "unknown")):
                web.setdefault(bid, []).append(e)
        pieces, _ = host_pieces(HostInput(evs, afk.get(host), web, _piece_app))
        for pc in pieces:
            eid, app, title = cast(tuple[int, str, str], pc.ref)
            rows.append(ORow(eid, pc.start, app, title, pc.url, host, pc.end - pc.start))
    credited = _union((r.ts, r.ts + (r.dur or 0)) for r in rows)
    return Store(p, "activitywatch", rows, [], _minus(_union(away), credited), False,
                 bool(afk), bool(webs))  # fmt: skip


def _piece_app(ref: object) -> str:
    return cast(tuple[int, str, str], ref)[1]


# ---------------------------------------------------------------------------- spans


def _union(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(x for x in spans if x[1] > x[0]):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _intersect(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for s1, e1 in a:
        for s2, e2 in b:
            s, e = max(s1, s2), min(e1, e2)
            if s < e:
                out.append((s, e))
    return _union(out)


def _minus(spans: list[tuple[int, int]], cut: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` without ``cut`` (both merged and sorted)."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        cur = s
        for cs, ce in cut:
            if ce <= cur or cs >= e:
                continue
            if cs > cur:
                out.append((cur, cs))
            cur = max(cur, ce)
        if cur < e:
            out.append((cur, e))
    return out


def _split(spans: list[tuple[int, int]], points: list[int]) -> list[tuple[int, int]]:
    """Sorted spans cut at the (sorted) points strictly inside them."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        for p in points[bisect_right(points, s) : bisect_left(points, e)]:
            out.append((s, p))
            s = p
        out.append((s, e))
    return out


def _bridge(spans: list[tuple[int, int]], blip: int) -> list[tuple[int, int]]:
    """Join sorted spans separated by less than ``blip``."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s - out[-1][1] < blip:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


# ---------------------------------------------------------------------------- sites, entities


def site_of(url: str | None) -> str | None:
    """The URL's host: lower-cased, no ``www.``, port, user-info or trailing dot."""
    if not url:
        return None
    u = url.strip()
    if "://" not in u and not u.startswith("//"):
        first = u.split("/", 1)[0]
        if "." not in first and not first.lower().startswith("localhost"):
            return None
        u = "//" + u
    try:
        host = urlsplit(u).hostname
    except ValueError:
        return None
    host = (host or "").rstrip(".").lower()
    return (host[4:] if host.startswith("www.") else host) or None


_GH_PATH = re.compile(
    r"/([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]+)/(pull|issues)/(\d+)(?:/.*)?\Z"
)
_GDOC_PATH = re.compile(
    r"(?:/a/[^/]+)?/(document|spreadsheets|presentation)(?:/u/\d+)?/d/([\w-]{10,})(?:/.*)?\Z"
)
_GDOC_KINDS = {"document": "doc", "spreadsheets": "sheet", "presentation": "slides"}
# Titles, for rows without a URL (a browser's own name may follow after " - ", " — ").
_SUFFIX = r"(?: [-–—] [^·]*)?\Z"
_GH_TITLE = re.compile(
    r"\A.+? · (Issue|Pull Request) #(\d+) · ([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9_.-]+)"
    r"(?: · GitHub)?" + _SUFFIX
)
_GDOC_TITLE = re.compile(r"\A(.+) - Google (Docs|Sheets|Slides)" + _SUFFIX)
_URL_TITLE = re.compile(
    r"\A((?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:/\S*)?)(?: [-–—] .*)?\Z", re.I
)
_GDOC_TITLE_KINDS = {"Docs": "doc", "Sheets": "sheet", "Slides": "slides"}
ENTITY_KINDS = ("pull_request", "issue", "doc", "sheet", "slides")


@dataclass(frozen=True, slots=True)
class Entity:
    kind: str  # one of ENTITY_KINDS, as the document and the block spell it
    name: str  # as the document and the block name it: owner/repo#N, a document's id or title
    first_ms: int  # first time it was on screen in the day
    title: str | None = None  # a Google document's title, when a row with its id showed one


def entity_of(app: str, title: str, url: str | None) -> tuple[str, str, str | None] | None:
    """(kind, name, title) of what a row shows when it is a GitHub pull request or issue
    or a Google Docs/Sheets/Slides document, else None. From the URL when the row has
    one (a document is named by its id), else from a browser's window title (a document
    is named by its title)."""
    if url:
        site = site_of(url)
        if site not in ("github.com", "docs.google.com"):
            return None
        try:
            path = urlsplit(url if "://" in url else "//" + url).path
        except ValueError:
            return None
        if site == "github.com":
            m = _GH_PATH.match(path)
            if m:
                kind = "pull_request" if m.group(3) == "pull" else "issue"
                return kind, f"{m.group(1)}/{m.group(2)}#{m.group(4)}", None
            return None
        m = _GDOC_PATH.match(path)
        if not m:
            return None
        t = _GDOC_TITLE.match(title)
        return _GDOC_KINDS[m.group(1)], m.group(2), t.group(1).strip() if t else None
    if _family_of_app(app) is None:
        return None
    m = _URL_TITLE.match(title)
    if m:  # a browser shows the address as the title while a page loads
        return entity_of(app, "", m.group(1))
    m = _GH_TITLE.match(title)
    if m:
        kind = "pull_request" if m.group(1) == "Pull Request" else "issue"
        return kind, f"{m.group(3)}#{m.group(2)}", None
    m = _GDOC_TITLE.match(title)
    if m:
        return _GDOC_TITLE_KINDS[m.group(2)], m.group(1).strip(), None
    return None


# ---------------------------------------------------------------------------- a day's facts


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
    return _epoch_ms(start), _epoch_ms(end)


def store_days(store: Store, tz: str) -> list[str]:
    """Local days (in ``tz``) on which the store has at least one row."""
    z = ZoneInfo(tz)
    return sorted({(_EPOCH + timedelta(milliseconds=r.ts)).astimezone(z).date().isoformat()
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
                active_pieces += _minus([(s, e)], afk)
            elif not _in_spans(s, afk, afk_starts):
                points.append(s)
    spans = _union(active_pieces)
    bounds = [p for s in spans for p in s] + points
    if bounds:
        f.first_ms, f.last_ms = min(bounds), max(bounds)
        idle = _split(_minus([(f.first_ms, f.last_ms)], spans), sorted(set(points)))
        idle = [x for x in idle if x[1] - x[0] >= IDLE_MIN_MS]
        f.breaks = [(s, e) for s, e in _bridge(idle, BLIP_MS) if e - s >= BREAK_MIN_MS]
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
    dt = (_EPOCH + timedelta(milliseconds=ms)).astimezone(z)
    days = (dt.date() - date.fromisoformat(day)).days
    return days * 1440 + dt.hour * 60 + dt.minute + dt.second / 60 + dt.microsecond / 60e6
