"""Secrets in screen text become ``[redacted]`` (``redact.py``): tables of ``(text,
expected)`` rows per kind of secret, rows that must stay as they are, the known limits
pinned, properties over random text, and the patterns' shapes that keep redaction linear.

Keys and tokens are built from a prefix and a made-up body (``fake``) so that no
provider-shaped secret stands whole in this file; card numbers are the networks' published
test numbers, IBANs the standard's examples."""

from __future__ import annotations

import base64
import json
import random
import re
import re._constants as sre_c  # type: ignore[import-not-found]  # CPython's regex parser
import re._parser as sre_parse  # type: ignore[import-not-found]
import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.redact import REDACTED, RULES, iban_valid, luhn, redact

R = REDACTED
ALNUM = string.ascii_letters + string.digits
B64URL = ALNUM + "_-"
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits


def fake(prefix: str, n: int, alphabet: str = ALNUM, seed: int = 0) -> str:
    """``prefix`` and ``n`` characters of ``alphabet``, drawn by a generator seeded with
    the arguments: the same every run, different for different arguments."""
    rng = random.Random(f"{prefix}/{n}/{alphabet}/{seed}")
    return prefix + "".join(rng.choice(alphabet) for _ in range(n))


def b64(obj: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


JWT = ".".join(
    (b64({"alg": "HS256", "typ": "JWT"}), b64({"sub": "1234567890", "iat": 1516239022}),
     fake("", 43, B64URL))
)  # fmt: skip

# name → a made-up token of the provider's documented shape
TOKENS = {
    "aws access key id": fake("AKIA", 16, UPPER_DIGITS),
    "aws session key id": fake("ASIA", 16, UPPER_DIGITS),
    "github classic": fake("ghp_", 36),
    "github oauth": fake("gho_", 36),
    "github user-to-server": fake("ghu_", 36),
    "github server-to-server": fake("ghs_", 36),
    "github refresh": fake("ghr_", 36),
    "github fine-grained": fake("github_pat_", 22) + "_" + fake("", 59, seed=5),
    "gitlab": fake("glpat-", 20, B64URL),
    "slack bot": "xoxb-" + "123456789012-1234567890123-" + fake("", 24),
    "slack user": "xoxp-" + "123456789012-1234567890123-" + fake("", 32, HEX),
    "stripe live": fake("sk_" + "live_", 24),
    "stripe test": fake("sk_" + "test_", 24),
    "stripe restricted": fake("rk_" + "live_", 24),
    "openai legacy": fake("sk-", 48),
    "openai project": fake("sk-" + "proj-", 120, B64URL),
    "anthropic": fake("sk-" + "ant-api03-", 93, B64URL),
    "google api key": fake("AI" + "za", 35, B64URL),
    "google oauth client secret": fake("GOCSPX-", 28, B64URL),
    "twilio": fake("SK", 32, HEX),
    "sendgrid": fake("SG.", 22, B64URL) + fake(".", 43, B64URL, seed=3),
    "npm": fake("npm_", 36),
    "pypi": fake("pypi-" + "AgEIcHlwaS5vcmc", 150, B64URL),
    "hugging face": fake("hf_", 34),
    "digitalocean": fake("dop_v1_", 64, HEX),
    "shopify": fake("shpat_", 32, HEX),
    "jwt": JWT,
}


@pytest.mark.parametrize("token", TOKENS.values(), ids=TOKENS.keys())
@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("copied {} into the form", f"copied {R} into the form"),
        ("{}", R),
        ('"{}",', f'"{R}",'),
        ("export SOME_VAR={}\n", f"export SOME_VAR={R}\n"),
        ("({})", f"({R})"),
    ],
)
def test_provider_tokens(token: str, template: str, expected: str) -> None:
    assert redact(template.format(token)) == expected


AWS_SECRET = fake("", 40, ALNUM + "/+")
SLACK_HOOK = (
    "https://hooks.slack.com/services/" + fake("T", 8, UPPER_DIGITS) + "/"
    + fake("B", 10, UPPER_DIGITS) + "/" + fake("", 24)
)  # fmt: skip
BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1G\n"


def key_block(kind: str, end: bool = True) -> str:
    label = f"{kind} PRIVATE KEY".strip()
    return f"-----BEGIN {label}-----\n{BODY}" + (f"-----END {label}-----" if end else "")


