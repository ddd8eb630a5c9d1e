"""Privacy rules and the recorder config: exclusions by app, title and host; private
windows; clear errors for a bad config."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.capture.config import ConfigError, RecorderConfig, load_config
from actframes.capture.privacy import (
    EXCLUDED,
    PRIVATE,
    PrivacyConfigError,
    PrivacyRules,
    url_host,
)


def test_apps_match_class_instance_or_executable_case_insensitively() -> None:
    rules = PrivacyRules.build(apps=["KeePassXC", "signal*"])
    assert rules.app_excluded(["keepassxc"])
    assert rules.app_excluded(["Signal", "signal-desktop"])
    assert rules.app_excluded([None, "", "Signal-Desktop"])
    assert not rules.app_excluded(["KeePassXC-helper"])  # whole-name match
    assert not PrivacyRules().app_excluded(["anything"])


def test_titles_are_regexes_searched_case_insensitively() -> None:
    rules = PrivacyRules.build(titles=[r"\bbank\b", "^Payroll"])
    assert rules.title_excluded("My Bank — statements")
    assert rules.title_excluded("payroll 2026")
    assert not rules.title_excluded("bankruptcy law")
    with pytest.raises(PrivacyConfigError, match="not a regex"):
        PrivacyRules.build(titles=["(oops"])


def test_hosts_match_subdomains_or_shell_patterns() -> None:
    rules = PrivacyRules.build(hosts=["bank.example", "*.internal", "Mail.Google.com."])
    assert rules.host_excluded("https://bank.example/login")
    assert rules.host_excluded("https://www.bank.example:8443/x")
    assert rules.host_excluded("bank.example/x")  # as an address bar shows it
    assert rules.host_excluded("http://wiki.corp.internal/")
    assert rules.host_excluded("https://mail.google.com/mail/u/0")
    assert not rules.host_excluded("https://notbank.example/")
    assert not rules.host_excluded("https://example.com/?q=bank.example")
    assert not rules.host_excluded(None)
    assert not rules.host_excluded("about:blank")


def test_url_host() -> None:
    assert url_host("https://User@Example.COM:443/x") == "example.com"
    assert url_host("github.com/acme") == "github.com"
    assert url_host("about:blank") is None
    assert url_host("http://[::1]:9/") == "::1"


def test_private_windows() -> None:
    rules = PrivacyRules()
    assert rules.is_private("New Tab - Google Chrome (Incognito)")
    assert rules.is_private("Page B - Chromium (Incognito)")
    assert rules.is_private("Mozilla Firefox Private Browsing")
    assert rules.is_private("Example — Mozilla Firefox Private Browsing")
    assert rules.is_private("Bing - Work - Microsoft Edge InPrivate")
    assert not rules.is_private("Incognito mode explained - Wikipedia - Chromium")
    assert not PrivacyRules(skip_private=False).is_private("x (Incognito)")
    assert PrivacyRules.build(extra_markers=["[secret]"]).is_private("doc [secret]")


def test_verdict_order_and_accessible_names() -> None:
    rules = PrivacyRules.build(apps=["Vault"], titles=["salary"], hosts=["bank.example"])
    assert rules.verdict(["Vault"], "x") == EXCLUDED
    assert rules.verdict(["Editor"], "Salary 2026") == EXCLUDED
    assert rules.verdict(["Chromium"], "Login", "https://bank.example/") == EXCLUDED
    assert rules.verdict(["Chromium"], "Page", None, "Page - Chromium (Incognito)") == PRIVATE
    assert rules.verdict(["Editor"], "notes") is None


def test_config_file(tmp_path: Path) -> None:
    cfg = tmp_path / "recorder.toml"
    cfg.write_text(
        "idle_seconds = 90\nheartbeat_seconds = 10\nkeep_days = 30\naccessibility = false\n"
        'devtools = "http://127.0.0.1:9222/"\n'
        '[exclude]\napps = ["Vault"]\ntitles = ["salary"]\nhosts = ["bank.example"]\n'
        '[private]\nskip = true\nmarkers = ["(work)"]\n'
    )
    c = load_config(cfg)
    assert (c.idle_ms, c.heartbeat_ms, c.keep_days, c.accessibility) == (90_000, 10_000, 30, False)
    assert c.devtools == "http://127.0.0.1:9222"
    assert c.privacy.app_excluded(["vault"]) and c.privacy.is_private("x (work)")
    o = c.with_overrides(idle_seconds=2.5, keep_days=0, accessibility=True)
    assert (o.idle_ms, o.keep_days, o.accessibility) == (2_500, 0, True)


def test_missing_default_config_means_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert load_config() == RecorderConfig()
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "absent.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("idle_seconds = 0", "idle_seconds must be a number of seconds above 0"),
        ('idle_seconds = "3"', "idle_seconds must be"),
        ("keep_days = -1", "keep_days must be a whole number"),
        ("colour = 1", r"unknown key\(s\) colour"),
        ("[exclude]\napp = []", r"\[exclude\] has unknown key\(s\) app"),
        ('[exclude]\napps = "Vault"', "exclude.apps must be a list of strings"),
        ('devtools = "http://example.com:9222"', "devtools must be an http://127.0.0.1:PORT"),
        ("idle_seconds = ", "not valid TOML"),
    ],
)
def test_bad_config_names_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    cfg = tmp_path / "recorder.toml"
    cfg.write_text(text + "\n")
    with pytest.raises(ConfigError, match=message) as err:
        load_config(cfg)
    assert str(err.value).startswith(str(cfg))
