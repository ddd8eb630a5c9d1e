"""Element roles as one vocabulary: AT-SPI role names (the recorder), HTML tags and input
types (UI logs), and ARIA / Chromium accessibility roles (replay) map to the same
canonical role, so a routine mined from any source can be checked against a live page.
"""

from __future__ import annotations

# Canonical role ← other spellings (compared case-folded, spaces and underscores equal).
_ALIASES: dict[str, tuple[str, ...]] = {
    "button": ("push button", "pushbutton", "toggle button", "submit", "reset", "image"),
    "textbox": (
        "entry",
        "text",
        "input",
        "textarea",
        "password text",
        "email",
        "tel",
        "number",
        "search",
        "url",
        "date",
        "searchbox",
        "spin button",
        "spinbutton",
    ),
    "link": ("a", "hyperlink"),
    "checkbox": ("check box", "checkbox", "check menu item"),
    "radio": ("radio button", "radiobutton", "radio menu item"),
    "combobox": ("combo box", "select", "list box", "listbox"),
    "option": ("list item", "listitem", "menuitemoption"),
    "menuitem": ("menu item",),
    "tab": ("page tab",),
    "cell": ("table cell", "gridcell", "td"),
    "heading": ("h1", "h2", "h3", "h4", "h5", "h6"),
}

_CANON: dict[str, str] = {}
for _canon, _others in _ALIASES.items():
    _CANON[_canon] = _canon
    for _o in _others:
        _CANON[_o] = _canon


def canonical_role(role: str | None) -> str:
    """The canonical spelling of ``role`` ("push button", "BUTTON" → "button"); an unknown
    role is returned case-folded with single spaces; None → ""."""
    if not role:
        return ""
    key = " ".join(role.replace("_", " ").casefold().split())
    return _CANON.get(key, key)


# Roles whose target is a bare input: without a specific name they identify nothing.
FIELD_ROLES = frozenset({"textbox", "combobox", "cell"})
