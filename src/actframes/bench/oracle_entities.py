"""Sites and entities as the oracle reads them: a URL's site, and the pull request, issue
or Google document a row's URL (or, in a browser, its window title) names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

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


def family_of_app(app: str) -> str | None:
    a = app.casefold()
    return next((fam for frag, fam in _BROWSER_APPS if frag in a), None)


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
    if family_of_app(app) is None:
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
