"""Which element names may be form values: the role table both capture paths share.

Rows use the role spellings screenpipe's tree walkers write into ``elements.role``
(macOS AX roles, Windows UIA control types, Linux AT-SPI role names capitalised) and
the native recorder's AT-SPI spellings."""

from __future__ import annotations

import pytest

from actframes.capture.atspi_tree import BLANK_NAME_ROLES
from actframes.form_roles import (
    ATSPI_CONTENT_ROLES,
    holds_content,
    is_password,
    shown_element_name,
    shown_name,
)

VALUE = "hunter2 is my password"

ROWS = [
    # macOS: text fields, areas and combo boxes store AXValue, their contents.
    ("AXTextField", VALUE, False, ""),
    ("AXTextField", VALUE, True, VALUE),
    ("AXTextArea", "Dear Sir,", False, ""),
    ("AXComboBox", "https://bank.example/", False, ""),
    ("AXSecureTextField", "••••", False, ""),
    ("AXSecureTextField", "••••", True, "••••"),
    ("AXSearchField", "flights to", False, ""),
    ("AXButton", "Submit", False, "Submit"),
    ("AXStaticText", "Name:", False, "Name:"),
    ("AXLink", "Help", False, "Help"),
    ("AXMenuItem", "Save", False, "Save"),
    ("AXCheckBox", "Remember me", False, "Remember me"),
    ("AXHeading", "Sign in", False, "Sign in"),
    ("AXTab", "Inbox", False, "Inbox"),
    # Windows UIA: Edit and ComboBox store the value, Document a non-URL value.
    ("Edit", "4111 1111 1111 1111", False, ""),
    ("Edit", "4111 1111 1111 1111", True, "4111 1111 1111 1111"),
    ("ComboBox", "Germany", False, ""),
    ("Document", "the letter's body", False, ""),
    ("PasswordBox", "pw", False, ""),
    ("Button", "OK", False, "OK"),
    ("Hyperlink", "Terms", False, "Terms"),
    ("TabItem", "Settings", False, "Settings"),
    # UIA "Text" is a label, but Linux spells its editable ROLE_TEXT the same way.
    ("Text", "typed on Linux", False, ""),
    ("Text", "typed on Linux", True, "typed on Linux"),
    # Linux AT-SPI, as screenpipe names the roles.
    ("Entry", "me@example.test", False, ""),
    ("DocumentText", "notes", False, ""),
    ("PasswordText", "pw", False, ""),
    ("Terminal", "ssh root@host", False, ""),
    ("Label", "E-mail", False, "E-mail"),
    ("Heading", "Account", False, "Account"),
    ("DocumentWeb", "Example page", False, "Example page"),
    # The native recorder's spellings, and any case.
    ("password text", "pw", False, ""),
    ("text", "typed", False, ""),
    ("terminal", "ls", False, ""),
    ("push button", "OK", False, "OK"),
    ("axtextfield", VALUE, False, ""),
    ("", "untitled", False, "untitled"),
]


@pytest.mark.parametrize(("role", "text", "include_text", "name"), ROWS)
def test_name_shown_by_role_and_opt_in(role: str, text: str, include_text: bool, name: str) -> None:
    assert shown_name(role, text, include_text) == name


def test_every_content_role_is_blank_without_opt_in() -> None:
    blanked = {r for r, _, inc, n in ROWS if not inc and n == ""}
    kept = {r for r, _, inc, n in ROWS if not inc and n != ""}
    assert blanked and kept and not blanked & kept
    assert all(holds_content(r) for r in blanked)
    assert not any(holds_content(r) for r in kept)


def test_native_recorder_blanks_the_same_atspi_roles() -> None:
    assert BLANK_NAME_ROLES == ATSPI_CONTENT_ROLES
    assert all(holds_content(r) for r in BLANK_NAME_ROLES)


# A click element's accessible name (screenpipe's element_name): as above, except that an
# AT-SPI entry is named by its label (its contents are in the Text interface only).
NAME_ROWS = [
    ("entry", "E-mail", False, "E-mail"),
    ("Entry", "E-mail", False, "E-mail"),
    ("Edit", "4111 1111 1111 1111", False, ""),
    ("Edit", "4111 1111 1111 1111", True, "4111 1111 1111 1111"),
    ("Document", "the letter's body", False, ""),
    ("ComboBox", "Germany", False, ""),
    ("AXTextField", VALUE, False, ""),
    ("text", "typed", False, ""),
    ("PasswordText", "pw", False, ""),
    ("Button", "OK", False, "OK"),
    ("push button", "Submit", False, "Submit"),
]


@pytest.mark.parametrize(("role", "text", "include_text", "name"), NAME_ROWS)
def test_element_name_shown_by_role_and_opt_in(
    role: str, text: str, include_text: bool, name: str
) -> None:
    assert shown_element_name(role, text, include_text) == name
    if role.casefold() != "entry":  # the one role whose name is told apart from its text
        assert shown_element_name(role, text, include_text) == shown_name(role, text, include_text)


@pytest.mark.parametrize(
    ("role", "password"),
    [
        ("password text", True),
        ("AXSecureTextField", True),
        ("PasswordText", True),
        ("text", False),
        ("entry", False),
        ("terminal", False),
        ("AXTextField", False),
    ],
)
def test_password_roles_are_told_apart(role: str, password: bool) -> None:
    """``record --screen-text-typed`` reads editable fields but never these."""
    assert is_password(role) is password
    assert holds_content(role)
