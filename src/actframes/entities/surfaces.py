"""What a communication surface is: the one table ``actframes comms`` and the MCP tool
``get_communications`` read.

A row of the capture is on a communication surface when

1. its app is a native client (``APP_SURFACES``: Slack, Teams, Thunderbird, Zoom …), or
2. its URL's site is a web client as a whole (``SITE_SURFACES``: mail.google.com,
   app.slack.com, meet.google.com …), or
3. its page reference, typed by the same URL and title tables as the rest of the
   compiler (``entities/url_rules.py``, ``title_rules.py``), is a mailbox, conversation
   or meeting (``KIND_SURFACES``) — a LinkedIn or X inbox on a site that is mostly
   something else.

Surfaces come from app names, hosts and page kinds only: message bodies are never read.
Kinds: ``email``, ``chat``, ``meeting``, ``social`` (a social network's inbox).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from ..fast import recache
from .title_rules import normalise_app

SURFACE_KINDS: Mapping[str, str] = {
    "email": "mailboxes and e-mail threads",
    "chat": "team chat and messengers: channels, direct messages, group chats",
    "meeting": "video meetings and calls",
    "social": "a social network's direct messages",
}

# (regex over the normalised app name, surface kind). First match wins.
APP_SURFACES: tuple[tuple[str, str], ...] = (
    (r"outlook|olk|microsoft outlook|new outlook|thunderbird|betterbird|mail|apple mail|"
     r"evolution|geary|mailspring|kmail|kontact|claws-mail|spark|spark desktop|airmail|"
     r"mimestream|superhuman|em client|mailbird|postbox|hey|proton mail|protonmail|"
     r"tutanota|tuta mail|org\.gnome\.evolution|org\.gnome\.geary|"
     r"org\.mozilla\.thunderbird", "email"),
    (r"slack|teams|ms-teams|msteams|microsoft teams.*|teams2|discord|discordptb|"
     r"discordcanary|vesktop|webcord|whatsapp|whatsapp desktop|whatsapp beta|telegram|"
     r"telegram desktop|telegramdesktop|org\.telegram(?:\.desktop)?|signal|signal desktop|"
     r"signal-desktop|signal beta|messages|messenger|element|element-desktop|"
     r"im\.riot\.riot|wire|skype|skype for business|lync|viber|wechat|weixin|line|threema|"
     r"beeper|rocket\.chat|mattermost|mattermost desktop|zulip|ferdium|franz|rambox|"
     r"google chat|chat|pidgin|hexchat|irssi|weechat|quassel|konversation|kdeconnect-sms",
     "chat"),
    (r"zoom|zoom\.us|zoom workplace|zoom meetings|zoommeetings|webex|cisco webex.*|"
     r"ciscospark|webexmta|gotomeeting|goto|goto meeting|facetime|jitsi meet|around|"
     r"whereby|bluejeans|ringcentral.*|ringcentral meetings|amazon chime|chime", "meeting"),
)  # fmt: skip

# Sites that are a client as a whole. "*." matches any subdomain.
SITE_SURFACES: Mapping[str, str] = {
    "mail.google.com": "email", "inbox.google.com": "email",
    "outlook.live.com": "email", "outlook.office.com": "email",
    "outlook.office365.com": "email", "outlook.cloud.microsoft": "email",
    "mail.yahoo.com": "email", "mail.proton.me": "email", "mail.protonmail.com": "email",
    "app.fastmail.com": "email", "mail.zoho.com": "email", "app.hey.com": "email",
    "mail.aol.com": "email", "app.tuta.com": "email", "mail.tutanota.com": "email",
    "app.slack.com": "chat", "*.slack.com": "chat", "discord.com": "chat",
    "ptb.discord.com": "chat", "canary.discord.com": "chat", "discordapp.com": "chat",
    "teams.microsoft.com": "chat", "teams.live.com": "chat", "teams.cloud.microsoft": "chat",
    "web.whatsapp.com": "chat", "web.telegram.org": "chat", "messages.google.com": "chat",
    "chat.google.com": "chat", "app.element.io": "chat", "messenger.com": "chat",
    "web.skype.com": "chat", "app.zulip.com": "chat", "*.zulipchat.com": "chat",
    "*.mattermost.com": "chat", "*.rocket.chat": "chat", "web.wechat.com": "chat",
    "meet.google.com": "meeting", "*.webex.com": "meeting", "whereby.com": "meeting",
    "meet.jit.si": "meeting", "app.gather.town": "meeting", "*.bluejeans.com": "meeting",
    "app.zoom.us": "meeting",
}  # fmt: skip

# Page kinds (``entities/kinds.py``) that are a surface on any site.
KIND_SURFACES: Mapping[str, str] = {"email": "email", "messaging": "chat", "meeting": "meeting"}

# A messaging page on these sites is the network's inbox: ``social``, not ``chat``.
SOCIAL_SITES = frozenset(
    {"linkedin.com", "x.com", "twitter.com", "facebook.com", "instagram.com", "reddit.com",
     "bsky.app", "mastodon.social", "threads.net", "tiktok.com"}
)  # fmt: skip

# Page kinds that name a conversation (a channel, a thread, a person, a meeting); other
# kinds on a surface (a calendar, settings, a search) are time on it but no conversation.
CONVERSATION_KINDS = frozenset(
    {"messaging", "channel", "email", "post", "meeting", "profile", "ai_chat"}
)

_WORDS = re.compile(r"\w+")
_COUNTER = re.compile(r"\(\d+\)")
_PART = re.compile(r" [-—–|·] ")

# E-mail entities that are a mailbox view, not a thread: presence, no conversation.
MAILBOX_VIEWS = frozenset(
    {"inbox", "sent", "drafts", "starred", "snoozed", "important", "all", "spam", "trash",
     "scheduled", "outbox", "archive", "gmail", "chats", "imp", "mail", "junk", "deleted",
     "deleteditems", "sentitems", "junkemail", "primary", "social", "promotions", "updates",
     "forums", "mbox", "outlook", "sent items", "sent mail", "deleted items", "junk email",
     "all mail", "local folders", "unread", "flagged"}
)  # fmt: skip
# Words that only say what the client is ("Zoom Meeting", "Microsoft Teams call").
GENERIC_WORDS = frozenset(
    {"meeting", "meetings", "call", "calls", "chat", "video", "new", "window"}
)


def names_conversation(kind: str, entity: str, app: str) -> bool:
    """Whether a page reference names a conversation (a channel, thread, person or
    meeting), not a mailbox view or the client's own name."""
    if kind not in CONVERSATION_KINDS or not entity:
        return False
    words = _WORDS.findall(entity.casefold())
    if kind == "email" and " ".join(words) in MAILBOX_VIEWS:
        return False
    own = set(_WORDS.findall(normalise_app(app)))
    return any(w not in GENERIC_WORDS and w not in own for w in words)


