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


_DEFAULT_PORT = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "ftps": 990,
                 "sftp": 22, "ssh": 22, "git": 9418}  # fmt: skip
_NO_HOST = ("about", "file", "data", "javascript", "mailto", "tel", "sms")


def site_of(url: str | None) -> str | None:
    """Where a URL is: its host (lower-cased, no ``www.``, user-info or trailing dot) and
    its port when that is not its scheme's default; a browser page or extension with its
    scheme (``chrome://newtab``, ``about:blank``); a URL of no host its scheme (``file:``);
    ``view-source:`` and ``blob:`` followed by the site of the URL they wrap."""
    if not url:
        return None
    u = url.strip()
    low = u.lower()
    for wrapper in ("view-source:", "blob:"):
        if low.startswith(wrapper):
            inner = u[len(wrapper) :].strip()
            bad = inner.lower().startswith(("view-source:", "blob:"))
            return wrapper + ("" if bad else site_of(inner) or "")
    head = re.match(r"([a-z][a-z0-9+.-]+):", low)
    host_port = re.match(r"[a-z0-9.-]+:\d{1,5}(?:[/?#]|$)", low)
    scheme = head.group(1) if head else ""
    if host_port and scheme not in _DEFAULT_PORT and scheme not in _NO_HOST:
        scheme = ""  # "localhost:8501/x": a host and a port, not a scheme
    if not scheme:
        first = re.split(r"[/?#]", u, maxsplit=1)[0]
        if not u.startswith("//") and "." not in first and not low.startswith("localhost"):
            return None
        if "\\" in first:
            return None  # a Windows path
        after = u[2:] if u.startswith("//") else u
    elif low.startswith(scheme + "://"):
        after = u[len(scheme) + 3 :]
    elif scheme == "about":
        return "about:" + re.match(r"[a-z0-9._-]*", low[6:]).group(0)  # type: ignore[union-attr]
    else:
        return scheme + ":" if scheme in _NO_HOST else None
    netloc = re.split(r"[/?#]", after, maxsplit=1)[0]
    hostport = netloc.rpartition("@")[2]
    if ("[" in netloc) != ("]" in netloc):
        return None
    if "[" in hostport:
        inside, _, tail = hostport.partition("[")[2].partition("]")
        if not inside or any(c not in "0123456789abcdefABCDEF:." for c in inside):
            return None
        host, port = inside, tail.partition(":")[2]
    else:
        host, _, port = hostport.partition(":")
    host = host.lower().rstrip(".")
    host = host[4:] if host.startswith("www.") else host
    if not host:
        return scheme + ":" if scheme in _NO_HOST else None
    if not (port.isascii() and port.isdigit() and int(port) <= 65535):
        port = ""  # not a port number: the host alone
    defaults = (80, 443) if not scheme else (_DEFAULT_PORT.get(scheme, -1),)
    if port and int(port) not in defaults:
        host = f"[{host}]:{int(port)}" if ":" in host else f"{host}:{int(port)}"
    return host if not scheme or scheme in _DEFAULT_PORT else f"{scheme}://{host}"


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
