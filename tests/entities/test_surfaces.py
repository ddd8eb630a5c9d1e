"""What is a communication surface: the rule table, row by row."""

from __future__ import annotations

import pytest

from actframes.compile.comms import _strip_client
from actframes.entities import page_ref
from actframes.entities.surfaces import names_conversation, names_something, surface_of


@pytest.mark.parametrize(
    ("app", "url", "expected"),
    [
        ("Slack", None, "chat"),
        ("slack.exe", None, "chat"),
        ("C:\\Program Files\\Microsoft Teams\\ms-teams.exe", None, "chat"),
        ("Discord", None, "chat"),
        ("WhatsApp", None, "chat"),
        ("Telegram Desktop", None, "chat"),
        ("org.telegram.desktop", None, "chat"),
        ("Signal", None, "chat"),
        ("Messages", None, "chat"),
        ("Element", None, "chat"),
        ("Thunderbird", None, "email"),
        ("OUTLOOK.EXE", None, "email"),
        ("Mail", None, "email"),
        ("org.gnome.Evolution", None, "email"),
        ("zoom.us", None, "meeting"),
        ("Zoom", None, "meeting"),
        ("Webex", None, "meeting"),
        ("FaceTime", None, "meeting"),
        ("Google Chrome", "https://mail.google.com/mail/u/0/#inbox", "email"),
        ("Google Chrome", "https://mail.google.com/mail/u/0/#search/invoice", "email"),
        ("firefox.exe", "https://app.slack.com/client/T01/C02", "chat"),
        ("Firefox", "https://acme.slack.com/archives/C02/p1700000000000100", "chat"),
        ("msedge", "https://teams.microsoft.com/_#/conversations/19:a@thread.v2", "chat"),
        ("Google Chrome", "https://web.whatsapp.com/", "chat"),
        ("Google Chrome", "https://web.telegram.org/k/#@dana", "chat"),
        ("Google Chrome", "https://discord.com/channels/1/2", "chat"),
        ("Google Chrome", "https://meet.google.com/abc-defg-hij", "meeting"),
        ("Google Chrome", "https://acme.webex.com/meet/dana", "meeting"),
        ("Google Chrome", "https://outlook.office.com/mail/inbox", "email"),
        ("Google Chrome", "https://www.linkedin.com/messaging/thread/2-abc/", "social"),
        ("Google Chrome", "https://x.com/messages/123-456", "social"),
        ("Google Chrome", "https://zoom.us/wc/123456789/join", "meeting"),
        # not communication
        ("Google Chrome", "https://www.linkedin.com/feed/", None),
        ("Google Chrome", "https://x.com/home", None),
        ("Google Chrome", "https://zoom.us/profile", None),
        ("Google Chrome", "https://github.com/psf/requests/pull/6712", None),
        ("Google Chrome", "https://docs.python.org/3/", None),
        ("Google Chrome", "https://calendar.google.com/calendar/r/week", None),
        ("Code", None, None),
        ("gnome-terminal-server", None, None),
        ("Google Chrome", None, None),  # a browser is never a client by its own name
        ("mailspring-helper-not-a-client", None, None),
    ],
)
def test_surface_of(app: str, url: str | None, expected: str | None) -> None:
    ref = page_ref(url) if url else None
    site = ref.site if ref else None
    browser = app in ("Google Chrome", "firefox.exe", "Firefox", "msedge")
    assert surface_of(app, site, ref.kind if ref else None, browser) == expected


@pytest.mark.parametrize(
    ("kind", "entity", "app", "expected"),
    [
        ("channel", "eng (Acme)", "Slack", True),
        ("messaging", "Dana Ruiz (Acme)", "Slack", True),
        ("email", "FMfcgzGxSRbkhxQwqVNXTdDjzLgkLrnH", "Google Chrome", True),
        ("email", "inbox", "Google Chrome", False),
        ("email", "gmail", "Google Chrome", False),
        ("meeting", "Zoom Meeting", "zoom.us", False),
        ("meeting", "abc-defg-hij", "Google Chrome", True),
        ("calendar", "week", "Google Chrome", False),
        ("search", '"invoice"', "Google Chrome", False),
        ("channel", "", "Slack", False),
    ],
)
def test_names_conversation(kind: str, entity: str, app: str, expected: bool) -> None:
    assert names_conversation(kind, entity, app) is expected


@pytest.mark.parametrize(
    ("title", "app", "site", "expected"),
    [
        ("Re: Budget Q3 - me@a.dev - Gmail", "Google Chrome", "mail.google.com", "Re: Budget Q3"),
        ("Inbox (3) - me@acme.dev - Gmail", "Google Chrome", "mail.google.com", "Inbox (3)"),
        ("Re: Offsite dates - Mozilla Thunderbird", "Thunderbird", None, "Re: Offsite dates"),
        ("Dana Ruiz - Signal", "Signal", None, "Dana Ruiz"),
        ("Telegram (3)", "Telegram", None, ""),
        ("WhatsApp", "WhatsApp", None, ""),
        ("Invitation: Design review @ Thu 14:00 - a@b.dev - Acme Mail", "Google Chrome",
         "mail.google.com", "Invitation: Design review @ Thu 14:00"),
        ("a - b - c", "Thunderbird", None, "a - b - c"),
    ],
)  # fmt: skip
def test_strip_client(title: str, app: str, site: str | None, expected: str) -> None:
    assert _strip_client(title, app, site) == expected


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        ("Re: Budget Q3", True),
        ("Inbox (3)", False),
        ("Inbox - Local Folders", False),
        ("Sent Items", False),
        ("Zoom Meeting", False),
        ("", False),
        ("Dana Ruiz", True),
    ],
)
def test_names_something(part: str, expected: bool) -> None:
    assert names_something(part, "Zoom") is expected
