"""URL path templates for routines: ``host[:port]/path`` with id-like segments as
``{id}``, query and fragment dropped. Unlike the patterns' template the port is kept, so
a guard can tell two local apps apart."""

from __future__ import annotations

from urllib.parse import urlsplit

from ..compile.site import is_id_segment

_DEFAULT_PORTS = {"http": 80, "https": 443}


def split_url(url: str) -> tuple[str, list[str]] | None:
    """(host[:port], path segments) or None for a URL without a host."""
    u = url.strip()
    if "://" not in u and not u.startswith("//"):
        u = "//" + u
    try:
        parts = urlsplit(u)
        host = (parts.hostname or "").rstrip(".").lower()
        port = parts.port
    except ValueError:
        return None
    if not host:
        return None
    if host.startswith("www."):
        host = host[4:]
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host = f"{host}:{port}"
    return host, [s for s in parts.path.split("/") if s]


def url_template(url: str | None) -> str | None:
    """``host[:port]/path`` with id-like segments (digits, hex ≥ 8 with a digit, UUIDs)
    as ``{id}``; None when there is no URL or no host."""
    if not url:
        return None
    got = split_url(url)
    if got is None:
        return None
    host, segs = got
    segs = ["{id}" if is_id_segment(s) else s for s in segs]
    return host + ("/" + "/".join(segs) if segs else "")
