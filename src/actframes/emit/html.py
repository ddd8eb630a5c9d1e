"""The day as a picture: one self-contained HTML file (inline CSS and JavaScript, no
network), drawn from the same document as the JSON so the numbers agree to the second.

What it shows and how it is built is in docs/report.md. The rules that keep it honest:

- Everything on the page is rendered here, server-side, from the document: one lane per
  (app, site), one bar per frame, one mark per interruption, shaded gaps and away
  periods, the ledger as bars. The page is readable (and countable) without running any
  script; the small inline script only fills the detail panel on hover or focus.
- The whole document is embedded as JSON in ``<script type="application/json">`` with
  ``<``, ``>``, ``&``, U+2028 and U+2029 escaped, so no title can close the script, and
  the detail panel builds its text with ``textContent``, never as markup.
- Every other string goes through ``html.escape``. A Content-Security-Policy allows no
  network at all and only this module's own script (by its hash).
- A pure function of the document: no clock, no randomness, integer arithmetic for
  positions, colours from CRC-32 (Python's ``hash`` is salted per process), and times
  sliced from the document's ISO strings, which already carry the zone's offset.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from html import escape
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .durations import fmt_dur

Doc = dict[str, Any]
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


def minutes(s: int) -> str:
    """Minutes shown for ``s`` seconds: s / 60 rounded half up to a tenth ("43.9 min").
    The page script formats with the same integer rule; exact seconds sit beside it."""
    tenths = (s * 10 + 30) // 60
    return f"{tenths // 10}.{tenths % 10} min"


def to_html(doc: Doc) -> str:
    """Render ``doc`` (schema_version 1) as one self-contained HTML page."""
    view = _View(doc)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">',
        '<meta name="generator" content="actframes">',
        # An empty icon, so the browser never asks the network (or disk) for one.
        '<link rel="icon" href="data:,">',
        f"<title>{escape(view.title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        '<a class="skip" href="#ledger">Skip to the ledger</a>',
        view.header(),
        "<main>",
        view.timeline(),
        view.ledger(),
        view.frames_table(),
        view.notes(),
        "</main>",
        f'<script type="application/json" id="actframes-doc">{embed_json(doc)}</script>',
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def embed_json(doc: Doc) -> str:
    """The document as JSON safe inside a script element: ``<``, ``>`` and ``&`` as
    \\u escapes (so ``</script>`` or ``<!--`` in a title cannot end or bend the element),
    and U+2028/U+2029, which old JavaScript parsers read as line ends."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for ch, esc in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, esc)
    return text


# ---------------------------------------------------------------- layout from the document


