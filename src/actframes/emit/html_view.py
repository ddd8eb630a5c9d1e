"""The HTML report's sections (header, timeline, ledger, frames table, notes), laid out
from the document; every method returns escaped markup."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from html import escape

from ..compile.disclosures import input_recorded
from ..doc_types import Frame, LedgerEntry, RejectedRows
from .durations import fmt_dur
from .html_layout import (
    DENSE_AXIS_HOURS,
    OTHER_COLOUR,
    PCT_SCALE,
    Doc,
    Lane,
    clock,
    drawn_range,
    frames_count,
    hour_ticks,
    lane_colours,
    lane_name,
    lanes,
    minutes,
    name_html,
    parse_iso,
    pct,
)


class HtmlView:
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
        self.t0, self.t1 = drawn_range(doc)
        self.frames: list[Frame] = doc["frames"]
        self.lanes = lanes(doc)
        self.colours = lane_colours(doc)
        # A source that records no input (ActivityWatch) shows input as "none recorded"
        # rather than as rows of zeros that look measured; a day that merely had no
        # input shows its zeros.
        self.has_input = input_recorded(doc)

    def colour(self, app: str, site: str | None) -> str:
        return self.colours.get((app, site), OTHER_COLOUR)

    # ---- positions

    def _pos(self, iso: str) -> int:
        """``iso`` as PCT_SCALE units from the start of the range, clipped to it."""
        t = parse_iso(iso)
        span = (self.t1 - self.t0) // timedelta(seconds=1)
        off = (t - self.t0) // timedelta(seconds=1)
        if span <= 0:
            return 0
        return max(0, min(PCT_SCALE, off * PCT_SCALE // span))

    def _box(self, start: str, end: str) -> str:
        a, b = self._pos(start), self._pos(end)
        return f"left:{pct(a)};width:{pct(max(0, b - a))}"

    def _time(self, iso: str) -> str:
        return clock(iso, self.day)

    # ---- sections

    def header(self) -> str:
        doc, w, cov = self.doc, self.window, self.doc["coverage"]
        offset = w["start"][19:] or "+00:00"
        heading = f"day {w['day']}" if "day" in w else f"{w['start']} – {w['end']}"
        first, last = cov["first"], cov["last"]  # both null, or both set
        span = f"{self._time(first)}–{self._time(last)}" if first and last else "none"
        un = cov["unattributed_input"]["events"]
        facts = [
            ("coverage", span),
            ("active", f"{fmt_dur(cov['active_s'])} ({cov['active_s']} s)"),
            ("frames", frames_count(doc)),
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
        ticks = hour_ticks(self.t0, self.t1, self.window["tz"])
        dense = " dense" if len(ticks) > DENSE_AXIS_HOURS else ""
        axis = []
        grid = []
        for i, (t, label) in enumerate(ticks):
            pos = pct(self._pos(t.isoformat()))
            cls = "tick" + (" t2" if i % 2 == 0 else "") + (" t4" if i % 4 == 0 else "")
            # The end labels lean inwards, so none is cut at the edge of a narrow screen.
            cls += " first" if i == 0 else " last" if i == len(ticks) - 1 else ""
            axis.append(f'<span class="{cls}" style="left:{pos}"><span>{label}</span></span>')
            grid.append(f'<i class="grid" style="left:{pos}"></i>')
        shades = []
        for kind, periods in (("gap", cov["gaps"]), ("away", cov["away"])):
            for g in periods:
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
        name = lane_name(app, site)
        bars = []
        marks = []
        for i in frame_idx:
            f = self.frames[i]
            bars.append(self._bar(i, f))
            for it in f["interruptions"]:
                marks.append(
                    f'<i class="flick" style="left:{pct(self._pos(it["at"]))}"'
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
            f"{name_html(app, site)}</div>"
            f'<div class="track" style="--c:{self.colour(app, site)}">'
            f"{''.join(bars)}{''.join(marks)}</div>"
            "</div>"
        )

    def _bar(self, i: int, f: Frame) -> str:
        site = f.get("site")
        inp = f["input"]
        label = (
            f"{lane_name(f['app'], site)}, {self._time(f['start'])} to {self._time(f['end'])}, "
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
        for label, spans in (("Session gaps", cov["gaps"]), ("Away", cov["away"])):
            if spans:
                items = ", ".join(
                    f"{self._time(g['start'])}–{self._time(g['end'])} "
                    f"({fmt_dur(g['s'])}, {g['s']} s)"
                    for g in spans
                )
                out.append(f'<p class="spans"><b>{label}:</b> {items}</p>')
        return "".join(out)

    def ledger(self) -> str:
        entries: list[LedgerEntry] = self.doc["ledger"]
        top = max((e["active_s"] for e in entries), default=0)
        rows = []
        for e in entries:
            site = e.get("site")
            name = lane_name(e["app"], site)
            width = e["active_s"] * PCT_SCALE // top if top else 0
            site_attr = f' data-site="{escape(site)}"' if site is not None else ""
            rows.append(
                f'<li class="lrow" data-app="{escape(e["app"])}"{site_attr}'
                f' data-active-s="{e["active_s"]}" data-keys="{e["keys"]}"'
                f' data-clicks="{e["clicks"]}">'
                f'<span class="lname" title="{escape(name)}">{name_html(e["app"], site)}</span>'
                f'<span class="ltrack"><i class="lbar" style="width:{pct(width)};'
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
                f"{lane_name(it['app'], it.get('site'))} {self._time(it['at'])} {it['active_s']} s"
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
        rejected: list[RejectedRows] = doc.get("rejected_rows") or []
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