def names_something(title_part: str, app: str) -> bool:
    """Whether what is left of a window title (its client suffix taken off) names a
    conversation: not a mailbox view ("Inbox (3)"), not only the client's own words."""
    words = _WORDS.findall(_COUNTER.sub(" ", title_part.casefold()))
    lead = _WORDS.findall(_COUNTER.sub(" ", _PART.split(title_part.casefold())[0]))
    if not words or " ".join(lead) in MAILBOX_VIEWS:  # "Inbox (3) - Local Folders"
        return False
    own = set(_WORDS.findall(normalise_app(app)))
    return any(w not in GENERIC_WORDS and w not in own for w in words)


@lru_cache(maxsize=4096)
def app_surface(app: str) -> str | None:
    """The surface kind of a native client by its app name, else None."""
    name = normalise_app(app)
    for rx, kind in APP_SURFACES:
        if recache.compile(rx).fullmatch(name):
            return kind
    return None


@lru_cache(maxsize=4096)
def site_surface(site: str | None) -> str | None:
    """The surface kind of a site that is a client as a whole, else None."""
    if not site:
        return None
    if site in SITE_SURFACES:
        return SITE_SURFACES[site]
    parts = site.split(".")
    for i in range(1, len(parts) - 1):
        kind = SITE_SURFACES.get("*." + ".".join(parts[i:]))
        if kind is not None:
            return kind
    return None


def page_surface(site: str | None, kind: str | None) -> str | None:
    """The surface kind a page of ``kind`` on ``site`` makes, else None."""
    surface = KIND_SURFACES.get(kind or "")
    if surface == "chat" and site in SOCIAL_SITES:
        return "social"
    return surface


def surface_of(app: str, site: str | None, kind: str | None, browser: bool) -> str | None:
    """The surface kind of one row: by its site, its page kind, else its app (a browser is
    never a client by its own name)."""
    if site is not None:
        return site_surface(site) or page_surface(site, kind)
    if not browser:
        by_app = app_surface(app)
        if by_app is not None:
            return by_app
    return page_surface(site, kind)
