"""Small stores whose answers were worked out by hand (see each builder's docstring)."""

from __future__ import annotations

import json
from pathlib import Path

from actframes.model import InputEvent, Snapshot, Span

from ..builders import ms, native_db

DAY = "2026-03-10"
TZ = "UTC"
PR_URL = "https://github.com/acme/x/pull/7"
PR_TITLE = "Fix · Pull Request #7 · acme/x · GitHub"
DOC_ID = "1PlanDocId_x9"
DOC_URL = f"https://www.Docs.Google.com/document/d/{DOC_ID}/edit"
DOC_TITLE = "Plan - Google Docs"


def t(hms: str) -> int:
    return ms(f"{DAY}T{hms}+00:00")


def hand_native(path: Path) -> Path:
    """Nine rows, one AFK span, five key events (UTC, 2026-03-10).

    ===  ========  ==============  ==========================  ===================
    row  time      app             site                        earns
    ===  ========  ==============  ==========================  ===================
    1    09:00:00  Code                                        60 s (next at +60)
    2    09:01:00  Code                                        60 s
    3    09:02:00  Google Chrome   github.com (PR acme/x#7)    10 s
    4    09:02:10  Slack                                       10 s (a flicker)
    5    09:02:20  Google Chrome   github.com (PR acme/x#7)    90 s cap - 40 s AFK = 50 s
    6    09:04:00  Google Chrome   docs.google.com (doc "Plan")  0 (6 min to the next row)
    7    09:10:00  Code                                        60 s
    8    09:11:00  Code                                        30 s
    9    09:11:30  Terminal                                    0 (last row)
    ===  ========  ==============  ==========================  ===================

    AFK 09:02:20-09:03:00. Code 210 s, Google Chrome 60 s, Slack 10 s, Terminal 0;
    github.com 60 s, docs.google.com 0. Frames: Code 09:00 (120 s), Chrome/github 09:02
    (60 s, Slack folded in), Chrome/docs 09:04 (0), Code 09:10 (90 s), Terminal 09:11:30.
    Keys: 5 at 09:00:30 in Code, 1 at 09:02:15 in Slack, 3 at 09:11:10 named "code";
    2 at 09:05 (no row holds that time) and 4 at 09:01:30 named Slack while Code was
    focused count nowhere: Code 8, Slack 1.
    """
    rows = [
        Snapshot(1, t("09:00:00"), "Code", "a.py — proj"),
        Snapshot(2, t("09:01:00"), "Code", "a.py — proj"),
        Snapshot(3, t("09:02:00"), "Google Chrome", PR_TITLE, PR_URL),
        Snapshot(4, t("09:02:10"), "Slack", "#general - Acme - Slack"),
        Snapshot(5, t("09:02:20"), "Google Chrome", PR_TITLE, PR_URL + "/files"),
        Snapshot(6, t("09:04:00"), "Google Chrome", DOC_TITLE, DOC_URL),
        Snapshot(7, t("09:10:00"), "Code", "b.py — proj"),
        Snapshot(8, t("09:11:00"), "Code", "b.py — proj"),
        Snapshot(9, t("09:11:30"), "Terminal", "zsh"),
    ]
    events = [
        InputEvent(1, t("09:00:30"), "key", "Code", None, 5),
        InputEvent(2, t("09:01:30"), "key", "Slack", None, 4),
        InputEvent(3, t("09:02:15"), "key", "Slack", None, 1),
        InputEvent(4, t("09:05:00"), "key", "Google Chrome", None, 2),
        InputEvent(5, t("09:11:10"), "key", "code", None, 3),
        InputEvent(6, t("09:11:12"), "click", "Code", None, 1),
    ]
    return native_db(path, rows, events, [Span(t("09:02:20"), t("09:03:00"))])


def breaks_native(path: Path, between_s: int = 30) -> Path:
    """Idle 14:01-14:20 and 14:20:30-14:40 with ``between_s`` seconds of activity at
    14:20 between them. With 30 s the two join into one 39-minute away period; with two
    minutes they stay two periods under 30 minutes, so there is none."""
    second = t("14:20:00") + between_s * 1000
    rows = [
        Snapshot(1, t("14:00:00"), "Code", "x"),
        Snapshot(2, t("14:01:00"), "Code", "x"),
        Snapshot(3, t("14:20:00"), "Slack", "y"),
        Snapshot(4, second, "Slack", "y"),
        Snapshot(5, t("14:40:00"), "Code", "x"),
        Snapshot(6, t("14:41:00"), "Code", "x"),
    ]
    if between_s > 90:  # keep the activity continuous: a row a minute
        rows[3:3] = [Snapshot(10, t("14:21:00"), "Slack", "y")]
    return native_db(path, rows)


def _aw(ts: str, dur: float, data: dict[str, object]) -> dict[str, object]:
    return {"timestamp": f"{DAY}T{ts}+00:00", "duration": dur, "data": data}


def hand_aw(path: Path) -> Path:
    """An ActivityWatch export (window, web and AFK buckets), newest first as AW writes.

    Window events: firefox 10:00 for 120 s (the PR until 10:00:30, when another tab's
    web event begins: ActivityWatch's flood gives the later one precedence, and no web
    event covers 10:00:40-10:02), Code 10:02 for 60 s, firefox 10:03 for 0 s (dropped by
    flooding), Code 10:05 for 600 s (AFK 10:10-10:20 leaves 300 s), firefox 10:14 for
    60 s on mail.example.org (all AFK: 0 s). firefox.exe 120 s, Code.exe 360 s;
    github.com 30 s, example.com 10 s. First activity 10:00, last 10:10. Longest frame:
    Code.exe from 10:02 (360 s: the empty Firefox event between its two events is gone).
    """
    window = [
        _aw("10:00:00", 120.0, {"app": "firefox.exe", "title": PR_TITLE + " — Mozilla Firefox"}),
        _aw("10:02:00", 60.0, {"app": "Code.exe", "title": "a.py - proj"}),
        _aw("10:03:00", 0.0, {"app": "firefox.exe", "title": "Mozilla Firefox"}),
        _aw("10:05:00", 600.0, {"app": "Code.exe", "title": "a.py - proj"}),
        _aw("10:14:00", 60.0, {"app": "firefox.exe", "title": "Inbox - Mail — Mozilla Firefox"}),
    ]
    web = [
        {
            **_aw("09:59:59", 125.0, {"url": PR_URL, "title": PR_TITLE}),
            "timestamp": f"{DAY}T09:59:59Z",
        },
        _aw("10:00:30", 10.0, {"url": "https://example.com/other", "title": "Other"}),
        _aw("10:14:00", 60.0, {"url": "https://mail.example.org/inbox", "title": "Inbox - Mail"}),
    ]
    afk = [
        _aw("10:00:00", 600.0, {"status": "not-afk"}),
        _aw("10:10:00", 600.0, {"status": "afk"}),
        _aw("10:20:00", 600.0, {"status": "not-afk"}),
    ]

    def bucket(
        bid: str, kind: str, host: str, events: list[dict[str, object]]
    ) -> dict[str, object]:
        events = sorted(events, key=lambda e: str(e["timestamp"]), reverse=True)
        return {"id": bid, "type": kind, "client": "test", "hostname": host, "events": events}

    doc = {
        "buckets": {
            "aw-watcher-window_h": bucket("aw-watcher-window_h", "currentwindow", "h", window),
            "aw-watcher-web-firefox": bucket(
                "aw-watcher-web-firefox", "web.tab.current", "unknown", web
            ),
            "aw-watcher-afk_h": bucket("aw-watcher-afk_h", "afkstatus", "h", afk),
        }
    }
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path
