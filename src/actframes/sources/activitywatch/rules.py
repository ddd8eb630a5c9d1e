"""ActivityWatch's own rules for active time, in integer milliseconds.

These follow, step by step, what ActivityWatch's web UI asks its server for a day — the
canonical query of ``aw-webui`` (``src/queries.ts``: ``canonicalEvents``, ``browserEvents``,
``fullDesktopQuery``) run by ``aw-core``'s transforms (``aw_transform/flood.py``,
``filter_period_intersect.py``, ``period_union``, ``split_url_events.py``):

1. window events are flooded (``flood``, pulsetime 5 s, as aw-core 0.5.18 on PyPI
   floods: gaps between different data split at their midpoint);
2. AFK events are flooded and their ``not-afk`` events kept;
3. each browser's web events are flooded and cut to that browser's (flooded) window
   events; with audible-as-active (the web UI's default) the audible ones join not-AFK
   (``period_union``);
4. window events are cut to not-AFK (``filter_period_intersect``);
5. a browser window piece takes its URLs from the web events that overlap it.

Everything here is per host: one machine's AFK periods never cut another's windows.
Ties the upstream code leaves to input order are broken by (start, duration, data, id).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, pairwise

# aw_query's flood() default, which the canonical query uses.
FLOOD_PULSETIME_MS = 5_000
# flood(): an overlap shorter than this between events of different data is trimmed.
_NEGATIVE_GAP_TRIM_MS = 100

# aw-webui browser names -> exact app names and app-name patterns (queries.ts).
BROWSER_APPNAMES: dict[str, tuple[str, ...]] = {
    "chrome": ("com.google.Chrome", "com.google.ChromeDev", "org.chromium.Chromium"),
    "firefox": ("org.mozilla.firefox", "io.gitlab.librewolf-community", "net.waterfox.waterfox"),
    "opera": ("com.opera.Opera",),
    "brave": ("com.brave.Browser",),
    "edge": ("com.microsoft.Edge", "com.microsoft.EdgeDev"),
    "arc": (),
    "vivaldi": ("com.vivaldi.Vivaldi",),
    "orion": ("Orion",),
    "yandex": ("ru.yandex.Browser",),
    "zen": ("app.zen_browser.zen",),
    "floorp": ("one.ablaze.floorp",),
    "helium": ("net.imput.helium",),
}
BROWSER_APP_PATTERNS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern, re.IGNORECASE)
    for name, pattern in (
        ("chrome", r"^(google[-_ ]?chrome|chrome|chromium)"),
        ("firefox", r"(firefox|librewolf|waterfox|nightly)"),
        ("opera", r"(opera)"),
        ("brave", r"(brave)"),
        ("edge", r"^(microsoft[-_ ]?edge|msedge)"),
        ("arc", r"^arc(\.exe)?$"),
        ("vivaldi", r"(vivaldi)"),
        ("orion", r"(orion)"),
        ("yandex", r"(yandex)"),
        ("zen", r"(zen)"),
        ("floorp", r"(floorp)"),
        ("helium", r"(helium)"),
    )
}


@dataclass(slots=True)
class Ev:
    """One event: a half-open span [start, start + dur), its data (compared whole, as
    upstream compares ``event.data``) and what the caller hangs on it."""

    start: int
    dur: int
    data: Hashable
    ref: object = field(default=None, compare=False)
    order: tuple[object, ...] = field(default=(), compare=False)

    @property
    def end(self) -> int:
        return self.start + self.dur


@dataclass(frozen=True, slots=True)
class Piece:
    """Credited time: [start, end) of a window event (``ref``), with the URL of the
    browser tab it showed, if any; ``origin`` is where the flooded event begins."""

    start: int
    end: int
    ref: object
    url: str | None = None
    origin: int = 0


def _sorted(events: Iterable[Ev]) -> list[Ev]:
    return sorted(events, key=lambda e: (e.start, e.order))


def flood(events: Iterable[Ev], pulsetime_ms: int = FLOOD_PULSETIME_MS) -> list[Ev]:
    """``aw_transform.flood`` as aw-core 0.5.18 has it: events in (start, duration)
    order; a gap up to the pulsetime between equal data merges them (into the longer),
    between different data is split at its midpoint; overlapping equal data merges; then
    a normalizing pass gives the later event precedence where events still overlap."""
    evs = [Ev(e.start, e.dur, e.data, e.ref, e.order) for e in _sorted(events)]
    for e1, e2 in pairwise(evs):
        gap = e2.start - e1.end
        if gap == 0:
            continue
        if gap < 0 and e1.data == e2.data:
            start, end = min(e1.start, e2.start), max(e1.end, e2.end)
            e1.start, e1.dur = start, end - start
            e2.start, e2.dur = end, 0
        elif -_NEGATIVE_GAP_TRIM_MS < gap <= pulsetime_ms:
            e2_end = e2.end
            if e1.data == e2.data:
                if e1.dur >= e2.dur:
                    e1.dur = e2_end - e1.start
                    e2.start, e2.dur = e2_end, 0
                else:
                    e2.start, e2.dur = e1.start, e2_end - e1.start
                    e1.dur = 0
            else:
                # Upstream halves the gap in microseconds; in whole ms the odd half
                # millisecond goes to the later event.
                mid = e1.end + gap // 2
                e1.dur = mid - e1.start
                e2.start, e2.dur = mid, e2_end - mid
    out: list[Ev] = []
    for e in evs:
        if e.dur <= 0:
            continue
        while out and out[-1].end > e.start:
            prev = out[-1]
            if prev.data == e.data:
                end = max(prev.end, e.end)
                prev.dur = end - prev.start
                break
            prev.dur = e.start - prev.start
            if prev.dur <= 0:
                out.pop()
                continue
            out.append(e)
            break
        else:
            out.append(e)
    return out


def period_intersect(events: Sequence[Ev], filters: Sequence[Ev]) -> list[Ev]:
    """``aw_transform.filter_period_intersect``: the parts of ``events`` inside some
    filter event, walked pairwise in time order as upstream walks them."""
    a, b = _sorted(events), _sorted(filters)
    out: list[Ev] = []
    i = j = 0
    while i < len(a) and j < len(b):
        e, f = a[i], b[j]
        lo, hi = max(e.start, f.start), min(e.end, f.end)
        if lo < hi:
            out.append(Ev(lo, hi - lo, e.data, e.ref, e.order))
            if e.end <= f.end:
                i += 1
            else:
                j += 1
        elif e.end <= f.start:
            i += 1
        elif f.end <= e.start:
            j += 1
        else:  # zero-length events that touch: upstream skips both
            i += 1
            j += 1
    return out


def period_union(*lists: Iterable[Ev]) -> list[Ev]:
    """``aw_transform.period_union``: the union of the spans, without data."""
    merged: list[Ev] = []
    for e in _sorted(x for events in lists for x in events):
        if merged and e.start <= merged[-1].end:
            last = merged[-1]
            if e.end > last.end:
                last.dur = e.end - last.start
        else:
            merged.append(Ev(e.start, e.dur, None))
    return merged


def browser_of_bucket(bucket_ids: Sequence[str]) -> dict[str, str]:
    """aw-webui ``browsersWithBuckets``: per browser name, the first web bucket whose id
    contains it (ids taken in sorted order, for determinism)."""
    out: dict[str, str] = {}
    for name in BROWSER_APPNAMES:
        found = next((b for b in sorted(bucket_ids) if name in b), None)
        if found is not None:
            out[found] = out.get(found, name)
    return out


def is_browser_app(app: str, name: str) -> bool:
    """Whether a window's app name is browser ``name``'s (exact names, then pattern).
    Upstream concatenates both matches, which counts an app matched by both twice; an
    event is taken once here."""
    return app in BROWSER_APPNAMES[name] or bool(BROWSER_APP_PATTERNS[name].search(app))


@dataclass(frozen=True, slots=True)
class HostInput:
    """One host's events: window events (``ref`` = the caller's row, ``data`` = app and
    title), AFK events (``data`` = status) or None without an AFK bucket, and web events
    per web bucket id (``data`` = the whole event data, ``ref`` = (url, audible))."""

    windows: list[Ev]
    afk: list[Ev] | None
    web: dict[str, list[Ev]]
    app_of: Callable[[object], str]  # a window event's ref -> its app name


def host_pieces(host: HostInput, *, audible_active: bool = True) -> tuple[list[Piece], list[Ev]]:
    """The host's credited pieces (in time order) and its not-AFK periods (empty when the
    host has no AFK bucket: its window time is credited as recorded)."""
    # Each flooded event remembers where it begins: (caller's ref, flooded start).
    windows = [Ev(w.start, w.dur, w.data, (w.ref, w.start), w.order) for w in flood(host.windows)]
    browser: list[Ev] = []
    for bucket, name in sorted(browser_of_bucket(list(host.web)).items()):
        mine = [w for w in windows if is_browser_app(host.app_of(_ref(w)), name)]
        browser += period_intersect(flood(host.web[bucket]), mine)
    browser = _sorted(browser)
    not_afk: list[Ev] = []
    if host.afk is None:
        credited = windows
    else:
        not_afk = [e for e in flood(host.afk) if e.data == "not-afk"]
        if audible_active:
            audible = [b for b in browser if isinstance(b.ref, tuple) and b.ref[1] is True]
            not_afk = period_union(not_afk, audible)
        else:
            not_afk = period_union(not_afk)
        credited = period_intersect(windows, not_afk)
    pieces: list[Piece] = []
    starts = [b.start for b in browser]
    reach = list(accumulate((b.end for b in browser), max))  # running max of ends
    for w in credited:
        # Only web events that end after the piece starts and start before it ends.
        lo, hi = bisect_right(reach, w.start), bisect_left(starts, w.end)
        pieces += _with_urls(w, browser[lo:hi])
    pieces.sort(key=lambda p: (p.start, p.end))
    return pieces, not_afk


def _ref(w: Ev) -> object:
    return w.ref[0] if isinstance(w.ref, tuple) else w.ref


def _with_urls(w: Ev, browser: Sequence[Ev]) -> list[Piece]:
    """A window piece split by the (browser-window-cut) web events overlapping it: each
    part takes the URL of the web event covering it (the earlier one where two overlap);
    parts no web event covers keep no URL. Non-browser windows have no web events."""
    out: list[Piece] = []
    ref, origin = w.ref if isinstance(w.ref, tuple) else (w.ref, w.start)
    cursor = w.start
    for b in browser:
        if b.end <= cursor or b.start >= w.end or b.ref is None:
            continue
        lo, hi = max(b.start, cursor), min(b.end, w.end)
        if lo > cursor:
            out.append(Piece(cursor, lo, ref, None, origin))
        url = b.ref[0] if isinstance(b.ref, tuple) else None
        out.append(Piece(lo, hi, ref, url if isinstance(url, str) else None, origin))
        cursor = hi
        if cursor >= w.end:
            break
    if cursor < w.end:
        out.append(Piece(cursor, w.end, ref, None, origin))
    return out
