"""The period page's own sections: the header, the lanes of days on one axis of hours, the
days as a table, and the notes; every method returns escaped markup."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from html import escape

from ..compile.disclosures import input_recorded
from ..doc_types import Document, Frame
from ..period_types import PeriodDay, PeriodDocument
from .durations import fmt_dur
from .html_layout import (
    DENSE_AXIS_HOURS,
    OTHER_COLOUR,
    PCT_SCALE,
    Lane,
    clock,
    frames_count,
    lane_name,
    ledger_colours,
    minutes,
    parse_iso,
    pct,
)

HOUR_S = 3600


def period_heading(period: PeriodDocument) -> str:
    """The heading of a period: "week 2026-W43", "month 2026-10", or its days' label."""
    w = period["window"]
    return f"{w['kind']} {w['label']}" if w["kind"] in ("week", "month") else w["label"]


def day_seconds(doc: Document) -> int:
    """The length of a day's window in seconds: 23 or 25 hours across a clock change."""
    w = doc["window"]
    return (parse_iso(w["end"]) - parse_iso(w["start"])) // timedelta(seconds=1)


class PeriodView:
    """The period's days laid out on one axis of hours, each from its own window's start."""

    def __init__(self, period: PeriodDocument, days: Sequence[Document]) -> None:
        self.period = period
        self.days = list(days)
        w = period["window"]
        self.title = f"Activity: {period_heading(period)} ({w['tz']})"
        self.colours = ledger_colours(period["ledger"])
        # Whole hours long enough for the longest day (25 in a week that leaves summer time).
        longest = max(day_seconds(d) for d in self.days)
        self.axis_s = max(HOUR_S, -(-longest // HOUR_S) * HOUR_S)
        # Input is "none recorded" only when no day's source records any.
        self.has_input = any(input_recorded(d) for d in self.days)

    # ---- positions

    def _pos(self, t0: datetime, iso: str, length: int) -> int:
        """``iso`` as PCT_SCALE units of the axis from ``t0``, clipped to the day."""
        off = (parse_iso(iso) - t0) // timedelta(seconds=1)
        return max(0, min(length, off)) * PCT_SCALE // self.axis_s

    def _box(self, t0: datetime, start: str, end: str, length: int) -> str:
        a, b = self._pos(t0, start, length), self._pos(t0, end, length)
        return f"left:{pct(a)};width:{pct(max(0, b - a))}"

    # ---- sections

    def header(self) -> str:
        p, w, tot = self.period, self.period["window"], self.period["totals"]
        first, last = self.period["days"][0], self.period["days"][-1]
        span = f"{first['weekday']} {w['since']} – {last['weekday']} {w['until']}"
        frames = sum(len(d["frames"]) for d in self.days)
        hidden = sum((d.get("omitted") or {}).get("frames", 0) for d in self.days)
        inputs = (
            f"{tot['keys']} keys, {tot['clicks']} clicks" if self.has_input else "none recorded"
        )
        facts = [
            ("active", f"{fmt_dur(tot['active_s'])} ({tot['active_s']} s)"),
            ("days with activity", f"{tot['days_active']} of {w['days']}"),
            ("frames", f"{frames} shown, {hidden} hidden" if hidden else str(frames)),
            ("rows", str(tot["rows"])),
            ("input", inputs),
            ("source", p["source"]["kind"]),
        ]
        items = "".join(f"<div><dt>{escape(k)}</dt><dd>{escape(v)}</dd></div>" for k, v in facts)
        return (
            "<header>"
            f"<h1>Activity · {escape(period_heading(p))} "
            f'<span class="tz">{escape(span)} · {escape(w["tz"])}</span></h1>'
            '<p class="note">Measured from capture by deterministic rules, not inferred. '
            "Each day is exactly its own day document; the period adds the days up.</p>"
            f'<dl class="summary">{items}</dl>'
            "</header>"
        )

    def timeline(self) -> str:
        hours = self.axis_s // HOUR_S
        # Labelled from the first day's start in wall-clock hours (a --day-start of 04:00
        # reads 04:00, 05:00, …), the same for every lane.
        start = parse_iso(self.days[0]["window"]["start"]).replace(tzinfo=None)
        axis, grid = [], []
        for k in range(hours + 1):
            pos = pct(k * HOUR_S * PCT_SCALE // self.axis_s)
            label = (start + timedelta(hours=k)).strftime("%H:%M")
            cls = "tick" + "".join(f" t{m}" for m in (2, 4, 6) if k % m == 0)
            cls += " first" if k == 0 else " last" if k == hours else ""
            axis.append(f'<span class="{cls}" style="left:{pos}"><span>{label}</span></span>')
            grid.append(f'<i class="grid" style="left:{pos}"></i>')
        dense = " dense" if hours > DENSE_AXIS_HOURS else ""
        lanes = "".join(
            self._lane(n, pd, doc)
            for n, (pd, doc) in enumerate(zip(self.period["days"], self.days, strict=True))
        )
        return (
            '<section id="timeline" aria-labelledby="timeline-h">'
            '<h2 id="timeline-h">Days</h2>'
            '<p class="legend" aria-hidden="true">'
            '<span><i class="key bar-key"></i>frame (wall time; colour: app and site, as in the'
            " ledger)</span>"
            '<span><i class="key gap-key"></i>session gap (no capture)</span>'
            '<span><i class="key away-key"></i>away (AFK)</span>'
            '<span><i class="key beyond-key"></i>not part of the day</span></p>'
            f'<p class="hint">One lane per day, each drawn from its own start on the same {hours} '
            "hours; a day of 23 or 25 hours (a clock change) is as long as it was, and its "
            "bars after the change sit an hour off the labels. Beside each lane, the day's "
            "active time. Hover or focus a bar for its details; Tab moves between bars, "
            "arrow keys move along a day and between days, Escape closes.</p>"
            f'<div class="tl" data-hours="{hours}">'
            f'<div class="axis{dense}" aria-hidden="true">{"".join(axis)}</div>'
            '<div class="lanes">'
            f'<div class="shades" aria-hidden="true">{"".join(grid)}</div>'
            f"{lanes}"
            "</div></div>"
            '<div id="detail" class="detail" role="status" aria-live="polite" hidden></div>'
            "</section>"
        )

    def _lane(self, n: int, pd: PeriodDay, doc: Document) -> str:
        t0 = parse_iso(doc["window"]["start"])
        length = day_seconds(doc)
        cov = doc["coverage"]
        shades = []
        for kind, periods in (("gap", cov["gaps"]), ("away", cov["away"])):
            for g in periods:
                shades.append(
                    f'<i class="shade {kind}" style="{self._box(t0, g["start"], g["end"], length)}"'
                    f' data-start="{escape(g["start"])}" data-end="{escape(g["end"])}"'
                    f' data-s="{g["s"]}"></i>'
                )
        if length < self.axis_s:
            left = length * PCT_SCALE // self.axis_s
            shades.append(f'<i class="beyond" style="left:{pct(left)}"></i>')
        bars = [self._bar(n, i, f, t0, length, pd["day"]) for i, f in enumerate(doc["frames"])]
        name = f"{pd['weekday']} {pd['day']}"
        hours = length / HOUR_S
        odd = f'<span class="dst"> · {hours:g} h</span>' if length != 24 * HOUR_S else ""
        active = pd["active_s"]
        label = f"{name}, {len(doc['frames'])} frames, active {fmt_dur(active)} ({active} s)"
        return (
            f'<div class="lane" role="group" data-lane="{n}" data-day="{escape(pd["day"])}"'
            f' data-start="{escape(doc["window"]["start"])}" data-s="{length}"'
            f' aria-label="{escape(label)}">'
            f'<div class="lane-name" title="{escape(name)}">'
            f'<span class="n-app solo">{escape(name)}</span>{odd}</div>'
            f'<div class="track">{"".join(shades)}{"".join(bars)}</div>'
            f'<div class="dtotal" data-active-s="{active}" title="{active} s">'
            f"{fmt_dur(active)}</div>"
            "</div>"
        )

    def _bar(self, n: int, i: int, f: Frame, t0: datetime, length: int, day: str) -> str:
        site = f.get("site")
        key: Lane = (f["app"], site)
        colour = self.colours.get(key, OTHER_COLOUR)
        inp = f["input"]
        label = (
            f"{lane_name(f['app'], site)}, {day} {clock(f['start'], day)} to "
            f"{clock(f['end'], day)}, active {minutes(f['active_s'])} ({f['active_s']} s)"
        )
        if self.has_input:
            label += f", {inp['keys']} keys, {inp['clicks']} clicks"
        site_attr = f' data-site="{escape(site)}"' if site is not None else ""
        return (
            f'<button type="button" class="bar" tabindex="0" data-d="{n}" data-i="{i}"'
            f' data-id="{escape(f["id"])}" data-app="{escape(f["app"])}"{site_attr}'
            f' data-start="{escape(f["start"])}" data-end="{escape(f["end"])}"'
            f' data-active-s="{f["active_s"]}" data-wall-s="{f["wall_s"]}"'
            f' style="{self._box(t0, f["start"], f["end"], length)};--c:{colour}"'
            f' aria-label="{escape(label)}" aria-describedby="detail"></button>'
        )

    def days_table(self) -> str:
        """The days as rows: the text alternative to the lanes."""
        rows = []
        for pd, doc in zip(self.period["days"], self.days, strict=True):
            day = pd["day"]
            first = clock(pd["first"], day) if pd["first"] else "–"
            last = clock(pd["last"], day) if pd["last"] else "–"
            inputs = f"{pd['keys']} / {pd['clicks']}" if self.has_input else "–"
            rows.append(
                f'<tr data-day="{escape(day)}" data-active-s="{pd["active_s"]}">'
                f"<td>{escape(pd['weekday'])} {escape(day)}</td>"
                f"<td>{first}–{last}</td>"
                f'<td class="num">{minutes(pd["active_s"])} ({pd["active_s"]} s)</td>'
                f'<td class="num">{fmt_dur(pd["away_s"])} ({pd["away_s"]} s)</td>'
                f'<td class="num">{frames_count(doc)}</td>'
                f'<td class="num">{inputs}</td>'
                "</tr>"
            )
        return (
            '<section id="days" aria-labelledby="days-h">'
            '<h2 id="days-h">Each day</h2>'
            '<div class="scroll"><table class="ptable"><thead><tr>'
            '<th scope="col">Day</th><th scope="col">First – last</th>'
            '<th scope="col">Active</th><th scope="col">Away</th><th scope="col">Frames</th>'
            '<th scope="col">Keys / clicks</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
            "</section>"
        )

    def notes(self) -> str:
        out = ['<section id="notes" aria-labelledby="notes-h"><h2 id="notes-h">Notes</h2>']
        hidden = [om for d in self.days if (om := d.get("omitted"))]
        n = sum(om["frames"] for om in hidden)
        if n:
            s = sum(om["active_s"] for om in hidden)
            out.append(
                f"<p>{n} frames ({fmt_dur(s)}, {s} s) are hidden by the minimum size asked "
                "for; the ledger and the days' totals count them.</p>"
            )
        spots = "".join(f"<li>{escape(b)}</li>" for b in self.period["blind_spots"])
        out.append(f"<h3>Blind spots</h3><ul>{spots}</ul>")
        out.append("</section>")
        return "".join(out)
