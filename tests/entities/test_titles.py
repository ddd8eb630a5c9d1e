# ruff: noqa: E501  (data tables: one case a line reads better than wrapped rows)
"""Window titles: browser suffixes removed, typed entities for native apps (and for
browsers whose store recorded no URL)."""

from __future__ import annotations

import pytest

from actframes.entities import TitleRef, clean_title, title_ref
from actframes.entities.title_rules import app_family

R = TitleRef

TITLES: list[tuple[str, str, TitleRef | None]] = [
    # VS Code and its forks: file and project, remote markers, dirty dot, tabs that are not files
    ("Code.exe", "● main.py - MHacks [WSL: Ubuntu] - Visual Studio Code", R("file", "main.py", "MHacks")),
    ("Code.exe", "umgpt.py - MHacks [WSL: Ubuntu] - Visual Studio Code", R("file", "umgpt.py", "MHacks")),
    ("Code.exe", ".env - MHacks [WSL: Ubuntu] - Visual Studio Code", R("file", ".env", "MHacks")),
    ("Code.exe", "Welcome - MHacks [WSL: Ubuntu] - Visual Studio Code", R("project", "MHacks")),
    ("Code.exe", "Preview README.md - MHacks [WSL: Ubuntu] - Visual Studio Code", R("file", "README.md", "MHacks")),
    ("Code.exe", "MHacks [WSL: Ubuntu] - Visual Studio Code", R("project", "MHacks")),
    ("Code.exe", "● config.toml - Visual Studio Code", R("file", "config.toml")),
    ("Code.exe", "Visual Studio Code", None),
    ("Code - Insiders", "navbar.js - chango.dev - Visual Studio Code - Insiders", R("file", "navbar.js", "chango.dev")),
    ("Code - Insiders", "chango.dev - Visual Studio Code - Insiders", R("project", "chango.dev")),
    ("Code - Insiders", "Extension: WakaTime - chango.dev - Visual Studio Code - Insiders", R("project", "chango.dev")),
    ("Code - Insiders", "Settings - chango.dev - Visual Studio Code - Insiders", R("project", "chango.dev")),
    ("code", "store.py - actframes [SSH: devbox] - Visual Studio Code", R("file", "store.py", "actframes")),
    ("code", "app.ts - web (Workspace) - Visual Studio Code", R("file", "app.ts", "web")),
    ("Code", "store.py — actframes", R("file", "store.py", "actframes")),
    ("Cursor", "main.rs - engine - Cursor", R("file", "main.rs", "engine")),
    ("VSCodium", "Untitled-1 - VSCodium", R("project", "Untitled-1")),
    # JetBrains
    ("pycharm64.exe", "actframes – store.py", R("file", "store.py", "actframes")),
    ("PyCharm", "actframes – src/actframes/cli.py – PyCharm 2023.2", R("file", "cli.py", "actframes")),
    ("jetbrains-idea", "myproj [~/src/myproj] – …/src/Main.java", R("file", "Main.java", "myproj")),
    ("idea64.exe", "myproj", R("project", "myproj")),
    ("studio64.exe", "MyApp – MainActivity.kt [MyApp.app.main]", R("file", "MainActivity.kt", "MyApp")),
    # Vim, Neovim, Emacs, other editors
    ("nvim", "main.py + (~/src/proj) - NVIM", R("file", "main.py", "~/src/proj")),
    ("gvim", "notes.txt (~/docs) - GVIM", R("file", "notes.txt", "~/docs")),
    ("vim", "README.md - VIM", R("file", "README.md")),
    ("emacs", "init.el - GNU Emacs at laptop", R("file", "init.el")),
    ("Emacs", "*scratch* - GNU Emacs", None),
    ("emacs", "emacs@laptop", None),
    ("sublime_text", "main.py (myproj) - Sublime Text", R("file", "main.py", "myproj")),
    ("notepad++.exe", "*C:\\code\\app.py - Notepad++", R("file", "app.py", "code")),
    ("notepad.exe", "todo.txt - Notepad", R("file", "todo.txt")),
    ("gedit", "notes.md (~/docs) - gedit", R("file", "notes.md", "~/docs")),
    ("FeatherPad", "/home/mauro/Documents/www/transluciddata-gatsby/netlify.toml", R("file", "netlify.toml", "transluciddata-gatsby")),
    # terminals: cwd or command, never secrets from the command line
    ("gnome-terminal-server", "jane@laptop: ~/src/actframes", R("cwd", "~/src/actframes")),
    ("wsl.exe", "Select e@LAPTOP-MCRJASPH: ~/hackathons/mhacks23/MHacks", R("cwd", "~/hackathons/mhacks23/MHacks")),
    ("Terminal", "~/src", R("cwd", "~/src")),
    ("Terminal", "~/actframes: make test", R("command", "make test", "~/actframes")),
    ("Terminal", "/srv/app: tail -f /var/log/app.log", R("command", "tail /var/log/app.log", "/srv/app")),
    ("konsole", "/etc/nginx", R("cwd", "/etc/nginx")),
    ("qterminal", '0:0:npm - "mauro-pc"', R("command", "npm")),
    ("qterminal", '0:0:vim - "mauro-pc"', R("command", "vim")),
    ("qterminal", '0:0:zsh - "mauro-pc"', None),
    ("kitty", "vim src/main.rs", R("command", "vim src/main.rs")),
    ("alacritty", "mysql -uroot -pS3CRET prod", R("command", "mysql")),
    ("xterm", "ssh jane@prod-db", R("command", "ssh")),
    ("foot", "python manage.py runserver", R("command", "python manage.py")),
    ("cmd.exe", "Command Prompt - python  main.py --token=S3CRET", R("command", "python main.py")),
    ("WindowsTerminal.exe", "Administrator: Windows PowerShell", None),
    ("powershell.exe", "Windows PowerShell", None),
    ("cmd.exe", "C:\\WINDOWS\\system32\\cmd.exe", None),
    ("kitty", "main.py (~/src/proj) - NVIM", R("file", "main.py", "~/src/proj")),
    ("fish", "fish /home/jane/src", None),
    ("kitty", "fish /home/jane/src", R("cwd", "/home/jane/src")),
    # office suites and PDF viewers
    ("WINWORD.EXE", "Report.docx - Word", R("doc", "Report.docx")),
    ("WINWORD.EXE", "Report.docx [Compatibility Mode] - Word", R("doc", "Report.docx")),
    ("WINWORD.EXE", "Contract.docx - Protected View - Word", R("doc", "Contract.docx")),
    ("EXCEL.EXE", "Book1 - Excel", R("sheet", "Book1")),
    ("POWERPNT.EXE", "Q3 Review.pptx - PowerPoint", R("slides", "Q3 Review.pptx")),
    ("Microsoft Word", "Report.docx", R("doc", "Report.docx")),
    ("libreoffice-writer", "letter.odt - LibreOffice Writer", R("doc", "letter.odt")),
    ("soffice.bin", "Untitled 1 - LibreOffice Calc", R("sheet", "Untitled 1")),
    ("libreoffice-impress", "talk.odp - LibreOffice Impress", R("slides", "talk.odp")),
    ("Soffice", "Save Document?", None),
    ("AcroRd32.exe", "paper.pdf - Adobe Acrobat Reader (64-bit)", R("document", "paper.pdf")),
    ("okular", "attention.pdf  — Okular", R("document", "attention.pdf")),
    ("evince", "Attention Is All You Need", R("document", "Attention Is All You Need")),
    ("SumatraPDF.exe", "C:\\Users\\x\\paper.pdf - SumatraPDF", R("document", "paper.pdf")),
    ("Preview", "paper.pdf – Page 3 of 10", R("document", "paper.pdf")),
    ("zathura", "/home/jane/papers/attention.pdf", R("document", "attention.pdf")),
    ("okular", "Okular", None),
    # chat apps: channel or conversation
    ("slack", "general (Channel) - Acme - Slack", R("channel", "general", "Acme")),
    ("Slack", "Jane Doe (DM) - Acme - Slack", R("messaging", "Jane Doe", "Acme")),
    ("slack.exe", "* random - Acme - 3 new items - Slack", R("channel", "random", "Acme")),
    ("Slack", "Slack | general | Acme", R("channel", "general", "Acme")),
    ("Slack", "#général | acme", R("channel", "général", "acme")),
    ("slack", "Threads - Acme - Slack", R("messaging", "threads", "Acme")),
    ("slack", "Activity - Acme - Slack", R("notifications", "activity", "Acme")),
    ("slack", "standup (Huddle) - Acme - Slack", R("meeting", "standup", "Acme")),
    ("Teams.exe", "Chat | Jane Doe | Microsoft Teams", R("messaging", "Jane Doe")),
    ("ms-teams", "Chat | Jane Doe | Contoso | jane@contoso.com | Microsoft Teams", R("messaging", "Jane Doe")),
    ("Teams", "General (Team Alpha) | Microsoft Teams", R("channel", "General", "Team Alpha")),
    ("teams", "Calendar | Microsoft Teams", R("calendar", "teams")),
    ("teams", "Activity | Microsoft Teams", R("notifications", "teams")),
    ("Teams", "Weekly sync meeting | Microsoft Teams", R("meeting", "Weekly sync meeting")),
    ("Discord", "#general | Python Discord - Discord", R("channel", "general", "Python Discord")),
    ("discord", "Discord | #help | Rust", R("channel", "help", "Rust")),
    ("Discord", "@jane - Discord", R("messaging", "jane")),
    ("Discord", "Discord | @jane", R("messaging", "jane")),
    # meetings, design, files
    ("zoom", "Zoom Meeting", R("meeting", "Zoom Meeting")),
    ("zoom.us", "Zoom Webinar", R("meeting", "Zoom Webinar")),
    ("zoom", "Zoom - Free Account", None),
    ("zoom.us", "Jane Doe's Personal Meeting Room", R("meeting", "Jane Doe's Personal Meeting Room")),
    ("Zoom", "Zoom Meeting ID: 123 456 7890", R("meeting", "1234567890")),
    ("Figma", "Design System – Figma", R("design", "Design System")),
    ("Figma", "Onboarding flow", R("design", "Onboarding flow")),
    ("Figma", "Drafts – Figma", R("drive", "figma")),
    ("Inkscape", "*CV_2020.svg - Inkscape", R("design", "CV_2020.svg")),
    ("gimp-2.10", "[photo] (imported)-1.0 (RGB color 8-bit) 1920x1080 – GIMP", R("design", "photo")),
    ("explorer.exe", "MHacks", R("folder", "MHacks")),
    ("explorer.exe", "Task Switching", None),
    ("pcmanfm-qt", "activitywatch", R("folder", "activitywatch")),
    ("org.gnome.Nautilus", "Downloads", R("folder", "Downloads")),
    ("Outlook.exe", "Inbox - jane@example.com - Outlook", R("email", "Inbox")),
    ("OUTLOOK.EXE", "Calendar - jane@example.com - Outlook", R("calendar", "Calendar")),
    # browsers without a URL: well-known sites' titles
    ("firefox.exe", "ChatGPT — Mozilla Firefox", R("ai_chat", "chatgpt")),
    ("firefox.exe", "Ethan McKean | LinkedIn — Mozilla Firefox", R("profile", "Ethan McKean")),
    ("firefox.exe", "Feed | LinkedIn — Mozilla Firefox", R("feed", "linkedin")),
    ("Firefox Developer Edition", "(2) YouTube - Firefox Developer Edition", R("feed", "youtube")),
    ("Firefox Developer Edition", "R.E.M. - Shiny Happy People (Official Music Video) - YouTube - Firefox Developer Edition", R("video", "R.E.M. - Shiny Happy People (Official Music Video)")),
    ("Firefox Developer Edition", "Add a gatsby-page-transition component · Issue #5213 · gatsbyjs/gatsby - Firefox Developer Edition", R("issue", "gatsbyjs/gatsby#5213")),
    ("Google Chrome", "Fix proxy auth by jane · Pull Request #6712 · psf/requests", R("pull_request", "psf/requests#6712")),
    ("Firefox Developer Edition", "gatsby-plugin-transition-link/example/src/components at master · TylerBarnes/gatsby-plugin-transition-link - Firefox Developer Edition", R("code", "TylerBarnes/gatsby-plugin-transition-link/example/src/components")),
    ("Firefox Developer Edition", "Issues · TylerBarnes/gatsby-plugin-transition-link - Firefox Developer Edition", R("repo", "TylerBarnes/gatsby-plugin-transition-link")),
    ("firefox", "akshaybahadur21/Drowsiness_Detection: A simple Drowsiness Detection module — Mozilla Firefox", R("repo", "akshaybahadur21/Drowsiness_Detection")),
    ("Firefox Developer Edition", "RangeError: IntersectionObserver constructor - Google Search - Firefox Developer Edition", R("search", '"RangeError: IntersectionObserver constructor"')),
    ("firefox", "michigan football at DuckDuckGo — Mozilla Firefox Private Browsing", R("search", '"michigan football"')),
    ("chrome", "wetter berlin - Google Suche - Google Chrome", R("search", '"wetter berlin"')),
    ("Firefox Developer Edition", 'Difamadores on Twitter: "Ruta 68" / Twitter - Firefox Developer Edition', R("post", "Difamadores")),
    ("firefox", "MHacks (@mhacks) / X — Mozilla Firefox", R("profile", "mhacks")),
    ("firefox", "Michael Hess - MHacks 16 〽️ - Slack — Mozilla Firefox", R("channel", "Michael Hess", "MHacks 16 〽️")),
    ("firefox", "Threads - MHacks 16 〽️ - Slack — Mozilla Firefox", R("messaging", "threads", "MHacks 16 〽️")),
    ("Google-chrome", "MHacks 16 Hacker Handbook - Google Docs - Google Chrome", R("doc", "MHacks 16 Hacker Handbook")),
    ("firefox", "MHacks 2023 Intro Slide -- U-M ITS - Google Slides — Mozilla Firefox", R("slides", "MHacks 2023 Intro Slide -- U-M ITS")),
    ("firefox", "Team 3 - Google Drive — Mozilla Firefox", R("drive", "Team 3")),
    ("chrome.exe", "Inbox (3) - jane@gmail.com - Gmail - Google Chrome", R("email", "Inbox")),
    ("firefox", "Details emerge of surprise board coup | Hacker News — Mozilla Firefox", R("post", "Details emerge of surprise board coup")),
    ("firefox", "Taylor Swift fan dies : r/popculturechat — Mozilla Firefox", R("post", "Taylor Swift fan dies", "r/popculturechat")),
    ("firefox", "How to leave a virtualenv - Stack Overflow — Mozilla Firefox", R("question", "How to leave a virtualenv")),
    ("firefox", "Yes (Unix) - Wikipedia — Mozilla Firefox", R("wiki", "Yes (Unix)")),
    ("Firefox Developer Edition", "gatsby-plugin-scroll-reveal - npm - Firefox Developer Edition", R("package", "gatsby-plugin-scroll-reveal")),
    ("Firefox", "How to animate page transitions in Gatsby.js - freeCodeCamp.org - Medium", R("post", "How to animate page transitions in Gatsby.js", "freeCodeCamp.org")),
    ("Firefox Developer Edition", "Pentagram Page Transitions – A deep dive with Gatsby.js - DEV - Firefox Developer Edition", R("post", "Pentagram Page Transitions – A deep dive with Gatsby.js")),
    ("Firefox Developer Edition", "(1) Facebook - Firefox Developer Edition", R("feed", "facebook")),
    ("firefox", "sqlite3 — DB-API 2.0 interface for SQLite databases — Python 3.12.0 documentation", R("docs", "sqlite3 — DB-API 2.0 interface for SQLite databases")),
    ("firefox", "[1706.03762] Attention Is All You Need — Mozilla Firefox", R("paper", "arXiv:1706.03762")),
    ("msedge.exe", "accounts.google.com/signin/continue?sarp=1&scc=0 - Profile 1 - Microsoft Edge", R("login", "accounts.google.com")),
    ("msedge.exe", "github.com/psf/requests/pull/6712 - Profile 1 - Microsoft Edge", R("pull_request", "psf/requests#6712")),
    ("msedge.exe", "Adobe Firefly – Generative AI for everyone - Profile 1 - Microsoft Edge", None),
    ("firefox", "Mozilla Firefox", None),
    ("firefox", "Home | Transluciddata — Mozilla Firefox", None),
    # unknown apps and empty input
    ("unknownapp", "main.py - proj - Visual Studio Code", None),
    ("", "", None),
]  # fmt: skip

