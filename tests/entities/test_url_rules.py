"""The URL table: every row of url_cases.py, and checks on the rule tables themselves."""

from __future__ import annotations

import re

import pytest

from actframes.compile.page_refs import page_ref as compile_page_ref
from actframes.entities import KINDS, page_ref, site_key
from actframes.entities.matcher import (
    BUILTIN_FIELDS,
    compile_rule,
    looks_secret,
    param_denied,
)
from actframes.entities.url_rules import EXTRA_SITES, GENERIC, HOST_ALIASES, SITES

from .url_cases import CASES, SECRET

# Sites the issue names, by a host each: all must have rules of their own.
REQUIRED_SITES = [
    "github.com", "gist.github.com", "docs.github.com", "gitlab.com", "bitbucket.org",
    "linkedin.com", "google.com", "docs.google.com", "drive.google.com", "mail.google.com",
    "calendar.google.com", "meet.google.com", "maps.google.com", "youtube.com", "youtu.be",
    "x.com", "twitter.com", "reddit.com", "news.ycombinator.com", "stackoverflow.com",
    "unix.stackexchange.com", "superuser.com", "chat.openai.com", "chatgpt.com", "claude.ai",
    "gemini.google.com", "perplexity.ai", "localhost", "127.0.0.1", "figma.com", "notion.so",
    "linear.app", "acme.atlassian.net", "app.slack.com", "discord.com",
    "teams.microsoft.com", "web.whatsapp.com", "web.telegram.org", "outlook.live.com",
    "outlook.office.com", "zoom.us", "calendly.com", "lu.ma", "producthunt.com",
    "crunchbase.com", "instagram.com", "facebook.com", "medium.com", "foo.substack.com",
    "en.wikipedia.org", "fr.wikipedia.org", "arxiv.org", "pypi.org", "npmjs.com", "crates.io",
    "requests.readthedocs.io", "docs.python.org", "developer.mozilla.org", "huggingface.co",
    "kaggle.com", "dashboard.stripe.com", "vercel.com", "supabase.com",
    "console.aws.amazon.com", "console.cloud.google.com", "portal.azure.com", "sentry.io",
    "acme.grafana.net", "trello.com", "app.asana.com", "airtable.com",
    "acme.lightning.force.com", "app.hubspot.com", "acme.zendesk.com", "amazon.com",
    "amazon.de", "duckduckgo.com", "bing.com",
]  # fmt: skip


def test_table_is_large_and_distinct() -> None:
    inputs = [u for u, _, _ in CASES]
    assert len(CASES) >= 400
    assert len(set(inputs)) == len(inputs), "duplicate rows"


@pytest.mark.parametrize(("url", "kind", "entity"), CASES, ids=range(len(CASES)))
def test_case(url: str, kind: str, entity: str) -> None:
    ref = page_ref(url)
    assert (ref.kind, ref.entity) == (kind, entity)
    assert compile_page_ref(url) == (kind, entity)
    assert SECRET not in ref.entity and SECRET not in (ref.site or "")


def test_cases_cover_many_sites() -> None:
    keys = {site_key(page_ref(u).site or "")[0] for u, _, _ in CASES}
    keys.discard(None)
    assert len(keys) >= 100, sorted(k for k in keys if k)


@pytest.mark.parametrize("host", REQUIRED_SITES)
def test_required_site_has_rules(host: str) -> None:
    assert site_key(host)[0] is not None


def test_every_kind_is_documented() -> None:
    produced = {k for _, k, _ in CASES}
    for rules in [*SITES.values(), *EXTRA_SITES.values()]:
        produced |= {r[1] for r in rules}
    produced |= {r[1] for _, r in GENERIC}
    assert produced <= set(KINDS), produced - set(KINDS)
    required = [
        "profile", "company", "feed", "messaging", "people_search", "search", "repo",
        "pull_request", "issue", "commit", "code", "gist", "doc", "sheet", "slides", "form",
        "drive", "email", "calendar", "meeting", "video", "channel", "post", "question",
        "booking", "design", "ai_chat", "local_dev", "notifications", "docs", "package",
        "paper", "product", "ticket", "dashboard", "wiki", "page",
    ]  # fmt: skip
    assert set(required) <= produced


def test_every_rule_compiles_and_names_only_allowed_params() -> None:
    site_rules = [r for rules in [*SITES.values(), *EXTRA_SITES.values()] for r in rules]
    for rule in [*site_rules, *(g for _, g in GENERIC)]:
        compiled = compile_rule(rule)  # raises on a template field the rule does not name
        assert compiled.regex.rx.groupindex is not None  # the pattern itself compiles
        params = rule[3] if len(rule) > 3 else ()
        for p in params:
            assert not param_denied(p), (rule, p)
        assert compiled.kind in KINDS
    for host_re, _ in GENERIC:
        re.compile(host_re)
    for pattern, key in HOST_ALIASES:
        re.compile(pattern)
        assert key in SITES or key in EXTRA_SITES, key


def test_wildcard_keys_and_fields() -> None:
    for key in SITES:
        assert key == key.lower() and not key.startswith("www."), key
        assert key.count("*") <= 1 and (key.startswith("*.") or "*" not in key), key
    assert {"host", "sub", "hostport", "path", "route"} == BUILTIN_FIELDS


@pytest.mark.parametrize(
    "value",
    [
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
        "sk_live_abcdefghijkl",
        "ghp_abcdefghijklmnopqrstuvwxyz0123",
        "xoxb-1234567890-abcdef",
        "AKIAABCDEFGHIJKLMNOP",
        "token=abc",
        "password: hunter2",
    ],
)
def test_secret_values_are_recognised(value: str) -> None:
    assert looks_secret(value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # A rule that would capture a credential does not match; the host is all that shows.
        ("https://github.com/ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github.com"),
        ("https://dashboard.stripe.com/test/apikeys/sk_test_abcdefghijklmnop", "apikeys"),
        ("https://docs.example.com/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.x", "docs.example.com"),
    ],
)
def test_captured_credentials_are_never_shown(url: str, shown: str) -> None:
    assert page_ref(url).entity == shown


@pytest.mark.parametrize(
    "name",
    [
        "token",
        "access_token",
        "code",
        "state",
        "sig",
        "password",
        "SAMLResponse",
        "session_id",
        "X-Amz-Signature",
        "api_key",
    ],
)
def test_denied_params(name: str) -> None:
    assert param_denied(name)


@pytest.mark.parametrize("name", ["q", "keywords", "search_query", "v", "list", "id", "jk"])
def test_allowed_params(name: str) -> None:
    assert not param_denied(name)


def test_docs_table_lists_every_kind_and_its_examples_hold() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "entities.md").read_text("utf-8")
    rows = re.findall(r"^\| `(\w+)` \| [^|]+ \| `([^`]+)` \| `([^`]*)` \|$", doc, re.M)
    assert len(rows) >= 50
    assert {k for k, _, _ in rows} | {"project", "cwd", "command", "folder"} >= set(KINDS)
    for kind, example, entity in rows:
        assert page_ref(example) == (page_ref(example).site, kind, entity), example
