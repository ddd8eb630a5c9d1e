"""The oracle's own reading of the capture stores, independent of ``actframes.sources``:
``sqlite3`` for the native store and screenpipe-style databases, ``json`` for ActivityWatch
exports (with ActivityWatch's own rules, ``sources/activitywatch/rules.py``, for what a
host's window time credits). Every store becomes one ``Store`` of rows, key presses and away
spans."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from ..sources.activitywatch.rules import Ev, HostInput, host_pieces
from .oracle_spans import minus, union

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
    return Store(p, "native", rows, keys, union(afk), True, True, True)


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
    return epoch_ms(dt) + ms


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def epoch_ms(dt: datetime) -> int:
    return (dt - EPOCH) // timedelta(milliseconds=1)


# ---------------------------------------------------------------------------- ActivityWatch


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
    from ..sources.activitywatch.rules import Ev

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
    credited = union((r.ts, r.ts + (r.dur or 0)) for r in rows)
    return Store(p, "activitywatch", rows, [], minus(union(away), credited), False,
                 bool(afk), bool(webs))  # fmt: skip


def _piece_app(ref: object) -> str:
    return cast(tuple[int, str, str], ref)[1]
