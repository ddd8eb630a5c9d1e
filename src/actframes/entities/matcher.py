"""The one small matcher that runs the rule tables.

A rule is data: ``(path pattern, kind, entity template[, query params])``. The pattern is
a regular expression matched against the whole normalised path (``/psf/requests/pull/1``;
``/`` for the root); a pattern that contains ``#`` is matched against the path, ``#`` and
the decoded fragment instead (Gmail, Teams and Telegram keep their route there).

Templates name what they show: ``{owner}/{repo}#{n}``. A field is a named group of the
pattern, a query parameter the rule names, or one of ``host``, ``sub`` (the part of the
host a ``*.`` key matched), ``hostport``, ``path`` and ``route`` (a hash route such as
``#/timeline``). Filters follow a bar: ``{q|search}``. A field marked ``?`` may be empty;
any other field that is missing or empty makes the rule not match, and the next one is
tried. So a rule can never show a part of the URL it does not name.

Secrets: a query parameter whose name is on the deny-list is treated as absent even when
a rule names it, and a value that looks like a credential (a JWT, an API key prefix …)
makes the rule not match.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from ..fast.lazyre import LazyRe
from .url_parse import URLParts

MAX_ENTITY_CHARS = 160
MAX_SEARCH_CHARS = 200

# Query parameter names never shown, whatever a rule says: exact names ...
DENY_PARAMS = frozenset(
    {
        "code", "sid", "sig", "pwd", "pass", "key", "state", "nonce", "otp", "ticket",
        "auth", "hash", "jwt", "csrf", "xsrf", "_csrf", "assertion", "relaystate",
        "samlrequest", "samlresponse", "client_secret", "e", "x-amz-credential",
        "x-amz-signature", "x-amz-security-token", "x-goog-signature", "x-goog-credential",
        "se", "sp", "sv", "skoid", "sktid", "rsct",
    }
)  # fmt: skip
# ... and any name containing one of these.
DENY_PARAM_PARTS = (
    "token", "secret", "passw", "session", "signature", "credential", "apikey", "api_key",
    "auth", "saml", "jwt", "otp",
)  # fmt: skip

# Values that are credentials whatever parameter or segment holds them.
_SECRET_VALUE = LazyRe(
    r"eyJ[\w-]{6,}\.[\w-]{6,}"  # a JWT
    r"|\b(?:sk|rk)_(?:live|test)_\w{6,}|\bwhsec_\w{6,}|\bcs_(?:live|test)_\w{6,}"  # Stripe
    r"|\bgh[pousr]_\w{20,}|\bgithub_pat_\w{20,}|\bglpat-[\w-]{16,}"  # GitHub, GitLab
    r"|\bxox[abposr]-[\w-]{10,}"  # Slack
    r"|\bAKIA[0-9A-Z]{16}\b|\bAIza[\w-]{30,}|\bya29\.[\w-]{10,}"  # AWS, Google
    r"|\bsk-(?:ant-|proj-)?[\w-]{20,}|\bhf_[A-Za-z]{30,}|\bnpm_\w{30,}|\bpypi-[\w-]{30,}"
    r"|(?:token|secret|passw(?:or)?d|session|signature|api_?key)\s*[=:]",
    re.IGNORECASE,
)

_FIELD = LazyRe(r"\{([\w-]+)(\?)?((?:\|\w+)*)\}")
_GROUP_NAME = LazyRe(r"\(\?P<(\w+)>")
_WS = LazyRe(r"\s+")
_LOCALE = LazyRe(
    r"(?:ar|bg|bn|ca|cs|da|de|el|en|eo|es|et|fa|fi|fr|he|hi|hr|hu|id|it|ja|ko|lt|lv|ms|"
    r"nb|nl|no|pl|pt|ro|ru|sk|sl|sr|sv|th|tr|uk|vi|zh)(?:[-_][A-Za-z]{2,4})?",
)
_HEX = LazyRe(r"[0-9a-fA-F]{7,40}")
_NOTION_ID = LazyRe(r"[0-9a-f]{32}|[0-9a-f-]{36}")
_ARXIV_VERSION = LazyRe(r"v\d+$")
# A hash route as single-page apps write it: "#/timeline", "#!/x". Anything with "=" or
# "&" is a parameter list (OAuth puts tokens there) and is never shown.
_ROUTE = LazyRe(r"!?/[^=&?#\s]*")

BUILTIN_FIELDS = frozenset({"host", "sub", "hostport", "path", "route"})
Rule = tuple[str, str, str] | tuple[str, str, str, tuple[str, ...]]


def param_denied(name: str) -> bool:
    n = name.lower()
    return n in DENY_PARAMS or any(p in n for p in DENY_PARAM_PARTS)


def looks_secret(value: str) -> bool:
    return bool(_SECRET_VALUE.search(value))


def clip(text: str, limit: int = MAX_ENTITY_CHARS) -> str:
    text = _WS.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ---------------------------------------------------------------- filters


def _search(v: str) -> str:
    """A search query as typed, whitespace-normalised, as a JSON string: "cto berlin"."""
    return json.dumps(clip(v, MAX_SEARCH_CHARS), ensure_ascii=False)


def _spaces(v: str) -> str | None:
    return v.replace("_", " ").replace("+", " ")


def _doc(v: str) -> str | None:
    """A documentation path without its locale prefix, ``index.html`` or ``.html``, so
    one page in two languages is one entity."""
    segs = [s for s in v.split("/") if s]
    if segs and _LOCALE.fullmatch(segs[0]):
        segs = segs[1:]
    if segs and segs[-1].lower() in ("index.html", "index.htm", "index"):
        segs = segs[:-1]
    if segs:
        segs[-1] = re.sub(r"\.html?$", "", segs[-1])
    return "".join("/" + s for s in segs)


def _host(v: str) -> str | None:
    """The host of a URL held in a parameter (a redirect's target), nothing more."""
    from .url_parse import parse_url

    return parse_url(v).host or None


def _slack_ts(v: str) -> str | None:
    # Archive links write p1700332630428509; the client writes 1700332630.428509.
    return v if "." in v or len(v) <= 6 else v[:-6] + "." + v[-6:]


def _pep503(v: str) -> str | None:
    return re.sub(r"[-_.]+", "-", v).lower()


FILTERS: Mapping[str, Callable[[str], str | None]] = {
    "search": _search,
    "lower": str.lower,
    "spaces": _spaces,
    "plus": lambda v: v.replace("+", " "),
    "sha": lambda v: v[:7].lower() if _HEX.fullmatch(v) else None,
    "nover": lambda v: _ARXIV_VERSION.sub("", v),
    "noext": lambda v: re.sub(r"\.(?:pdf|html?)$", "", v, flags=re.IGNORECASE),
    "doc": _doc,
    "host": _host,
    "slackts": _slack_ts,
    "pep503": _pep503,
    "notionid": lambda v: v.replace("-", "") if _NOTION_ID.fullmatch(v) else None,
    "at": lambda v: v.lstrip("@") or None,
}


# ---------------------------------------------------------------- compiled rules


class Field(NamedTuple):
    name: str
    optional: bool
    filters: tuple[Callable[[str], str | None], ...]


class CompiledRule(NamedTuple):
    regex: LazyRe  # compiled when first reached: most rules of a site never are
    kind: str
    parts: tuple[str | Field, ...]
    params: tuple[str, ...]
    fragment: bool

    def render(self, url: URLParts, env: Mapping[str, str]) -> str | None:
        subject = url.path
        if self.fragment and url.fragment:
            subject += "#" + url.fragment
        m = self.regex.fullmatch(subject)
        if m is None:
            return None
        values: dict[str, str] = {k: v for k, v in m.groupdict().items() if v}
        for name in self.params:
            if name not in values and not param_denied(name):
                v = url.param(name)
                if v and v.strip():
                    values[name] = v
        out: list[str] = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            captured = values.get(part.name)
            value = env.get(part.name, "") if captured is None else captured.replace("%2F", "/")
            if not value:
                if not part.optional:
                    return None
                # An optional search with no query is still a search: '""'.
                if part.filters and part.filters[-1] is _search:
                    out.append(_search(""))
                continue
            for f in part.filters:
                fv = f(value)
                if fv is None:
                    return None
                value = fv
            if not value and not part.optional:
                return None
            # Checked on what is shown: a redirect's target URL may hold a token, its host not.
            if captured is not None and looks_secret(value):
                return None
            out.append(value)
        entity = clip("".join(out))
        return entity or None


def compile_rule(rule: Rule) -> CompiledRule:
    pattern, kind, template = rule[0], rule[1], rule[2]
    params: tuple[str, ...] = rule[3] if len(rule) > 3 else ()
    regex = LazyRe(pattern)
    groups = set(_GROUP_NAME.findall(pattern))
    parts: list[str | Field] = []
    pos = 0
    for m in _FIELD.finditer(template):
        if m.start() > pos:
            parts.append(template[pos : m.start()])
        name, optional, chain = m.group(1), bool(m.group(2)), m.group(3)
        if name not in groups and name not in params and name not in BUILTIN_FIELDS:
            raise ValueError(f"rule {pattern!r}: template field {name!r} is not named")
        filters = tuple(FILTERS[f] for f in chain.split("|") if f)
        parts.append(Field(name, optional, filters))
        pos = m.end()
    if pos < len(template):
        parts.append(template[pos:])
    return CompiledRule(regex, kind, tuple(parts), params, "#" in pattern)


def compile_rules(rules: Sequence[Rule]) -> tuple[CompiledRule, ...]:
    return tuple(compile_rule(r) for r in rules)


def environment(url: URLParts, sub: str) -> dict[str, str]:
    """The built-in template fields for one URL."""
    host = url.host
    if ":" in host:  # IPv6
        host = f"[{host}]"
    route = url.fragment if _ROUTE.fullmatch(url.fragment or "-") else ""
    path = url.path if url.segments else ""
    if any(looks_secret(s) for s in url.segments):
        path = ""
    return {
        "host": url.host,
        "sub": sub,
        "hostport": host + (f":{url.port}" if url.port is not None else ""),
        "path": path,
        # "localhost:5600/#/timeline": the route follows the path's "/" when there is no path.
        "route": ("#" if path else "/#") + route if route else "",
    }