def luhn_complete(digits: str) -> str:
    return next(digits + d for d in string.digits if luhn(digits + d))


CARD19 = luhn_complete("411111111111111111")

ROWS = [
    # AWS secret access keys are 40 characters after their name
    (f"aws_secret_access_key = {AWS_SECRET}", f"aws_secret_access_key = {R}"),
    (f'AWS_SECRET_ACCESS_KEY="{AWS_SECRET}"', f'AWS_SECRET_ACCESS_KEY="{R}"'),
    # Slack webhooks: the path after the host
    (f"POST {SLACK_HOOK} ok", f"POST https://{R} ok"),
    # Authorization headers and bearer tokens
    (f"Authorization: Bearer {JWT}", f"Authorization: Bearer {R}"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", f"Authorization: Basic {R}"),
    ("-H 'authorization: token " + fake("", 40, HEX) + "'", f"-H 'authorization: token {R}'"),
    ("Bearer " + fake("", 40, B64URL), f"Bearer {R}"),
    # key = value with a generated value
    ("api_key=3f9a1c7e2b8d4f60a5e1c9b7d2f4a8e6", f"api_key={R}"),
    ("X-Api-Key: " + fake("", 32), f"X-Api-Key: {R}"),
    ('GITHUB_TOKEN: "' + fake("", 40) + '"', f'GITHUB_TOKEN: "{R}"'),
    ("client_secret = " + fake("", 32, B64URL), f"client_secret = {R}"),
    ('{"access_token": "' + fake("", 64, B64URL) + '"}', '{"access_token": "' + R + '"}'),
    ("SECRET_KEY=" + fake("", 50, ALNUM + "!@#$%^&*(-_=+)"[6:]), f"SECRET_KEY={R}"),
    # a password in a URL
    ("postgres://app:s3cretpw@db.example:5432/app", f"postgres://app:{R}@db.example:5432/app"),
    # private keys: the whole block, or to the end when the END line is missing
    (key_block("RSA") + "\nafter", f"{R}\nafter"),
    ("before\n" + key_block(""), f"before\n{R}"),
    (key_block("EC") + key_block("OPENSSH"), R),
    (key_block("ENCRYPTED"), R),
    ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----", R),
    (key_block("OPENSSH", end=False), R),
    # card numbers passing Luhn, as printed and as typed
    ("card 4111 1111 1111 1111 exp 12/27", f"card {R} exp 12/27"),
    ("4111111111111111", R),
    ("4111-1111-1111-1111", R),
    ("Card: 5555-5555-5555-4444.", f"Card: {R}."),
    ("amex 3782 822463 10005", f"amex {R}"),
    ("diners 3056 930902 5904", f"diners {R}"),
    ("6011111111111117", R),
    ("mastercard 2223 0031 2200 3222", f"mastercard {R}"),
    ("jcb 3566 0020 2036 0505", f"jcb {R}"),
    (f"{CARD19[:4]} {CARD19[4:8]} {CARD19[8:12]} {CARD19[12:16]} {CARD19[16:]}", R),
    ("ref 1234 4111 1111 1111 1111", f"ref 1234 {R}"),
    ("4111 1111 1111 1111 123", f"{R} 123"),
    ("4111\u00a01111\u00a01111\u00a01111", R),
    # IBANs passing mod-97 at their country's length
    ("IBAN: GB82 WEST 1234 5698 7654 32.", f"IBAN: {R}."),
    ("GB82WEST12345698765432", R),
    ("DE89 3704 0044 0532 0130 00", R),
    ("to DE89370400440532013000 today", f"to {R} today"),
    ("FR14 2004 1010 0505 0001 3M02 606", R),
    ("NL91ABNA0417164300", R),
    ("BE68 5390 0754 7034 PAID", f"{R} PAID"),
    ("CH93 0076 2011 6238 5295 7", R),
    ("NO93 8601 1117 947", R),
    # passwords: the value after the word
    ("password: hunter2 ok", f"password: {R} ok"),
    ("Password=Tr0ub4dor&3 next", f"Password={R} next"),
    ("passwd: xyz", f"passwd: {R}"),
    ("pwd=abc123", f"pwd={R}"),
    ("pass: s3cr3t", f"pass: {R}"),
    ("DB_PASSWORD=abc", f"DB_PASSWORD={R}"),
    ("mysql -u root --password=s3cret db", f"mysql -u root --password={R} db"),
    ('{"password": "hunter 2", "user": "x"}', f'{{"password": "{R}", "user": "x"}}'),
    ("password='a b' ok", f"password='{R}' ok"),
    ('password: "unclosed', f"password: {R}"),
    ("Passwort: geheim123", f"Passwort: {R}"),
    ("Kennwort = geheim", f"Kennwort = {R}"),
    ("mot de passe : motdepasse1", f"mot de passe : {R}"),
    ("contraseña: clave123", f"contraseña: {R}"),
    ("senha: segredo", f"senha: {R}"),
    ("wachtwoord: geheim", f"wachtwoord: {R}"),
    ("hasło: tajne", f"hasło: {R}"),
    ("пароль: секрет", f"пароль: {R}"),
    ("密码：abc123", f"密码：{R}"),
    ("パスワード: abc", f"パスワード: {R}"),
    ("PASSWORD:x", f"PASSWORD:{R}"),
]


@pytest.mark.parametrize(("text", "expected"), ROWS)
def test_redacts(text: str, expected: str) -> None:
    assert redact(text) == expected


KEPT = [
    # prose around the keywords
    "the token: the next step is to log in",
    "token=refresh_token_expired",
    "secret: Tuesday",
    "api_key: your-api-key-here",
    "password reset requested",
    "Forgot your password? Reset it here",
    "Enter your password",
    "password:",
    'password: ""',
    "bypass: enabled",
    "compass: north",
    "the bearer of bad news arrived",
    "Authorization: required",
    "sk-learn 1.4.2",
    "SKU SK12345",
    "AIza is short",
    "eyJ alone",
    # the shell's working folder
    "PWD=/home/alice/project",
    "OLDPWD=/tmp",
    "pwd: ~/src",
    # identifiers, hashes, times
    "commit da39a3ee5e6b4b0d3255bfef95601890afd80709 merged",
    "id 123e4567-e89b-12d3-a456-426614174000",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "2024-01-15T10:30:00.123456Z",
    "20240115103000123",
    "1705312345678",
    "1705312345678901234",
    # phone and order numbers, numbers failing Luhn, runs too long for a card
    "+1 (555) 123-4567",
    "+44 20 7946 0958",
    "0049 1512 3456 7890",
    "order 4111 1111 1111 1112",
    "4242 4242 4242 4241",
    "41111111111111111111",
    "1234 5678 9012 3456",
    "SSN 123-45-6789",
    # IBANs failing their check or length; other codes
    "GB82 WEST 1234 5698 7654 33",
    "DE89 3704 0044 0532 0130 01",
    "DE89 3704 0044 0532 0130",
    "DE89370400440532013000X",
    "ISO 8601 and RFC 3339",
    "AB12 CDEF",
    # URLs without a password, public keys and certificates
    "https://user@example.com/path",
    "https://example.com:8443/a:b@c",
    "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
    "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host",
    "pk_live_" + "a" * 24,
    "",
    "[redacted]",
]


@pytest.mark.parametrize("text", KEPT)
def test_keeps(text: str) -> None:
    assert redact(text) == text


# What redaction knowingly gets wrong, pinned so that a change is seen.
KNOWN_OVER = [
    ("Pass: 3/5 tests", f"Pass: {R} tests"),  # "pass:" with a score
    ("Boarding pass: gate 12", f"Boarding pass: {R} 12"),
    ("Password: Forgot?", f"Password: {R}"),  # a form's label, then a link's text
    ("token: " + "Abcdefgh12345678", f"token: {R}"),  # any long mixed run after a keyword
]
KNOWN_MISSED = [
    "password is hunter2",  # no ":" or "="
    "Password:\nhunter2",  # the value on the next line (a form field: withheld by role)
    "secret=correcthorsebatterystaple",  # a passphrase of lower-case words
    "4111.1111.1111.1111",  # cards grouped by dots
    "gb82 west 1234 5698 7654 32",  # lower-case IBANs
    "GB82 WEST12 3456 9876 5432",  # IBANs grouped other than by four
    "PIN: 1234",  # PINs are not looked for
]


@pytest.mark.parametrize(("text", "expected"), KNOWN_OVER)
def test_known_over_redaction(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize("text", KNOWN_MISSED)
def test_known_misses(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("digits", "ok"),
    [("4111111111111111", True), ("4111111111111112", False), ("79927398713", True),
     ("0", True), ("18", True), ("10", False)],
)  # fmt: skip
def test_luhn(digits: str, ok: bool) -> None:
    assert luhn(digits) is ok


@pytest.mark.parametrize(
    ("compact", "ok"),
    [("GB82WEST12345698765432", True), ("GB83WEST12345698765432", False),
     ("DE89370400440532013000", True), ("GB01WEST12345698765432", False),
     ("GB99WEST12345698765432", False)],
)  # fmt: skip
def test_iban_check(compact: str, ok: bool) -> None:
    assert iban_valid(compact) is ok


# --- properties -------------------------------------------------------------------------

FRAGMENTS = [
    "password", "Pass", "pwd", "token", "api_key", "secret", "Bearer ", "Authorization: ",
    ":", "=", " ", "\n", "\t", '"', "'", ".", "-", "/", "@", "://", "_", "[", "]", R,
    "4111", " 1111", "-1111", "5555", "0", "9", "3782", " 822463",
    "GB82", " WEST", "DE89", " 3704", "NO93", "ABCD",
    "sk-", "sk_live_", "ghp_", "xoxb-", "eyJ", "AKIA", "SK", "hf_", "SG.",
    "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "-----BEGIN",
    fake("", 20), fake("", 36, seed=1), fake("", 16, HEX),
]  # fmt: skip
TEXT = st.lists(st.one_of(st.text(max_size=12), st.sampled_from(FRAGMENTS)), max_size=30).map(
    "".join
)
SEPARATORS = st.sampled_from([" ", "\n", "\t", " \n", "  "])

# planted text → the part of it that must not be left anywhere in the output
PLANTED = [
    *((t, t) for t in TOKENS.values()),
    ("4111 1111 1111 1111", "4111 1111 1111 1111"),
    ("5555555555554444", "5555555555554444"),
    ("3782 822463 10005", "3782 822463 10005"),
    ("GB82 WEST 1234 5698 7654 32", "GB82 WEST 1234 5698 7654 32"),
    ("DE89370400440532013000", "DE89370400440532013000"),
    ("password: Tr0ub4dor&3zz", "Tr0ub4dor&3zz"),
    ('"password": "Tr0ub4dor 3zz"', "Tr0ub4dor 3zz"),
    (f"aws_secret_access_key={AWS_SECRET}", AWS_SECRET),
    ("api_key=3f9a1c7e2b8d4f60a5e1c9b7d2f4a8e6", "3f9a1c7e2b8d4f60a5e1c9b7d2f4a8e6"),
    (key_block("RSA"), BODY.split("\n")[0]),
    (key_block("OPENSSH", end=False), BODY.split("\n")[1]),
    (SLACK_HOOK, SLACK_HOOK.rsplit("/", 1)[1]),
]


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_idempotent(text: str) -> None:
    once = redact(text)
    assert redact(once) == once


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_bounded_growth(text: str) -> None:
    # The shortest secret with what names it is four characters ("密码:x"), ten after.
    assert len(redact(text)) <= 4 * len(text)


@settings(max_examples=400, deadline=None)
@given(TEXT, SEPARATORS, st.sampled_from(PLANTED), SEPARATORS, TEXT)
def test_planted_secret_never_left(
    left: str, sep1: str, planted: tuple[str, str], sep2: str, right: str
) -> None:
    text, secret = planted
    out = redact(left + sep1 + text + sep2 + right)
    assert secret not in out
    assert R in out


def _needles_hold(text: str) -> None:
    from actframes.redact import _spans

    folded = text.casefold()
    for rule in RULES:
        if _spans(rule, text):
            hay = folded if rule.rx.flags & re.IGNORECASE else text
            assert any(n in hay for n in rule.needles), (rule.name, text)


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_needles_never_hide_a_match(text: str) -> None:
    """A rule is skipped on a text holding none of its needles: that never skips a match."""
    _needles_hold(text)


@pytest.mark.parametrize("text", [t for t, _ in ROWS] + [t for t, _ in PLANTED])
def test_needles_of_every_row(text: str) -> None:
    _needles_hold(text)


# --- linear time, by the patterns' shapes -----------------------------------------------

MAX_BOUND = 32_768
REPEATS = (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, sre_c.POSSESSIVE_REPEAT)


def shape_problems(pattern: str, flags: int = 0) -> list[str]:
    """Why a pattern might take more than bounded work at one position: a quantifier
    without a bound (or above ``MAX_BOUND``), or one of variable count inside another."""
    problems: list[str] = []

    def walk(items: Any, inside_variable: bool) -> None:
        for op, av in items:
            if op in REPEATS:
                lo, hi, sub = av
                variable = lo != hi
                if hi > MAX_BOUND:
                    problems.append(f"unbounded {{{lo},{hi}}}")
                if variable and inside_variable:
                    problems.append(f"nested {{{lo},{hi}}}")
                walk(sub, inside_variable or variable)
            elif op is sre_c.SUBPATTERN:
                walk(av[3], inside_variable)
            elif op is sre_c.BRANCH:
                for branch in av[1]:
                    walk(branch, inside_variable)
            elif op in (sre_c.ASSERT, sre_c.ASSERT_NOT):
                walk(av[1], inside_variable)
            elif op is sre_c.ATOMIC_GROUP:
                walk(av, inside_variable)
            elif op is sre_c.GROUPREF_EXISTS:
                walk(av[1], inside_variable)
                if av[2] is not None:
                    walk(av[2], inside_variable)

    walk(sre_parse.parse(pattern, flags), False)
    return problems


@pytest.mark.parametrize(
    ("pattern", "safe"),
    [(r"(a+)+b", False), (r"a*b", False), (r"a{2,}", False), (r"(?:a{1,3}){1,3}", False),
     (r"\d(?:[ -]?\d){12,18}", False), (r"(?:x|a{0,9}){2,4}", False), (r"a{1,5}b", True),
     (r"(?: [A-Z]{4}){2,7}", True), (r"(?:[^-]|-(?!--)){0,99}", True), (r"x(?:ab|)c?", True)],
)  # fmt: skip
def test_shape_check_tells_safe_from_unsafe(pattern: str, safe: bool) -> None:
    assert (shape_problems(pattern) == []) is safe


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_pattern_shapes_are_linear(rule: Any) -> None:
    assert shape_problems(rule.rx.pattern, rule.rx.flags) == []
    if rule.tail is not None:  # one class, possessive, nothing after: no backtracking
        [(op, (lo, _hi, sub))] = list(sre_parse.parse(rule.tail.pattern))
        assert op is sre_c.POSSESSIVE_REPEAT and lo == 0
        assert [o for o, _ in sub] == [sre_c.IN]
    assert rule.needles


MB = 1 << 20

PATHOLOGICAL = {
    "letters": "a" * MB,
    "spaces": " " * MB,
    "dashes": "-" * MB,
    "digit groups": "4111 " * (MB // 5),
    "digits": "1" * MB,
    "iban groups": "DE89 " * (MB // 5),
    "keywords": "password: " * (MB // 10),
    "assignments": "token=" * (MB // 6),
    "jwt heads": "eyJaaaaaaaa." * (MB // 12),
    "key headers": "-----BEGIN PRIVATE KEY-----" * (MB // 27),
    "url heads": "://a:" * (MB // 5),
    "bearers": "Bearer " * (MB // 7),
    "token run": "ghp_" + "a" * MB,
    "mixed": fake("", 64, ALNUM + " :=-_./\"'") * (MB // 64),
}


@pytest.mark.parametrize("text", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_a_megabyte_completes(text: str) -> None:
    """No clock: the shapes above are what keep this fast; this shows a megabyte of each
    worst case goes through."""
    assert len(redact(text)) <= 4 * len(text)


def test_a_secret_in_a_megabyte() -> None:
    filler = "lorem ipsum 1234 " * (MB // 17)
    out = redact(filler + "4111 1111 1111 1111 " + filler + TOKENS["github classic"])
    assert "4111 1111 1111 1111" not in out
    assert TOKENS["github classic"] not in out
    assert out.count(R) == 2
