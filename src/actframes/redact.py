"""Secrets in screen text, replaced by ``[redacted]`` before any output or index holds them.

``redact(text)`` is deterministic and pure. What it finds is the table ``RULES``, a row a
secret's shape: its name; needles (the rule is tried only on a text holding one); a compiled
pattern; an optional check of what the pattern found (Luhn, an IBAN's mod-97, a value's
entropy); an optional tail (the characters a found token runs on with, so a token longer
than its pattern's bound goes whole). A pattern's group ``s``, when it has one, is the
secret (``password: hunter2`` keeps ``password: ``), else the whole match is. The spans
all rules find are merged, each run of them becoming one ``[redacted]``; that is repeated
until nothing more is found, so ``redact(redact(t)) == redact(t)``.

Linear time by construction, whatever the text (``tests/test_redact.py`` checks the
shapes, no clock needed): every quantifier of a pattern has a finite bound, and none whose
count may vary stands inside another whose count may vary, so a pattern tried at one
position does bounded work (no catastrophic backtracking). Each position is tried at most
once per rule: a rejected match resumes the search one character after its start, an
accepted one after its end. A tail is one character class repeated possessively with
nothing after it, which cannot backtrack.

Elements whose role holds what the user typed (form values, password fields) are not
redacted here but withheld whole: callers test ``form_roles.holds_content(role)`` and leave
such an element's text out.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

REDACTED = "[redacted]"
MAX_PASSES = 8  # redaction repeats until stable; a real text settles in two


class Rule(NamedTuple):
    name: str
    # Tried only on a text holding one of these (case-folded when the pattern ignores case).
    needles: tuple[str, ...]
    rx: re.Pattern[str]
    # The length of the secret at the start of what was found (0: not a secret).
    check: Callable[[str], int] | None
    tail: re.Pattern[str] | None  # a possessive run of one class, or None


# --- checks -----------------------------------------------------------------------------

_DIGIT = re.compile(r"[0-9]")
_LOWER = re.compile(r"[a-z]")
_UPPER = re.compile(r"[A-Z]")


def _entropy(value: str) -> float:
    """Shannon entropy of the value's characters, bits per character."""
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def high_entropy(value: str) -> int:
    """A generated secret, not a word: 16+ characters of two classes or more (lower, upper,
    digits), at least 3 bits a character."""
    classes = sum(1 for rx in (_DIGIT, _LOWER, _UPPER) if rx.search(value))
    return len(value) if len(value) >= 16 and classes >= 2 and _entropy(value) >= 3.0 else 0


def _mixed(value: str) -> int:
    """A credential, not a word: a digit, or upper and lower case letters."""
    cased = _LOWER.search(value) and _UPPER.search(value)
    return len(value) if _DIGIT.search(value) or cased else 0


def _letters_and_digits(value: str) -> int:
    letters = _LOWER.search(value) or _UPPER.search(value)
    return len(value) if _DIGIT.search(value) and letters else 0


def luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _issued(digits: str) -> bool:
    """A card network's number: a first digit 3-6 (Amex, Diners, JCB, Visa, Mastercard,
    Discover, UnionPay, Maestro) or Mastercard's 2221-2720."""
    return digits[0] in "3456" or 2221 <= int(digits[:4]) <= 2720


def card(value: str) -> int:
    """The longest leading groups of the value forming a card number: 13-19 digits, a
    network's prefix, passing Luhn."""
    groups = re.split(r"[ \u00a0-]", value)
    for n in range(len(groups), 0, -1):
        digits = "".join(groups[:n])
        if 13 <= len(digits) <= 19 and _issued(digits) and luhn(digits):
            return sum(len(g) for g in groups[:n]) + n - 1
    return 0


# ISO 13616 lengths (SWIFT's IBAN registry); a country not listed is taken at 15-34.
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31,
    "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23,
    "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}  # fmt: skip


