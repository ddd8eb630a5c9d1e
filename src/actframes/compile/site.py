"""The site half of a frame's context key: the URL's host."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

_ID_SEGMENT = re.compile(
    r"^(\d+|[0-9a-f]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$", re.I
)


def is_id_segment(seg: str) -> bool:
    """A URL path segment that names one record: digits, hex of 8+ with a digit, a UUID
    (the ``{id}`` of URL templates)."""
    return bool(_ID_SEGMENT.match(seg)) and any(c.isdigit() for c in seg)


@lru_cache(maxsize=8192)
def site_of(url: str | None) -> str | None:
    """Host of ``url``, lower-cased, without ``www.``, port, user-info or trailing dot.

    None when there is no URL or it names no host (``about:blank``, ``file:///x``).
    """
    if not url:
        return None
    u = url.strip()
    if "://" not in u and not u.startswith("//"):
        # Address bars often hold "github.com/x" without a scheme.
        if "." not in u.split("/", 1)[0] and not u.startswith("localhost"):
            return None
        u = "//" + u
    try:
        host = urlsplit(u).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.rstrip(".").lower()
    if host.startswith("www."):
        host = host[4:]
    return host or None
