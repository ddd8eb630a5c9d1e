"""Privacy rules, applied before anything is written.

A window is *excluded* when its app matches an app pattern, its title matches a title
pattern, or its URL's host matches a host pattern; it is *private* when its title (or the
accessible name of its frame) carries a browser's private-window marker. Either way the
recorder writes only a placeholder row (app ``[excluded]`` or ``[private]``, no title, no
URL), no input counts and no accessibility elements: the excluded thing itself never
reaches the store, not even its title.

Matching rules (all case-insensitive):

- ``apps``: shell-style patterns (``*``, ``?``, ``[…]``) matched against the whole of
  each of the window's names: WM_CLASS class, WM_CLASS instance, executable name.
- ``titles``: Python regular expressions, *searched* in the title.
- ``hosts``: a pattern without wildcards matches that host and its subdomains
  (``example.com`` matches ``mail.example.com``); with wildcards it is a shell-style
  pattern over the whole host (``*.bank.*``). Hosts are compared lower-cased, without
  port, user-info or trailing dot.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

EXCLUDED = "excluded"
PRIVATE = "private"

# Title endings browsers give private windows. Chromium on Linux puts "(Incognito)" in
# the accessible name of the window, not always in the X title, so the recorder checks
# both when accessibility is available.
PRIVATE_MARKERS: tuple[str, ...] = (
    "(incognito)",
    "— incognito",
    "- incognito",
    "private browsing",  # Firefox: "… — Mozilla Firefox Private Browsing"
    "(private)",  # Brave, Vivaldi
    "— private",
    "- private",
    "inprivate",  # Edge
    "(guest)",  # Chromium guest windows keep no history either
)


class PrivacyConfigError(ValueError):
    pass


@dataclass(frozen=True)
class PrivacyRules:
    apps: tuple[str, ...] = ()
    titles: tuple[re.Pattern[str], ...] = ()
    hosts: tuple[str, ...] = ()
    skip_private: bool = True
    private_markers: tuple[str, ...] = PRIVATE_MARKERS
    _app_patterns: tuple[str, ...] = field(default=(), repr=False)

    @classmethod
    def build(
        cls,
        apps: Iterable[str] = (),
        titles: Iterable[str] = (),
        hosts: Iterable[str] = (),
        *,
        skip_private: bool = True,
        extra_markers: Iterable[str] = (),
    ) -> PrivacyRules:
        compiled = []
        for pattern in titles:
            try:
                compiled.append(re.compile(pattern, re.IGNORECASE))
            except re.error as exc:
                raise PrivacyConfigError(
                    f"title pattern {pattern!r} is not a regex ({exc})"
                ) from exc
        app_list = tuple(a for a in apps if a.strip())
        return cls(
            apps=app_list,
            titles=tuple(compiled),
            hosts=tuple(_norm_host(h) for h in hosts if h.strip()),
            skip_private=skip_private,
            private_markers=PRIVATE_MARKERS + tuple(m.lower() for m in extra_markers if m),
            _app_patterns=tuple(a.strip().lower() for a in app_list),
        )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PrivacyRules:
        """From the parsed ``[exclude]`` and ``[private]`` tables of the recorder config."""
        exclude = data.get("exclude", {})
        private = data.get("private", {})
        if not isinstance(exclude, Mapping):
            raise PrivacyConfigError("[exclude] must be a table")
        if not isinstance(private, Mapping):
            raise PrivacyConfigError("[private] must be a table")
        unknown = set(exclude) - {"apps", "titles", "hosts"}
        if unknown:
            raise PrivacyConfigError(f"[exclude] has unknown key(s) {', '.join(sorted(unknown))}")
        unknown = set(private) - {"skip", "markers"}
        if unknown:
            raise PrivacyConfigError(f"[private] has unknown key(s) {', '.join(sorted(unknown))}")
        skip = private.get("skip", True)
        if not isinstance(skip, bool):
            raise PrivacyConfigError("private.skip must be true or false")
        return cls.build(
            _strings(exclude, "apps", "exclude"),
            _strings(exclude, "titles", "exclude"),
            _strings(exclude, "hosts", "exclude"),
            skip_private=skip,
            extra_markers=_strings(private, "markers", "private"),
        )

    # ------------------------------------------------------------------ checks

    def app_excluded(self, names: Iterable[str | None]) -> bool:
        if not self._app_patterns:
            return False
        lowered = [n.lower() for n in names if n]
        return any(fnmatch.fnmatchcase(n, p) for p in self._app_patterns for n in lowered)

    def title_excluded(self, title: str) -> bool:
        return any(p.search(title) for p in self.titles)

    def host_excluded(self, url: str | None) -> bool:
        if not self.hosts or not url:
            return False
        host = url_host(url)
        if not host:
            return False
        for pattern in self.hosts:
            if any(c in pattern for c in "*?["):
                if fnmatch.fnmatchcase(host, pattern):
                    return True
            elif host == pattern or host.endswith("." + pattern):
                return True
        return False

    def is_private(self, *names: str | None) -> bool:
        if not self.skip_private:
            return False
        for name in names:
            if name:
                low = name.lower().rstrip()
                if any(low.endswith(m) or f"{m} " in low for m in self.private_markers):
                    return True
        return False

    def verdict(
        self,
        app_names: Iterable[str | None],
        title: str,
        url: str | None = None,
        a11y_name: str | None = None,
    ) -> str | None:
        """``"excluded"``, ``"private"`` or None (record normally)."""
        if self.app_excluded(app_names) or self.title_excluded(title):
            return EXCLUDED
        if a11y_name and self.title_excluded(a11y_name):
            return EXCLUDED
        if self.host_excluded(url):
            return EXCLUDED
        if self.is_private(title, a11y_name):
            return PRIVATE
        return None


def url_host(url: str) -> str | None:
    """The host of ``url`` (a URL without a scheme is read as one), normalized."""
    text = url.strip()
    if "://" not in text:
        if text.lower().startswith(("about:", "file:", "data:", "chrome:", "javascript:")):
            return None
        text = "//" + text
    try:
        host = urlsplit(text).hostname
    except ValueError:
        return None
    return _norm_host(host) if host else None


def _norm_host(host: str) -> str:
    return host.strip().lower().rstrip(".")


def _strings(table: Mapping[str, Any], key: str, where: str) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PrivacyConfigError(f"{where}.{key} must be a list of strings")
    return value
