from __future__ import annotations

import itertools
from urllib.parse import urlparse

import pytest

from actframes.bench.oracle_entities import site_of as oracle_site_of
from actframes.compile.site import site_of

EXTENSION_ID = "aapbdbdomjkkjkaonfhkkikfgjllcleb"

ROWS: list[tuple[str | None, str | None]] = [
    (None, None),
    ("", None),
    ("   ", None),
    # Hosts: lower-cased, no www., no user-info, no trailing dot.
    ("https://github.com/psf/requests/pull/6712", "github.com"),
    ("https://WWW.GitHub.com/", "github.com"),
    ("https://docs.python.org./3/", "docs.python.org"),
    ("https://www.bücher.de/", "bücher.de"),
    ("https://xn--bcher-kva.de/", "xn--bcher-kva.de"),
    ("  https://example.org/x  ", "example.org"),
    # Ports: kept unless the scheme's default.
    ("http://localhost:5600/#/activity", "localhost:5600"),
    ("http://localhost:8501/", "localhost:8501"),
    ("http://localhost:8501/?x=1", "localhost:8501"),
    ("http://localhost/", "localhost"),
    ("http://127.0.0.1:5600/#/timeline", "127.0.0.1:5600"),
    ("https://example.com:443/x", "example.com"),
    ("http://example.com:80/", "example.com"),
    ("http://example.com:443/", "example.com:443"),
    ("https://example.com:80/", "example.com:80"),
    ("https://x.org:8443/", "x.org:8443"),
    ("http://x.org:8080", "x.org:8080"),
    ("http://x.org:080/", "x.org"),
    ("http://x.org:0/", "x.org:0"),
    ("ws://chat.example.com:80/socket", "chat.example.com"),
    ("ws://chat.example.com:8080/socket", "chat.example.com:8080"),
    ("wss://chat.example.com:443/socket", "chat.example.com"),
    ("wss://chat.example.com:80/socket", "chat.example.com:80"),
    ("ftp://ftp.example.org:21/pub/", "ftp.example.org"),
    ("ftp://ftp.example.org:2121/pub/", "ftp.example.org:2121"),
    ("https://user:secret@example.com:8443/a", "example.com:8443"),
    ("https://user@WWW.GitHub.com.:443/x", "github.com"),
    ("http://localhost.:8501/", "localhost:8501"),
    ("HTTP://LocalHost:8501/", "localhost:8501"),
    # A port that is not a number is not a port: the host alone.
    ("http://x.org:abc/", "x.org"),
    ("http://x.org:99999/", "x.org"),
    # Without a scheme, as address bars show it: the web's defaults.
    ("github.com/psf/requests", "github.com"),
    ("www.github.com", "github.com"),
    ("localhost:3000/x", "localhost:3000"),
    ("localhost:3000", "localhost:3000"),
    ("localhost", "localhost"),
    ("example.com:8080", "example.com:8080"),
    ("example.com:80/x", "example.com"),
    ("example.com:443/x", "example.com"),
    ("//example.com:8080/x", "example.com:8080"),
    # IPv6: brackets when a port is shown.
    ("https://[::1]:8080/", "[::1]:8080"),
    ("http://[::1]/", "::1"),
    ("https://[::1]:443/", "::1"),
    ("http://[FE80::1]:3000/", "[fe80::1]:3000"),
    # The browser's own pages and extensions: named with their scheme.
    ("about:blank", "about:blank"),
    ("about:newtab", "about:newtab"),
    ("ABOUT:Preferences#privacy", "about:preferences"),
    ("about:reader?url=https://example.com/a", "about:reader"),
    ("about:", "about:"),
    ("chrome://newtab/", "chrome://newtab"),
    ("chrome://settings/passwords", "chrome://settings"),
    ("edge://settings/", "edge://settings"),
    ("brave://rewards", "brave://rewards"),
    (f"chrome-extension://{EXTENSION_ID}/popup.html", f"chrome-extension://{EXTENSION_ID}"),
    ("moz-extension://3f2b9c1e-0a4d-4e7b/onetab.html", "moz-extension://3f2b9c1e-0a4d-4e7b"),
    # No host: the scheme.
    ("file:///home/me/x.html", "file:"),
    ("file:///C:/Users/me/report.pdf", "file:"),
    ("file:/tmp/x", "file:"),
    ("file://nas/share/x.txt", "file://nas"),
    ("data:text/html,<p>x.y</p>", "data:"),
    ("javascript:void(0)", "javascript:"),
    ("mailto:someone@example.com", "mailto:"),
    ("tel:+15551234567", "tel:"),
    # Wrappers: the scheme and the site of the URL inside.
    ("blob:https://mail.google.com/4f1c9d2a", "blob:mail.google.com"),
    ("blob:null/4f1c9d2a", "blob:"),
    ("view-source:https://github.com/acme", "view-source:github.com"),
    ("view-source:http://localhost:8501/", "view-source:localhost:8501"),
    ("view-source:view-source:x", "view-source:"),
    # Garbage.
    ("https://bad[host/", None),
    ("http:///path", None),
    ("hello", None),
    ("python: lists", None),
    ("C:\\Users\\me\\x.txt", None),
    ("chrome:///", None),
]


