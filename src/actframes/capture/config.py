"""The recorder's settings: defaults, the TOML file in the XDG config folder, CLI overrides.

``$XDG_CONFIG_HOME/actframes/recorder.toml`` (``~/.config/actframes/recorder.toml``)::

    idle_seconds = 180          # no input this long starts an AFK period
    heartbeat_seconds = 30      # a row this often on a static screen
    keep_days = 0               # delete rows older than this many days (0: keep all)
    accessibility = true        # read AT-SPI elements and browser URLs when available
    devtools = ""               # opt-in: a Chromium DevTools endpoint on loopback,
                                # e.g. "http://127.0.0.1:9222", for the focused tab's URL
    screen_text = false         # opt-in: the focused window's visible accessibility text
    screen_text_ocr = false     # opt-in: OCR where a window has none (the ``ocr`` extra)
    screen_text_typed = false   # opt-in: editable fields' contents too (never passwords)

    [exclude]
    apps = ["KeePassXC", "signal*"]
    titles = ["(?i)\\\\bbank\\\\b"]
    hosts = ["bank.example", "*.internal"]

    [private]
    skip = true                 # skip private / incognito windows (placeholder row only)
    markers = []                # extra title endings that mark a private window

Runtime files live in ``$XDG_STATE_HOME/actframes/`` (``~/.local/state/actframes/``): the
pidfile, the log and the pause flag.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import ActframesError, UsageError
from .idle import DEFAULT_IDLE_MS
from .policy import HEARTBEAT_MS
from .privacy import PrivacyConfigError, PrivacyRules

_TOP_KEYS = {
    "idle_seconds",
    "heartbeat_seconds",
    "keep_days",
    "accessibility",
    "devtools",
    "screen_text",
    "screen_text_ocr",
    "screen_text_typed",
    "exclude",
    "private",
}


class ConfigError(ActframesError):
    """The recorder's config file cannot be used as written."""

    exit_code = 2


@dataclass(frozen=True)
class RecorderConfig:
    idle_ms: int = DEFAULT_IDLE_MS
    heartbeat_ms: int = HEARTBEAT_MS
    keep_days: int = 0
    accessibility: bool = True
    devtools: str | None = None
    screen_text: bool = False
    screen_text_ocr: bool = False
    screen_text_typed: bool = False
    privacy: PrivacyRules = field(default_factory=PrivacyRules)

    def with_overrides(
        self,
        *,
        idle_seconds: float | None = None,
        heartbeat_seconds: float | None = None,
        keep_days: int | None = None,
        accessibility: bool | None = None,
        devtools: str | None = None,
        screen_text: bool | None = None,
        screen_text_ocr: bool | None = None,
        screen_text_typed: bool | None = None,
    ) -> RecorderConfig:
        cfg = self
        if idle_seconds is not None:
            cfg = replace(cfg, idle_ms=_positive_ms(idle_seconds, "--idle-seconds"))
        if heartbeat_seconds is not None:
            cfg = replace(cfg, heartbeat_ms=_positive_ms(heartbeat_seconds, "--heartbeat-seconds"))
        if keep_days is not None:
            if keep_days < 0:
                raise UsageError("--keep-days must be 0 (keep everything) or more")
            cfg = replace(cfg, keep_days=keep_days)
        if accessibility is not None:
            cfg = replace(cfg, accessibility=accessibility)
        if devtools is not None:
            cfg = replace(cfg, devtools=_devtools(devtools, "--devtools") or None)
        if screen_text is not None:
            cfg = replace(cfg, screen_text=screen_text)
        if screen_text_ocr is not None:
            cfg = replace(cfg, screen_text_ocr=screen_text_ocr)
        if screen_text_typed is not None:
            cfg = replace(cfg, screen_text_typed=screen_text_typed)
        return cfg


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "actframes"


def state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "actframes"


def default_config_path() -> Path:
    return config_dir() / "recorder.toml"


def load_config(path: Path | None = None) -> RecorderConfig:
    """The config at ``path`` (or the default path); defaults when the default is absent."""
    explicit = path is not None
    p = path or default_config_path()
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        if explicit:
            raise ConfigError(f"{p}: no such config file") from None
        return RecorderConfig()
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read ({exc.strerror})") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{p}: not valid TOML ({exc})") from exc
    try:
        return parse_config(data)
    except (PrivacyConfigError, ValueError) as exc:
        raise ConfigError(f"{p}: {exc}") from exc


def parse_config(data: dict[str, Any]) -> RecorderConfig:
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(unknown))}")
    cfg = RecorderConfig(privacy=PrivacyRules.from_mapping(data))
    if "idle_seconds" in data:
        cfg = replace(cfg, idle_ms=_positive_ms(data["idle_seconds"], "idle_seconds"))
    if "heartbeat_seconds" in data:
        cfg = replace(
            cfg, heartbeat_ms=_positive_ms(data["heartbeat_seconds"], "heartbeat_seconds")
        )
    if "keep_days" in data:
        days = data["keep_days"]
        if not isinstance(days, int) or isinstance(days, bool) or days < 0:
            raise ValueError("keep_days must be a whole number, 0 or more")
        cfg = replace(cfg, keep_days=days)
    for key in ("accessibility", "screen_text", "screen_text_ocr", "screen_text_typed"):
        if key in data:
            if not isinstance(data[key], bool):
                raise ValueError(f"{key} must be true or false")
            cfg = replace(cfg, **{key: data[key]})
    if "devtools" in data:
        value = data["devtools"]
        if not isinstance(value, str):
            raise ValueError("devtools must be a string (an http://127.0.0.1:PORT address)")
        cfg = replace(cfg, devtools=_devtools(value, "devtools") or None)
    return cfg


def _positive_ms(value: Any, name: str) -> int:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 86_400 * 7
    if not ok:
        raise (UsageError if name.startswith("--") else ValueError)(
            f"{name} must be a number of seconds above 0"
        )
    return max(1, round(float(value) * 1000))


def _devtools(value: str, name: str) -> str:
    """Only a loopback http address: the recorder never reaches out to the network."""
    value = value.strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme != "http" or parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise (UsageError if name.startswith("--") else ValueError)(
            f"{name} must be an http://127.0.0.1:PORT address on this machine"
        )
    return value
