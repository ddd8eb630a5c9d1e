"""Properties: any string gives a reference, the same one every time, and secrets planted
where secrets live (user-info, denied query parameters, fragments) never come out."""

from __future__ import annotations

from urllib.parse import quote

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.entities import KINDS, PageRef, TitleRef, clean_title, page_ref, title_ref
from actframes.entities.url_rules import SITES

MARK = "Zq9SECRETzq9"

_page_ref_uncached = page_ref.__wrapped__
_title_ref_uncached = title_ref.__wrapped__

HOSTS = [
    *sorted(k.replace("*.", "acme.") for k in SITES if ":" not in k),
    "example.com", "bücher.de", "xn--bcher-kva.de", "192.168.0.1", "localhost",
]  # fmt: skip
SEGMENT = st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=12).map(
    lambda s: quote(s, safe="-._~@:")
)
WORDS = st.sampled_from(
    ["in", "pull", "issues", "watch", "c", "r", "comments", "d", "edit", "wiki", "docs", "p",
     "status", "search", "login", "@me", "channels", "client", "T01", "C01", "1", "42"]
)  # fmt: skip
DENIED = st.sampled_from(
    ["token", "access_token", "code", "state", "sig", "password", "session_id", "SAMLResponse",
     "X-Amz-Signature", "api_key", "client_secret", "auth", "otp", "nonce", "jwt", "key"]
)  # fmt: skip
APPS = st.sampled_from(
    ["Code.exe", "firefox.exe", "Google Chrome", "slack", "Teams.exe", "Discord", "zoom",
     "kitty", "cmd.exe", "WINWORD.EXE", "soffice.bin", "okular", "Figma", "explorer.exe",
     "pycharm64.exe", "nvim", "emacs", "Inkscape", "", "unknown app"]
)  # fmt: skip


def _check(ref: PageRef) -> None:
    assert isinstance(ref, PageRef)
    assert isinstance(ref.kind, str) and ref.kind in KINDS
    assert isinstance(ref.entity, str)
    assert ref.site is None or isinstance(ref.site, str)


@settings(max_examples=400)
@given(st.text(max_size=300))
def test_any_string_gives_a_reference(text: str) -> None:
    ref = page_ref(text)
    _check(ref)
    assert _page_ref_uncached(text) == ref == _page_ref_uncached(text)


@settings(max_examples=400)
@given(
    scheme=st.sampled_from(["https://", "http://", "", "HTTPS://", "ftp://"]),
    userinfo=st.booleans(),
    host=st.sampled_from(HOSTS),
    port=st.one_of(st.none(), st.integers(1, 65535)),
    path=st.lists(st.one_of(WORDS, SEGMENT), max_size=6),
    trailing=st.booleans(),
    query=st.lists(
        st.tuples(
            st.one_of(DENIED, st.sampled_from(["q", "v", "id", "utm_source"])), st.text(max_size=8)
        ),
        max_size=4,
    ),
    secret_param=DENIED,
    fragment=st.sampled_from(["", "#access_token=", "#/timeline?token=", "#id_token=", "#x"]),
)
def test_secrets_never_come_out(
    scheme: str,
    userinfo: bool,
    host: str,
    port: int | None,
    path: list[str],
    trailing: bool,
    query: list[tuple[str, str]],
    secret_param: str,
    fragment: str,
) -> None:
    netloc = (f"user:{MARK}@" if userinfo else "") + host + (f":{port}" if port else "")
    params = [(k, v) for k, v in query if k.lower() not in ("q", "v", "id")]
    params.append((secret_param, MARK))
    qs = "&".join(f"{k}={quote(v)}" for k, v in params)
    url = f"{scheme}{netloc}/{'/'.join(path)}{'/' if trailing else ''}?{qs}"
    url += fragment + (MARK if fragment.endswith("=") else "")
    ref = page_ref(url)
    _check(ref)
    assert MARK not in ref.entity and MARK not in (ref.site or "")
    assert ref == _page_ref_uncached(url)


@settings(max_examples=300)
@given(app=st.one_of(APPS, st.text(max_size=20)), title=st.text(max_size=200))
def test_any_title_is_safe_to_type(app: str, title: str) -> None:
    ref = title_ref(app, title)
    assert ref is None or (
        isinstance(ref, TitleRef) and ref.kind in KINDS and ref.entity and ref.label
    )
    assert _title_ref_uncached(app, title) == ref
    cleaned = clean_title(app, title)
    assert isinstance(cleaned, str) and len(cleaned) <= len(title)


@settings(max_examples=200)
@given(
    family_app=APPS,
    parts=st.lists(st.text(max_size=15), min_size=1, max_size=5),
    sep=st.sampled_from([" - ", " — ", " – ", " | ", " · ", ": "]),
)
def test_title_shapes_never_raise(family_app: str, parts: list[str], sep: str) -> None:
    ref = title_ref(family_app, sep.join(parts))
    assert ref is None or ref.kind in KINDS
