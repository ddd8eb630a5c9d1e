"""The communications view (compile/comms.py): surfaces, seconds equal to the ledger's,
conversations with evidence, nothing that is not communication."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.comms import communications
from actframes.compile.pipeline import compile_pieces
from actframes.compile.ranges import expand
from actframes.emit.comms_text import to_comms_context, to_comms_markdown
from actframes.emit.json_out import to_json
from actframes.model import Capture, InputEvent, Snapshot
from actframes.sources import open_source
from actframes.verify import verify
from actframes.window import day_window

from ..builders import native_db

DAY, TZ = "2026-03-10", "Europe/Berlin"
W = day_window(DAY, TZ)
T0 = W.start_ms + 9 * 3_600_000  # 09:00 local
GMAIL = "https://mail.google.com/mail/u/0/#inbox"
THREAD = "https://mail.google.com/mail/u/0/#inbox/FMfcgzGxSRbkhxQwqVNXTdDjzLgkLrnH"
LINKEDIN_FEED = "https://www.linkedin.com/feed/"
LINKEDIN_DM = "https://www.linkedin.com/messaging/thread/2-YmQ5NjE0/"
GITHUB = "https://github.com/psf/requests/pull/6712"

# (app, title, url): one row each, 30 s apart on one monitor, so every row earns 30 s
# (the last one 0) and the test can add the time up itself.
DAY_ROWS: list[tuple[str, str, str | None]] = [
    ("Code", "model.py — actframes", None),
    ("Code", "model.py — actframes", None),
    ("Slack", "#eng - Acme - Slack", None),
    ("Slack", "#eng - Acme - Slack", None),
    ("Slack", "Dana Ruiz (DM) - Acme - Slack", None),
    ("Google Chrome", "Inbox (3) - me@acme.dev - Gmail", GMAIL),
    ("Google Chrome", "Re: Budget Q3 - me@acme.dev - Gmail", THREAD),
    ("Google Chrome", "Re: Budget Q3 - me@acme.dev - Gmail", THREAD),
    ("Google Chrome", "Fix proxy auth · PR #6712", GITHUB),
    ("Google Chrome", "Feed | LinkedIn", LINKEDIN_FEED),
    ("Google Chrome", "Messaging | LinkedIn", LINKEDIN_DM),
    ("Google Chrome", "Messaging | LinkedIn", LINKEDIN_DM),
    ("Google Chrome", "Feed | LinkedIn", LINKEDIN_FEED),
    ("gnome-terminal-server", "~/src: make test", None),
    ("Thunderbird", "Re: Offsite dates - Mozilla Thunderbird", None),
    ("Thunderbird", "Inbox - Local Folders - Mozilla Thunderbird", None),
    ("zoom.us", "Zoom Meeting", None),
    ("zoom.us", "Zoom Meeting", None),
    ("Slack", "#eng - Acme - Slack", None),
    ("Code", "model.py — actframes", None),
    ("Code", "model.py — actframes", None),
]
STEP = 30_000


def day_capture(rows: Sequence[tuple[str, str, str | None]] = DAY_ROWS) -> Capture:
    snaps = [Snapshot(i + 1, T0 + i * STEP, a, t, u) for i, (a, t, u) in enumerate(rows)]
    events = [
        InputEvent(1, T0 + 2 * STEP + 5_000, "key", "Slack", None, 12),
        InputEvent(2, T0 + 6 * STEP + 5_000, "click", "Google Chrome"),
        InputEvent(3, T0 + 16 * STEP + 5_000, "click", "zoom.us"),
        InputEvent(4, T0 + 1 * STEP + 5_000, "key", "Code", None, 40),
    ]
    return Capture(kind="native", snapshots=snaps, events=events, has_input=True)


def view_of(cap: Capture) -> tuple[dict, dict]:
    doc, frames = compile_pieces(cap, W)
    return doc, communications(doc, frames)


def surface(view: dict, app: str, site: str | None = None) -> dict:
    found = [s for s in view["surfaces"] if s["app"] == app and s.get("site") == site]
    assert len(found) == 1, (app, site, [(s["app"], s.get("site")) for s in view["surfaces"]])
    return found[0]


def test_surfaces_and_seconds_equal_the_ledger() -> None:
    doc, view = view_of(day_capture())
    ledger = {(e["app"], e.get("site")): e["active_s"] for e in doc["ledger"]}
    keys = {(s["app"], s.get("site")) for s in view["surfaces"]}
    assert keys == {
        ("Slack", None),
        ("Google Chrome", "mail.google.com"),
        ("Google Chrome", "linkedin.com"),
        ("Thunderbird", None),
        ("zoom.us", None),
    }
    # Every row but the last earns 30 s: count the rows of each client ourselves.
    earned: dict[tuple[str, str | None], int] = {}
    for app, _, url in DAY_ROWS[:-1]:
        site = url.split("/")[2].removeprefix("www.") if url else None
        earned[(app, site)] = earned.get((app, site), 0) + STEP // 1000
    for key in keys - {("Google Chrome", "linkedin.com")}:
        s = surface(view, *key)
        assert s["active_s"] == ledger[key] == earned[key]
        assert "part_of_ledger_s" not in s
    # LinkedIn is a surface only where its messaging pages are: two rows of four.
    li = surface(view, "Google Chrome", "linkedin.com")
    assert li["kind"] == "social"
    assert li["active_s"] == 60 and li["part_of_ledger_s"] == ledger[li["app"], li["site"]] == 120
    kinds = {(s["app"], s.get("site")): s["kind"] for s in view["surfaces"]}
    assert kinds[("Slack", None)] == "chat"
    assert kinds[("Google Chrome", "mail.google.com")] == "email"
    assert kinds[("Thunderbird", None)] == "email"
    assert kinds[("zoom.us", None)] == "meeting"
    assert view["totals"]["active_s"] == sum(s["active_s"] for s in view["surfaces"])


def test_nothing_else_is_a_surface() -> None:
    _, view = view_of(day_capture())
    apps = {s["app"] for s in view["surfaces"]}
    sites = {s.get("site") for s in view["surfaces"]}
    assert "Code" not in apps and "gnome-terminal-server" not in apps
    assert "github.com" not in sites


def test_conversations_add_up_and_name_what_titles_name() -> None:
    _, view = view_of(day_capture())
    for s in view["surfaces"]:
        assert sum(c["active_s"] for c in s["conversations"]) + s["unnamed_s"] == s["active_s"]
    slack = surface(view, "Slack")
    names = {(c["kind"], c["entity"]): c for c in slack["conversations"]}
    eng = names[("channel", "eng (Acme)")]
    assert eng["active_s"] == 90 and eng["visits"] == 2
    assert names[("messaging", "Dana Ruiz (Acme)")]["active_s"] == 30
    assert slack["visits"] == 2  # two frames of Slack, with a Code frame between
    mail = surface(view, "Google Chrome", "mail.google.com")
    # The inbox is a mailbox, not a conversation; the thread is named by its id and title.
    assert mail["unnamed_s"] == 30
    [thread] = mail["conversations"]
    assert thread["kind"] == "email" and thread["active_s"] == 60
    assert thread["titles"] == ["Re: Budget Q3 - me@acme.dev - Gmail"]
    # A client with no typed titles: the title without the client's name names it.
    tb = surface(view, "Thunderbird")
    assert [(c["kind"], c["title"]) for c in tb["conversations"]] == [
        ("title", "Re: Offsite dates")
    ]
    assert tb["unnamed_s"] == 30  # "Inbox - Local Folders" names a mailbox
    # Zoom's window title names no meeting: its presence only, and the output says so.
    zoom = surface(view, "zoom.us")
    assert zoom["conversations"] == [] and zoom["unnamed_s"] == zoom["active_s"] == 60
    assert "never read" in view["scope"]


def test_input_counts_come_from_the_surface_visits() -> None:
    _, view = view_of(day_capture())
    assert surface(view, "Slack")["input"]["keys"] == 12
    assert surface(view, "Google Chrome", "mail.google.com")["input"]["clicks"] == 1
    assert surface(view, "zoom.us")["input"]["clicks"] == 1
    assert all(s["input"]["keys"] == 0 for s in view["surfaces"] if s["app"] != "Slack")


def test_evidence_points_at_the_document_and_verify_accepts_it(tmp_path: Path) -> None:
    cap = day_capture()
    db = native_db(tmp_path / "c.db", cap.snapshots, cap.events)
    src = open_source(db)
    try:
        cap2 = src.read(W.start_ms, W.end_ms)
        doc, frames = compile_pieces(cap2, W)
        view = communications(doc, frames)
        assert verify(doc, src).ok
    finally:
        src.close()
    by_id = {f["id"]: f for f in doc["frames"]}
    for s in view["surfaces"]:
        for fid in s["evidence"]["frames"].split(","):
            assert fid in by_id
        for c in s["conversations"]:
            frame_rows: set[int] = set()
            for fid in c["evidence"]["frames"].split(","):
                f = by_id[fid]
                frame_rows |= set(expand(f["evidence"]["rows"]))
                for i in f["interruptions"]:
                    frame_rows |= set(expand(i["evidence"]["rows"]))
            rows = set(expand(c["evidence"]["rows"]))
            assert rows and rows <= frame_rows
            # The rows show the conversation: their titles are the ones it lists.
            for r in rows:
                snap = cap.snapshots[r - 1]
                if c["kind"] == "title":
                    assert snap.title.startswith(c["title"])
                else:
                    assert snap.title in c["titles"]


def test_a_flicker_into_slack_is_counted_like_the_ledger() -> None:
    rows = [("Code", "a.py — p", None)] * 2 + [("Slack", "#eng - Acme - Slack", None)]
    rows += [("Code", "a.py — p", None)] * 3
    snaps = [Snapshot(i + 1, T0 + i * 5_000, a, t, u) for i, (a, t, u) in enumerate(rows)]
    doc, frames = compile_pieces(Capture(kind="native", snapshots=snaps), W)
    assert doc["frames"][0]["interruptions"]  # Slack folded into the Code frame
    view = communications(doc, frames)
    slack = surface(view, "Slack")
    assert slack["active_s"] == 5
    assert slack["evidence"]["frames"] == doc["frames"][0]["id"]


def test_formats_render_every_surface() -> None:
    _, view = view_of(day_capture())
    md = to_comms_markdown(view)
    block = to_comms_context(view)
    for s in view["surfaces"]:
        assert s["app"] in md and s["app"] in block
    assert "eng (Acme)" in md and "Re: Offsite dates" in block
    assert "never read" in md


def test_an_empty_window_says_so() -> None:
    _, view = view_of(Capture(kind="native", snapshots=[Snapshot(1, T0, "Code", "x")]))
    assert view["surfaces"] == [] and view["totals"]["active_s"] == 0
    assert "no e-mail, chat, meeting" in to_comms_context(view)
    assert "No e-mail, chat, meeting" in to_comms_markdown(view)


_APPS = ["Code", "Slack", "Google Chrome", "Thunderbird", "zoom.us", "Terminal"]
_URLS = [
    None,
    GMAIL,
    THREAD,
    LINKEDIN_DM,
    LINKEDIN_FEED,
    GITHUB,
    "https://app.slack.com/client/T1/C2",
]
_TITLES = ["#eng - Acme - Slack", "Re: X - me@a.io - Gmail", "Zoom Meeting", "main.py — p", ""]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1_000, 400_000),
            st.sampled_from(_APPS),
            st.sampled_from(_TITLES),
            st.sampled_from(_URLS),
            st.sampled_from(["", "right"]),
        ),
        min_size=1,
        max_size=40,
    ),
    st.randoms(use_true_random=False),
)
def test_properties_hold_for_any_day(rows: list, rnd: random.Random) -> None:
    t = T0
    snaps = []
    for i, (gap, app, title, url, dev) in enumerate(rows):
        t += gap
        snaps.append(Snapshot(i + 1, t, app, title, url if app == "Google Chrome" else None, dev))
    doc, view = view_of(Capture(kind="native", snapshots=snaps))
    ledger = {(e["app"], e.get("site")): e["active_s"] for e in doc["ledger"]}
    for s in view["surfaces"]:
        key = (s["app"], s.get("site"))
        if "part_of_ledger_s" in s:
            assert s["active_s"] <= ledger[key] + 1
        else:
            assert s["active_s"] == ledger[key]
        assert sum(c["active_s"] for c in s["conversations"]) + s["unnamed_s"] == s["active_s"]
        assert s["app"] not in ("Code", "Terminal") and s.get("site") != "github.com"
    # The same rows in any order give the same bytes.
    shuffled = list(snaps)
    rnd.shuffle(shuffled)
    _, again = view_of(Capture(kind="native", snapshots=shuffled))
    assert to_json(again) == to_json(view)
