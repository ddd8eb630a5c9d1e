"""Safe URL parsing for page references: never raises, never keeps user-info.

Whatever the string, ``parse_url`` returns a ``URLParts``. The host is normalised so one
site has one name: lower-cased, trailing dots removed, IDN labels (``xn--…``) decoded to
Unicode, and the prefixes that only pick a flavour of the same site removed (``www.``,
``www2.``, ``m.``, ``mobile.``, ``amp.``, and an inner ``m.`` as in ``en.m.wikipedia.org``).
The path is split into percent-decoded segments with ``;params`` (``;jsessionid=…``)
dropped; the query is kept as decoded (name, value) pairs for the rules to pick from, and
it is the rules that decide what may be shown.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import parse_qsl, unquote, urlsplit

from ..fast.lazyre import LazyRe

# Longer inputs are cut before parsing: nothing a rule uses sits that far in, and a
# pathological string must not cost more than a normal one.
MAX_URL_CHARS = 4096
MAX_QUERY_PAIRS = 64

# Leading labels that select a flavour of a site, not a different site.
_FLAVOUR_LABELS = frozenset({"www", "www1", "www2", "www3", "m", "mobile", "amp"})
# Dots that IDNA maps to "." (ideographic and full-width full stops).
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
# Invisible characters that sneak into copied URLs.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"))
_CONTROL = LazyRe(r"[\x00-\x1f\x7f]")

_SCHEME = LazyRe(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# "localhost:8501/x" or "example.com:8080" is a host and port, not a scheme.
_HOST_PORT = LazyRe(r"[A-Za-z0-9.\-]+:\d{1,5}(?:[/?#]|$)")
# Schemes whose URLs name a host after "//".
_HIERARCHICAL = frozenset({"http", "https", "ftp", "ftps", "ws", "wss", "sftp", "ssh", "git"})


class URLParts(NamedTuple):
    """A URL taken apart. Empty strings and tuples stand for absent parts."""

    scheme: str  # lower-case; "" when the input had none
    host: str  # normalised (see the module docstring); "" when none
    port: int | None
    segments: tuple[str, ...]  # percent-decoded path segments, empty ones dropped
    query: tuple[tuple[str, str], ...]  # decoded (name, value) pairs, in order
    fragment: str  # percent-decoded
    opaque: str = ""  # the rest of a URL without a host ("newtab" in "about:newtab")
    # The path as rules see it: "/" joined segments, "/" for the root. A "/" that was
    # encoded inside a segment stays encoded, so segments keep their bounds.
    path: str = "/"

    def with_segments(self, segments: tuple[str, ...]) -> URLParts:
        return self._replace(segments=segments, path=join_path(segments))

    def param(self, name: str) -> str | None:
        """The first value of the query parameter ``name``, or None."""
        for k, v in self.query:
            if k == name:
                return v
        return None


EMPTY = URLParts("", "", None, (), (), "")


def parse_url(url: str) -> URLParts:
    """Parse anything; return ``EMPTY`` parts rather than raise."""
    try:
        return _parse(url)
    except Exception:  # a URL parser must be total: any surprise yields "no URL"
        return EMPTY


def _parse(url: str) -> URLParts:
    u = _CONTROL.sub("", str(url).translate(_INVISIBLE)).strip()[:MAX_URL_CHARS]
    if not u:
        return EMPTY
    if u.lower().startswith("view-source:"):
        u = u[len("view-source:") :]
    m = _SCHEME.match(u)
    scheme = ""
    if m and not _HOST_PORT.match(u):
        scheme = m.group(1).lower()
        rest = u[m.end() :]
        if not rest.startswith("//") and scheme not in _HIERARCHICAL:
            return _opaque(scheme, rest)
        if not rest.startswith("//"):
            rest = "//" + rest  # "https:example.com" — be generous
        u = scheme + ":" + rest
    elif not u.startswith("//"):
        # Address bars and logs often hold "github.com/x" without a scheme; a bare word
        # ("hello", a pasted token) is not a host.
        head = re.split(r"[/?#]", u, maxsplit=1)[0]
        if "." not in head and not _HOST_PORT.match(u) and head.lower() != "localhost":
            return EMPTY
        u = "//" + u
    try:
        parts = urlsplit(u)
    except ValueError:
        return URLParts(scheme, "", None, (), (), "")
    host, port = split_netloc(parts.netloc)
    segments = split_path(parts.path)
    return URLParts(
        scheme=scheme,
        host=normalise_host(host),
        port=port,
        segments=segments,
        query=parse_query(parts.query),
        fragment=_decode(parts.fragment),
        path=join_path(segments),
    )


def _opaque(scheme: str, rest: str) -> URLParts:
    """``about:blank``, ``mailto:x@y``, ``data:…``: no host; keep only the first word."""
    word = re.split(r"[?#/,;]", rest, maxsplit=1)[0]
    return URLParts(scheme, "", None, (), (), "", opaque=_decode(word)[:64])


def split_netloc(netloc: str) -> tuple[str, int | None]:
    """(host, port) of a netloc, user-info dropped. A port that is not a number is
    ignored rather than an error."""
    hostport = netloc.rpartition("@")[2]
    if hostport.startswith("["):
        host, _, tail = hostport[1:].partition("]")
        port_s = tail[1:] if tail.startswith(":") else ""
    else:
        host, sep, port_s = hostport.rpartition(":")
        if not sep:
            host, port_s = hostport, ""
    port = int(port_s) if port_s.isdigit() and len(port_s) <= 5 else None
    return host, port


def normalise_host(raw: str) -> str:
    host = _decode(raw).translate(_DOTS).strip().rstrip(".").lower()
    if not host or any(c in host for c in " /\\?#@<>\"'`{}|^"):
        return ""
    labels = [_idna_label(x) for x in host.split(".")]
    if any(not x for x in labels):
        return ""
    while len(labels) > 2 and labels[0] in _FLAVOUR_LABELS:
        labels.pop(0)
    # en.m.wikipedia.org: the mobile flavour sits inside the host.
    labels = [x for i, x in enumerate(labels) if not (x == "m" and 0 < i < len(labels) - 2)]
    return ".".join(labels)


def _idna_label(label: str) -> str:
    if not label.startswith("xn--"):
        return label
    try:
        return label.encode("ascii").decode("idna")
    except (UnicodeError, ValueError):
        return label  # not valid punycode: keep it as written


def split_path(path: str) -> tuple[str, ...]:
    out: list[str] = []
    for raw in path.split("/"):
        seg = _decode(raw.split(";", 1)[0])  # ;jsessionid=… and other matrix params
        if not seg or seg == ".":
            continue
        if seg == "..":
            if out:
                out.pop()
            continue
        out.append(seg)
    return tuple(out)


def join_path(segments: tuple[str, ...]) -> str:
    return "/" + "/".join(s.replace("/", "%2F") for s in segments)


def parse_query(query: str) -> tuple[tuple[str, str], ...]:
    if not query:
        return ()
    pairs = parse_qsl(query, keep_blank_values=True, errors="replace")
    return tuple((k, _CONTROL.sub(" ", v)) for k, v in pairs[:MAX_QUERY_PAIRS])


def _decode(s: str) -> str:
    return _CONTROL.sub("", unquote(s, errors="replace")) if "%" in s else s
