"""Window titles: the browser's own suffix removed, and typed entities for native apps.

Three tables:

- ``BROWSER_SUFFIXES``: what browsers append to a page's title ("— Mozilla Firefox").
- ``APP_FAMILIES``: app names (exe, WM_CLASS, macOS name) → a family (``vscode``,
  ``terminal``, ``office`` …), matched on the lower-cased name without ``.exe``.
- ``TITLE_RULES``: per family, ``(title pattern, kind, entity template[, context])``. The
  pattern must match the whole title; templates show named groups, optionally through a
  filter (``{f|basename}``). A kind written ``{group}|default`` is looked up by the
  group's text in ``KIND_WORDS`` (``Excel`` → ``sheet``), else the default.

The first rule that matches wins; a title no rule matches has no typed entity (None).
Browsers get rules for well-known sites' titles too, for stores that record no URL.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import NamedTuple

from ..fast import recache
from ..fast.lazyre import LazyRe

MAX_TITLE_ENTITY_CHARS = 120
# Titles longer than this are cut before matching (stores keep 300 characters): the
# patterns stay linear enough, and no title needs more to say what it shows.
MAX_MATCH_CHARS = 1000


class TitleRef(NamedTuple):
    """What a window title says was on screen: ``file main.py`` in project ``MHacks``."""

    kind: str
    entity: str
    context: str | None = None  # the project, workspace, team or folder around it

    @property
    def label(self) -> str:
        """One string for places that hold one: ``main.py (MHacks)``."""
        return f"{self.entity} ({self.context})" if self.context else self.entity


TitleRule = tuple[str, str, str] | tuple[str, str, str, str]

# ---------------------------------------------------------------- browser suffixes

BROWSER_SUFFIXES: tuple[str, ...] = (
    # Firefox and its forks: "Page — Mozilla Firefox", "Page - Firefox Developer Edition".
    r"(?:Mozilla Firefox|Firefox Developer Edition|Firefox Nightly|Firefox|LibreWolf|"
    r"Waterfox|Tor Browser|Zen Browser|Floorp|Mullvad Browser)(?: Private Browsing)?",
    # Chrome: "Page - Google Chrome", incognito and profile variants.
    r"Google Chrome(?: \(Incognito\))?(?: - [^-—–]{1,40})?",
    # Edge: "Page and 3 more pages - Profile 1 - Microsoft Edge" (the space may be a ZWSP).
    r"(?:(?:Profile \d+|Personal|Work|Default|Guest|\[?InPrivate\]?) [-—–] )?"
    r"Microsoft ?Edge(?: Beta| Dev| Canary)?",
    r"Chromium|Brave|Opera|Vivaldi|Thorium|Yandex Browser|Ungoogled Chromium",
)
_SUFFIX = LazyRe(
    r"(?: and \d+ more pages?)?\s+[-—–]\s+(?:" + "|".join(BROWSER_SUFFIXES) + r")\s*$"
)
_ONLY_BROWSER = LazyRe(r"(?:" + "|".join(BROWSER_SUFFIXES) + r")\s*", re.IGNORECASE)
# A URL inside a title keeps its address but never its query or fragment, which can hold
# signatures and tokens ("…png?s=3302ba…", "#access_token=…").
_URL_IN_TITLE = LazyRe(
    r"(?P<base>(?:[a-z][a-z0-9+.-]*://)?(?:[^\s/@]+@)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?"
    r"(?:/[^\s?#]*)?)[?#]\S*",
    re.IGNORECASE,
)
_USERINFO = LazyRe(r"(?P<s>[a-z][a-z0-9+.-]*://)[^\s/@]+@", re.IGNORECASE)
_WS = LazyRe(r"\s+")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"))
# A title as shown keeps ZWJ / ZWNJ: they join emoji and spell words in some scripts.
_INVISIBLE_SHOWN = dict.fromkeys(map(ord, "\u200b\u200e\u200f\u2060\ufeff"))

# ---------------------------------------------------------------- app families

# (regex over the normalised app name, family). First match wins.
APP_FAMILIES: tuple[tuple[str, str], ...] = (
    (r"code|code - insiders|code-insiders|code - oss|code-oss|vscodium|codium|cursor|windsurf"
     r"|visual studio code.*", "vscode"),
    (r"(?:jetbrains-)?(?:pycharm|idea|intellij idea|webstorm|goland|clion|rider|rubymine|"
     r"phpstorm|datagrip|dataspell|rustrover|aqua|fleet|writerside|studio|android studio)"
     r"(?:64|\d+)?(?: .*)?", "jetbrains"),
    (r"g?vim|nvim|nvim-qt|neovide|vimr|macvim|gvim\d*", "vim"),
    (r"emacs.*", "emacs"),
    (r"sublime_text|sublime text.*|subl", "sublime"),
    (r"xcode|com\.apple\.dt\.xcode", "xcode"),
    (r"notepad\+\+|notepad|gedit|gnome-text-editor|org\.gnome\.texteditor|kate|kwrite|"
     r"featherpad|mousepad|pluma|xed|textedit|bbedit|geany|zed|leafpad|l3afpad", "editor"),
    (r"winword|excel|powerpnt|onenote|microsoft (?:word|excel|powerpoint|onenote)|soffice|"
     r"libreoffice.*|openoffice.*|wps|et|wpp|pages|numbers|keynote", "office"),
    (r"outlook|olk|microsoft outlook", "outlook"),
    (r"slack", "slack"),
    (r"teams|ms-teams|msteams|microsoft teams.*|teams2", "teams"),
    (r"discord|discordptb|discordcanary|vesktop|webcord", "discord"),
    (r"zoom|zoom\.us|zoom workplace|zoom meetings|zoommeetings", "zoom"),
    (r"figma|figma_agent|figma-linux", "figma"),
    (r"acrord32|acrobat|adobe acrobat.*|acrobat reader.*|evince|okular|zathura|sumatrapdf|"
     r"foxit.*|xreader|atril|mupdf|qpdfview|papers|skim|pdf-xchange.*|pdfxedit|"
     r"org\.gnome\.evince|org\.gnome\.papers|document viewer|preview", "pdf"),
    (r"explorer|nautilus|org\.gnome\.nautilus|dolphin|thunar|nemo|caja|pcmanfm(?:-qt)?|"
     r"finder|files|doublecmd|krusader", "files"),
    (r"inkscape|gimp.*|krita|blender|photoshop|illustrator|adobe photoshop.*|"
     r"adobe illustrator.*|affinity.*", "graphics"),
    (r"gnome-terminal(?:-server)?|org\.gnome\.terminal|org\.gnome\.console|kgx|konsole|"
     r"xterm|uxterm|urxvt|rxvt.*|alacritty|kitty|wezterm(?:-gui)?|foot|footclient|tilix|"
     r"terminator|xfce4-terminal|qterminal|lxterminal|mate-terminal|st|st-256color|guake|"
     r"yakuake|terminology|hyper|tabby|iterm2?|terminal|windowsterminal|windows terminal|"
     r"powershell|pwsh|cmd|conhost|openconsole|wsl|wslhost|ubuntu|mintty|ghostty|warp|"
     r"rio|contour|cool-retro-term", "terminal"),
    (r"(?:google[- ]chrome|chrome|chromium|chromium-browser)(?:[- ].*)?|firefox.*|"
     r".*firefox|librewolf|waterfox|floorp|msedge|microsoft[- ]edge.*|brave(?:-browser)?|"
     r"opera|vivaldi.*|safari|arc|zen|zen-browser|tor browser|thorium|yandex|"
     r"navigator", "browser"),
)  # fmt: skip

# Kind words in titles → kinds (for rules whose kind is written "{group}|default").
KIND_WORDS: Mapping[str, str] = {
    # Google apps, office suites, file extensions
    "docs": "doc", "sheets": "sheet", "slides": "slides", "forms": "form", "drive": "drive",
    "drawings": "design", "word": "doc", "excel": "sheet", "powerpoint": "slides",
    "onenote": "doc", "writer": "doc", "calc": "sheet", "impress": "slides", "draw": "design",
    "math": "doc", "base": "sheet",
    "doc": "doc", "docx": "doc", "odt": "doc", "rtf": "doc", "pages": "doc",
    "xls": "sheet", "xlsx": "sheet", "ods": "sheet", "csv": "sheet", "numbers": "sheet",
    "ppt": "slides", "pptx": "slides", "odp": "slides", "key": "slides", "odg": "design",
    # GitHub
    "issue": "issue", "pull request": "pull_request", "discussion": "post",
    # chat apps
    "channel": "channel", "private channel": "channel", "dm": "messaging",
    "group dm": "messaging", "huddle": "meeting", "chat": "messaging",
    "calendar": "calendar", "activity": "notifications", "teams": "channel",
    "calls": "meeting", "meet": "meeting", "files": "drive",
    # X, LinkedIn, mail
    "home": "feed", "explore": "feed", "bookmarks": "feed", "notifications": "notifications",
    "messages": "messaging", "feed": "feed", "messaging": "messaging", "jobs": "feed",
    "my network": "feed", "mail": "email", "inbox": "email", "sent items": "email",
    "drafts": "email", "archive": "email", "search": "search",
}  # fmt: skip

# Names chat apps give their own views, which are not channels: kind for each.
CHAT_VIEWS: Mapping[str, str] = {
    "threads": "messaging", "activity": "notifications", "later": "messaging",
    "dms": "messaging", "direct messages": "messaging", "mentions & reactions": "notifications",
    "saved items": "messaging", "all unreads": "messaging", "home": "messaging",
    "friends": "messaging", "message requests": "messaging", "huddles": "meeting",
    "drafts & sent": "messaging", "canvases": "doc", "files": "drive",
}  # fmt: skip

# Editor tabs that are not files: the title names the project only.
NOT_FILES = LazyRe(
    r"Welcome|Settings|Keyboard Shortcuts|Release Notes.*|Extension: .*|Extensions|"
    r"Get Started|Walkthrough: .*|Untitled-\d+|Search|Source Control|Running Extensions|"
    r"Output|Problems|Terminal|Interactive-\d+|Copilot|Chat|\[No Name\]|No Name|"
    r"\*[^*]+\*|Process Explorer|Editor Playground|Untitled"
)
# Extensions that are really the end of a folder name ("chango.dev"), not a file type.
_TLD_LIKE = "dev|io|com|net|org|app|ai|co|me|xyz|site|tech|so|cloud|js\\.org"

# Shells: a terminal whose title names only its shell says nothing typed.
_SHELLS = frozenset(
    {"bash", "zsh", "fish", "sh", "dash", "ksh", "tcsh", "csh", "nu", "pwsh", "powershell",
     "cmd", "tmux", "screen", "login", "-bash", "-zsh", "elvish", "xonsh", "wsl"}
)  # fmt: skip
_COMMANDS = (
    r"vim?|nvim|nano|micro|helix|hx|emacs|less|more|man|top|htop|btop|ssh|mosh|python[\d.]*|"
    r"ipython|node|npm|npx|pnpm|yarn|bun|deno|cargo|go|make|git|lazygit|tig|docker|"
    r"docker-compose|kubectl|k9s|psql|mysql|sqlite3|redis-cli|ruby|irb|rails|mix|iex|ghci|"
    r"julia|php|java|gradle|mvn|pytest|tox|uv|pip|brew|apt|sudo|tail|watch|ranger|nnn|mc|"
    r"claude|codex|aider|terraform|ansible|rsync|scp|ping|curl|wget|jupyter|poetry"
)
_VSCODE_APP = r"(?:Visual Studio Code|VSCodium|Code - OSS|Cursor|Windsurf)(?: - Insiders)?"
_JB_IDE = (
    r"(?:PyCharm|IntelliJ IDEA|WebStorm|GoLand|CLion|Rider|RubyMine|PhpStorm|DataGrip|"
    r"DataSpell|RustRover|Aqua|Android Studio|Fleet|Writerside)(?: [\w. ]+)?(?: \([^)]*\))?"
)
_PDF_APPS = (
    r"Adobe Acrobat(?: Reader)?(?: Pro)?(?: DC)?(?: \(\d+-bit\))?|Adobe Reader|SumatraPDF|"
    r"Foxit (?:PDF )?(?:Reader|Editor)|Okular|Evince|Document Viewer|Papers|Atril|Xreader|"
    r"qpdfview|MuPDF|Zathura|PDF-XChange (?:Editor|Viewer)|Skim|Preview"
)
_FILE_MANAGER_VIEWS = (
    r"Task Switching|Task View|Run|Rename|Progress|UnlockingWindow|File Explorer|Start|"
    r"Search|Copy Files|Move Files|Confirm.*|File Properties|Properties|Choose an Application|"
    r"Program Manager|Quick access|Home|Open|Save As|Delete File|Replace or Skip Files|"
    r"Open With|Desktop|pcmanfm-qt|Files|Finder|Dolphin|Thunar|Nautilus"
)
_SEARCH_SUFFIX = (
    r"Google (?:Search|Suche|Zoeken|Szukaj|Sök|Søk|Haku|Поиск)|Buscar con Google|"
    r"Recherche Google|Pesquisa Google|Cerca con Google|Google 検索|Google 搜索|Brave Search|"
    r"Ecosia|Kagi Search|Startpage(?: Search Results)?|Bing|Yandex|Qwant|Search - Microsoft Bing"
)
_GH_REPO = r"(?P<r>(?P<o>[A-Za-z0-9][A-Za-z0-9-]*)/[A-Za-z0-9_.-]+)"

TITLE_RULES: Mapping[str, tuple[TitleRule, ...]] = {
    "vscode": (
        (rf"(?:Preview )?(?P<f>.+?)(?: \((?:Working Tree|Index|HEAD|Deleted|Read-only)\))?"
         rf" [-—] (?P<p>.+?)(?: \[[^\]]+\])*(?: \(Workspace\))? [-—] {_VSCODE_APP}",
         "file", "{f}", "{p}"),
        (rf"(?P<f>\.?[^\s\[\]]*\.(?!(?:{_TLD_LIKE})\b)[A-Za-z0-9_]{{1,10}}|\.[\w.-]+) [-—] "
         rf"{_VSCODE_APP}", "file", "{f}"),
        (rf"(?P<p>.+?)(?: \[[^\]]+\])*(?: \(Workspace\))? [-—] {_VSCODE_APP}", "project", "{p}"),
        (r"(?P<f>[^—]+?) — (?P<p>[^—]+?)(?: — .*)?", "file", "{f}", "{p}"),
    ),
    "jetbrains": (
        (rf"(?P<p>[^–]+?)(?: \[[^\]]*\])? – (?P<f>[^–]+?)(?: \[[^\]]*\])?(?: – {_JB_IDE})?",
         "file", "{f|basename}", "{p}"),
        # (older: "proj [D:\\src\\proj] - ...\\src\\Main.java [proj] - IntelliJ IDEA")
        (rf"(?P<p>.+?)(?: \[[^\]]*\])? - (?P<f>.+?)(?: \[[^\]]*\])? - {_JB_IDE}", "file",
         "{f|basename}", "{p}"),
        (rf"(?P<p>[^–]+?)(?: \[[^\]]*\])?(?: – {_JB_IDE})?", "project", "{p}"),
    ),
    "xcode": (  # "billing-api — Invoice.swift", the project first
        (r"(?P<p>[^—]+?)(?:\.xcodeproj|\.xcworkspace)? — (?P<f>[^—]+?)(?: — Edited)?", "file",
         "{f|basename}", "{p}"),
        (r"(?!Welcome to Xcode)(?P<p>[^—]+?)(?:\.xcodeproj|\.xcworkspace)?", "project", "{p}"),
    ),
    "vim": (
        (r"(?P<f>.+?)(?: [+=-]+)? \((?P<d>.+)\)(?: - (?:N?VIM|GVIM\d*|VIM\d*))?", "file", "{f}",
         "{d}"),
        (r"(?P<f>.+?)(?: [+=-]+)?(?: - (?:N?VIM|GVIM\d*|VIM\d*|Neovide))", "file", "{f|basename}",
         "{f|parent}"),
    ),
    "emacs": (
        (r"(?P<f>.+?) - (?:GNU Emacs|Doom Emacs|Spacemacs|Emacs)(?: at .+)?", "file",
         "{f|basename}"),
    ),
    "sublime": (
        (r"(?P<f>.+?)(?: •)? \((?P<p>.+?)\) - Sublime Text.*", "file", "{f|basename}", "{p}"),
        (r"(?P<f>.+?)(?: •)? - Sublime Text.*", "file", "{f|basename}", "{f|parent}"),
    ),
    "editor": (
        (r"\*?(?P<f>.+?) - Notepad\+\+(?: \[Administrator\])?", "file", "{f|basename}",
         "{f|parent}"),
        (r"\*?(?P<f>.+?) - Notepad", "file", "{f|basename}"),
        (r"\*?(?P<f>.+?)(?: \((?P<d>.+)\))? - (?:gedit|Text Editor|Pluma|Xed|Mousepad|Geany)",
         "file", "{f|basename}", "{d}"),
        (r"(?P<f>.+?)(?: \*)? [—-] (?:Kate|KWrite)", "file", "{f|basename}"),
        (r"(?P<p>[^—]+?) — (?P<f>.+)", "file", "{f|basename}", "{p}"),
        (r"\*?(?P<f>(?:/|~/|[A-Za-z]:\\).+)", "file", "{f|basename}", "{f|parent}"),
        (r"\*?(?P<f>[^\s/\\]+\.\w{1,10})(?: - .*)?", "file", "{f}"),
    ),
    "office": (
        (r"(?P<d>.+?)(?: \[[^\]]*\])?(?:\s+-\s+(?:Protected View|Read-Only|Compatibility Mode|"
         r"Saved|Saving…|AutoRecovered|Saved to [^-]+|Last Modified[^-]*|Repaired))*"
         r"\s+-\s+(?:Microsoft )?(?P<app>Word|Excel|PowerPoint|OneNote)(?: \([^)]*\))?",
         "{app}|doc", "{d}"),
        (r"(?P<d>.+?) [-–] (?:LibreOffice|OpenOffice|Apache OpenOffice) "
         r"(?P<app>Writer|Calc|Impress|Draw|Math|Base)", "{app}|doc", "{d}"),
        (r"(?P<d>[^—]+\.(?P<ext>docx?|xlsx?|pptx?|od[tspg]|rtf|csv|pages|numbers|key))"
         r"(?: [-—] .*)?", "{ext}|doc", "{d}"),
    ),
    "outlook": (
        (r"(?P<f>[^-]+?)(?: \(\d+\))? - (?P<a>\S+@\S+) - Outlook.*", "{f}|email", "{f}"),
        (r"(?P<s>.+) - Message \((?:HTML|Plain Text|Rich Text)\)", "email", "{s}"),
        (r"(?P<f>[^-]+?)(?: \(\d+\))? - Outlook.*", "{f}|email", "{f}"),
    ),
    "slack": (
        (r"(?P<n>.+?) \((?P<t>Channel|Private channel|DM|Group DM|Huddle)\) - (?P<w>.+?)"
         r"(?: - \d+ new items?)? - Slack", "{t}|channel", "{n|chan}", "{w}"),
        (r"Slack \| (?P<n>.+?) \| (?P<w>.+)", "channel", "{n|chan}", "{w}"),
        (r"(?P<n>.+?) - (?P<w>.+?)(?: - \d+ new items?)? - Slack", "channel", "{n|chan}",
         "{w}"),
        (r"#(?P<n>[^|]+?) \| (?P<w>.+)", "channel", "{n|chan}", "{w}"),
    ),
    "teams": (
        (r"(?P<s>Chat|Calendar|Activity|Teams|Calls|Files|Meet) \| (?P<n>[^|]+?)(?: \| [^|]+)*"
         r" \| Microsoft Teams.*", "{s}|messaging", "{n}"),
        (r"(?P<s>Chat|Calendar|Activity|Teams|Calls|Files|Meet) \| Microsoft Teams.*",
         "{s}|messaging", "teams"),
        (r"(?P<n>(?:Meeting|Call) .*|.* (?:Meeting|meeting)) \| Microsoft Teams.*", "meeting",
         "{n}"),
        (r"(?P<n>[^|]+?) \((?P<t>[^|)]+)\) \| Microsoft Teams.*", "channel", "{n}", "{t}"),
    ),
    "discord": (
        (r"Discord \| #(?P<c>[^|]+?) \| (?P<g>.+)", "channel", "{c}", "{g}"),
        (r"#(?P<c>[^|]+?) \| (?P<g>.+?) - Discord", "channel", "{c}", "{g}"),
        (r"Discord \| @(?P<u>.+)", "messaging", "{u}"),
        (r"@(?P<u>.+?) - Discord", "messaging", "{u}"),
        (r"(?:Discord \| )?(?P<v>Friends|Message Requests)(?: - Discord)?", "messaging", "{v}"),
    ),
    "zoom": (
        (r"Zoom Meeting ID: (?P<id>[\d -]+)", "meeting", "{id|digits}"),
        (r"(?P<m>.+'s (?:Personal Meeting Room|Zoom Meeting))", "meeting", "{m}"),
        (r"(?P<m>Zoom (?:Meeting|Webinar)(?: \d+-Minutes?)?)", "meeting", "{m}"),
    ),
    "figma": (
        (r"(?:Drafts|Recents?|Home|Figma|Community|Explore|Files)(?: [–-] Figma)?", "drive",
         "figma"),
        (r"(?P<f>.+?)(?: [–-] Figma)?", "design", "{f}"),
    ),
    "pdf": (
        (rf"(?P<d>.+?)(?: \(.*?\))? [-–—] (?:{_PDF_APPS})(?: [-–—] .*)?", "document",
         "{d|basename}"),
        (r"(?P<d>.+?) [–-] Page \d+ of \d+", "document", "{d|basename}"),
        (r"(?P<d>.+\.pdf)(?: .*)?", "document", "{d|basename}"),
        (rf"(?!(?:{_PDF_APPS}|Home)$)(?P<d>.+)", "document", "{d|basename}"),
    ),
    "files": ((rf"(?!(?:{_FILE_MANAGER_VIEWS})$)(?P<d>.+)", "folder", "{d|basename}"),),
    "graphics": (
        (r"\*?\[(?P<f>[^\]]+)\].* [–-] GIMP", "design", "{f}"),
        (r"Blender.*\[(?P<f>[^\]]+)\]", "design", "{f|basename}"),
        (r"\*?(?P<f>.+?) [–-] (?:Inkscape|Krita|Adobe Photoshop.*|Adobe Illustrator.*)",
         "design", "{f|basename}"),
    ),
    "terminal": (
        (r"(?P<f>.+?)(?: [+=-]+)? \((?P<d>.+)\) - N?VIM", "file", "{f}", "{d}"),
        (r'[^:]+:\d+:(?P<c>[^ ]+?)[*#!~MZ-]? - ".*"', "command", "{c|command}"),
        (r"[\w.-]+@[\w.-]+: ?(?P<d>[~/].*)", "cwd", "{d}"),
        (r"(?:fish|bash|zsh) (?P<d>[~/].*)", "cwd", "{d}"),
        # "~/src/app: make test" (directory, then the running command)
        (r"(?P<d>~[^:]*|/[^:]*): (?P<c>\S.*)", "command", "{c|command}", "{d}"),
        (r"(?!.*\.exe$)(?P<d>~(?:/.*)?|/.*|[A-Za-z]:\\.*)", "cwd", "{d}"),
        # macOS Terminal: "billing-api — -zsh — 80×24" (the folder by name, the process, the size)
        (r"(?P<d>[^—/\\]+?) — [^—]+ — \d+×\d+", "cwd", "{d}"),
        (r"(?:Command Prompt|Windows PowerShell|PowerShell|.*\\(?:cmd|powershell|pwsh)\.exe)"
         r" - (?P<c>.+)", "command", "{c|command}"),
        (rf"(?P<c>(?:{_COMMANDS})(?: .*)?)", "command", "{c|command}"),
    ),
    "browser": (
        (rf"(?P<q>.+) [-–] (?:{_SEARCH_SUFFIX})", "search", "{q|search}"),
        (r"(?P<q>.+) (?:at|en|bei|sur|su|no|op) DuckDuckGo", "search", "{q|search}"),
        (r"(?P<v>.+) - YouTube", "video", "{v}"),
        (r"YouTube", "feed", "youtube"),
        (r"(?P<v>.+) - YouTube Music", "music", "{v}"),
        (rf".+? · (?P<k>Issue|Pull Request|Discussion) #(?P<n>\d+) · {_GH_REPO}(?: · GitHub)?",
         "{k}|issue", "{r}#{n}"),
        (rf"(?P<f>\S+) at (?P<ref>\S+) · {_GH_REPO}(?: · GitHub)?", "code", "{o}/{f}"),
        (r"(?:Issues|Pull requests|Actions|Commits|Releases|Wiki|Security|Insights|Branches|"
         rf"Tags|Projects|Discussions|Network Graph|Contributors|Activity)(?: · .+)? · {_GH_REPO}"
         r"(?: · GitHub)?", "repo", "{r}"),
        (rf"GitHub - {_GH_REPO}(?:: .*)?", "repo", "{r}"),
        (rf"{_GH_REPO}(?:: .*)?(?: · GitHub)?", "repo", "{r}"),
        (r"(?P<t>.+) - (?:Stack Overflow|Super User|Server Fault|Ask Ubuntu|MathOverflow|"
         r"(?:[\w ]+ )?Stack Exchange)", "question", "{t}"),
        (r"(?P<t>.+) [-–—] (?:Wikipedia|Wikipédia|Wikipedia, la enciclopedia libre|"
         r"Wikipedia, a enciclopédia livre|Википедия|维基百科，自由的百科全书)", "wiki", "{t}"),
        (r"(?P<n>.+?) (?:on|en|auf) (?:X|Twitter): .*", "post", "{n}"),
        (r".+? \(@(?P<h>\w{1,15})\)(?: / (?:X|Twitter))?", "profile", "{h}"),
        (r"(?P<v>Home|Explore|Notifications|Messages|Bookmarks) / (?:X|Twitter)", "{v}|feed",
         "x"),
        (r"(?P<v>Feed|Messaging|Jobs|Notifications|My Network|Search) \| LinkedIn", "{v}|feed",
         "linkedin"),
        (r"(?P<n>.+?) on LinkedIn: .*", "post", "{n}"),
        (r"(?P<c>.+?): (?:Overview|About|Posts|Jobs|People|Life|Insights) \| LinkedIn",
         "company", "{c}"),
        (r"(?P<n>.+?) \| LinkedIn", "profile", "{n}"),
        (r"(?P<t>.+) : r/(?P<s>\w+)", "post", "{t}", "r/{s}"),
        (r"r/(?P<s>\w+) on Reddit: (?P<t>.+)", "post", "{t}", "r/{s}"),
        (r"r/(?P<s>\w+)(?: - Reddit)?", "channel", "r/{s}"),
        (r"Reddit - (?:Dive into anything|The heart of the internet)", "feed", "reddit"),
        (r"(?P<t>.+) \| Hacker News", "post", "{t}"),
        (r"Hacker News", "feed", "hacker news"),
        (r"(?P<d>.+) - Google (?P<a>Docs|Sheets|Slides|Forms|Drive|Drawings)", "{a}|doc", "{d}"),
        (r"(?P<f>.+?)(?: \(\d+\))? - (?P<a>\S+@\S+) - (?:Gmail|Mail)", "email", "{f}"),
        (r"(?P<f>.+?) - Gmail", "email", "{f}"),
        (r"Google Calendar(?: - .*)?", "calendar", "google calendar"),
        (r"Meet - (?P<c>[a-z]{3}-[a-z]{4}-[a-z]{3})", "meeting", "{c}"),
        (r"(?P<m>.+) - Google Meet", "meeting", "{m}"),
        (r"Google Meet", "meeting", "google meet"),
        (r"(?P<p>.+) - Google Maps", "maps", "{p}"),
        (r"(?:[*!] )?(?P<n>.+?)(?: \((?P<t>Channel|Private channel|DM|Group DM)\))? - (?P<w>.+?)"
         r"(?: - \d+ new items?)? - Slack", "{t}|channel", "{n|chan}", "{w}"),
        (r"ChatGPT", "ai_chat", "chatgpt"),
        (r"(?P<t>.+) [-|] ChatGPT", "ai_chat", "{t}"),
        (r"Claude", "ai_chat", "claude"),
        (r"(?P<t>.+) [-|] Claude", "ai_chat", "{t}"),
        (r"(?:Google )?Gemini", "ai_chat", "gemini"),
        (r"(?P<t>.+) [-|] Perplexity(?: AI)?", "ai_chat", "{t}"),
        (r"Perplexity(?: AI)?", "ai_chat", "perplexity"),
        (r"(?P<n>\S+) - npm", "package", "{n}"),
        (r"(?P<n>\S+) · PyPI", "package", "{n}"),
        (r"(?P<n>\S+) - crates\.io: Rust Package Registry", "package", "{n}"),
        (r"(?P<t>.+) [-|] MDN(?: Web Docs)?", "docs", "{t}"),
        (r"(?P<t>.+) — (?:.+ )?(?:[\d.]+ )?[Dd]ocumentation", "docs", "{t}"),
        (r"(?P<t>.+) \| Microsoft Learn", "docs", "{t}"),
        (r"(?P<t>.+) - DEV(?: Community)?(?: .*)?", "post", "{t}"),
        (r"(?P<t>.+?)(?: \| by [^|]+)?(?: \| [^|]+)? \| Medium", "post", "{t}"),
        (r"(?P<t>.+) - (?P<p>[^-]+) - Medium", "post", "{t}", "{p}"),
        (r"(?P<t>.+) - Medium", "post", "{t}"),
        (r"(?P<p>.+) \| Product Hunt", "product", "{p}"),
        (r"(?P<c>.+?) - Crunchbase Company Profile.*", "company", "{c}"),
        (r"Facebook", "feed", "facebook"),
        (r"Messenger(?: \| Facebook)?", "messaging", "messenger"),
        (r"(?P<n>.+) \| Facebook", "profile", "{n}"),
        (r"Instagram", "feed", "instagram"),
        (r".+ \(@(?P<h>[\w.]+)\) • Instagram photos and videos", "profile", "{h}"),
        (r"(?P<f>.+?) [–-] Figma", "design", "{f}"),
        (r"\[(?P<k>[A-Z][A-Z0-9]+-\d+)\] .+", "ticket", "{k}"),
        (r"(?P<t>.+) - (?P<s>.+) - Confluence", "wiki", "{t}", "{s}"),
        (r"(?P<f>Mail|Inbox|Sent Items|Drafts|Calendar|Archive)(?: \(\d+\))?"
         r"(?: - (?P<a>.+))? - Outlook", "{f}|email", "{f}"),
        (r"(?:\(\d+\) )?WhatsApp(?: Web)?", "messaging", "whatsapp"),
        (r"Telegram(?: Web)?", "messaging", "telegram"),
        (r"Discord \| #(?P<c>[^|]+?) \| (?P<g>.+)", "channel", "{c}", "{g}"),
        (r"\[(?P<id>\d{4}\.\d{4,5})(?:v\d+)?\] .+", "paper", "arXiv:{id}"),
        (r"Amazon\.[a-z.]+ ?: (?P<t>.+)", "product", "{t}"),
        (r"(?P<c>\w+) - Twitch", "channel", "{c}"),
    ),
}

# Prefixes some apps put before the title: unread counters, unsaved markers, selection.
FAMILY_PREFIXES: Mapping[str, str] = {
    "browser": r"(?:\(\d+\+?\) )+",
    "vscode": r"(?:● |○ |\[Extension Development Host\] )+",
    "slack": r"(?:\(\d+\) |[*!] )+",
    "discord": r"(?:\(\d+\) |[*!•] )+",
    "teams": r"(?:\(\d+\) )+",
    "terminal": r"(?:(?:Select|Mark) |Administrator: |Administrador: )+",
    "figma": r"(?:\(\d+\) )+",
}

# ---------------------------------------------------------------- filters


def _basename(v: str) -> str | None:
    v = v.rstrip("/\\")
    return re.split(r"[/\\]", v)[-1] or None


def _parent(v: str) -> str | None:
    """The folder a file sits in, by name only: the project, not the home directory."""
    parts = [p for p in re.split(r"[/\\]", v.rstrip("/\\")) if p]
    if len(parts) < 2 or re.fullmatch(r"[A-Za-z]:|~|…|\.\.\.", parts[-2]):
        return ""
    return parts[-2]


def _command(v: str) -> str | None:
    """The program and its first plain argument only: command lines can carry secrets
    (``mysql -pSECRET``, ``curl -H 'Authorization: …'``), so flags, ``k=v`` pairs, quoted
    text, URLs and ``user@host`` are never shown."""
    words = v.split()
    if not words:
        return None
    prog = _basename(words[0]) or ""
    prog = re.sub(r"\.exe$", "", prog, flags=re.IGNORECASE)
    if not prog or prog.lower() in _SHELLS:
        return None
    for w in words[1:3]:
        if re.fullmatch(r"[\w./~+-]{1,60}", w) and not w.startswith("-"):
            return f"{prog} {w}"
    return prog


def _chan(v: str) -> str | None:
    return v.lstrip("#").strip() or None


def _search(v: str) -> str | None:
    import json

    return json.dumps(_WS.sub(" ", v).strip(), ensure_ascii=False)


TITLE_FILTERS: Mapping[str, Callable[[str], str | None]] = {
    "basename": _basename,
    "parent": _parent,
    "command": _command,
    "chan": _chan,
    "search": _search,
    "digits": lambda v: re.sub(r"\D", "", v) or None,
}

# ---------------------------------------------------------------- the matcher

_FIELD = LazyRe(r"\{(\w+)(\?)?((?:\|\w+)*)\}")


class _Compiled(NamedTuple):
    regex: LazyRe  # compiled the first time a title carries its cue
    kind: str
    entity: str
    context: str
    cue: str  # text every title this rule matches contains: checked before the regex

    def apply(self, title: str) -> TitleRef | None:
        if self.cue not in title:
            return None
        m = self.regex.fullmatch(title)
        if m is None:
            return None
        groups = {k: v.strip() for k, v in m.groupdict().items() if v and v.strip()}
        kind = self.kind
        if kind.startswith("{"):
            name, _, default = kind[1:].partition("}|")
            kind = KIND_WORDS.get(groups.get(name, "").lower(), default)
        entity = _render(self.entity, groups)
        if not entity:
            return None
        context = _render(self.context, groups) if self.context else None
        return TitleRef(kind, entity, context or None)


def _render(template: str, groups: Mapping[str, str]) -> str | None:
    failed = False

    def field(m: re.Match[str]) -> str:
        nonlocal failed
        value: str | None = groups.get(m.group(1), "")
        for f in filter(None, m.group(3).split("|")):
            if not value:
                break
            value = TITLE_FILTERS[f](value)
        if not value and not m.group(2):
            failed = True
        return value or ""

    out = _FIELD.sub(field, template)
    if failed:
        return None
    out = _WS.sub(" ", out).strip()
    if len(out) > MAX_TITLE_ENTITY_CHARS:
        out = out[: MAX_TITLE_ENTITY_CHARS - 1].rstrip() + "…"
    return out or None


@lru_cache(maxsize=64)
def _rules(family: str) -> tuple[_Compiled, ...]:
    out = []
    for rule in TITLE_RULES.get(family, ()):
        context = rule[3] if len(rule) > 3 else ""
        out.append(_Compiled(LazyRe(rule[0]), rule[1], rule[2], context, cue(rule[0])))
    return tuple(out)


def cue(pattern: str) -> str:
    """The longest run of literal text a pattern requires at its top level ("" if none).

    A title without it cannot match, so most of the browser table is skipped with one
    substring test instead of a regex each: rules are dispatched by cue, not all tried.
    Conservative: anything optional, repeated, grouped or alternated ends a run.
    """
    runs: list[str] = []
    cur: list[str] = []
    depth = 0
    i, n = 0, len(pattern)

    def end_run() -> None:
        if cur:
            runs.append("".join(cur))
            cur.clear()

    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            i += 2
            if depth == 0 and not nxt.isalnum():
                cur.append(nxt)
            else:
                end_run()
            continue
        if c == "[":
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            end_run()
            i = j + 1
            continue
        if c == "|" and depth == 0:
            return ""  # a top-level alternative: nothing is required
        if c in "?*{":
            if cur:
                cur.pop()  # the previous character may be absent
            end_run()
            if c == "{":
                while i < n and pattern[i] != "}":
                    i += 1
        elif c == "+":
            end_run()
        elif c == "(":
            depth += 1
            end_run()
        elif c == ")":
            depth -= 1
        elif c in ".^$" or depth > 0:
            end_run()
        else:
            cur.append(c)
        i += 1
    end_run()
    return max(runs, key=len, default="")


@lru_cache(maxsize=64)
def _prefix(family: str) -> re.Pattern[str] | None:
    p = FAMILY_PREFIXES.get(family)
    # Anchored: a counter in the middle of a title ("Inbox (3) - …") is text, not a prefix.
    return recache.compile(rf"^(?:{p})") if p else None


def normalise_app(app: str) -> str:
    """An app name as the app tables match it: lower case, no path, no ``.exe``-like suffix
    (``C:\\…\\Slack.exe`` → ``slack``)."""
    name = re.split(r"[/\\]", app.translate(_INVISIBLE).strip().lower())[-1]
    return re.sub(r"\.(?:exe|app|bin|desktop|appimage)$", "", name).strip()


@lru_cache(maxsize=1024)
def app_family(app: str) -> str | None:
    """The family of an app name: ``Code.exe`` → ``vscode``; None when unknown."""
    name = normalise_app(app)
    if not name:
        return None
    for pattern, family in APP_FAMILIES:
        if recache.compile(pattern).fullmatch(name):
            return family
    return None


@lru_cache(maxsize=16384)
def clean_title(app: str, title: str) -> str:
    """``title`` without the browser's own suffix (and, in browsers, unread counters),
    with any URL in it cut before its query or fragment. Whitespace is normalised."""
    t = _WS.sub(" ", (title or "").translate(_INVISIBLE_SHOWN)).strip()
    if _ONLY_BROWSER.fullmatch(t):
        return ""
    t = _SUFFIX.sub("", t)
    if app_family(app or "") == "browser":
        prefix = _prefix("browser")
        if prefix is not None:
            t = prefix.sub("", t, count=1)
    if "?" in t or "#" in t:
        t = _URL_IN_TITLE.sub(lambda m: m.group("base"), t)
    if "@" in t and "://" in t:
        t = _USERINFO.sub(lambda m: m.group("s"), t)
    return t.strip()


@lru_cache(maxsize=16384)
def title_ref(app: str, title: str) -> TitleRef | None:
    """The typed entity a window title names, or None when it names none we know."""
    try:
        return _title_ref(app or "", title or "")
    except Exception:  # total: a title is text from the screen, anything can be in it
        return None


def _title_ref(app: str, title: str) -> TitleRef | None:
    family = app_family(app)
    if family is None:
        return None
    t = clean_title(app, title[:MAX_MATCH_CHARS])
    prefix = _prefix(family)
    if prefix is not None:
        t = prefix.sub("", t, count=1)
    if not t:
        return None
    if family == "browser":
        ref = _url_title(t)
        if ref is not None:
            return ref
    for rule in _rules(family):
        ref = rule.apply(t)
        if ref is None:
            continue
        return _settle(ref, family)
    return None


_BARE_URL = LazyRe(r"(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:/\S*)?", re.I)


def _url_title(t: str) -> TitleRef | None:
    """Browsers show the address as the title while a page loads: type it as a URL."""
    if " " in t or not _BARE_URL.fullmatch(t):
        return None
    from .pages import page_ref

    ref = page_ref(t)
    return TitleRef(ref.kind, ref.entity) if ref.kind != "page" else None


def _settle(ref: TitleRef, family: str) -> TitleRef | None:
    """Editor tabs that are not files name their project; chat apps' own views are not
    channels."""
    if ref.kind == "file" and NOT_FILES.fullmatch(ref.entity):
        return TitleRef("project", ref.context) if ref.context else None
    if ref.kind == "channel" and family in ("slack", "discord", "teams", "browser"):
        view = CHAT_VIEWS.get(ref.entity.lower())
        if view is not None:
            return TitleRef(view, ref.entity.lower(), ref.context)
    return ref
