"""Project names meet by key: every spelling of one name is one project, and the names
editors show where no project is open are none (SPEC.md §3b, "Names meet by key")."""

from __future__ import annotations

import pytest

from actframes.classify.names import folders, project_key

# (name as a row or a rules file writes it, its key)
KEYS: list[tuple[str, str]] = [
    # spellings of one project meet
    ("billing-api", "billing-api"),
    ("Billing API", "billing-api"),
    ("billing_api", "billing-api"),
    ("Billing.API", "billing-api"),
    ("BILLING-API", "billing-api"),
    ("  billing   api  ", "billing-api"),
    ("billing--api__", "billing-api"),
    ("x_y__z", "x-y-z"),
    # what editors and hosts append to a project's own name
    ("billing-api.git", "billing-api"),
    ("BillingApp.xcodeproj", "billingapp"),
    ("BillingApp.xcworkspace", "billingapp"),
    ("acme.code-workspace", "acme"),
    ("acme.sublime-project", "acme"),
    ("acme (Workspace)", "acme"),
    ("acme (workspace)", "acme"),
    ("a.git.git", "a-git"),  # one suffix only
    ("my.git.repo", "my-git-repo"),  # not a suffix there
    # letters and digits of any script are kept, case-folded
    ("Straße", "strasse"),
    ("Prøject Ünïcode", "prøject-ünïcode"),
    ("日本語", "日本語"),
    ("v2", "v2"),
    # nothing but punctuation or space: no project
    ("", ""),
    ("   ", ""),
    ("--", ""),
    ("...", ""),
    ("·", ""),
    # editors' placeholders: no project
    ("Welcome", ""),
    ("welcome", ""),
    ("Welcome to Xcode", ""),
    ("Welcome to the jungle", ""),
    ("Untitled", ""),
    ("Untitled-1", ""),
    ("Untitled 2", ""),
    ("Settings", ""),
    ("Get Started", ""),
    ("Getting Started", ""),
    ("Home", ""),
    ("tmp", ""),
    ("TEMP", ""),
    ("New Project", ""),
    ("Release Notes", ""),
    ("Keyboard Shortcuts", ""),
    ("Extensions", ""),
    ("Search", ""),
    # ... but names that merely begin with one are projects
    ("untitledness", "untitledness"),
    ("welcomer", "welcomer"),
    ("homepage", "homepage"),
    ("search-api", "search-api"),
    ("settings-service", "settings-service"),
    ("tmp-tools", "tmp-tools"),
]


@pytest.mark.parametrize(("name", "key"), KEYS)
def test_project_key(name: str, key: str) -> None:
    assert project_key(name) == key


@pytest.mark.parametrize(
    "spellings",
    [
        ["billing-api", "Billing API", "billing_api", "billing-api.git", "BILLING.API"],
        ["acme", "acme (Workspace)", "acme.code-workspace", "ACME", "acme.sublime-project"],
        ["BillingApp", "BillingApp.xcodeproj", "billingapp.xcworkspace"],
    ],
)
def test_spellings_of_one_project_meet(spellings: list[str]) -> None:
    assert len({project_key(s) for s in spellings}) == 1
    assert project_key(spellings[0])


def test_keys_are_fixed_points() -> None:
    """A key read again is itself (the key of a key never drifts)."""
    for name, key in KEYS:
        assert project_key(key) == key, name


# (path as a title shows it, its folder names outermost first)
FOLDERS: list[tuple[str, tuple[str, ...]]] = [
    ("~/src/billing-api", ("src", "billing-api")),
    ("~/src/billing-api/", ("src", "billing-api")),
    ("/home/alice/src/billing-api", ("home", "alice", "src", "billing-api")),
    ("src//billing-api", ("src", "billing-api")),
    ("./src/../billing-api", ("src", "billing-api")),
    ("C:\\Users\\alice\\src\\billing-api", ("Users", "alice", "src", "billing-api")),
    ("D:/work/dashboard", ("work", "dashboard")),
    ("\\\\server\\share\\dashboard", ("server", "share", "dashboard")),
    ("  ~/src/my project  ", ("src", "my project")),
    ("billing-api", ("billing-api",)),
    ("~", ()),
    ("/", ()),
    ("", ()),
    ("C:", ()),
]


@pytest.mark.parametrize(("path", "names"), FOLDERS)
def test_folders(path: str, names: tuple[str, ...]) -> None:
    assert folders(path) == names
