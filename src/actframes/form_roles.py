"""Accessibility roles whose element text can be what the user typed (a form value).

Privacy by default: such an element keeps its role and bounds (a click on it still says
"clicked a text field") but not its name, unless the operator opted in to typed text.
The native recorder blanks these at capture (``capture/atspi_tree``). screenpipe stores
the element of a click as found (``ui_events.element_role``/``element_name``: on Windows
UI Automation's Name, which an edit or document control may take from its contents), so
its reader applies ``shown_name`` to every element name it takes
(``sources/screenpipe/actions``; SPEC.md §1.2b).
"""

from __future__ import annotations

# The native recorder's AT-SPI role names (pyatspi spelling). Some toolkits name a text
# element after its content; a terminal's name can be its last command.
ATSPI_CONTENT_ROLES = frozenset(("password text", "terminal", "text"))

# screenpipe's role spellings (``elements.role``, ``ui_events.element_role``) whose text
# or name may be the field's contents. Its recorders store, per platform:
# - macOS (AX): AXTextField, AXTextArea, AXComboBox take AXValue, the contents;
#   AXSecureTextField is skipped by today's walker but kept here in case it is written;
#   AXSearchField is a text field's subrole some builds report as its role.
# - Windows (UIA control types): Edit and ComboBox take the value; Document a non-URL
#   value (a document's text).
# - Linux (AT-SPI, written capitalised): Text, Entry, ComboBox take the Text interface's
#   contents; DocumentText, PasswordText and Terminal hold what was typed too.
# "Text" is also Windows UIA's static label; it is blanked all the same, as a store does
# not say which platform wrote it (privacy first; ``--include-text`` brings it back).
SCREENPIPE_CONTENT_ROLES = frozenset(
    (
        "AXTextField", "AXTextArea", "AXComboBox", "AXSecureTextField", "AXSearchField",
        "Edit", "ComboBox", "Document",
        "Text", "Entry", "DocumentText", "PasswordText", "Terminal",
    )
)  # fmt: skip

_FOLDED = frozenset(r.casefold() for r in SCREENPIPE_CONTENT_ROLES | ATSPI_CONTENT_ROLES)


def holds_content(role: str) -> bool:
    """Whether an element of this role may be named by its contents: one of the tables
    above in any case, or any role that says it is a password or secure field (screenpipe
    treats those as password fields too)."""
    folded = role.casefold()
    return folded in _FOLDED or is_password(role)


def is_password(role: str) -> bool:
    """Whether a role says it is a password or secure field (``password text``,
    AXSecureTextField, PasswordText): its contents are never read, whatever the opt-in."""
    folded = role.casefold()
    return "password" in folded or "secure" in folded


def shown_name(role: str, name: str, include_text: bool) -> str:
    """The element's name as read, or "" where it may be a form value and the operator
    did not opt in to typed text."""
    return name if include_text or not holds_content(role) else ""


# A click's element is told by its accessible name (screenpipe's ``element_name``), not
# by a tree walker's text. An AT-SPI entry is named by its label, its contents being only
# in its Text interface (the native recorder shows its name too): for its name alone the
# tables above, which say where a walker's text may be contents, do not apply.
NAMED_BY_LABEL = frozenset(("entry",))


def shown_element_name(role: str, name: str, include_text: bool) -> str:
    """A click element's accessible name as ``shown_name`` shows it, except that a role
    named by its label keeps its name."""
    if role.casefold() in NAMED_BY_LABEL:
        return name
    return shown_name(role, name, include_text)