@pytest.mark.parametrize(("url", "site"), ROWS)
def test_site_of(url: str | None, site: str | None) -> None:
    assert site_of(url) == site


@pytest.mark.parametrize(("url", "site"), ROWS)
def test_the_bench_oracle_names_sites_alike(url: str | None, site: str | None) -> None:
    assert oracle_site_of(url) == site


def test_the_bench_oracle_agrees_on_a_grid() -> None:
    """The oracle's own re-implementation against the compiler's, on every combination
    of scheme, user-info, host, port and path."""
    schemes = ("http://", "https://", "wss://", "ftp://", "chrome://", "moz-extension://")
    schemes += ("file://", "file:", "about:", "data:", "blob:https://", "view-source:", "", "//")
    users = ("", "u:p@")
    hosts = ("", "localhost", "WWW.Example.COM.", "10.0.0.1", "[::1]", "bad[h", "newtab")
    ports = ("", ":80", ":443", ":8080", ":0", ":x", ":70000", ":")
    paths = ("", "/", "/a/b?q=1#f", "#x", "/a:1")
    for parts in itertools.product(schemes, users, hosts, ports, paths):
        url = "".join(parts)
        assert oracle_site_of(url) == site_of(url), url


def aw_domain(url: str) -> str:
    """ActivityWatch's ``$domain`` of a URL (aw-core's ``split_url_events``): the network
    location without a leading ``www.``, else the scheme."""
    p = urlparse(url)
    if p.netloc:
        return p.netloc[4:] if p.netloc.startswith("www.") else p.netloc
    return p.scheme


def aw_group(site: str) -> str:
    """The ActivityWatch domain a site of ours lies within."""
    if "://" in site:
        return site.split("://", 1)[1]
    head, colon, tail = site.partition(":")
    if colon and (not tail or head in ("about", "view-source", "blob")):
        return head
    return f"[{site}]" if site.count(":") >= 2 and not site.startswith("[") else site


# URLs as browsers report them: no user-info, no default port written, host lower-case.
AS_REPORTED = [
    "https://github.com/psf/requests/pull/6712",
    "https://www.github.com/",
    "http://localhost:5600/#/activity",
    "http://localhost:8501/?x=1",
    "http://localhost/",
    "http://127.0.0.1:5600/#/timeline",
    "https://x.org:8443/",
    "wss://chat.example.com:80/socket",
    "ftp://ftp.example.org:2121/pub/",
    "https://[::1]:8080/",
    "http://[::1]/",
    "about:blank",
    "about:newtab",
    "about:preferences#privacy",
    "chrome://newtab/",
    "chrome://settings/passwords",
    "edge://settings/",
    f"chrome-extension://{EXTENSION_ID}/popup.html",
    "moz-extension://3f2b9c1e-0a4d-4e7b/onetab.html",
    "file:///home/me/x.html",
    "file:///C:/Users/me/report.pdf",
    "file://nas/share/x.txt",
    "data:text/html,<p>x.y</p>",
    "javascript:void(0)",
    "mailto:someone@example.com",
    "blob:https://mail.google.com/4f1c9d2a",
    "view-source:https://github.com/acme",
]


@pytest.mark.parametrize("url", AS_REPORTED)
def test_each_site_lies_within_one_activitywatch_domain(url: str) -> None:
    """Our site decides ActivityWatch's domain: places it keeps apart are never one site
    here (``about:`` pages are finer here: each is its own site, as ``chrome://`` pages
    are for it)."""
    site = site_of(url)
    assert site is not None and aw_group(site) == aw_domain(url)


def test_places_activitywatch_keeps_apart_are_apart() -> None:
    urls = [
        "http://localhost/",
        "http://localhost:5600/",
        "http://localhost:8501/",
        "about:blank",
        "file:///home/me/x.html",
        "chrome://newtab/",
        "moz-extension://3f2b9c1e/onetab.html",
        "view-source:https://github.com/",
        "https://github.com/",
        "data:text/plain,x",
    ]
    assert len({aw_domain(u) for u in urls}) == len(urls)
    assert len({site_of(u) for u in urls}) == len(urls)