def iban_valid(compact: str) -> bool:
    """ISO 7064 mod 97-10 over the rearranged IBAN, check digits 02-98."""
    if not 2 <= int(compact[2:4]) <= 98:
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def iban(value: str) -> int:
    """The IBAN at the start of the value, at its country's length, or 0."""
    compact = value.replace(" ", "")
    want = IBAN_LENGTHS.get(compact[:2])
    if want is None:
        return len(value) if 15 <= len(compact) <= 34 and iban_valid(compact) else 0
    if len(compact) < want:
        return 0
    end, seen = 0, 0
    while seen < want:  # where the country's length ends in the value, spaces counted
        seen += value[end] != " "
        end += 1
    if end < len(value) and value[end] != " ":
        return 0  # mid-group: not this IBAN's end
    return end if iban_valid(compact[:want]) else 0


# --- the table --------------------------------------------------------------------------

_ALNUM = "A-Za-z0-9"
_B64URL = "A-Za-z0-9_-"
_NB = r"(?<![A-Za-z0-9])"  # no letter or digit just before
# between a keyword and its value: an optional closing quote, then ":" or "="
_SEP = r"""["']?[ \t]{0,4}[:=\uff1a][ \t]{0,4}"""
# What follows "password:": a quoted value (its quotes kept), else the run up to whitespace.
_DQ = r"""["](?P<s>[^"\n]{1,1024})["]"""
_SQ = r"""['](?P<s>[^'\n]{1,1024})[']"""
_UNQUOTED = r"""(?!"[^"\n]{0,1024}"|'[^'\n]{0,1024}')(?P<s>[^\s]{1,1024})"""
_PASSWORD_WORDS = (
    "password|passwort|passwd|passphrase|pass|kennwort|mot de passe|mot_de_passe"
    "|contraseña|contrasena|senha|wachtwoord|hasło|haslo|lösenord|losenord|salasana"
    "|adgangskode|passord|şifre|sifre|parola|пароль|密码|密碼|パスワード|비밀번호"
    # the shell's PWD=/path is a folder, not a password
    "|pwd(?![\"']?[ \t]{0,4}[:=][ \t]{0,4}[/~])"
)
# a generated value: any printable run but quotes, brackets and list separators
_VALUE = r"""[^\s"'`,;<>\[\]]"""
_KEY_WORDS = (
    "api[_-]?key|apikey|api[_-]?secret|access[_-]?key|secret[_-]?key|private[_-]?key"
    "|client[_-]?secret|auth[_-]?token|access[_-]?token|refresh[_-]?token|session[_-]?token"
    "|token|secret"
)
_PASSWORD_KEY = r"(?<![a-z0-9])(?:" + _PASSWORD_WORDS + ")" + _SEP
_PASSWORD_NEEDLES = (
    "pass", "pwd", "kennwort", "contrase", "senha", "wachtwoord", "hasło", "haslo", "lösenord",
    "losenord", "salasana", "adgangskode", "şifre", "sifre", "parola", "пароль", "密码",
    "密碼", "パスワード", "비밀번호",
)  # fmt: skip
_AWS_IDS = ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA")
_GITLAB = ("pat", "dt", "rt", "ptt", "cbt", "oas", "soat", "ffct")
_DIGITS = tuple("0123456789")
_PRIVATE_KEY = r"PRIVATE KEY(?: BLOCK)?-----"
_CARD_SEP = r"[ \u00a0-]"


def _rule(
    name: str,
    needles: tuple[str, ...],
    pattern: str,
    check: Callable[[str], int] | None = None,
    tail: str | None = None,
    flags: int = 0,
) -> Rule:
    if flags & re.IGNORECASE:
        needles = tuple(n.casefold() for n in needles)
    rx = re.compile(pattern, flags)
    return Rule(name, needles, rx, check, re.compile(f"[{tail}]*+") if tail else None)


_I = re.IGNORECASE

