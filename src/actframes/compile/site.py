"""The site half of a frame's context key: where a URL is, as its user knows the place.

- A web address is its host with the port when the port is not the scheme's default:
  ``github.com``, ``localhost:8501``, ``[::1]:8080``.
- A browser's own page or an extension is named with its scheme: ``chrome://newtab``,
  ``moz-extension://<id>``, ``about:newtab``.
- A URL that names no place of its own is its scheme: ``file:``, ``data:``,
  ``javascript:``, ``mailto:``; ``view-source:`` and ``blob:`` add the site of the URL
  they wrap (``view-source:github.com``).

ActivityWatch files browser time by the URL's network location (``www.`` dropped, the
port kept) and, for a URL without one, by its scheme. Every site here falls within one of
its groups (but for a port written although it is the default, which browsers never
report), so no two places it keeps apart are one site here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import SplitResult, urlsplit

_ID_SEGMENT = re.compile(
    r"^(\d+|[0-9a-f]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$", re.I
)

# Schemes whose host is a machine on the network, with their default ports. An address
# without a scheme (as address bars show it) may be either web scheme.
DEFAULT_PORTS: dict[str, tuple[int, ...]] = {
    "": (80, 443),
    "http": (80,),
    "https": (443,),
    "ws": (80,),
    "wss": (443,),
    "ftp": (21,),
    "ftps": (990,),
    "sftp": (22,),
    "ssh": (22,),
    "git": (9418,),
}
# Schemes of URLs that name no host: the site is the scheme (``about:`` adds the page).
HOSTLESS_SCHEMES = frozenset({"about", "file", "data", "javascript", "mailto", "tel", "sms"})
# Schemes that wrap another URL: the site is the scheme and the wrapped URL's site.
WRAPPER_SCHEMES = frozenset({"view-source", "blob"})

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]+):")
# "localhost:8501/x" or "example.com:8080" is a host and a port, not a scheme.
_HOST_PORT = re.compile(r"[A-Za-z0-9.\-]+:\d{1,5}(?:[/?#]|\Z)")
_PAGE_NAME = re.compile(r"[A-Za-z0-9._\-]*")
_KNOWN = frozenset({*HOSTLESS_SCHEMES, *WRAPPER_SCHEMES, *DEFAULT_PORTS})


def is_id_segment(seg: str) -> bool:
    """A URL path segment that names one record: digits, hex of 8+ with a digit, a UUID
    (the ``{id}`` of URL templates)."""
    return bool(_ID_SEGMENT.match(seg)) and any(c.isdigit() for c in seg)


@lru_cache(maxsize=8192)
def site_of(url: str | None) -> str | None:
    """The site of ``url`` (see the module docstring), or None for no URL or garbage.

    Hosts are lower-cased, without ``www.``, user-info or trailing dot.
    """
    if not url:
        return None
    return _site(url.strip(), wrapped=False)


def _site(u: str, *, wrapped: bool) -> str | None:
    m = _SCHEME.match(u)
    if m is not None and m.group(1).lower() not in _KNOWN and _HOST_PORT.match(u):
        m = None
    if m is None:
        if u.startswith("//"):
            return _hierarchical("", u)
        # Address bars often hold "github.com/x" or "localhost:3000" without a scheme;
        # a bare word or a Windows path is not a host.
        head = re.split(r"[/?#]", u, maxsplit=1)[0]
        if ("." not in head and not head.lower().startswith("localhost")) or "\\" in head:
            return None
        return _hierarchical("", "//" + u)
    scheme, rest = m.group(1).lower(), u[m.end() :]
    if scheme in WRAPPER_SCHEMES:
        if wrapped:
            return None
        return scheme + ":" + (_site(rest.strip(), wrapped=True) or "")
    if rest.startswith("//"):
        return _hierarchical(scheme, scheme + ":" + rest)
    if scheme == "about":
        name = _PAGE_NAME.match(rest)
        return "about:" + (name.group(0).lower() if name else "")
    return scheme + ":" if scheme in HOSTLESS_SCHEMES else None


def _hierarchical(scheme: str, u: str) -> str | None:
    """``scheme://host…``: the host, with a port that is not the scheme's default; named
    with the scheme unless the host is a machine on the network."""
    try:
        parts = urlsplit(u)
        host = parts.hostname
    except ValueError:
        return None
    host = (host or "").rstrip(".").lower()
    if host.startswith("www."):
        host = host[4:]
    defaults = DEFAULT_PORTS.get(scheme)
    if not host:
        return scheme + ":" if scheme in HOSTLESS_SCHEMES else None
    port = _port(parts)
    if port is not None and (defaults is None or port not in defaults):
        # An IPv6 address keeps its brackets beside a port, as URLs write it.
        host = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return host if defaults is not None else f"{scheme}://{host}"


def _port(parts: SplitResult) -> int | None:
    """The URL's port; None when there is none or it is not a port number."""
    try:
        return parts.port
    except ValueError:
        return None
