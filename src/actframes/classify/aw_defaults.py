"""ActivityWatch's default categories, as its web UI ships them (aw-webui
``src/util/classes.ts``, ``defaultCategories``, unchanged since July 2024): in order,
case-sensitive unless marked. Rules of type ``none`` (``Media``, ``Comms``) are parents
that match nothing themselves; the implicit ``Uncategorized`` is the default."""

from __future__ import annotations

from .ruleset import CategoryRule, RuleSet

_DEFAULTS: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("Work",), "Google Docs|libreoffice|ReText", False),
    (("Work", "Programming"),
     "GitHub|Stack Overflow|BitBucket|Gitlab|vim|Spyder|kate|Ghidra|Scite", False),
    (("Work", "Programming", "ActivityWatch"), "ActivityWatch|aw-", True),
    (("Work", "Image"), "GIMP|Inkscape", False),
    (("Work", "Video"), "Kdenlive", False),
    (("Work", "Audio"), "Audacity", False),
    (("Work", "3D"), "Blender", False),
    (("Media",), "", False),
    (("Media", "Games"), "Minecraft|RimWorld", False),
    (("Media", "Video"), "YouTube|Plex|VLC", False),
    (("Media", "Social Media"), "reddit|Facebook|Twitter|Instagram|devRant", True),
    (("Media", "Music"), "Spotify|Deezer", True),
    (("Comms",), "", False),
    (("Comms", "IM"),
     "Messenger|Telegram|Signal|WhatsApp|Rambox|Slack|Riot|Element|Discord|Nheko|NeoChat|Mattermost",
     False),
    (("Comms", "Email"), "Gmail|Thunderbird|mutt|alpine", False),
)  # fmt: skip

DEFAULT_CATEGORIES: tuple[CategoryRule, ...] = tuple(
    CategoryRule(name, regex, ignore_case) for name, regex, ignore_case in _DEFAULTS
)

BUILT_IN = "built-in"
AW_DEFAULTS = "activitywatch defaults"
_DEFAULT: list[RuleSet] = []


def default_rules() -> RuleSet:
    """The built-in project rules and ActivityWatch's default categories (made once)."""
    if not _DEFAULT:
        _DEFAULT.append(RuleSet((), BUILT_IN, DEFAULT_CATEGORIES, AW_DEFAULTS))
    return _DEFAULT[0]
