from __future__ import annotations

import pytest

from actframes.compile.site import site_of


@pytest.mark.parametrize(
    ("url", "site"),
    [
        (None, None),
        ("", None),
        ("https://github.com/psf/requests/pull/6712", "github.com"),
        ("https://WWW.GitHub.com/", "github.com"),
        ("http://localhost:8501/?x=1", "localhost"),
        ("http://127.0.0.1:5600/#/timeline", "127.0.0.1"),
        ("https://user:secret@example.com:8443/a", "example.com"),
        ("https://docs.python.org./3/", "docs.python.org"),
        ("github.com/psf/requests", "github.com"),
        ("about:blank", None),
        ("file:///home/me/x.html", None),
        ("chrome://newtab/", "newtab"),
        ("https://[::1]:8080/", "::1"),
        ("https://bad[host/", None),
        ("https://www.bücher.de/", "bücher.de"),
    ],
)
def test_site_of(url: str | None, site: str | None) -> None:
    assert site_of(url) == site