class _View:
    """The document's facts laid out on one time range; every method returns markup."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        w = doc["window"]
        self.window = w
        self.day: str = w.get("day") or w["start"][:10]
        self.title = (
            f"Activity: day {w['day']} ({w['tz']})"
            if "day" in w
            else f"Activity: {w['start']} – {w['end']} ({w['tz']})"
        )
        self.t0, self.t1 = _range(doc)
        self.frames: list[Doc] = doc["frames"]
        self.lanes = _lanes(doc)
        self.colours = _colours(doc)
        # A window with no input events at all (ActivityWatch records none) shows input
        # as "none recorded" rather than as rows of zeros that look measured.
        self.has_input = doc["coverage"]["input_events"] > 0

    def colour(self, app: str, site: str | None) -> str:
        return self.colours.get((app, site), "#79706e")

    # ---- positions

    def _pos(self, iso: str) -> int:
        """``iso`` as PCT_SCALE units from the start of the range, clipped to it."""
        t = _parse(iso)
        span = (self.t1 - self.t0) // timedelta(seconds=1)
        off = (t - self.t0) // timedelta(seconds=1)
        if span <= 0:
            return 0
        return max(0, min(PCT_SCALE, off * PCT_SCALE // span))

    def _box(self, start: str, end: str) -> str:
        a, b = self._pos(start), self._pos(end)
        return f"left:{_pct(a)};width:{_pct(max(0, b - a))}"

    def _time(self, iso: str) -> str:
        """HH:MM:SS sliced from the document (its offset is the requested zone's); the
        date is added when the instant lies outside the named day."""
        return iso[11:19] if iso[:10] == self.day else f"{iso[5:10]} {iso[11:19]}"

    # ---- sections

    def header(self) -> str:
        doc, w, cov = self.doc, self.window, self.doc["coverage"]
        offset = w["start"][19:] or "+00:00"
        heading = f"day {w['day']}" if "day" in w else f"{w['start']} – {w['end']}"
        span = f"{self._time(cov['first'])}–{self._time(cov['last'])}" if cov["first"] else "none"
        un = cov["unattributed_input"]["events"]
        facts = [
            ("coverage", span),
            ("active", f"{fmt_dur(cov['active_s'])} ({cov['active_s']} s)"),
            ("frames", _frames_count(doc)),
            ("rows", str(cov["rows"])),
            ("input events", f"{cov['input_events']} ({un} unattributed)"),
            ("source", doc["source"]["kind"]),
        ]
        items = "".join(f"<div><dt>{escape(k)}</dt><dd>{escape(v)}</dd></div>" for k, v in facts)
        return (
            "<header>"
            f'<h1>Activity · {escape(heading)} <span class="tz">{escape(w["tz"])}'
            f" (UTC{escape(offset)})</span></h1>"
            '<p class="note">Measured from capture by deterministic rules, not inferred. '
            "Titles are text from the screen.</p>"
            f'<dl class="summary">{items}</dl>'
            "</header>"
        )

    def timeline(self) -> str:
        cov = self.doc["coverage"]
        ticks = _ticks(self.t0, self.t1, self.window["tz"])
        dense = " dense" if len(ticks) > DENSE_AXIS_HOURS else ""
        axis = []
        grid = []
        for i, (t, label) in enumerate(ticks):
            pos = _pct(self._pos(t.isoformat()))
            cls = "tick" + (" t2" if i % 2 == 0 else "") + (" t4" if i % 4 == 0 else "")
            # The end labels lean inwards, so none is cut at the edge of a narrow screen.
            cls += " first" if i == 0 else " last" if i == len(ticks) - 1 else ""
            axis.append(f'<span class="{cls}" style="left:{pos}"><span>{label}</span></span>')
            grid.append(f'<i class="grid" style="left:{pos}"></i>')
        shades = []
        for kind, key in (("gap", "gaps"), ("away", "away")):
            for g in cov[key]:
                shades.append(
                    f'<i class="shade {kind}" style="{self._box(g["start"], g["end"])}"'
                    f' data-start="{escape(g["start"])}" data-end="{escape(g["end"])}"'
                    f' data-s="{g["s"]}"></i>'
                )
        lanes = [self._lane(i, key, idx) for i, (key, idx) in enumerate(self.lanes)]
        empty = "" if self.frames else '<p class="empty">No frames in this window.</p>'
        return (
            '<section id="timeline" aria-labelledby="timeline-h">'
            '<h2 id="timeline-h">Timeline</h2>'
            '<p class="legend" aria-hidden="true">'
            '<span><i class="key bar-key"></i>frame (wall time)</span>'
            '<span><i class="key flick-key"></i>flicker interruption</span>'
            '<span><i class="key gap-key"></i>session gap (no capture)</span>'
            '<span><i class="key away-key"></i>away (AFK)</span></p>'
            '<p class="hint">Hover or focus a bar for its details; Tab moves between bars, '
            "arrow keys move along a lane and between lanes, Escape closes.</p>"
            f'<div class="tl" data-start="{escape(self.t0.isoformat())}"'
            f' data-end="{escape(self.t1.isoformat())}">'
            f'<div class="axis{dense}" aria-hidden="true">{"".join(axis)}</div>'
            '<div class="lanes">'
            f'<div class="shades" aria-hidden="true">{"".join(grid)}{"".join(shades)}</div>'
            f"{''.join(lanes)}"
            "</div></div>"
            f"{empty}"
            f"{self._spans_list()}"
            '<div id="detail" class="detail" role="status" aria-live="polite" hidden></div>'
            "</section>"
        )

    def _lane(self, n: int, key: Lane, frame_idx: Sequence[int]) -> str:
        app, site = key
        name = _name(app, site)
        bars = []
        marks = []
        for i in frame_idx:
            f = self.frames[i]
            bars.append(self._bar(i, f))
            for it in f["interruptions"]:
                marks.append(
                    f'<i class="flick" style="left:{_pct(self._pos(it["at"]))}"'
                    f' data-parent="{escape(f["id"])}" data-at="{escape(it["at"])}"'
                    f' data-active-s="{it["active_s"]}"></i>'
                )
        site_attr = f' data-site="{escape(site)}"' if site is not None else ""
        return (
            f'<div class="lane" role="group" data-lane="{n}" data-app="{escape(app)}"'
            f"{site_attr}"
            f' aria-label="{escape(name)}, {len(frame_idx)} frames">'
            f'<div class="lane-name" title="{escape(name)}">'
            f'<i class="swatch" style="background:{self.colour(app, site)}"></i>'
            f"{_name_html(app, site)}</div>"
            f'<div class="track" style="--c:{self.colour(app, site)}">'
            f"{''.join(bars)}{''.join(marks)}</div>"
            "</div>"
        )

    def _bar(self, i: int, f: Doc) -> str:
        site = f.get("site")
        inp = f["input"]
        label = (
            f"{_name(f['app'], site)}, {self._time(f['start'])} to {self._time(f['end'])}, "
            f"active {minutes(f['active_s'])} ({f['active_s']} s)"
        )
        if self.has_input:
            label += f", {inp['keys']} keys, {inp['clicks']} clicks"
        if f["interruptions"]:
            label += f", {len(f['interruptions'])} interruptions"
        site_attr = f' data-site="{escape(site)}"' if site is not None else ""
        return (
            f'<button type="button" class="bar" tabindex="0" data-i="{i}"'
            f' data-id="{escape(f["id"])}" data-app="{escape(f["app"])}"{site_attr}'
            f' data-start="{escape(f["start"])}" data-end="{escape(f["end"])}"'
            f' data-active-s="{f["active_s"]}" data-wall-s="{f["wall_s"]}"'
            f' style="{self._box(f["start"], f["end"])}"'
            f' aria-label="{escape(label)}" aria-describedby="detail"></button>'
        )

    def _spans_list(self) -> str:
        cov = self.doc["coverage"]
        out = []
        for label, key in (("Session gaps", "gaps"), ("Away", "away")):
            spans = cov[key]
            if spans:
                items = ", ".join(
                    f"{self._time(g['start'])}–{self._time(g['end'])} "
                    f"({fmt_dur(g['s'])}, {g['s']} s)"
                    for g in spans
                )
                out.append(f'<p class="spans"><b>{label}:</b> {items}</p>')
        return "".join(out)

    def ledger(self) -> str:
        entries: list[Doc] = self.doc["ledger"]
        top = max((e["active_s"] for e in entries), default=0)
        rows = []
        for e in entries:
            site = e.get("site")
            name = _name(e["app"], site)
            width = e["active_s"] * PCT_SCALE // top if top else 0
            site_attr = f' data-site="{escape(site)}"' if site is not None else ""
            rows.append(
                f'<li class="lrow" data-app="{escape(e["app"])}"{site_attr}'
                f' data-active-s="{e["active_s"]}" data-keys="{e["keys"]}"'
                f' data-clicks="{e["clicks"]}">'
                f'<span class="lname" title="{escape(name)}">{_name_html(e["app"], site)}</span>'
                f'<span class="ltrack"><i class="lbar" style="width:{_pct(width)};'
                f'background:{self.colour(e["app"], site)}"></i></span>'
                f'<span class="lmin">{minutes(e["active_s"])}</span>'
                f'<span class="lsec">{e["active_s"]} s</span>'
                "</li>"
            )
        total = self.doc["coverage"]["active_s"]
        return (
            '<section id="ledger" aria-labelledby="ledger-h" tabindex="-1">'
            '<h2 id="ledger-h">Ledger</h2>'
            '<p class="hint">Active time per app and site: every credited second once, in '
            "frames or interruptions, before any filtering. Minutes are seconds ÷ 60 rounded "
            "half up to a tenth; the exact seconds follow.</p>"
            f'<ol class="ledger">{"".join(rows)}</ol>'
            f'<p class="total">Total {minutes(total)} ({total} s)</p>'
            "</section>"
        )

    def frames_table(self) -> str:
        rows = []
        for f in self.frames:
            inp = f["input"]
            keys = f"{inp['keys']} / {inp['clicks']}" if self.has_input else "–"
            titles = f["titles"]
            title = titles[0] if titles else ""
            more = f" (+{len(titles) - 1})" if len(titles) > 1 else ""
            inter = "; ".join(
                f"{_name(it['app'], it.get('site'))} {self._time(it['at'])} {it['active_s']} s"
                for it in f["interruptions"]
            )
            rows.append(
                "<tr>"
                f"<td>{self._time(f['start'])}–{self._time(f['end'])}</td>"
                f"<td>{escape(f['app'])}</td><td>{escape(f.get('site') or '')}</td>"
                f'<td class="num">{minutes(f["active_s"])} ({f["active_s"]} s)</td>'
                f'<td class="num">{keys}</td>'
                f"<td>{escape(title)}{more}</td><td>{escape(inter)}</td>"
                f"<td>{escape(f['id'])}</td>"
                "</tr>"
            )
        return (
            '<section id="frames" aria-labelledby="frames-h">'
            '<h2 id="frames-h">Frames</h2>'
            f"<details><summary>All {len(self.frames)} frames as a table</summary>"
            '<div class="scroll"><table><thead><tr><th scope="col">Time</th>'
            '<th scope="col">App</th><th scope="col">Site</th><th scope="col">Active</th>'
            '<th scope="col">Keys / clicks</th><th scope="col">First title</th>'
            '<th scope="col">Interruptions</th><th scope="col">Id</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div></details>"
            "</section>"
        )

    def notes(self) -> str:
        doc = self.doc
        out = ['<section id="notes" aria-labelledby="notes-h"><h2 id="notes-h">Notes</h2>']
        om = doc.get("omitted") or {"frames": 0}
        if om["frames"]:
            out.append(
                f"<p>{om['frames']} frames ({fmt_dur(om['active_s'])}, {om['active_s']} s) "
                "are hidden by the minimum size asked for; the ledger counts them.</p>"
            )
        rejected: list[Doc] = doc.get("rejected_rows") or []
        if rejected:
            items = "".join(
                f"<li>{escape(r['table'])}: {escape(r['reason'])} ({r['count']}: rows "
                f"{escape(r['rows'])})</li>"
                for r in rejected
            )
            out.append(f"<h3>Rejected rows</h3><ul>{items}</ul>")
        spots = "".join(f"<li>{escape(b)}</li>" for b in doc.get("blind_spots") or [])
        out.append(f"<h3>Blind spots</h3><ul>{spots}</ul>")
        out.append("</section>")
        return "".join(out)


# ---------------------------------------------------------------- helpers


def _parse(iso: str) -> datetime:
    # Aware datetimes with the document's own offsets: differences are exact instants.
    return datetime.fromisoformat(iso)


def _pct(units: int) -> str:
    whole, frac = divmod(units, PCT_SCALE // 100)
    return f"{whole}.{frac:04d}%"


def _name(app: str, site: str | None) -> str:
    return f"{app} · {site}" if site is not None else app


def _colours(doc: Doc) -> dict[Lane, str]:
    """A colour per (app, site) by ledger rank, from a palette of distinct colours, so
    the lane and its ledger bar match and the busiest lanes never share a colour. Keys
    past the palette get a hue from CRC-32 (not ``hash``, which is salted per process)."""
    out: dict[Lane, str] = {}
    for n, e in enumerate(doc["ledger"]):
        key = (e["app"], e.get("site"))
        if n < len(PALETTE):
            out[key] = PALETTE[n]
        else:
            hue = zlib.crc32(f"{key[0]}\x00{key[1] or ''}".encode()) % 360
            out[key] = f"hsl({hue} 45% 45%)"
    return out


def _name_html(app: str, site: str | None) -> str:
    """App and site as separate spans: where the label is cut, the app gives way first,
    since the site is what tells a browser's lanes apart."""
    if site is None:
        return f'<span class="n-app solo">{escape(app)}</span>'
    return (
        f'<span class="n-app">{escape(app)}</span><span class="n-sep"> · </span>'
        f'<span class="n-site">{escape(site)}</span>'
    )


def _frames_count(doc: Doc) -> str:
    shown = len(doc["frames"])
    hidden = (doc.get("omitted") or {}).get("frames", 0)
    return f"{shown} shown, {hidden} hidden" if hidden else str(shown)


def _instants(doc: Doc) -> Iterable[tuple[str, str]]:
    cov = doc["coverage"]
    if cov["first"]:
        yield cov["first"], cov["last"]
    for f in doc["frames"]:
        yield f["start"], f["end"]
    for key in ("gaps", "away"):
        for g in cov[key]:
            yield g["start"], g["end"]


def _range(doc: Doc) -> tuple[datetime, datetime]:
    """The drawn range: what the document holds, widened to whole local hours and cut to
    the window; the whole window when it holds nothing. A day is mostly night, and a
    timeline of 24 hours would squeeze the working hours into a third of the width."""
    w = doc["window"]
    ws, we = _parse(w["start"]), _parse(w["end"])
    spans = [(_parse(a), _parse(b)) for a, b in _instants(doc)]
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


def _ticks(t0: datetime, t1: datetime, tz: str) -> list[tuple[datetime, str]]:
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


def _lanes(doc: Doc) -> list[tuple[Lane, list[int]]]:
    """Lanes: one per (app, site) that has a shown frame. Apps are ordered by their
    ledger total (most first, then name); a browser's site lanes sit together, in ledger
    order. Frame indices keep the document's order (by start)."""
    frames: list[Doc] = doc["frames"]
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


# ---------------------------------------------------------------- the page's CSS and script

CSS = """
:root{--label:15rem;--lane:22px;--ink:#1d2330;--muted:#5b6475;--line:#d9dde5;
--bg:#fff;--panel:#f6f7f9;--gap:rgba(120,120,130,.22);--away:rgba(60,130,220,.16)}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;padding:1rem 1.25rem 3rem;font:14px/1.45 system-ui,-apple-system,"Segoe UI",
Roboto,"Noto Sans",sans-serif;color:var(--ink);background:var(--bg)}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}
h3{font-size:1rem;margin:1rem 0 .3rem}
.tz{font-weight:400;color:var(--muted);font-size:1rem}
.note,.hint{color:var(--muted);margin:.2rem 0 .5rem}
.skip{position:absolute;left:-999px;top:0}.skip:focus{left:1rem;background:#fff;padding:.3rem}
.summary{display:flex;flex-wrap:wrap;gap:.3rem 1.4rem;margin:.5rem 0}
.summary div{display:flex;gap:.4rem}.summary dt{color:var(--muted)}.summary dd{margin:0;
font-weight:600}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;margin:.3rem 0;color:var(--muted)}
.key{display:inline-block;width:1.6em;height:.9em;margin-right:.35em;vertical-align:-1px;
border-radius:2px}
.bar-key{background:hsl(210 55% 45%)}.flick-key{width:3px;background:#111}
.gap-key{background:var(--gap)}.away-key{background:var(--away);outline:1px solid
rgba(60,130,220,.35)}
.tl{position:relative;margin:.4rem 0}
.axis{position:relative;height:1.4rem;margin-left:var(--label);border-bottom:1px solid
var(--line)}
.tick{position:absolute;bottom:0;height:.45rem;border-left:1px solid var(--muted)}
.tick span{position:absolute;bottom:.45rem;transform:translateX(-50%);font-size:12px;
color:var(--muted);white-space:nowrap;font-variant-numeric:tabular-nums}
.axis.dense .tick:not(.t2) span{display:none}
.tick.first span{transform:none}.tick.last span{transform:translateX(-100%)}
.lanes{position:relative}
.shades{position:absolute;top:0;bottom:0;left:var(--label);right:0;pointer-events:none}
.grid{position:absolute;top:0;bottom:0;border-left:1px solid var(--line)}
.shade{position:absolute;top:0;bottom:0;min-width:1px}
.shade.gap{background:repeating-linear-gradient(135deg,var(--gap) 0 4px,transparent 4px 8px)}
.shade.away{background:var(--away)}
.lane{display:flex;align-items:center;height:var(--lane);border-bottom:1px solid
rgba(0,0,0,.05)}
.lane-name{flex:0 0 var(--label);display:flex;align-items:center;padding-right:.6rem;
white-space:nowrap;overflow:hidden;font-size:12.5px}
.n-app,.n-site{overflow:hidden;text-overflow:ellipsis;min-width:0}
.n-app{flex:0 100 auto;min-width:1.2em}.n-app.solo{flex:0 1 auto}
.n-site{flex:0 1 auto}.n-sep{flex:0 0 auto;white-space:pre}
.swatch{flex:0 0 auto}
.swatch{display:inline-block;width:.7em;height:.7em;border-radius:2px;margin-right:.4em}
.track{position:relative;flex:1 1 auto;height:100%}
.bar{position:absolute;top:3px;bottom:3px;min-width:2px;padding:0;margin:0;border:0;
border-radius:2px;background:var(--c);cursor:pointer;font:inherit}
.bar:hover{filter:brightness(1.25)}
.bar:focus{outline:none}
.bar:focus-visible,.bar.on{outline:2px solid #000;outline-offset:1px;z-index:2}
.flick{position:absolute;top:1px;bottom:1px;width:2px;margin-left:-1px;background:#111;
pointer-events:none;z-index:1}
.spans{color:var(--muted);margin:.3rem 0}.spans b{color:var(--ink);font-weight:600}
.empty{color:var(--muted)}
.detail{position:fixed;z-index:10;max-width:30rem;min-width:16rem;padding:.6rem .8rem;
background:#fff;border:1px solid #98a1b3;border-radius:6px;box-shadow:0 6px 24px
rgba(0,0,0,.18);font-size:13px;overflow-wrap:anywhere}
.detail h3{margin:0 0 .2rem;font-size:14px}
.detail dl{display:grid;grid-template-columns:auto 1fr;gap:.1rem .7rem;margin:.3rem 0}
.detail dt{color:var(--muted)}.detail dd{margin:0}
.detail ul{margin:.1rem 0;padding-left:1.1rem}
.ledger{list-style:none;margin:0;padding:0;max-width:70rem}
.lrow{display:grid;grid-template-columns:18rem 1fr 6.5rem 6.5rem;align-items:center;
gap:.6rem;padding:2px 0}
.lname{display:flex;white-space:nowrap;overflow:hidden;min-width:0}
.ltrack{height:14px;background:var(--panel);border-radius:2px}
.lbar{display:block;height:100%;min-width:1px;border-radius:2px}
.lmin,.lsec{text-align:right;font-variant-numeric:tabular-nums}.lsec{color:var(--muted)}
.total{font-weight:600}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:12.5px}
th,td{text-align:left;padding:.2rem .5rem;border-bottom:1px solid var(--line);
vertical-align:top}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
summary{cursor:pointer}
@media (max-width:640px){
:root{--label:0px;--lane:30px}
body{padding:.6rem .6rem 14rem}
.axis .tick:not(.t2) span,.axis.dense .tick:not(.t4) span{display:none}
.lane{position:relative;align-items:flex-end;padding-top:12px}
.lane-name{position:absolute;top:0;left:0;right:0;font-size:11px;line-height:12px;
padding:0}
.track{height:18px}
.bar{top:2px;bottom:2px}
.lrow{grid-template-columns:1fr 5.5rem;grid-template-areas:"n m" "t s";gap:.1rem .5rem;
padding:4px 0}
.lname{grid-area:n}.ltrack{grid-area:t}.lmin{grid-area:m}.lsec{grid-area:s}
.detail{left:0!important;right:0;bottom:0;top:auto!important;max-width:none;
border-radius:10px 10px 0 0;max-height:45vh;overflow:auto}
}
@media print{.detail,.skip,.hint{display:none}}
"""

# The only script on the page (allowed by its hash). It reads the embedded document and
# writes text nodes only; the numbers it formats use the same integer rules as above.
SCRIPT = """
(function () {
  "use strict";
  var doc = JSON.parse(document.getElementById("actframes-doc").textContent);
  var panel = document.getElementById("detail");
  var tl = document.querySelector(".tl");
  if (!tl || !panel) { return; }
  var w = doc.window;
  var day = w.day || w.start.slice(0, 10);
  var wide = window.matchMedia("(min-width: 641px)");
  var current = null;
  var measured = doc.coverage.input_events > 0;

  function time(iso) {
    return iso.slice(0, 10) === day ? iso.slice(11, 19)
      : iso.slice(5, 10) + " " + iso.slice(11, 19);
  }
  function minutes(s) {
    var t = Math.floor((s * 10 + 30) / 60);
    return Math.floor(t / 10) + "." + (t % 10) + " min";
  }
  function name(app, site) { return site == null ? app : app + " \\u00b7 " + site; }
  function input(i) {
    return i.keys + " keys \\u00b7 " + i.clicks + " clicks \\u00b7 " + i.scrolls +
      " scrolls \\u00b7 " + i.copies + " copies \\u00b7 " + i.pastes + " pastes";
  }
  function node(tag, text) {
    var e = document.createElement(tag);
    if (text != null) { e.textContent = text; }
    return e;
  }
  function list(items) {
    var ul = node("ul");
    items.forEach(function (t) { ul.appendChild(node("li", t)); });
    return ul;
  }
  function fill(f) {
    var dl = node("dl");
    function row(k, v) {
      dl.appendChild(node("dt", k));
      var dd = node("dd");
      if (typeof v === "string") { dd.textContent = v; } else { dd.appendChild(v); }
      dl.appendChild(dd);
    }
    row("time", time(f.start) + "\\u2013" + time(f.end));
    row("active", minutes(f.active_s) + " (" + f.active_s + " s)");
    row("wall", minutes(f.wall_s) + " (" + f.wall_s + " s)");
    row("input", measured ? input(f.input) : "none recorded in this window");
    if (f.titles.length) { row("titles", list(f.titles)); }
    if (f.pages.length) {
      row("pages", list(f.pages.map(function (p) {
        return p.kind + " " + p.entity + (p.label ? " \\u201c" + p.label + "\\u201d" : "") +
          (p.count ? " \\u00d7" + p.count : "");
      })));
    }
    if (f.interruptions.length) {
      row("interruptions", list(f.interruptions.map(function (it) {
        return name(it.app, it.site) + " at " + time(it.at) + ", " + it.active_s + " s";
      })));
    }
    row("id", f.id + (f.device ? " \\u00b7 " + f.device : ""));
    panel.replaceChildren(node("h3", name(f.app, f.site)), dl);
  }
  function place(bar) {
    if (!wide.matches) { panel.style.left = ""; panel.style.top = ""; return; }
    var r = bar.getBoundingClientRect();
    var p = panel.getBoundingClientRect();
    var vw = document.documentElement.clientWidth;
    var vh = document.documentElement.clientHeight;
    var left = Math.max(8, Math.min(r.left, vw - p.width - 8));
    var top = r.bottom + 8;
    if (top + p.height > vh - 8) { top = Math.max(8, r.top - p.height - 8); }
    panel.style.left = left + "px";
    panel.style.top = top + "px";
  }
  function show(bar) {
    if (current) { current.classList.remove("on"); }
    current = bar;
    bar.classList.add("on");
    fill(doc.frames[Number(bar.dataset.i)]);
    panel.hidden = false;
    place(bar);
  }
  function hide() {
    if (current) { current.classList.remove("on"); }
    current = null;
    panel.hidden = true;
  }
  function barOf(e) {
    var t = e.target;
    return t && t.classList && t.classList.contains("bar") ? t : null;
  }
  tl.addEventListener("mouseover", function (e) { var b = barOf(e); if (b) { show(b); } });
  tl.addEventListener("mouseout", function (e) {
    if (!barOf(e)) { return; }
    var f = document.activeElement;
    if (f && f.classList && f.classList.contains("bar")) { show(f); } else { hide(); }
  });
  tl.addEventListener("focusin", function (e) { var b = barOf(e); if (b) { show(b); } });
  tl.addEventListener("focusout", function (e) {
    if (barOf(e) && !tl.contains(e.relatedTarget)) { hide(); }
  });
  tl.addEventListener("click", function (e) { var b = barOf(e); if (b) { b.focus(); show(b); } });
  function nearest(lane, bar) {
    var bars = lane.querySelectorAll(".bar");
    var t = Date.parse(bar.dataset.start);
    var best = bars[0];
    for (var i = 0; i < bars.length; i++) {
      if (Date.parse(bars[i].dataset.start) <= t) { best = bars[i]; } else { break; }
    }
    return best;
  }
  tl.addEventListener("keydown", function (e) {
    var b = barOf(e);
    if (!b) { return; }
    var next = null;
    var lane = b.closest(".lane");
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      var bars = Array.prototype.slice.call(lane.querySelectorAll(".bar"));
      var k = bars.indexOf(b) + (e.key === "ArrowRight" ? 1 : -1);
      next = bars[k] || null;
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      var other = e.key === "ArrowDown" ? lane.nextElementSibling : lane.previousElementSibling;
      if (other && other.classList.contains("lane")) { next = nearest(other, b); }
    } else if (e.key === "Escape") {
      hide();
      e.preventDefault();
      return;
    }
    if (next) { next.focus(); e.preventDefault(); }
  });
  window.addEventListener("resize", function () { if (current) { place(current); } });
})();
"""

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    "script-src 'sha256-"
    + base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode("ascii")
    + "'; base-uri 'none'; form-action 'none'"
)