# fmt: off
RULES: tuple[Rule, ...] = (
    # provider keys and tokens (prefixes as the providers document them)
    _rule("aws access key id", _AWS_IDS,
          _NB + "(?:" + "|".join(_AWS_IDS) + r")[A-Z0-9]{16}(?![A-Za-z0-9])"),
    _rule("aws secret access key", ("aws",),
          r"aws_?secret_?access_?key" + _SEP + r"""["']?(?P<s>[A-Za-z0-9/+=]{40})""",
          tail="A-Za-z0-9/+=", flags=_I),
    _rule("github token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
          _NB + r"gh[pousr]_[A-Za-z0-9]{36,251}", tail=_ALNUM),
    _rule("github fine-grained token", ("github_pat_",),
          _NB + r"github_pat_[A-Za-z0-9_]{22,255}", tail="A-Za-z0-9_"),
    _rule("gitlab token", tuple(f"gl{p}-" for p in _GITLAB),
          _NB + "gl(?:" + "|".join(_GITLAB) + r")-[A-Za-z0-9_.-]{20,256}", tail="A-Za-z0-9_.-"),
    _rule("slack token", ("xox",), _NB + r"xox[abposr]-[A-Za-z0-9-]{10,250}", tail="A-Za-z0-9-"),
    _rule("slack app token", ("xapp-",),
          _NB + r"xapp-[0-9]-[A-Za-z0-9-]{10,250}", tail="A-Za-z0-9-"),
    _rule("slack webhook", ("hooks.slack.com/",),
          r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,256}",
          tail="A-Za-z0-9_/-"),
    _rule("stripe secret key", ("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
          _NB + r"[sr]k_(?:live|test)_[A-Za-z0-9]{10,247}", tail=_ALNUM),
    _rule("stripe webhook secret", ("whsec_",), _NB + r"whsec_[A-Za-z0-9]{20,247}", tail=_ALNUM),
    _rule("anthropic key", ("sk-ant-",),
          _NB + r"sk-ant-[a-z]{2,8}[0-9]{2}-[A-Za-z0-9_-]{20,512}", tail=_B64URL),
    _rule("openai key", ("sk-",),
          _NB + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,256}", _letters_and_digits,
          tail=_B64URL),
    _rule("google api key", ("AIza",), _NB + r"AIza[A-Za-z0-9_-]{35}", tail=_B64URL),
    _rule("google oauth client secret", ("GOCSPX-",),
          _NB + r"GOCSPX-[A-Za-z0-9_-]{28}", tail=_B64URL),
    _rule("google oauth access token", ("ya29.",),
          _NB + r"ya29\.[A-Za-z0-9_-]{20,2048}", tail=_B64URL),
    _rule("twilio api key", ("SK",), _NB + r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
    _rule("sendgrid key", ("SG.",),
          _NB + r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}", tail=_B64URL),
    _rule("npm token", ("npm_",), _NB + r"npm_[A-Za-z0-9]{36}", tail=_ALNUM),
    _rule("pypi token", ("pypi-AgE",), _NB + r"pypi-AgE[A-Za-z0-9_-]{50,1024}", tail=_B64URL),
    _rule("hugging face token", ("hf_",), _NB + r"hf_[A-Za-z0-9]{30,64}", tail=_ALNUM),
    _rule("digitalocean token", ("dop_v1_", "doo_v1_", "dor_v1_"),
          _NB + r"do[por]_v1_[a-f0-9]{64}", tail=_ALNUM),
    _rule("shopify token", ("shpat_", "shpca_", "shppa_", "shpss_"),
          _NB + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", tail=_ALNUM),
    _rule("jwt", ("eyJ",),
          r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{8,16384}"
          r"\.[A-Za-z0-9_-]{0,4096}", tail=_B64URL),
    _rule("authorization header", ("authorization",),
          r"(?<![a-z])(?:proxy-)?authorization" + _SEP + r"""["']?(?:(?:bearer|basic|token|bot"""
          r"""|digest|negotiate|ntlm|apikey)[ \t]{1,4}|)(?P<s>[A-Za-z0-9._~+/=:-]{8,256})""",
          _mixed, tail="A-Za-z0-9._~+/=:-", flags=_I),
    _rule("bearer token", ("earer",),
          r"(?<![A-Za-z])[Bb]earer[ \t]{1,4}(?P<s>[A-Za-z0-9._~+/=-]{16,256})", high_entropy,
          tail="A-Za-z0-9._~+/=-"),
    _rule("key or token assignment", ("key", "token", "secret"),
          r"(?<![a-z0-9])(?:" + _KEY_WORDS + ")" + _SEP
          + r"""["']?(?P<s>""" + _VALUE + "{16,256})", high_entropy, tail=_VALUE[1:-1],
          flags=_I),
    _rule("password in a url", ("://",), r"://[^\s:/@]{1,256}:(?P<s>[^\s/@]{1,256})@"),
    # private keys: the whole block, or 32 KiB of it when its END line is missing
    _rule("private key", ("-----BEGIN",),
          r"-----BEGIN[A-Z0-9 ]{0,40}" + _PRIVATE_KEY + r"(?:[^-]|-(?!----END)){0,32768}"
          r"(?:-----END[A-Z0-9 ]{0,40}" + _PRIVATE_KEY + "|)"),
    # card numbers: one run of digits, 4-4-4-x(-3) groups, Amex and Diners' 4-6-5 and 4-6-4
    _rule("card number", _DIGITS, r"(?<![0-9])[0-9]{13,19}(?![0-9])", card),
    _rule("card number in groups of 4", _DIGITS,
          r"(?<![0-9])[0-9]{4}(?P<g>" + _CARD_SEP + r")[0-9]{4}(?P=g)[0-9]{4}(?P=g)[0-9]{1,4}"
          r"(?:(?P=g)[0-9]{3})?(?![0-9])", card),
    _rule("card number in groups 4-6-5", _DIGITS,
          r"(?<![0-9])[0-9]{4}(?P<h>" + _CARD_SEP + r")[0-9]{6}(?P=h)[0-9]{4,5}(?![0-9])", card),
    # IBANs, electronic (no spaces) or printed (groups of 4)
    _rule("iban", _DIGITS,
          _NB + r"[A-Z]{2}[0-9]{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}"
          r"(?: [A-Z0-9]{3}| [A-Z0-9]{2}| [A-Z0-9]|))(?![A-Za-z0-9])", iban),
    # passwords: the value after the word, quoted or up to whitespace
    _rule("password (double-quoted)", _PASSWORD_NEEDLES, _PASSWORD_KEY + _DQ, flags=_I),
    _rule("password (single-quoted)", _PASSWORD_NEEDLES, _PASSWORD_KEY + _SQ, flags=_I),
    _rule("password", _PASSWORD_NEEDLES, _PASSWORD_KEY + _UNQUOTED, tail=r"^\s", flags=_I),
)
# fmt: on


# --- redaction --------------------------------------------------------------------------


def _spans(rule: Rule, text: str) -> list[tuple[int, int]]:
    group: int | str = "s" if "s" in rule.rx.groupindex else 0
    out: list[tuple[int, int]] = []
    pos = 0
    while (m := rule.rx.search(text, pos)) is not None:
        start, end = m.span(group)
        if rule.check is not None:
            end = start + rule.check(text[start:end])
        if end <= start:  # rejected: try again one character on
            pos = m.start() + 1
            continue
        if rule.tail is not None and end == m.end(group):
            tail = rule.tail.match(text, end)
            end = tail.end() if tail else end
        out.append((start, end))
        pos = max(end, m.start() + 1)
    return out


# Each rule with whether its needles are looked for in the case-folded text (the flag test
# once here: an ``enum`` ``&`` per rule per text took most of a day's redaction).
_FOLDED = tuple((rule, bool(rule.rx.flags & re.IGNORECASE)) for rule in RULES)


def _once(text: str) -> str:
    folded = text.casefold()
    spans = sorted(
        span
        for rule, fold in _FOLDED
        if any(n in (folded if fold else text) for n in rule.needles)
        for span in _spans(rule, text)
    )
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for start, end in spans:
        if start <= last and parts:  # overlaps or touches the previous span: merge
            last = max(last, end)
            continue
        parts.append(text[last:start])
        parts.append(REDACTED)
        last = end
    parts.append(text[last:])
    return "".join(parts)


def redact(text: str) -> str:
    """The text with each secret replaced by ``[redacted]``."""
    for _ in range(MAX_PASSES):
        done = _once(text)
        if done == text:
            break
        text = done
    return text
