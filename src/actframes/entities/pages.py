"""Page references from URLs: ``page_ref(url) -> PageRef(site, kind, entity)``
(``pull_request psf/requests#6712``, ``profile jane-doe``, ``search "cto berlin"``).
Total: any string yields a reference and nothing raises; an unknown site gives ``page``
with its host. The rules are the site table of ``url_rules.py``, run by ``matcher.py``;
results are memoised: the compiler asks about the same few hundred URLs thousands of times.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ..fast import recache
from ..fast.lazyre import LazyRe
from .matcher import CompiledRule, compile_rules, environment
from .url_parse import URLParts, parse_url

PAGE = "page"
BROWSER = "browser"
MAX_REDIRECT_DEPTH = 3

# Pages of the browser itself, by scheme.
_BROWSER_SCHEMES = frozenset(
    {"about", "chrome", "edge", "brave", "opera", "vivaldi", "firefox", "chrome-search",
     "devtools", "arc", "resource"}
)  # fmt: skip
_EXTENSION_SCHEMES = frozenset({"moz-extension", "chrome-extension", "safari-web-extension"})
_LOCAL_KEYS = frozenset({"localhost", "*.localhost", "127.0.0.1", "0.0.0.0", "::1",
                         "host.docker.internal"})  # fmt: skip

# AMP caches serve another site's page: the reference is to that page.
_AMP = LazyRe(
    r"(?:https?://)?(?:www\.)?(?:google\.[a-z.]+/amp/|[^/]+\.cdn\.ampproject\.org/[a-z]/)"
    r"(?P<s>s/)?(?P<rest>[^/].*)",
    re.IGNORECASE,
)

# Sign-in, sign-up and password pages at the start of a path, on any site, before the
# site's own rules: "github.com/login" is not a user named "login", and these pages hold
# one-time codes in their paths and queries. Only the host is shown.
_AUTH_START_WORDS = (
    "login|log-in|logon|signin|sign-in|sign_in|signup|sign-up|sign_up|logout|signout|"
    "sign-out|oauth|oauth2|authorize|sso|saml|saml2|openid|2fa|mfa|password_reset|"
    "reset-password|forgot-password|forgot_password|magic-link|auth|session|sessions|"
    "checkpoint|authwall"
)
_AUTH_START = LazyRe(
    r"(?:/(?:[a-z]{2}(?:[-_][A-Za-z]{2,4})?|users?|accounts?|u/\d+|i|ap|api|v\d))?"
    rf"/(?:{_AUTH_START_WORDS})(?:[._-][^/]*)?(?:/.*)?",
    re.IGNORECASE,
)


class PageRef(NamedTuple):
    """What a URL points at. ``site`` is the normalised host (None without one)."""

    site: str | None
    kind: str
    entity: str


@lru_cache(maxsize=16384)
def page_ref(url: str) -> PageRef:
    """The typed reference of ``url``; total and deterministic."""
    try:
        return _page_ref(str(url), 0)
    except Exception:  # the tables are data; a bad entry must not take a day's report down
        return PageRef(None, PAGE, "")


def _page_ref(url: str, depth: int) -> PageRef:
    raw = url.strip()
    low = raw[:32].lower()
    if low.startswith("blob:"):
        host = parse_url(raw[5:]).host
        return PageRef(host or None, PAGE, host)
    if depth < MAX_REDIRECT_DEPTH:
        amp = _AMP.fullmatch(raw)
        if amp:
            return _page_ref(("https://" if amp["s"] else "http://") + amp["rest"], depth + 1)
    p = parse_url(raw)
    if p.scheme in _BROWSER_SCHEMES or p.scheme in _EXTENSION_SCHEMES or not p.host:
        return _hostless(p)
    if p.segments and p.segments[-1].lower() == "amp":
        p = p.with_segments(p.segments[:-1])  # the AMP flavour of the same article
    host = p.host
    key, sub = site_key(host)
    if key not in _LOCAL_KEYS and _AUTH_START.fullmatch(p.path):
        return PageRef(host, "login", host)
    env = environment(p, sub)
    if key is not None:
        for rule in site_rules(key):
            entity = rule.render(p, env)
            if entity is not None:
                return PageRef(host, rule.kind, entity)
    for host_re, rule in _generic_rules():
        if host_re.fullmatch(host):
            entity = rule.render(p, env)
            if entity is not None:
                return PageRef(host, rule.kind, entity)
    return PageRef(host, PAGE, host)


def _hostless(p: URLParts) -> PageRef:
    """Browser pages, local files, mail links and strings that name no host."""
    if p.scheme in _BROWSER_SCHEMES:
        where = p.opaque or "//" + "/".join(x for x in (p.host, *p.segments) if x)
        return PageRef(None, BROWSER, f"{p.scheme}:{where}")
    if p.scheme in _EXTENSION_SCHEMES:
        # The id is a per-install random name: show the extension page, not the id.
        return PageRef(None, BROWSER, f"{p.scheme}:{p.segments[-1] if p.segments else ''}")
    if p.scheme == "file":
        name = p.segments[-1] if p.segments else ""
        kind = "document" if name.lower().endswith(".pdf") else "file"
        return PageRef(None, kind, name)
    if p.scheme == "mailto":
        return PageRef(None, "email", "compose")
    return PageRef(None, PAGE, f"{p.scheme}:" if p.scheme else "")


@lru_cache(maxsize=4096)
def site_key(host: str) -> tuple[str | None, str]:
    """The ``SITES`` key for ``host`` and the part a ``*.`` key matched (``sub``)."""
    from .url_rules import HOST_ALIASES

    table = _table()
    if host in table:
        return host, ""
    labels = host.split(".")
    for i in range(1, len(labels)):
        key = "*." + ".".join(labels[i:])
        if key in table:
            return key, ".".join(labels[:i])
    for pattern, key in HOST_ALIASES:
        m = recache.compile(pattern).fullmatch(host)
        if m is None:
            continue
        sub = m.groupdict().get("sub") or ""
        if not sub:
            return key, ""
        # maps.google.de → maps.google.com; an unknown subdomain has no rules of its own.
        inner = f"{sub}.{key}"
        if key.startswith("*."):
            return key, sub
        return site_key(inner) if inner in table and inner != host else (None, "")
    return None, ""


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[object, ...]]:
    from .url_rules import EXTRA_SITES, SITES

    return {**SITES, **EXTRA_SITES}


@lru_cache(maxsize=1024)
def site_rules(key: str) -> tuple[CompiledRule, ...]:
    """A site's rules, compiled the first time the site is seen."""
    from .url_rules import EXTRA_SITES, SITES

    return compile_rules(SITES.get(key) or EXTRA_SITES[key])


@lru_cache(maxsize=1)
def _generic_rules() -> tuple[tuple[re.Pattern[str], CompiledRule], ...]:
    from .url_rules import GENERIC

    return tuple((recache.compile(h), compile_rules([r])[0]) for h, r in GENERIC)
