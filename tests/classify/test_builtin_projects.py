# ruff: noqa: E501  (a table: one case a line reads better than wrapped rows)
"""What a row names, by the built-in tables (SPEC.md §3b, "A row's project", 2–3): one
row a line — app, title, URL, site — and what it names, in the manner of a cannon of
real-world cases. Titles are those the apps write by default."""

from __future__ import annotations

import pytest

from actframes.classify.builtin_projects import CODE_HOST, EDITOR, FOLDER, TRACKER, Seen, seen
from actframes.classify.names import project_key
from actframes.compile.site import site_of

S = Seen
Case = tuple[str, str, str | None, str | None, Seen | None]

EDITORS: list[Case] = [
    # VS Code: "file - folder - app" (Linux, Windows), "file — folder — app" (macOS)
    ("Code", "main.py - billing-api - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("Code", "main.py — billing-api — Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("Code", "● main.py - billing-api - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("Code", "billing-api - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("code", "app.py (Working Tree) - billing-api - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("Code", "Settings - billing-api - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("Code", "Extension: Python - billing-api - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    # ... remote folders and multi-root workspaces: the name without the marker
    ("Code", "main.py - billing-api [SSH: devbox] - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("Code.exe", "main.py - billing-api [WSL: Ubuntu] - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("Code", "billing-api [Dev Container: api] - Visual Studio Code", None, None, S(EDITOR, "billing-api")),
    ("Code", "main.py - acme (Workspace) - Visual Studio Code", None, None, S(EDITOR, "acme")),
    ("Code", "acme (Workspace) - Visual Studio Code", None, None, S(EDITOR, "acme")),
    # ... Insiders and the forks
    ("Code - Insiders", "main.py - billing-api - Visual Studio Code - Insiders", None, None, S(EDITOR, "billing-api")),
    ("code-insiders", "billing-api - Visual Studio Code - Insiders", None, None, S(EDITOR, "billing-api")),
    ("Cursor", "main.py - billing-api - Cursor", None, None, S(EDITOR, "billing-api")),
    ("Cursor", "main.py — billing-api — Cursor", None, None, S(EDITOR, "billing-api")),
    ("VSCodium", "main.py - billing-api - VSCodium", None, None, S(EDITOR, "billing-api")),
    ("code-oss", "main.py - billing-api - Code - OSS", None, None, S(EDITOR, "billing-api")),
    ("Windsurf", "main.py - billing-api - Windsurf", None, None, S(EDITOR, "billing-api")),
    # ... a file opened without a folder, or no editor at all: no project
    ("Code", "notes.md - Visual Studio Code", None, None, None),
    ("Code", "● notes.md — Visual Studio Code", None, None, None),
    ("Cursor", "config.toml - Cursor", None, None, None),
    ("Code", "Visual Studio Code", None, None, None),
    ("Code", "Welcome - Visual Studio Code", None, None, None),
    ("Code", "Untitled-1 - Visual Studio Code", None, None, None),
    ("VSCodium", "Get Started - VSCodium", None, None, None),
    # JetBrains, current titles: "project – file" (an en dash), the IDE's name optional
    ("pycharm", "dashboard – views.py", None, None, S(EDITOR, "dashboard")),
    ("PyCharm", "dashboard – app/views.py – PyCharm 2024.1", None, None, S(EDITOR, "dashboard")),
    ("jetbrains-pycharm", "dashboard – views.py", None, None, S(EDITOR, "dashboard")),
    ("idea64.exe", "billing-api – InvoiceService.java [billing-api.main]", None, None, S(EDITOR, "billing-api")),
    ("studio64.exe", "BillingApp – MainActivity.kt [BillingApp.app.main]", None, None, S(EDITOR, "BillingApp")),
    ("goland", "dashboard", None, None, S(EDITOR, "dashboard")),
    # ... older titles: the project's folder in brackets, then the file's path
    ("jetbrains-idea", "dashboard [~/src/dashboard] – …/app/views.py", None, None, S(EDITOR, "dashboard")),
    ("webstorm64.exe", "dashboard - [D:\\src\\dashboard] - ...\\src\\app\\app.component.ts - WebStorm 2016.3.3", None, None, S(EDITOR, "dashboard")),
    ("phpstorm64.exe", "dashboard [D:\\src\\dashboard] - ...\\src\\unitTest\\test.php [dashboard] - PhpStorm", None, None, S(EDITOR, "dashboard")),
    ("pycharm", "dashboard - views.py - PyCharm 2019.3", None, None, S(EDITOR, "dashboard")),
    # Xcode: "project — file"
    ("Xcode", "BillingApp — ContentView.swift", None, None, S(EDITOR, "BillingApp")),
    ("Xcode", "BillingApp — ContentView.swift — Edited", None, None, S(EDITOR, "BillingApp")),
    ("Xcode", "BillingApp.xcodeproj — ContentView.swift", None, None, S(EDITOR, "BillingApp")),
    ("Xcode", "BillingApp.xcworkspace", None, None, S(EDITOR, "BillingApp")),
    ("Xcode", "Welcome to Xcode", None, None, None),
    # Sublime Text: the project in brackets; without one, the file's folder
    ("sublime_text", "main.py (billing-api) - Sublime Text", None, None, S(EDITOR, "billing-api")),
    ("sublime_text", "main.py • (billing-api) - Sublime Text", None, None, S(EDITOR, "billing-api")),
    ("Sublime Text", "main.py (billing-api) - Sublime Text (UNREGISTERED)", None, None, S(EDITOR, "billing-api")),
    ("sublime_text", "~/src/billing-api/main.py - Sublime Text", None, None, S(FOLDER, "billing-api")),
    ("sublime_text", "main.py - Sublime Text", None, None, None),
    # Vim and Neovim: the file's folder in brackets, or the file by its path
    ("nvim", "main.py (~/src/billing-api) - NVIM", None, None, S(FOLDER, "~/src/billing-api")),
    ("vim", "main.py + (~/src/billing-api) - VIM", None, None, S(FOLDER, "~/src/billing-api")),
    ("gvim", "views.py (~/src/dashboard/app) - GVIM", None, None, S(FOLDER, "~/src/dashboard/app")),
    ("nvim", "~/src/billing-api/main.py - NVIM", None, None, S(FOLDER, "billing-api")),
    ("nvim", "[No Name] - NVIM", None, None, None),
    # ... and inside a terminal
    ("kitty", "main.py (~/src/billing-api) - NVIM", None, None, S(FOLDER, "~/src/billing-api")),
    # other text editors that name a file by its path
    ("gedit", "main.py (~/src/billing-api) - gedit", None, None, S(FOLDER, "~/src/billing-api")),
    ("notepad++.exe", "*C:\\src\\billing-api\\main.py - Notepad++", None, None, S(FOLDER, "billing-api")),
    ("FeatherPad", "/home/alice/src/billing-api/main.py", None, None, S(FOLDER, "billing-api")),
    ("emacs", "main.py - GNU Emacs at laptop", None, None, None),
]  # fmt: skip

TERMINALS: list[Case] = [
    # GNOME Terminal, Konsole, WSL: "user@host: path"
    ("gnome-terminal-server", "alice@laptop: ~/src/billing-api", None, None, S(FOLDER, "~/src/billing-api")),
    ("org.gnome.Terminal", "alice@laptop:~/src/dashboard", None, None, S(FOLDER, "~/src/dashboard")),
    ("konsole", "alice@laptop: /home/alice/src/dashboard", None, None, S(FOLDER, "/home/alice/src/dashboard")),
    ("gnome-terminal-server", "alice@laptop: ~/tmp", None, None, S(FOLDER, "~/tmp")),
    # kitty, Alacritty, foot: the bare path
    ("kitty", "~/src/billing-api", None, None, S(FOLDER, "~/src/billing-api")),
    ("Alacritty", "/home/alice/src/dashboard", None, None, S(FOLDER, "/home/alice/src/dashboard")),
    # macOS Terminal: "folder — process — size"
    ("Terminal", "billing-api — -zsh — 80×24", None, None, S(FOLDER, "billing-api")),
    ("Terminal", "dashboard — make — 120×40", None, None, S(FOLDER, "dashboard")),
    ("Terminal", "make — -zsh — 80×24", None, None, S(FOLDER, "make")),
    ("Terminal", "alice@laptop: ~/src/billing-api", None, None, S(FOLDER, "~/src/billing-api")),
    # Windows Terminal: a WSL shell, a PowerShell prompt's folder, or only the shell
    ("WindowsTerminal.exe", "alice@laptop: ~/src/billing-api", None, None, S(FOLDER, "~/src/billing-api")),
    ("WindowsTerminal.exe", "C:\\Users\\alice\\src\\dashboard", None, None, S(FOLDER, "C:\\Users\\alice\\src\\dashboard")),
    ("WindowsTerminal.exe", "Windows PowerShell", None, None, None),
    ("WindowsTerminal.exe", "Administrator: Windows PowerShell", None, None, None),
    # a command with its folder
    ("kitty", "~/src/billing-api: make test", None, None, S(FOLDER, "~/src/billing-api")),
    ("Terminal", "/srv/dashboard: tail -f /var/log/app.log", None, None, S(FOLDER, "/srv/dashboard")),
    # a command or a shell alone names no folder
    ("kitty", "vim src/main.rs", None, None, None),
    ("Alacritty", "zsh", None, None, None),
    ("xterm", "ssh alice@prod-db", None, None, None),
]  # fmt: skip

CODE_HOSTS: list[Case] = [
    # GitHub: the repository, from any of its pages
    ("Google Chrome", "acme/billing-api: Billing service", "https://github.com/acme/billing-api", "github.com", S(CODE_HOST, "billing-api")),
    ("Google Chrome", "Fix rounding by alice · Pull Request #3 · acme/billing-api", "https://github.com/acme/billing-api/pull/3", "github.com", S(CODE_HOST, "billing-api")),
    ("Firefox", "Fix rounding", "https://github.com/acme/billing-api/pull/3/files", "github.com", S(CODE_HOST, "billing-api")),
    ("Google Chrome", "billing-api/src/app.py at main · acme/billing-api", "https://github.com/acme/billing-api/blob/main/src/app.py", "github.com", S(CODE_HOST, "billing-api")),
    ("Google Chrome", "Issues · acme/billing-api", "https://github.com/acme/billing-api/issues?q=is%3Aopen", "github.com", S(CODE_HOST, "billing-api")),
    ("Safari", "billing-api", "https://www.github.com/acme/billing-api/issues/7", "github.com", S(CODE_HOST, "billing-api")),
    ("Google Chrome", "x", "https://github.com/acme/billing-api.git", "github.com", S(CODE_HOST, "billing-api.git")),
    # ... but GitHub's own pages and an owner's page are no repository
    ("Google Chrome", "GitHub", "https://github.com/", "github.com", None),
    ("Google Chrome", "acme", "https://github.com/acme", "github.com", None),
    ("Google Chrome", "Pull requests", "https://github.com/pulls", "github.com", None),
    ("Google Chrome", "Notifications", "https://github.com/notifications", "github.com", None),
    ("Google Chrome", "Your profile", "https://github.com/settings/profile", "github.com", None),
    ("Google Chrome", "Repositories", "https://github.com/orgs/acme/repositories", "github.com", None),
    ("Google Chrome", "Checkout · Actions · GitHub Marketplace", "https://github.com/marketplace/actions/checkout", "github.com", None),
    ("Google Chrome", "Features", "https://github.com/features/actions", "github.com", None),
    ("Google Chrome", "Sponsor", "https://github.com/sponsors/alice", "github.com", None),
    ("Google Chrome", "python · GitHub Topics", "https://github.com/topics/python", "github.com", None),
    ("Google Chrome", "Sign in to GitHub", "https://github.com/login", "github.com", None),
    ("Google Chrome", "gist", "https://gist.github.com/alice/abc123", "gist.github.com", None),
    # GitLab: the last name before "/-/", else the path's last name; groups nest
    ("Google Chrome", "Broken chart (#4) · Issues · acme / web / dashboard · GitLab", "https://gitlab.com/acme/web/dashboard/-/issues/4", "gitlab.com", S(CODE_HOST, "dashboard")),
    ("Google Chrome", "x", "https://gitlab.com/acme/web/dashboard/-/merge_requests/9/diffs", "gitlab.com", S(CODE_HOST, "dashboard")),
    ("Google Chrome", "x", "https://gitlab.com/acme/web/dashboard/-/tree/main/src", "gitlab.com", S(CODE_HOST, "dashboard")),
    ("Google Chrome", "acme / web / dashboard · GitLab", "https://gitlab.com/acme/web/dashboard", "gitlab.com", S(CODE_HOST, "dashboard")),
    ("Google Chrome", "x", "https://gitlab.com/acme/dashboard", "gitlab.com", S(CODE_HOST, "dashboard")),
    ("Google Chrome", "x", "https://gitlab.example.org/acme/web/dashboard/-/pipelines", "gitlab.example.org", S(CODE_HOST, "dashboard")),
    # ... a group, the root and GitLab's own pages are none
    ("Google Chrome", "acme · GitLab", "https://gitlab.com/acme", "gitlab.com", None),
    ("Google Chrome", "GitLab", "https://gitlab.com/", "gitlab.com", None),
    ("Google Chrome", "x", "https://gitlab.com/dashboard/merge_requests", "gitlab.com", None),
    ("Google Chrome", "x", "https://gitlab.com/explore/projects", "gitlab.com", None),
    ("Google Chrome", "x", "https://gitlab.com/users/alice/activity", "gitlab.com", None),
    ("Google Chrome", "x", "https://gitlab.com/groups/acme/-/epics/3", "gitlab.com", None),
    ("Google Chrome", "x", "https://gitlab.com/-/profile", "gitlab.com", None),
    # Bitbucket and Codeberg: owner or workspace, then the repository
    ("Google Chrome", "x", "https://bitbucket.org/acme/billing-api/pull-requests/5", "bitbucket.org", S(CODE_HOST, "billing-api")),
    ("Google Chrome", "x", "https://bitbucket.org/acme/billing-api", "bitbucket.org", S(CODE_HOST, "billing-api")),
    ("Google Chrome", "x", "https://bitbucket.org/account/settings/", "bitbucket.org", None),
    ("Google Chrome", "x", "https://bitbucket.org/dashboard/overview", "bitbucket.org", None),
    ("Google Chrome", "x", "https://bitbucket.org/acme/", "bitbucket.org", None),
    ("Firefox", "x", "https://codeberg.org/acme/billing-api/issues/2", "codeberg.org", S(CODE_HOST, "billing-api")),
    ("Firefox", "x", "https://codeberg.org/acme/billing-api", "codeberg.org", S(CODE_HOST, "billing-api")),
    ("Firefox", "x", "https://codeberg.org/explore/repos", "codeberg.org", None),
    ("Firefox", "x", "https://codeberg.org/user/login", "codeberg.org", None),
    ("Firefox", "x", "https://codeberg.org/acme", "codeberg.org", None),
    # a GitHub title in a browser whose store recorded no URL
    ("Google Chrome", "Fix rounding by alice · Pull Request #3 · acme/billing-api", None, None, S(CODE_HOST, "billing-api")),
    ("Google Chrome", "Fix rounding · Issue #7 · acme/billing-api · GitHub", None, None, S(CODE_HOST, "billing-api")),
    ("Firefox", "GitHub - acme/billing-api: Billing service", None, None, S(CODE_HOST, "billing-api")),
    ("Google Chrome", "billing-api/README.md at main · acme/billing-api", None, None, S(CODE_HOST, "billing-api")),
    ("Google Chrome", "Actions · acme/billing-api", None, None, S(CODE_HOST, "billing-api")),
    ("Google Chrome", "GitHub", None, None, None),
    ("Google Chrome", "Pull requests", None, None, None),
    # ... but with a URL, the URL says what the page is, not its title
    ("Google Chrome", "Fix · Pull Request #3 · acme/billing-api", "https://example.com/mirror", "example.com", None),
]  # fmt: skip

TRACKERS: list[Case] = [
    # Jira Cloud: the ticket's key, or the board's project
    ("Google Chrome", "[BILL-12] Fix rounding - Jira", "https://acme.atlassian.net/browse/BILL-12", "acme.atlassian.net", S(TRACKER, "BILL")),
    ("Google Chrome", "x", "https://acme.atlassian.net/browse/BILL-12?focusedCommentId=10", "acme.atlassian.net", S(TRACKER, "BILL")),
    ("Google Chrome", "BILL board - Agile Board - Jira", "https://acme.atlassian.net/jira/software/projects/BILL/boards/1", "acme.atlassian.net", S(TRACKER, "BILL")),
    ("Google Chrome", "x", "https://acme.atlassian.net/jira/software/c/projects/BILL/issues/BILL-12", "acme.atlassian.net", S(TRACKER, "BILL")),
    ("Google Chrome", "Your work - Jira", "https://acme.atlassian.net/jira/your-work", "acme.atlassian.net", None),
    ("Google Chrome", "Design - Engineering - Confluence", "https://acme.atlassian.net/wiki/spaces/ENG/pages/123/Design", "acme.atlassian.net", None),
    # self-hosted Jira
    ("Firefox", "[DASH-7] Chart is empty - Acme Jira", "https://jira.example.com/browse/DASH-7", "jira.example.com", S(TRACKER, "DASH")),
    # Linear
    ("Google Chrome", "ENG-42 Fix rounding", "https://linear.app/acme/issue/ENG-42/fix-rounding", "linear.app", S(TRACKER, "ENG")),
    ("Google Chrome", "Inbox", "https://linear.app/acme/inbox", "linear.app", None),
    # a tracker's title without URL
    ("Google Chrome", "[BILL-12] Fix rounding - Jira", None, None, S(TRACKER, "BILL")),
    ("Firefox", "[DASH-7] Chart is empty - Jira — Mozilla Firefox", None, None, S(TRACKER, "DASH")),
]  # fmt: skip

UNRELATED: list[Case] = [
    ("Slack", "general (Channel) - Acme - Slack", None, None, None),
    ("Google Chrome", "Never Gonna Give You Up - YouTube", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "youtube.com", None),
    ("Google Chrome", "Never Gonna Give You Up - YouTube", None, None, None),
    ("Google Chrome", "Billing design - Google Docs", "https://docs.google.com/document/d/abc/edit", "docs.google.com", None),
    ("Google Chrome", "Inbox (3) - alice@acme.com - Gmail", "https://mail.google.com/mail/u/0/#inbox", "mail.google.com", None),
    ("Google Chrome", "billing-api - Google Search", "https://www.google.com/search?q=billing-api", "google.com", None),
    ("Spotify", "Spotify Premium", None, None, None),
    ("zoom.us", "Zoom Meeting", None, None, None),
    ("Finder", "billing-api", None, None, None),
    ("Microsoft Word", "Report.docx", None, None, None),
    ("some-unknown-app", "~/src/billing-api", None, None, None),
    ("", "", None, None, None),
]  # fmt: skip

ALL = EDITORS + TERMINALS + CODE_HOSTS + TRACKERS + UNRELATED


def named(app: str, title: str, url: str | None, site: str | None) -> Seen | None:
    """What the row names, where a name whose key is empty (an editor's placeholder:
    ``Welcome``, ``Untitled-1``) names nothing, as the compiler reads it."""
    found = seen(app, title, url, site)
    if found is not None and found.how != FOLDER and not project_key(found.name):
        return None
    return found


@pytest.mark.parametrize(("app", "title", "url", "site", "expected"), ALL)
def test_what_a_row_names(
    app: str, title: str, url: str | None, site: str | None, expected: Seen | None
) -> None:
    assert named(app, title, url, site) == expected


@pytest.mark.parametrize(("url", "site"), sorted({(c[2], c[3]) for c in ALL if c[2]}))
def test_the_sites_are_the_compilers(url: str, site: str) -> None:
    """Each row's site is what the compiler makes of its URL, so the table is real."""
    assert site_of(url) == site


def test_placeholders_are_seen_but_name_no_project() -> None:
    found = seen("Code", "Welcome - Visual Studio Code", None, None)
    assert found is not None and found.how == EDITOR and project_key(found.name) == ""


def test_spellings_of_the_repository_meet() -> None:
    """A host's ``….git`` and an editor's folder name one project."""
    a = seen("Google Chrome", "x", "https://github.com/acme/billing-api.git", "github.com")
    b = seen("Code", "main.py - Billing API - Visual Studio Code", None, None)
    assert a is not None and b is not None
    assert project_key(a.name) == project_key(b.name) == "billing-api"