CLEAN: list[tuple[str, str, str]] = [
    ("firefox.exe", "ChatGPT — Mozilla Firefox", "ChatGPT"),
    ("firefox.exe", "Growing up — Mozilla Firefox Private Browsing", "Growing up"),
    ("Firefox Developer Edition", "Facebook - Firefox Developer Edition", "Facebook"),
    ("Firefox Developer Edition", "(4) Facebook - Firefox Developer Edition", "Facebook"),
    ("Google Chrome", "New Tab - Google Chrome", "New Tab"),
    ("chrome", "Docs - Google Chrome (Incognito)", "Docs"),
    ("msedge.exe", "Adobe ID - Profile 1 - Microsoft Edge", "Adobe ID"),
    ("msedge.exe", "Adobe ID - Profile 1 - Microsoft\u200b Edge", "Adobe ID"),
    ("msedge.exe", "Plans and 3 more pages - Work - Microsoft Edge", "Plans"),
    ("msedge.exe", "Plans - [InPrivate] - Microsoft Edge", "Plans"),
    ("brave", "Search - Brave", "Search"),
    ("vivaldi", "Inbox - Vivaldi", "Inbox"),
    ("firefox", "Mozilla Firefox", ""),
    ("chrome", "Inbox (3) - jane@gmail.com - Gmail - Google Chrome", "Inbox (3) - jane@gmail.com - Gmail"),
    (
        "firefox.exe",
        "Reddit - https://i.redd.it/x-v0-mf510k8tmm9a1.png?s=3302ba3a71665ef9406a066d898ff31a2c4d452c — Mozilla Firefox Private Browsing",
        "Reddit - https://i.redd.it/x-v0-mf510k8tmm9a1.png",
    ),
    ("msedge.exe", "weblogin.umich.edu/idp/profile/SAML2/POST/SSO?execution=e1s2 - Profile 1 - Microsoft Edge", "weblogin.umich.edu/idp/profile/SAML2/POST/SSO"),
    ("kitty", "curl https://admin:S3CRET@api.example.com/v1/x?token=S3CRET", "curl https://api.example.com/v1/x"),
    ("Code.exe", "● main.py - MHacks - Visual Studio Code", "● main.py - MHacks - Visual Studio Code"),
    ("slack", "  general   (Channel) - Acme - Slack ", "general (Channel) - Acme - Slack"),
    ("Code", "store.py — actframes — Überblick ✓", "store.py — actframes — Überblick ✓"),
    ("", "", ""),
]  # fmt: skip


@pytest.mark.parametrize(("app", "title", "ref"), TITLES, ids=range(len(TITLES)))
def test_title_ref(app: str, title: str, ref: TitleRef | None) -> None:
    assert title_ref(app, title) == ref


@pytest.mark.parametrize(("app", "title", "clean"), CLEAN, ids=range(len(CLEAN)))
def test_clean_title(app: str, title: str, clean: str) -> None:
    assert clean_title(app, title) == clean


def test_no_secret_in_titles() -> None:
    for app, title, _ in TITLES:
        ref = title_ref(app, title)
        assert ref is None or "S3CRET" not in ref.label
    for app, title, _ in CLEAN:
        assert "S3CRET" not in clean_title(app, title)


@pytest.mark.parametrize(
    ("app", "family"),
    [
        ("Code.exe", "vscode"),
        ("/usr/share/code/code", "vscode"),
        ("firefox.exe", "browser"),
        ("Firefox Developer Edition", "browser"),
        ("Google-chrome", "browser"),
        ("msedge.exe", "browser"),
        ("WindowsTerminal.exe", "terminal"),
        ("soffice.bin", "office"),
        ("ZoomIt.exe", None),
        ("Knowledge", None),
        ("", None),
    ],
)
def test_app_family(app: str, family: str | None) -> None:
    assert app_family(app) == family


def test_label() -> None:
    assert R("file", "main.py", "MHacks").label == "main.py (MHacks)"
    assert R("channel", "general").label == "general"


def test_every_title_rule_compiles_and_its_cue_is_required() -> None:
    import re

    from actframes.entities.title_rules import TITLE_RULES, cue

    for family, rules in TITLE_RULES.items():
        for rule in rules:
            rx = re.compile(rule[0])
            c = cue(rule[0])
            # The cue is literal text of the pattern's top level: any title without it
            # cannot match, so skipping the regex then changes nothing.
            assert c == "" or c in rule[0].replace("\\", ""), (family, rule[0], c)
            assert rx.pattern == rule[0]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"(?P<v>.+) - YouTube", " - YouTube"),
        (r"(?P<t>.+) \| Hacker News", " | Hacker News"),
        (r"YouTube|Vimeo", ""),
        (r"ab?cd", "cd"),
        (r"(?:Google )?Gemini", "Gemini"),
        (r"x[-–]yz{2}", "x"),
        (r"\d+ items", " items"),
    ],
)
def test_cue(pattern: str, expected: str) -> None:
    from actframes.entities.title_rules import cue

    assert cue(pattern) == expected
