"""The site rule table: host → rules, each rule ``(path pattern, kind, template[, params])``.

How to read and write a rule is in ``matcher.py`` and docs/entities.md. In short: the
pattern must match the whole normalised path (``/`` for the root); the first rule of a
site that matches and renders wins; the template shows only named groups, the query
parameters listed in the rule, and ``{host}``/``{sub}``/``{hostport}``/``{path}``/``{route}``.

Keys of ``SITES`` are normalised hosts (no ``www.``/``m.``), or ``*.suffix`` for every
host under a suffix (``*.atlassian.net``; ``{sub}`` is the part the ``*`` matched).
``HOST_ALIASES`` maps families of hosts (Google's and Amazon's country domains,
self-hosted GitLab …) onto a key. Hosts without a key, and URLs no rule of their site
matches, go through ``GENERIC`` (documentation, wikis, blog posts, searches, sign-in
pages on any site) and else become ``page`` with the host.

Keep rules here, not in code: each is a line of data a reviewer can check against the
URL it is for, and tests/entities/url_cases.py holds an example of each.
"""

from __future__ import annotations

from .matcher import Rule

Rules = tuple[Rule, ...]


def _not(words: str) -> str:
    """A lookahead that refuses a segment equal to one of the space-separated ``words``:
    a site's own pages (``/settings``) are not user names."""
    alts = "|".join(w.replace(".", r"\.") for w in words.split())
    return rf"(?!(?:{alts})(?:/|$))"


LOCALE = (
    r"(?:ar|bg|bn|ca|cs|da|de|el|en|eo|es|et|fa|fi|fr|he|hi|hr|hu|id|it|ja|ko|lt|lv|ms|"
    r"nb|nl|no|pl|pt|ro|ru|sk|sl|sr|sv|th|tr|uk|vi|zh)(?:[-_][A-Za-z]{2,4})?"
)
ANY = r"(?:/.*)?"  # the rest of the path, if any
SEG = r"[^/]+"

# Shared rule sets -------------------------------------------------------------

DOCS_ALL: Rules = ((r"/.*", "docs", "{host}{path?|doc}"),)
LOGIN_ALL: Rules = ((r"/.*", "login", "{host}"),)
HOST_ONLY: Rules = ((r"/.*", "page", "{host}"),)  # capability links: show no path at all
REDIRECT_HOST: Rules = ((r"/.*", "redirect", "{host}"),)
LOCAL: Rules = ((r"/.*", "local_dev", "{hostport}{path?}{route?}"),)


def _search(path: str, *params: str) -> Rules:
    """One search rule per parameter name the site uses for its query."""
    return tuple((path, "search", "{" + p + "|search}", (p,)) for p in params)


# Code hosting -----------------------------------------------------------------

# GitHub's own top-level pages, which are not user names. One rule sends them all to
# "page" before the owner/repo rules, so those need no lookahead of their own.
_GH_RESERVED = (
    "about|account|apps|articles|blog|business|codespaces|collections|contact|copilot|"
    "customer-stories|dashboard|developer|enterprise|enterprises|events|explore|features|"
    "gist|github-copilot|home|issues|join|login|logout|marketplace|mobile|new|"
    "notifications|organizations|orgs|password_reset|premium-support|pricing|pulls|"
    "readme|resources|search|security|session|sessions|settings|showcases|signup|site|"
    "solutions|sponsors|stars|team|topics|trending|users|watching|discussions|codesearch|"
    "partners|community"
)
GITHUB_RESERVED = _GH_RESERVED  # (projects read repositories past these too)
_GH_OWNER = r"(?P<o>[A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))"
_GH_REPO = rf"{_GH_OWNER}/(?P<r>[A-Za-z0-9._-]+)"

GITHUB: Rules = (
    (r"/", "feed", "github"),
    *_search(r"/search", "q"),
    (rf"/notifications{ANY}", "notifications", "github"),
    (rf"/settings/(?P<s>{SEG}){ANY}", "settings", "{s}"),
    (r"/settings", "settings", "github"),
    (rf"/join{ANY}", "login", "{host}"),
    (rf"/(?P<v>pulls|issues){ANY}", "dashboard", "{v}"),
    (rf"/(?:orgs|users|sponsors)/(?P<u>{SEG}){ANY}", "profile", "{u}"),
    (rf"/marketplace/(?:actions/)?(?P<p>{SEG}){ANY}", "product", "{p}"),
    (rf"/copilot{ANY}", "ai_chat", "copilot"),
    (rf"/codespaces{ANY}", "dashboard", "codespaces"),
    (rf"/(?:{_GH_RESERVED}){ANY}", "page", "{host}"),
    (rf"/{_GH_REPO}/pull/(?P<n>\d+){ANY}", "pull_request", "{o}/{r}#{n}"),
    (rf"/{_GH_REPO}/issues/(?P<n>\d+){ANY}", "issue", "{o}/{r}#{n}"),
    (rf"/{_GH_REPO}/discussions/(?P<n>\d+){ANY}", "post", "{o}/{r}#{n}"),
    (rf"/{_GH_REPO}/commit/(?P<s>[0-9a-fA-F]{{7,40}}){ANY}", "commit", "{o}/{r}@{s|sha}"),
    (rf"/{_GH_REPO}/(?:blob|tree|blame|edit|raw)/(?P<ref>{SEG})/(?P<f>.+)", "code", "{o}/{r}/{f}"),
    (rf"/{_GH_REPO}/wiki/(?P<w>{SEG})", "wiki", "{o}/{r}/wiki/{w}"),
    (rf"/{_GH_REPO}/wiki", "wiki", "{o}/{r}/wiki"),
    (rf"/{_GH_REPO}/actions/runs/(?P<id>\d+){ANY}", "dashboard", "{o}/{r}/actions/runs/{id}"),
    (rf"/{_GH_REPO}{ANY}", "repo", "{o}/{r}"),
    (rf"/{_GH_OWNER}", "profile", "{o}"),
)
GIST: Rules = (
    (rf"/(?P<u>{SEG})/(?P<id>[0-9a-f]{{5,}}){ANY}", "gist", "{u}/{id}"),
    (r"/(?P<id>[0-9a-f]{20,})", "gist", "{id}"),
    (r"/(?:discover|starred|search)", "feed", "gists"),
    (rf"/(?P<u>{_not('auth login')}{SEG})", "profile", "{u}"),
    (r"/", "gist", "new"),
)
RAW_GITHUB: Rules = (
    (rf"/(?P<o>{SEG})/(?P<r>{SEG})/(?P<ref>{SEG})/(?P<f>.+)", "code", "{o}/{r}/{f}"),
)

_GL_NAME = (
    _not("explore dashboard users help admin search projects groups api oauth profile "
         "snippets -")
    + r"[A-Za-z0-9_.][A-Za-z0-9_.-]*"
)  # fmt: skip
_GL_PATH = rf"(?P<p>{_GL_NAME}(?:/[A-Za-z0-9_.][A-Za-z0-9_.-]*)+)"
GITLAB: Rules = (
    (r"/", "feed", "gitlab"),
    *_search(r"/search", "search"),
    (rf"/dashboard{ANY}", "dashboard", "gitlab"),
    (rf"/users/(?P<u>{SEG}){ANY}", "profile", "{u}"),
    (r"/-/snippets/(?P<id>\d+)", "gist", "{id}"),
    (rf"/{_GL_PATH}/-/merge_requests/(?P<n>\d+){ANY}", "pull_request", "{p}!{n}"),
    (rf"/{_GL_PATH}/-/issues/(?P<n>\d+){ANY}", "issue", "{p}#{n}"),
    (rf"/{_GL_PATH}/-/commit/(?P<s>[0-9a-fA-F]{{7,40}}){ANY}", "commit", "{p}@{s|sha}"),
    (rf"/{_GL_PATH}/-/(?:blob|tree|blame|raw)/(?P<ref>{SEG})/(?P<f>.+)", "code", "{p}/{f}"),
    (rf"/{_GL_PATH}/-/wikis/(?P<w>.+)", "wiki", "{p}/wiki/{w}"),
    (rf"/{_GL_PATH}/-{ANY}", "repo", "{p}"),
    (rf"/{_GL_PATH}", "repo", "{p}"),
    (rf"/(?P<u>{_GL_NAME})", "profile", "{u}"),
)

_BB_WS = rf"(?P<w>{_not('account dashboard repo site product blog support login socialauth')}{SEG})"
_BB_REPO = rf"{_BB_WS}/(?P<r>{SEG})"
BITBUCKET: Rules = (
    (rf"/(?:dashboard|account){ANY}", "dashboard", "bitbucket"),
    (rf"/{_BB_REPO}/pull-requests/(?P<n>\d+){ANY}", "pull_request", "{w}/{r}#{n}"),
    (rf"/{_BB_REPO}/issues/(?P<n>\d+){ANY}", "issue", "{w}/{r}#{n}"),
    (rf"/{_BB_REPO}/commits?/(?P<s>[0-9a-fA-F]{{7,40}}){ANY}", "commit", "{w}/{r}@{s|sha}"),
    (rf"/{_BB_REPO}/src/(?P<ref>{SEG})/(?P<f>.+)", "code", "{w}/{r}/{f}"),
    (rf"/{_BB_REPO}/wiki{ANY}", "wiki", "{w}/{r}/wiki"),
    (rf"/{_BB_REPO}{ANY}", "repo", "{w}/{r}"),
    (rf"/{_BB_WS}", "profile", "{w}"),
)

# Social and professional networks ---------------------------------------------

LINKEDIN: Rules = (
    (r"/", "feed", "home"),
    (rf"/in/(?P<id>{SEG}){ANY}", "profile", "{id}"),
    (rf"/(?:company|school|showcase)/(?P<id>{SEG}){ANY}", "company", "{id}"),
    (rf"/feed/update/(?P<urn>urn:li:\w+:\d+){ANY}", "post", "{urn}"),
    (rf"/feed{ANY}", "feed", "home"),
    (rf"/posts/(?P<s>{SEG}){ANY}", "post", "{s}"),
    (rf"/pulse/(?P<s>{SEG}){ANY}", "post", "pulse/{s}"),
    (rf"/search/results/people{ANY}", "people_search", "{keywords?|search}", ("keywords",)),
    (rf"/search/results/companies{ANY}", "company_search", "{keywords?|search}", ("keywords",)),
    (rf"/search/results/jobs{ANY}", "job_search", "{keywords?|search}", ("keywords",)),
    (rf"/search/results{ANY}", "search", "{keywords?|search}", ("keywords",)),
    (rf"/jobs/view/(?P<id>\d+){ANY}", "job", "{id}"),
    (rf"/jobs/(?:collections|search){ANY}", "job", "{currentJobId}", ("currentJobId",)),
    (rf"/jobs/search{ANY}", "job_search", "{keywords?|search}", ("keywords",)),
    (rf"/jobs{ANY}", "feed", "jobs"),
    (rf"/messaging/thread/(?P<id>{SEG}){ANY}", "messaging", "{id}"),
    (rf"/messaging{ANY}", "messaging", "linkedin"),
    (rf"/notifications{ANY}", "notifications", "linkedin"),
    (rf"/mynetwork{ANY}", "feed", "mynetwork"),
    (rf"/groups/(?P<id>{SEG}){ANY}", "channel", "groups/{id}"),
    (rf"/events/(?P<id>{SEG}){ANY}", "event", "{id}"),
    (rf"/learning/(?P<c>{_not('search me')}{SEG}){ANY}", "course", "{c}"),
    (rf"/newsletters/(?P<id>{SEG}){ANY}", "channel", "newsletters/{id}"),
    (rf"/redir/redirect{ANY}", "redirect", "{url|host}", ("url",)),
    (rf"/(?:authwall|uas|checkpoint){ANY}", "login", "{host}"),
    (rf"/(?:mypreferences|psettings|settings){ANY}", "settings", "linkedin"),
)

_X_USER = (
    _not("home explore search notifications messages i settings tos privacy about compose "
         "login logout signup account hashtag jobs communities lists bookmarks intent share "
         "download rules help premium verified-orgs-signup")
    + r"(?P<u>[A-Za-z0-9_]{1,15})"
)  # fmt: skip
X_TWITTER: Rules = (
    (rf"/{_X_USER}/status(?:es)?/(?P<id>\d+){ANY}", "post", "{u}/{id}"),
    (rf"/i/(?:web/)?status/(?P<id>\d+){ANY}", "post", "{id}"),
    (r"/(?:home)?", "feed", "home"),
    (rf"/explore{ANY}", "feed", "explore"),
    *_search(rf"/search{ANY}", "q"),
    (rf"/hashtag/(?P<t>{SEG})", "search", '"#{t}"'),
    (rf"/notifications{ANY}", "notifications", "x"),
    (rf"/messages/(?P<id>{SEG}){ANY}", "messaging", "{id}"),
    (rf"/messages{ANY}", "messaging", "x"),
    (rf"/i/bookmarks{ANY}", "feed", "bookmarks"),
    (rf"/i/lists/(?P<id>\d+){ANY}", "feed", "lists/{id}"),
    (rf"/i/grok{ANY}", "ai_chat", "grok"),
    (rf"/i/flow/(?:login|signup|password_reset){ANY}", "login", "{host}"),
    (rf"/settings{ANY}", "settings", "x"),
    (rf"/{_X_USER}/lists{ANY}", "feed", "{u}/lists"),
    (
        rf"/{_X_USER}(?:/(?:with_replies|media|likes|highlights|articles|followers|following"
        r"|verified_followers|superfollows|photo|header_photo))?",
        "profile",
        "{u}",
    ),
)

REDDIT: Rules = (
    (rf"/r/(?P<s>{SEG})/comments/(?P<id>[a-z0-9]+){ANY}", "post", "r/{s}/{id}"),
    (rf"/comments/(?P<id>[a-z0-9]+){ANY}", "post", "{id}"),
    (rf"/r/(?P<s>{SEG})/s/{SEG}", "channel", "r/{s}"),
    *_search(rf"/r/{SEG}/search", "q"),
    (rf"/r/(?P<s>{SEG})/wiki{ANY}", "wiki", "r/{s}"),
    (rf"/r/(?P<s>popular|all){ANY}", "feed", "r/{s}"),
    (rf"/r/(?P<s>{SEG}){ANY}", "channel", "r/{s}"),
    (rf"/(?:u|user)/(?P<u>{SEG}){ANY}", "profile", "{u}"),
    *_search(r"/search", "q"),
    (rf"/(?:message|chat){ANY}", "messaging", "reddit"),
    (rf"/notifications{ANY}", "notifications", "reddit"),
    (rf"/settings{ANY}", "settings", "reddit"),
    (r"/(?:best|hot|new|top|rising)?", "feed", "home"),
)
REDD_IT: Rules = ((r"/(?P<id>[a-z0-9]+)", "post", "{id}"),)
V_REDD_IT: Rules = ((rf"/(?P<id>[a-z0-9]+){ANY}", "video", "{id}"),)

HACKER_NEWS: Rules = (
    (r"/item", "post", "{id}", ("id",)),
    (r"/user", "profile", "{id}", ("id",)),
    (r"/(?:news|newest|front|best|ask|show|shownew|jobs|active|classic|pool|newcomments)?",
     "feed", "hacker news"),
)  # fmt: skip
HN_SEARCH: Rules = (*_search(r"/", "q", "query"),)

STACK_EXCHANGE: Rules = (
    (rf"/(?:questions|q)/(?P<id>\d+){ANY}", "question", "{id}"),
    (rf"/a/(?P<id>\d+){ANY}", "question", "a/{id}"),
    (rf"/questions/tagged/(?P<t>{SEG})", "search", '"[{t}]"'),
    *_search(r"/search", "q"),
    (rf"/users/(?P<id>-?\d+){ANY}", "profile", "{id}"),
    (r"/(?:questions)?", "feed", "questions"),
)

INSTAGRAM_USER = (
    _not("accounts explore direct about developer legal p reel reels stories tv web emails "
         "challenge session oauth privacy directory")
    + r"(?P<u>[A-Za-z0-9_.]{1,30})"
)  # fmt: skip
INSTAGRAM: Rules = (
    (r"/", "feed", "home"),
    (rf"/(?:{SEG}/)?p/(?P<id>[\w-]+){ANY}", "post", "{id}"),
    (r"/reels?", "feed", "reels"),
    (rf"/(?:{SEG}/)?(?:reel|reels|tv)/(?P<id>[\w-]+){ANY}", "video", "{id}"),
    (rf"/stories/(?P<u>[\w.]+){ANY}", "post", "{u}/stories"),
    (rf"/explore/tags/(?P<t>{SEG}){ANY}", "search", '"#{t}"'),
    (rf"/explore{ANY}", "feed", "explore"),
    (rf"/direct/t/(?P<id>\d+){ANY}", "messaging", "{id}"),
    (rf"/direct{ANY}", "messaging", "instagram"),
    (rf"/accounts/(?:login|signup|emailsignup|password){ANY}", "login", "{host}"),
    (rf"/accounts{ANY}", "settings", "instagram"),
    (rf"/{INSTAGRAM_USER}(?:/(?:tagged|reels|saved|followers|following))?", "profile", "{u}"),
)

_FB_USER = (
    _not("profile.php permalink.php story.php photo photo.php watch reel videos groups messages "
         "marketplace events search notifications login settings pages gaming help policies "
         "privacy legal ads business home.php friends bookmarks saved memories hashtag stories "
         "l.php sharer sharer.php dialog plugins share recover checkpoint")
    + r"(?P<u>[A-Za-z0-9.]{1,50})"
)  # fmt: skip
FACEBOOK: Rules = (
    (r"/(?:home\.php)?", "feed", "home"),
    (r"/profile\.php", "profile", "{id}", ("id",)),
    (r"/(?:permalink|story)\.php", "post", "{story_fbid}", ("story_fbid",)),
    (r"/photo(?:\.php)?", "post", "{fbid}", ("fbid",)),
    (rf"/watch{ANY}", "video", "{v}", ("v",)),
    (rf"/watch{ANY}", "feed", "watch"),
    (rf"/(?:reel|videos)/(?P<id>\d+){ANY}", "video", "{id}"),
    (rf"/{_FB_USER}/videos/(?:{SEG}/)?(?P<id>\d+){ANY}", "video", "{id}"),
    (rf"/{_FB_USER}/posts/(?P<id>[\w-]+){ANY}", "post", "{u}/{id}"),
    (rf"/groups/(?P<g>{SEG})/(?:posts|permalink)/(?P<id>\d+){ANY}", "post", "groups/{g}/{id}"),
    (rf"/groups/(?:feed|discover|joins){ANY}", "feed", "groups"),
    (rf"/groups/(?P<g>{SEG}){ANY}", "channel", "groups/{g}"),
    (rf"/messages/t/(?P<id>{SEG}){ANY}", "messaging", "{id}"),
    (rf"/messages{ANY}", "messaging", "facebook"),
    (rf"/marketplace/item/(?P<id>\d+){ANY}", "product", "{id}"),
    (rf"/marketplace{ANY}", "feed", "marketplace"),
    (rf"/events/(?P<id>\d+){ANY}", "event", "{id}"),
    *_search(r"/search(?:/\w+)?", "q"),
    (rf"/notifications{ANY}", "notifications", "facebook"),
    (rf"/settings{ANY}", "settings", "facebook"),
    (rf"/pages/(?:{SEG}/)?(?P<id>\d+){ANY}", "company", "{id}"),
    (rf"/l\.php{ANY}", "redirect", "{u|host}", ("u",)),
    (rf"/{_FB_USER}(?:/(?:about|friends|photos|videos|reels))?", "profile", "{u}"),
)
FB_REDIRECT: Rules = ((r"/l\.php", "redirect", "{u|host}", ("u",)),)
FB_WATCH: Rules = ((r"/(?P<id>[\w-]+)", "video", "{id}"),)
MESSENGER: Rules = (
    (rf"/(?:e2ee/)?t/(?P<id>{SEG}){ANY}", "messaging", "{id}"),
    (r"/.*", "messaging", "messenger"),
)

THREADS: Rules = (
    (rf"/@(?P<u>{SEG})/post/(?P<id>[\w-]+){ANY}", "post", "{u}/{id}"),
    (rf"/@(?P<u>{SEG}){ANY}", "profile", "{u}"),
    *_search(r"/search", "q"),
    (r"/", "feed", "home"),
)
BLUESKY: Rules = (
    (rf"/profile/(?P<h>{SEG})/post/(?P<id>\w+){ANY}", "post", "{h}/{id}"),
    (rf"/profile/(?P<h>{SEG}){ANY}", "profile", "{h}"),
    *_search(r"/search", "q"),
    (rf"/notifications{ANY}", "notifications", "bluesky"),
    (rf"/messages{ANY}", "messaging", "bluesky"),
    (r"/", "feed", "home"),
)
MASTODON: Rules = (
    (rf"/@(?P<u>[\w.@-]+)/(?P<id>\d{{6,}}){ANY}", "post", "{u}/{id}"),
    (rf"/@(?P<u>[\w.@-]+){ANY}", "profile", "{u}"),
    (rf"/(?:home|explore|public{ANY})", "feed", "home"),
    (rf"/notifications{ANY}", "notifications", "mastodon"),
    *_search(r"/search", "q"),
)
TIKTOK: Rules = (
    (rf"/@(?P<u>{SEG})/video/(?P<id>\d+){ANY}", "video", "{id}"),
    (rf"/@(?P<u>{SEG}){ANY}", "profile", "{u}"),
    *_search(rf"/search{ANY}", "q"),
    (r"/(?:foryou|following|explore)?", "feed", "for you"),
)
QUORA: Rules = (
    (rf"/profile/(?P<u>{SEG}){ANY}", "profile", "{u}"),
    *_search(r"/search", "q"),
    (r"/", "feed", "home"),
    (rf"/(?P<q>[A-Z][^/]*){ANY}", "question", "{q}"),
)

# Google ----------------------------------------------------------------------

GOOGLE: Rules = (
    *_search(r"/(?:search|webhp)?", "q"),
    (r"/url", "redirect", "{q|host}", ("q",)),
    (r"/url", "redirect", "{url|host}", ("url",)),
    (rf"/maps/place/(?P<p>{SEG}){ANY}", "maps", "{p|spaces}"),
    (rf"/maps/search/(?P<q>{SEG}){ANY}", "maps", "{q|spaces|search}"),
    (rf"/maps/dir/(?P<a>[^/@]+)/(?P<b>[^/@]+){ANY}", "maps", "{a|spaces} → {b|spaces}"),
    (rf"/maps{ANY}", "maps", "google maps"),
    (rf"/(?:imghp|shopping|travel|finance){ANY}", "search", '""'),
)
GOOGLE_MAPS: Rules = (
    (rf"/maps/place/(?P<p>{SEG}){ANY}", "maps", "{p|spaces}"),
    (r"/(?:maps)?", "maps", "{q|search}", ("q",)),
    (r"/.*", "maps", "google maps"),
)
_U = r"(?:/u/\d+)?"
_A = r"(?:/a/[^/]+)?"  # Google Workspace domain prefix
GOOGLE_DOCS: Rules = (
    (rf"{_A}/document{_U}/d/(?P<id>[\w-]{{10,}}){ANY}", "doc", "{id}"),
    (rf"{_A}/spreadsheets{_U}/d/(?P<id>[\w-]{{10,}}){ANY}", "sheet", "{id}"),
    (rf"{_A}/presentation{_U}/d/(?P<id>[\w-]{{10,}}){ANY}", "slides", "{id}"),
    (rf"{_A}/forms{_U}/d/(?:e/)?(?P<id>[\w-]{{10,}}){ANY}", "form", "{id}"),
    (rf"{_A}/drawings{_U}/d/(?P<id>[\w-]{{10,}}){ANY}", "design", "{id}"),
    (rf"{_A}/(?P<app>document|spreadsheets|presentation|forms){ANY}", "drive", "{app}"),
)
GOOGLE_FORMS_SHORT: Rules = ((r"/(?P<id>[\w-]+)", "form", "{id}"),)
GOOGLE_DRIVE: Rules = (
    (rf"/drive{_U}/folders/(?P<id>[\w-]+){ANY}", "drive", "{id}"),
    (
        rf"/drive{_U}/(?P<v>my-drive|shared-with-me|recent|starred|trash|computers|"
        r"shared-drives|home|search|priority|spam)",
        "drive",
        "{v}",
    ),
    (rf"/file{_U}/d/(?P<id>[\w-]+){ANY}", "drive", "{id}"),
    (r"/open", "drive", "{id}", ("id",)),
    (r"/.*", "drive", "my-drive"),
)
_MAIL = r"/mail(?:/u/\d+)?/?"
# A conversation or message in the fragment: 16 hex digits (the API's id), the web
# client's 32-letter token (FMfcg…), or the decimal forms Gmail links carry
# (thread-f:<n>, msg-f:<n>; thread-a:r<n> and msg-a:r-<n> for sent and draft mail); a
# compose window opened over it adds ?compose=….
_MAIL_ID = r"(?P<id>[A-Za-z0-9]{16,}|(?:thread|msg)-[af]:r?-?\d+)(?:\?.*)?"
GMAIL: Rules = (
    (rf"{_MAIL}#search/(?P<q>[^/]+){ANY}", "search", "{q|plus|search}"),
    (rf"{_MAIL}#(?:label|category)/(?P<l>[^/]+)/{_MAIL_ID}", "email", "{id}"),
    (rf"{_MAIL}#[a-z]+/{_MAIL_ID}", "email", "{id}"),
    (rf"{_MAIL}#(?:label|category)/(?P<l>[^/?]+).*", "email", "{l|plus}"),
    (rf"{_MAIL}#(?P<f>[a-z]+)(?:\?.*)?", "email", "{f}"),
    (rf"/chat{ANY}", "messaging", "google chat"),
    (r"/.*", "email", "gmail"),
)
GOOGLE_CALENDAR: Rules = (
    (
        rf"/calendar{_U}/r/(?P<v>day|week|month|year|agenda|customday|customweek|schedule){ANY}",
        "calendar",
        "{v}",
    ),
    (rf"/calendar{_U}/r/event\w*{ANY}", "calendar", "event"),
    (r"/.*", "calendar", "google calendar"),
)
GOOGLE_MEET: Rules = (
    (r"/(?P<c>[a-z]{3}-[a-z]{4}-[a-z]{3})", "meeting", "{c}"),
    (r"/lookup/(?P<c>[\w-]+)", "meeting", "{c}"),
    (r"/.*", "meeting", "google meet"),
)
GOOGLE_SCHOLAR: Rules = (
    *_search(r"/scholar", "q"),
    (r"/citations", "profile", "{user}", ("user",)),
)
GEMINI: Rules = (
    (r"/app/(?P<id>[0-9a-f]{8,})", "ai_chat", "{id}"),
    (r"/(?:u/\d+/)?gem/(?P<id>[\w-]+)(?:/.*)?", "ai_chat", "gem/{id}"),
    (r"/share/.*", "ai_chat", "shared"),
    (r"/.*", "ai_chat", "gemini"),
)
BARD: Rules = (
    (r"/chat/(?P<id>[0-9a-f]{8,})", "ai_chat", "{id}"),
    (r"/.*", "ai_chat", "gemini"),
)
GOOGLE_PLAY: Rules = ((rf"/store/apps/details{ANY}", "product", "{id}", ("id",)),)
CHROME_WEBSTORE: Rules = (
    (rf"/(?:webstore/)?detail/(?:{SEG}/)?(?P<id>[a-p]{{32}}){ANY}", "package", "{id}"),
)
COLAB: Rules = (
    (r"/drive/(?P<id>[\w-]+)", "code", "{id}"),
    (r"/github/(?P<p>.+)", "code", "{p}"),
)
GCP_CONSOLE: Rules = (
    (r"/(?P<p>[a-z][\w-]*(?:/[a-z][\w-]*)?)(?:/.*)?", "dashboard", "{project}/{p}", ("project",)),
    (r"/(?P<p>[a-z][\w-]*(?:/[a-z][\w-]*)?)(?:/.*)?", "dashboard", "{p}"),
    (r"/", "dashboard", "google cloud"),
)
FIREBASE_CONSOLE: Rules = (
    (rf"/(?:u/\d+/)?project/(?P<p>{SEG})/(?P<s>{SEG}){ANY}", "dashboard", "{p}/{s}"),
    (rf"/(?:u/\d+/)?project/(?P<p>{SEG})", "dashboard", "{p}"),
    (r"/.*", "dashboard", "firebase"),
)
LOOKER_STUDIO: Rules = (
    (rf"/(?:u/\d+/)?reporting/(?P<id>[\w-]+){ANY}", "dashboard", "{id}"),
    (r"/.*", "dashboard", "looker studio"),
)

# Video and music -------------------------------------------------------------

YOUTUBE: Rules = (
    (r"/watch", "video", "{v}", ("v",)),
    (r"/(?:shorts|live|embed|v|e)/(?P<id>[\w-]{6,})", "video", "{id}"),
    *_search(r"/results", "search_query", "q"),
    (r"/playlist", "playlist", "{list}", ("list",)),
    (rf"/(?P<h>@{SEG}){ANY}", "channel", "{h}"),
    (rf"/(?:channel|c|user)/(?P<c>{SEG}){ANY}", "channel", "{c}"),
    (rf"/feed/(?P<f>{SEG})", "feed", "{f}"),
    (r"/redirect", "redirect", "{q|host}", ("q",)),
    (r"/", "feed", "youtube"),
)
YOUTU_BE: Rules = ((r"/(?P<id>[\w-]{6,})", "video", "{id}"),)
YOUTUBE_MUSIC: Rules = (
    (r"/watch", "music", "{v}", ("v",)),
    (r"/playlist", "playlist", "{list}", ("list",)),
    (r"/.*", "music", "youtube music"),
)
YOUTUBE_STUDIO: Rules = ((r"/.*", "dashboard", "youtube studio"),)
VIMEO: Rules = (
    (rf"/(?P<id>\d+){ANY}", "video", "{id}"),
    (rf"/channels/{SEG}/(?P<id>\d+){ANY}", "video", "{id}"),
    (rf"/channels/(?P<c>{SEG})", "channel", "{c}"),
    *_search(r"/search", "q"),
    (rf"/(?P<u>{_not('search watch features upload manage settings log_in join')}{SEG})",
     "channel", "{u}"),
)  # fmt: skip
VIMEO_PLAYER: Rules = ((rf"/video/(?P<id>\d+){ANY}", "video", "{id}"),)
TWITCH: Rules = (
    (rf"/videos/(?P<id>\d+){ANY}", "video", "{id}"),
    (rf"/{SEG}/clip/(?P<id>[\w-]+){ANY}", "video", "{id}"),
    (rf"/directory{ANY}", "feed", "directory"),
    *_search(r"/search", "term"),
    (r"/", "feed", "twitch"),
    (rf"/(?P<c>{_not('settings subscriptions inventory wallet drops')}\w+){ANY}", "channel", "{c}"),
)
TWITCH_CLIPS: Rules = ((r"/(?P<id>[\w-]+)", "video", "{id}"),)
LOOM: Rules = (
    (r"/(?:share|embed)/(?P<id>[0-9a-f]{32})", "video", "{id}"),
    (r"/.*", "drive", "loom"),
)
NETFLIX: Rules = (
    (rf"/(?:watch|title)/(?P<id>\d+){ANY}", "video", "{id}"),
    (rf"/browse{ANY}", "feed", "netflix"),
    *_search(r"/search", "q"),
)
SPOTIFY: Rules = (
    (
        rf"(?:/intl-\w+)?/(?P<t>track|album|playlist|episode|show|artist)/(?P<id>\w+){ANY}",
        "music",
        "{t}/{id}",
    ),
    (rf"/search/(?P<q>{SEG}){ANY}", "search", "{q|search}"),
    (r"/.*", "music", "spotify"),
)
SOUNDCLOUD: Rules = (
    *_search(rf"/search{ANY}", "q"),
    (rf"/(?P<u>{SEG})/(?P<t>{_not('sets tracks likes followers following')}{SEG})",
     "music", "{u}/{t}"),
    (rf"/(?P<u>{_not('discover feed stream you upload')}{SEG}){ANY}", "profile", "{u}"),
)  # fmt: skip

# Chat, mail, meetings, calendars ----------------------------------------------

SLACK_APP: Rules = (
    (
        r"/client/T\w+/(?P<c>[CG]\w+)/thread/[CGD]\w+-(?P<ts>[\d.]+)(?:/.*)?",
        "post",
        "{c}/{ts|slackts}",
    ),
    (rf"/client/T\w+/(?P<c>[CG][A-Z0-9]+){ANY}", "channel", "{c}"),
    (rf"/client/T\w+/(?P<c>D[A-Z0-9]+){ANY}", "messaging", "{c}"),
    (rf"/client/T\w+/(?:activity|activity-page|mentions){ANY}", "notifications", "slack"),
    (rf"/client/T\w+/(?P<v>[a-z-]+){ANY}", "messaging", "{v}"),
    (r"/.*", "messaging", "slack"),
)
SLACK_WORKSPACE: Rules = (
    (rf"/archives/(?P<c>[CGD]\w+)/p(?P<ts>\d+){ANY}", "post", "{c}/{ts|slackts}"),
    (rf"/archives/(?P<c>[CG]\w+){ANY}", "channel", "{c}"),
    (rf"/archives/(?P<c>D\w+){ANY}", "messaging", "{c}"),
    (rf"/messages/(?P<c>{SEG}){ANY}", "channel", "{c}"),
    (r"/team/(?P<u>\w+)", "profile", "{u}"),
    (rf"/(?:signin|sso|ssb|invite){ANY}", "login", "{host}"),
    (r"/", "messaging", "{sub}"),
)
SLACK_REDIR: Rules = ((r"/link", "redirect", "{url|host}", ("url",)),)
DISCORD: Rules = (
    (r"/channels/@me/(?P<c>\d+)(?:/\d+)?", "messaging", "{c}"),
    (r"/channels/@me", "messaging", "discord"),
    (r"/channels/(?P<g>\d+)/(?P<c>\d+)/(?P<m>\d+)", "post", "{g}/{c}/{m}"),
    (r"/channels/(?P<g>\d+)/(?P<c>\d+)", "channel", "{g}/{c}"),
    (r"/channels/(?P<g>\d+)", "channel", "{g}"),
    (rf"/invite{ANY}", "login", "{host}"),
    (rf"/(?:app|channels){ANY}", "messaging", "discord"),
)
TEAMS: Rules = (
    (rf"/l/meetup-join/(?P<id>{SEG}){ANY}", "meeting", "{id}"),
    (rf"/l/meet/(?P<id>\d+){ANY}", "meeting", "{id}"),
    (rf"/l/channel/{SEG}/(?P<n>{SEG}){ANY}", "channel", "{n}"),
    (rf"/l/chat/(?P<id>{SEG}){ANY}", "messaging", "{id}"),
    (rf"/l/message/(?P<id>{SEG})/(?P<m>\d+){ANY}", "post", "{id}/{m}"),
    (r"/_?#/conversations/(?P<id>[^/?]+).*", "messaging", "{id}"),
    (r"/_?#/calendarv2.*", "calendar", "teams"),
    (r"/.*", "messaging", "teams"),
)
WHATSAPP: Rules = ((r"/.*", "messaging", "whatsapp"),)
TELEGRAM_WEB: Rules = (
    (r"/(?:[akz]/?)?#(?P<c>@?[\w-]+)", "messaging", "{c}"),
    (r"/.*", "messaging", "telegram"),
)
T_ME: Rules = (
    (r"/(?:joinchat(?:/.*)?|\+.*)", "login", "{host}"),
    (r"/s/(?P<c>[A-Za-z]\w{3,})(?:/\d+)?", "channel", "{c}"),
    (r"/(?P<c>[A-Za-z]\w{3,})/(?P<n>\d+)", "post", "{c}/{n}"),
    (r"/(?P<c>[A-Za-z]\w{3,})", "channel", "{c}"),
)
OUTLOOK: Rules = (
    (rf"/mail(?:/\d+)?/deeplink/compose{ANY}", "email", "compose"),
    (
        rf"/mail(?:/\d+)?/(?P<f>inbox|sentitems|drafts|archive|deleteditems|junkemail|search)"
        rf"{ANY}",
        "email",
        "{f}",
    ),
    (rf"/calendar(?:/\d+)?/view/(?P<v>day|workweek|week|month){ANY}", "calendar", "{v}"),
    (rf"/calendar{ANY}", "calendar", "outlook"),
    (rf"/people{ANY}", "page", "{host}"),
    (r"/.*", "email", "outlook"),
)
OTHER_MAIL: Rules = ((r"/.*", "email", "{host}"),)
ZOOM: Rules = (
    (r"/(?:j|w|s)/(?P<id>\d{9,11})", "meeting", "{id}"),
    (rf"/wc/(?:join/)?(?P<id>\d{{9,11}}){ANY}", "meeting", "{id}"),
    (r"/my/(?P<v>[\w.-]+)", "meeting", "{v}"),
    (rf"/rec{ANY}", "video", "zoom recording"),
    (rf"/(?:meeting|meetings){ANY}", "calendar", "zoom"),
    (rf"/(?:profile|account){ANY}", "settings", "zoom"),
    (rf"/(?:wc|launch|join){ANY}", "meeting", "zoom"),
)
WEBEX: Rules = (
    (r"/meet/(?P<n>[\w.-]+)", "meeting", "{n}"),
    (r"/.*", "meeting", "webex"),
)
ROOM_MEETING: Rules = (
    (r"/(?P<r>[\w.-]+)", "meeting", "{r}"),
    (r"/.*", "meeting", "{host}"),
)
CALENDLY: Rules = (
    (rf"/(?:cancellations|reschedulings|invitees|scheduled_events){ANY}", "booking", "calendly"),
    (rf"/(?:app|event_types|integrations|users){ANY}", "dashboard", "calendly"),
    (
        rf"/(?P<u>{_not('pricing features blog resources about legal help solutions d')}"
        rf"[\w.-]+)/(?P<e>[\w.-]+){ANY}",
        "booking",
        "{u}/{e}",
    ),
    (rf"/(?P<u>{_not('pricing features blog resources about legal help solutions')}[\w.-]+)",
     "booking", "{u}"),
)  # fmt: skip
CAL_COM: Rules = (
    (rf"/(?P<u>{_not('bookings event-types apps settings availability workflows')}[\w.-]+)"
     rf"/(?P<e>[\w.-]+){ANY}", "booking", "{u}/{e}"),
    (rf"/(?:bookings|event-types|availability|workflows){ANY}", "dashboard", "cal.com"),
    (r"/(?P<u>[\w.-]+)", "booking", "{u}"),
)  # fmt: skip
LUMA: Rules = (
    (rf"/user/(?P<u>{SEG})", "profile", "{u}"),
    (rf"/(?:home|discover|explore|calendar){ANY}", "feed", "luma"),
    (rf"/(?:settings|create|pricing){ANY}", "page", "{host}"),
    (rf"/(?:e|event)/(?:manage/)?(?P<e>[\w-]+){ANY}", "event", "{e}"),
    (r"/(?P<e>[\w-]+)", "event", "{e}"),
)
EVENTBRITE: Rules = (
    (rf"/e/(?P<e>{SEG})", "event", "{e}"),
    (rf"/o/(?P<o>{SEG})", "profile", "{o}"),
    (rf"/d{ANY}", "search", '""'),
)
MEETUP: Rules = (
    (rf"/(?P<g>{SEG})/events/(?P<id>\d+){ANY}", "event", "{g}/{id}"),
    (rf"/find{ANY}", "search", "{keywords?|search}", ("keywords",)),
    (rf"/(?P<g>{_not('find home login register members topics cities apps')}{SEG}){ANY}",
     "channel", "{g}"),
)  # fmt: skip

# AI assistants ---------------------------------------------------------------

CHATGPT: Rules = (
    (r"/(?:g/[^/]+/)?c/(?P<id>[\w-]+)", "ai_chat", "{id}"),
    (rf"/share{ANY}", "ai_chat", "shared"),
    (rf"/g/(?P<g>{SEG}){ANY}", "ai_chat", "gpt/{g}"),
    (rf"/gpts{ANY}", "ai_chat", "gpts"),
    (r"/.*", "ai_chat", "chatgpt"),
)
CLAUDE: Rules = (
    (r"/chat/(?P<id>[\w-]+)", "ai_chat", "{id}"),
    (rf"/project/(?P<id>[\w-]+){ANY}", "ai_chat", "project/{id}"),
    (rf"/share{ANY}", "ai_chat", "shared"),
    (r"/.*", "ai_chat", "claude"),
)
PERPLEXITY: Rules = (
    (r"/search/(?P<s>[\w.-]+)", "ai_chat", "{s}"),
    (rf"/page/(?P<s>{SEG})", "post", "{s}"),
    (rf"/discover{ANY}", "feed", "discover"),
    (r"/.*", "ai_chat", "perplexity"),
)


_AI_CHAT = r"/(?:[\w-]+/)*(?:c|chat|chats|a/chat/s)/(?P<id>[\w-]+)"


def _ai(name: str, pattern: str = _AI_CHAT) -> Rules:
    """An assistant whose conversations sit at .../chat/<id>: the id, else the product."""
    return ((pattern, "ai_chat", "{id}"), (r"/.*", "ai_chat", name))


OPENAI_PLATFORM: Rules = (
    (rf"/docs{ANY}", "docs", "{host}{path|doc}"),
    (rf"/playground{ANY}", "ai_chat", "playground"),
    (rf"/(?:api-keys|settings|account){ANY}", "settings", "openai platform"),
    (r"/(?P<s>usage|assistants|logs|batches|storage|fine-tuning)(?:/.*)?", "dashboard", "{s}"),
    (r"/.*", "dashboard", "openai platform"),
)

# Documents, design, notes, drives ---------------------------------------------

FIGMA: Rules = (
    (
        rf"/(?:file|design|proto|board|slides|deck|make)/(?P<k>[A-Za-z0-9]{{10,}}){ANY}",
        "design",
        "{k}",
    ),
    (rf"/community/(?:file|plugin|widget)/(?P<id>\d+){ANY}", "design", "community/{id}"),
    (rf"/files{ANY}", "drive", "figma"),
    (rf"/@(?P<u>{SEG}){ANY}", "profile", "{u}"),
)
CANVA: Rules = (
    (rf"/design/(?P<id>[\w-]+){ANY}", "design", "{id}"),
    (rf"/(?:folder|projects){ANY}", "drive", "canva"),
)
MIRO: Rules = ((rf"/app/board/(?P<id>[^/=]+=?){ANY}", "design", "{id}"),)
WHITEBOARD: Rules = ((r"/.*", "design", "{host}"),)  # their fragments hold room keys
LUCID: Rules = ((rf"/(?:lucidchart|lucidspark)/(?P<id>[\w-]+){ANY}", "design", "{id}"),)
NOTION: Rules = (
    (r"/(?:[^/]+/)?(?:[^/]*-)?(?P<id>[0-9a-f]{32})", "doc", "{id}"),
    (r"/.*", "doc", "{p|notionid}", ("p",)),
    (r"/.*", "doc", "notion"),
)
NOTION_SITE: Rules = (
    (r"/(?:[^/]*-)?(?P<id>[0-9a-f]{32})", "doc", "{id}"),
    (r"/.*", "doc", "{sub}"),
)
CODA: Rules = ((rf"/d/(?P<d>{SEG}){ANY}", "doc", "{d}"),)
OVERLEAF: Rules = (
    (r"/project/(?P<id>[0-9a-f]{24})", "doc", "{id}"),
    (rf"/project{ANY}", "drive", "overleaf"),
    (rf"/read{ANY}", "doc", "overleaf"),
)
DROPBOX: Rules = (
    (r"/home/(?P<p>.+)", "drive", "{p}"),
    (rf"/(?:s|scl|sh|t|l|transfer){ANY}", "drive", "dropbox"),
    (r"/.*", "drive", "dropbox"),
)
DROPBOX_PAPER: Rules = ((rf"/doc/(?P<d>{SEG}){ANY}", "doc", "{d}"),)
ONEDRIVE: Rules = ((r"/.*", "drive", "onedrive"),)
SHAREPOINT: Rules = (
    (r"/:w:/.*", "doc", "{file}", ("file",)),
    (r"/:x:/.*", "sheet", "{file}", ("file",)),
    (r"/:p:/.*", "slides", "{file}", ("file",)),
    (r"/:w:/.*", "doc", "{sub}"),
    (r"/:x:/.*", "sheet", "{sub}"),
    (r"/:p:/.*", "slides", "{sub}"),
    (r"/.*/_layouts/15/Doc\.aspx", "doc", "{file}", ("file",)),
    (rf"/sites/(?P<s>{SEG}){ANY}", "drive", "sites/{s}"),
    (r"/.*", "drive", "{sub}"),
)
BOX: Rules = (
    (r"/(?P<t>file|folder)/(?P<id>\d+)", "drive", "{t}/{id}"),
    (r"/.*", "drive", "box"),
)
ICLOUD: Rules = (
    (rf"/mail{ANY}", "email", "icloud"),
    (rf"/calendar{ANY}", "calendar", "icloud"),
    (rf"/(?:pages|notes){ANY}", "doc", "icloud"),
    (rf"/numbers{ANY}", "sheet", "icloud"),
    (rf"/keynote{ANY}", "slides", "icloud"),
    (rf"/iclouddrive{ANY}", "drive", "icloud"),
)

# Project management, CRM, support ----------------------------------------------

_JIRA_KEY = r"(?P<k>[A-Z][A-Z0-9_]+-\d+)"
ATLASSIAN: Rules = (
    (rf"/browse/{_JIRA_KEY}{ANY}", "ticket", "{k}"),
    (rf"/jira/.*/issues?/{_JIRA_KEY}{ANY}", "ticket", "{k}"),
    (r"/jira/.*", "ticket", "{selectedIssue}", ("selectedIssue",)),
    (r"/(?:issues/?|jira/.*/issues)", "search", "{jql|search}", ("jql",)),
    (
        r"/jira/(?:software/)?(?:c/)?projects/(?P<p>[A-Z][A-Z0-9_]+)/boards/(?P<b>\d+)(?:/.*)?",
        "dashboard",
        "{p}/board/{b}",
    ),
    (rf"/jira/(?:software/)?(?:c/)?projects/(?P<p>[A-Z][A-Z0-9_]+){ANY}", "dashboard", "{p}"),
    (r"/secure/RapidBoard\.jspa", "dashboard", "board/{rapidView}", ("rapidView",)),
    (rf"/jira{ANY}", "dashboard", "jira"),
    (rf"(?:/wiki)?/spaces/(?P<s>{SEG})/pages/(?P<id>\d+){ANY}", "wiki", "{s}/{id}"),
    (rf"(?:/wiki)?/spaces/(?P<s>{SEG})/blog/(?:.*/)?(?P<id>\d+){ANY}", "post", "{s}/{id}"),
    (rf"(?:/wiki)?/spaces/(?P<s>{SEG}){ANY}", "wiki", "{s}"),
    (rf"(?:/wiki)?/display/(?P<s>{SEG})/(?P<t>{SEG})", "wiki", "{s}/{t|spaces}"),
    (r"(?:/wiki)?/pages/viewpage\.action", "wiki", "{pageId}", ("pageId",)),
    (r"(?:/wiki)?/(?:dosearchsite\.action|search)", "search", "{text|search}", ("text",)),
    (r"(?:/wiki)?/(?:dosearchsite\.action|search)", "search", "{queryString|search}",
     ("queryString",)),
    (rf"/wiki{ANY}", "wiki", "{sub}"),
    (r"/", "dashboard", "{sub}"),
)  # fmt: skip
TRELLO: Rules = (
    (rf"/c/(?P<id>\w+){ANY}", "ticket", "{id}"),
    (rf"/b/(?P<id>\w+){ANY}", "dashboard", "{id}"),
    (rf"/w/(?P<w>{SEG}){ANY}", "dashboard", "{w}"),
    (rf"/u/(?P<u>{SEG}){ANY}", "profile", "{u}"),
    (r"/", "dashboard", "trello"),
)
ASANA: Rules = (
    (rf"/0/(?:inbox|\d+/inbox){ANY}", "notifications", "asana"),
    (rf"/0/home{ANY}", "dashboard", "home"),
    (r"/0/\d+/(?P<t>\d+)(?:/f)?", "ticket", "{t}"),
    (rf"/0/(?P<p>\d+){ANY}", "dashboard", "{p}"),
    (rf"/1/\d+/(?:project/\d+/)?task/(?P<t>\d+){ANY}", "ticket", "{t}"),
    (rf"/1/\d+/project/(?P<p>\d+){ANY}", "dashboard", "{p}"),
    (r"/.*", "dashboard", "asana"),
)
_LINEAR_RESERVED = _not(
    "pricing features customers about careers login signup join contact integrations "
    "homepage readme quality download method"
)
LINEAR: Rules = (
    (rf"/{SEG}/issue/(?P<k>[A-Z][A-Z0-9]*-\d+){ANY}", "ticket", "{k}"),
    (rf"/{SEG}/project/(?P<p>{SEG}){ANY}", "dashboard", "project/{p}"),
    (rf"/{SEG}/team/(?P<t>{SEG}){ANY}", "dashboard", "team/{t}"),
    (rf"/{SEG}/inbox{ANY}", "notifications", "linear"),
    (rf"/docs{ANY}", "docs", "{host}{path|doc}"),
    (rf"/(?:changelog|blog){ANY}", "post", "{host}{path}"),
    (rf"/(?P<w>{_LINEAR_RESERVED}{SEG}){ANY}", "dashboard", "{w}"),
)
CLICKUP: Rules = (
    (rf"/t/(?:\d+/)?(?P<id>\w+){ANY}", "ticket", "{id}"),
    (r"/.*", "dashboard", "clickup"),
)
MONDAY: Rules = (
    (rf"/boards/\d+/pulses/(?P<p>\d+){ANY}", "ticket", "{p}"),
    (rf"/boards/(?P<b>\d+){ANY}", "dashboard", "{b}"),
    (r"/.*", "dashboard", "{sub}"),
)
SHORTCUT: Rules = (
    (rf"/{SEG}/story/(?P<id>\d+){ANY}", "ticket", "{id}"),
    (r"/.*", "dashboard", "shortcut"),
)
YOUTRACK: Rules = ((rf"/issue/(?P<k>[A-Z][A-Z0-9_]*-\d+){ANY}", "ticket", "{k}"),)
PAGERDUTY: Rules = (
    (rf"/incidents/(?P<id>\w+){ANY}", "ticket", "{id}"),
    (r"/.*", "dashboard", "{sub}"),
)
FRESHDESK: Rules = (
    (rf"/a/tickets/(?P<id>\d+){ANY}", "ticket", "{id}"),
    (r"/.*", "dashboard", "{sub}"),
)
BASECAMP: Rules = (
    (rf"/\d+/buckets/\d+/todos/(?P<id>\d+){ANY}", "ticket", "{id}"),
    (rf"/\d+/projects/(?P<p>\d+){ANY}", "dashboard", "{p}"),
    (r"/.*", "dashboard", "basecamp"),
)
INTERCOM: Rules = (
    (rf"/a/inbox/{SEG}/inbox/.*?conversation/(?P<id>\d+){ANY}", "messaging", "{id}"),
    (r"/.*", "messaging", "intercom"),
)
AIRTABLE: Rules = (
    (rf"/(?:app\w{{14}}/)?shr\w+{ANY}", "page", "{host}"),  # shared-view links are capabilities
    (
        rf"/(?P<b>app\w{{14}})/(?P<t>tbl\w{{14}})(?:/viw\w{{14}})?/(?P<r>rec\w{{14}}){ANY}",
        "record",
        "{b}/{t}/{r}",
    ),
    (rf"/(?P<b>app\w{{14}})/(?P<t>tbl\w{{14}}){ANY}", "sheet", "{b}/{t}"),
    (rf"/(?P<b>app\w{{14}})/pag\w+/form{ANY}", "form", "{b}"),
    (rf"/(?P<b>app\w{{14}}){ANY}", "sheet", "{b}"),
    (r"/.*", "dashboard", "airtable"),
)
SALESFORCE: Rules = (
    (r"/lightning/r/(?P<o>\w+)/(?P<id>\w{15,18})/\w+", "record", "{o}/{id}"),
    (rf"/lightning/o/(?P<o>\w+)/(?:list|home){ANY}", "dashboard", "{o}"),
    (rf"/lightning/page/(?P<p>\w+){ANY}", "dashboard", "{p}"),
    (rf"/lightning{ANY}", "dashboard", "salesforce"),
    (r"/(?P<id>[a-zA-Z0-9]{15}|[a-zA-Z0-9]{18})", "record", "{id}"),
    (r"/.*", "dashboard", "salesforce"),
)
HUBSPOT: Rules = (
    (
        rf"/contacts/\d+/(?:record/)?(?P<o>contact|company|deal|ticket|0-\d+)/(?P<id>\d+){ANY}",
        "record",
        "{o}/{id}",
    ),
    (rf"/contacts/\d+/objects/(?P<o>[\w-]+){ANY}", "dashboard", "{o}"),
    (rf"/live-messages{ANY}", "messaging", "hubspot"),
    (rf"/(?P<s>[a-z][\w-]*)/\d+{ANY}", "dashboard", "{s}"),
    (r"/.*", "dashboard", "hubspot"),
)
ZENDESK: Rules = (
    (rf"/agent/tickets/(?P<id>\d+){ANY}", "ticket", "{id}"),
    (rf"/agent/users/(?P<id>\d+){ANY}", "profile", "{id}"),
    (rf"/agent/organizations/(?P<id>\d+){ANY}", "company", "{id}"),
    (rf"/agent{ANY}", "dashboard", "{sub}"),
    (rf"/hc/(?:{LOCALE}/)?articles/(?P<id>\d+)(?:-[^/]*)?{ANY}", "docs", "{host}/articles/{id}"),
    (rf"/hc/(?:{LOCALE}/)?requests/(?P<id>\d+){ANY}", "ticket", "{id}"),
    (rf"/hc{ANY}", "docs", "{host}"),
)

# Developer platforms and consoles ----------------------------------------------

STRIPE_DASHBOARD: Rules = (
    (
        r"/(?:test/)?(?:acct_\w+/)?(?P<s>[a-z_]+)/(?P<id>(?:pi|ch|cus|in|sub|prod|price|po|re|"
        rf"evt|py|txn|we|acct|pm|seti|si|il|dp|ii|plink|promo|cpn)_\w+){ANY}",
        "dashboard",
        "{s}/{id}",
    ),
    (rf"/(?:test/)?(?:acct_\w+/)?(?P<s>[a-z][a-z_-]*){ANY}", "dashboard", "{s}"),
    (r"/", "dashboard", "stripe"),
)
_VERCEL_RESERVED = _not(
    "docs pricing templates blog changelog guides contact enterprise features solutions "
    "customers login signup legal home"
)
VERCEL: Rules = (
    (rf"/docs{ANY}", "docs", "{host}{path|doc}"),
    (rf"/(?:dashboard|new){ANY}", "dashboard", "vercel"),
    (rf"/(?:blog|changelog)/(?P<s>{SEG})", "post", "{host}{path}"),
    (rf"/(?P<t>{_VERCEL_RESERVED}{SEG})/(?P<p>{SEG}){ANY}", "dashboard", "{t}/{p}"),
)
SUPABASE: Rules = (
    (
        rf"(?:/dashboard)?/project/(?P<r>\w+)/(?P<s>[\w-]+){ANY}",
        "dashboard",
        "{r}/{s}",
    ),
    (r"(?:/dashboard)?/project/(?P<r>\w+)", "dashboard", "{r}"),
    (rf"/dashboard{ANY}", "dashboard", "supabase"),
    (rf"/docs{ANY}", "docs", "{host}{path|doc}"),
)
AWS_CONSOLE: Rules = (
    (rf"/(?P<s>[a-z0-9-]+){ANY}", "dashboard", "aws/{s}"),
    (r"/", "dashboard", "aws"),
)
AZURE_PORTAL: Rules = ((r"/.*", "dashboard", "azure portal"),)
MS_DASHBOARD: Rules = ((r"/.*", "dashboard", "{host}"),)
SENTRY: Rules = (
    (rf"/organizations/(?P<o>{SEG})/issues/(?P<id>\d+){ANY}", "issue", "{o}/{id}"),
    (rf"/organizations/(?P<o>{SEG})/(?P<s>[\w-]+){ANY}", "dashboard", "{o}/{s}"),
    (rf"/(?:auth|account){ANY}", "login", "{host}"),
)
SENTRY_ORG: Rules = (
    (rf"/issues/(?P<id>\d+){ANY}", "issue", "{sub}/{id}"),
    (rf"/(?P<s>[\w-]+){ANY}", "dashboard", "{sub}/{s}"),
    (r"/", "dashboard", "{sub}"),
)
GRAFANA: Rules = (
    (rf"/d/(?P<uid>[\w-]+){ANY}", "dashboard", "{uid}"),
    (rf"/(?P<s>explore|alerting|dashboards|connections|admin){ANY}", "dashboard", "{s}"),
    (r"/.*", "dashboard", "grafana"),
)
DATADOG: Rules = (
    (rf"/dashboard/(?P<id>[\w-]+){ANY}", "dashboard", "{id}"),
    (rf"/(?P<s>[a-z][\w-]*){ANY}", "dashboard", "{s}"),
    (r"/", "dashboard", "datadog"),
)
HEROKU: Rules = (
    (rf"/apps/(?P<a>{SEG}){ANY}", "dashboard", "{a}"),
    (r"/.*", "dashboard", "heroku"),
)
NETLIFY: Rules = (
    (rf"/(?:sites|projects)/(?P<s>{SEG}){ANY}", "dashboard", "{s}"),
    (r"/.*", "dashboard", "netlify"),
)
CLOUDFLARE: Rules = (
    (rf"/[0-9a-f]{{32}}/(?P<z>{SEG}){ANY}", "dashboard", "{z}"),
    (r"/.*", "dashboard", "cloudflare"),
)
CONSOLE: Rules = (
    (rf"/(?:[\w-]+/)?(?:project|projects|apps|sites|services)/(?P<p>[\w.-]+){ANY}",
     "dashboard", "{p}"),
    (r"/.*", "dashboard", "{host}"),
)  # fmt: skip

# Packages, papers, documentation --------------------------------------------------

PYPI: Rules = (
    (rf"/project/(?P<n>{SEG}){ANY}", "package", "{n|pep503}"),
    (rf"/pypi/(?P<n>{SEG}){ANY}", "package", "{n|pep503}"),
    *_search(r"/search", "q"),
    (rf"/user/(?P<u>{SEG})", "profile", "{u}"),
    (rf"/(?:manage|account){ANY}", "settings", "pypi"),
)
NPM: Rules = (
    (rf"/package/(?P<n>@[^/]+(?:/|%2F)[^/]+|[^/@][^/]*){ANY}", "package", "{n}"),
    *_search(r"/search", "q"),
    (r"/~(?P<u>[^/]+)", "profile", "{u}"),
    (rf"/org/(?P<o>{SEG}){ANY}", "profile", "{o}"),
    (rf"/settings{ANY}", "settings", "npm"),
)
CRATES: Rules = (
    (rf"/crates/(?P<n>{SEG}){ANY}", "package", "{n}"),
    *_search(r"/search", "q"),
    (rf"/(?:users|teams)/(?P<u>{SEG})", "profile", "{u}"),
    (rf"/(?:me|settings){ANY}", "settings", "crates.io"),
)
DOCS_RS: Rules = (
    (rf"/crate/(?P<n>{SEG}){ANY}", "package", "{n}"),
    *_search(r"/releases/search", "query"),
    (r"/.*", "docs", "{host}{path?|doc}"),
)
LIB_RS: Rules = ((rf"/crates/(?P<n>{SEG}){ANY}", "package", "{n}"),)
RUBYGEMS: Rules = ((rf"/gems/(?P<n>{SEG}){ANY}", "package", "{n}"),)
PACKAGIST: Rules = ((rf"/packages/(?P<v>{SEG})/(?P<n>{SEG}){ANY}", "package", "{v}/{n}"),)
NUGET: Rules = ((rf"/packages/(?P<n>{SEG}){ANY}", "package", "{n}"),)
PKG_GO: Rules = (
    *_search(r"/search", "q"),
    (r"/(?P<p>[^@]+)(?:@[^/]+(?:/.*)?)?", "package", "{p}"),
)
DOCKER_HUB: Rules = (
    (rf"/_/(?P<n>{SEG}){ANY}", "package", "{n}"),
    (rf"/r/(?P<ns>{SEG})/(?P<n>{SEG}){ANY}", "package", "{ns}/{n}"),
    *_search(r"/search", "q"),
)
HOMEBREW: Rules = ((rf"/(?:formula|cask)/(?P<n>{SEG})", "package", "{n}"),)
ANACONDA: Rules = ((rf"/(?P<c>{SEG})/(?P<n>{SEG}){ANY}", "package", "{c}/{n}"),)
VS_MARKETPLACE: Rules = (
    (r"/items", "package", "{itemName}", ("itemName",)),
    *_search(r"/search", "term"),
)
OPEN_VSX: Rules = ((rf"/extension/(?P<ns>{SEG})/(?P<n>{SEG}){ANY}", "package", "{ns}/{n}"),)
MOZILLA_ADDONS: Rules = (
    (rf"(?:/{LOCALE})?/(?:firefox|android)/addon/(?P<n>{SEG}){ANY}", "package", "{n}"),
)
JSR: Rules = ((r"/(?P<n>@[^/]+/[^/]+)(?:/.*)?", "package", "{n}"),)
MAVEN: Rules = ((rf"/artifact/(?P<g>{SEG})/(?P<a>{SEG}){ANY}", "package", "{g}:{a}"),)
HEX_PUB: Rules = ((rf"/packages/(?P<n>{SEG}){ANY}", "package", "{n}"),)
CRAN: Rules = ((rf"/(?:web/)?packages?/(?P<n>[\w.]+){ANY}", "package", "{n}"),)
READTHEDOCS_ORG: Rules = (
    (rf"/projects/(?P<p>{SEG}){ANY}", "package", "{p}"),
    (rf"/dashboard{ANY}", "dashboard", "read the docs"),
)

_ARXIV_ID = r"(?P<id>\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?"
ARXIV: Rules = (
    (rf"/(?:abs|pdf|html|format|ps)/{_ARXIV_ID}{ANY}", "paper", "arXiv:{id}"),
    (rf"/list/(?P<c>{SEG}){ANY}", "feed", "{c}"),
    (rf"/search{ANY}", "search", "{query|search}", ("query",)),
    (rf"/a/(?P<a>{SEG}){ANY}", "profile", "{a}"),
    (r"/", "feed", "arxiv"),
)
ARXIV_MIRROR: Rules = ((rf"/(?:abs|pdf|html)/{_ARXIV_ID}{ANY}", "paper", "arXiv:{id}"),)
DOI: Rules = ((r"/(?P<d>10\.\d{4,9}/.+)", "paper", "doi:{d}"),)
ACM_DL: Rules = ((r"/doi/(?:abs/|pdf/|full/|epdf/)?(?P<d>10\.\d{4,9}/.+)", "paper", "doi:{d}"),)
OPENREVIEW: Rules = ((r"/(?:forum|pdf)", "paper", "openreview:{id}", ("id",)),)
SEMANTIC_SCHOLAR: Rules = (
    (rf"/paper/(?:{SEG}/)?(?P<id>[0-9a-f]{{40}})", "paper", "s2:{id}"),
    (rf"/author/(?:{SEG}/)?(?P<id>\d+)", "profile", "{id}"),
    *_search(r"/search", "q"),
)
ACL: Rules = ((r"/(?P<id>[A-Z0-9][\w.-]+?)(?:\.pdf)?", "paper", "acl:{id}"),)
PUBMED: Rules = ((r"/(?P<id>\d+)", "paper", "pmid:{id}"), *_search(r"/", "term"))
IEEE: Rules = ((rf"/(?:abstract/)?document/(?P<id>\d+){ANY}", "paper", "ieee:{id}"),)
BIORXIV: Rules = ((r"/content/(?P<d>10\.1101/[\d.]+?)(?:v\d+)?(?:[./].*)?", "paper", "doi:{d}"),)
RESEARCHGATE: Rules = (
    (r"/publication/(?P<id>\d+)(?:_.*)?", "paper", "researchgate:{id}"),
    (rf"/profile/(?P<u>{SEG}){ANY}", "profile", "{u}"),
)
PAPERS_WITH_CODE: Rules = ((rf"/paper/(?P<s>{SEG})", "paper", "{s}"),)

HUGGINGFACE_OWNER = (
    _not("models datasets spaces docs blog papers chat learn pricing enterprise join login "
         "settings organizations new collections posts tasks api search notifications "
         "inference-endpoints inference-api")
    + r"(?P<o>[\w.-]+)"
)  # fmt: skip
HUGGINGFACE: Rules = (
    (rf"/datasets/(?P<d>{SEG}/{SEG}){ANY}", "dataset", "{d}"),
    (rf"/datasets/(?P<d>{_not('search')}[^/?]+)", "dataset", "{d}"),
    (rf"/spaces/(?P<s>{SEG}/{SEG}){ANY}", "app", "{s}"),
    (rf"/docs{ANY}", "docs", "{host}{path|doc}"),
    (rf"/blog/(?P<s>{SEG}(?:/{SEG})?)", "post", "{s}"),
    (r"/papers/(?P<id>\d{4}\.\d{4,5})", "paper", "arXiv:{id}"),
    (rf"/chat/conversation/(?P<id>\w+){ANY}", "ai_chat", "{id}"),
    (rf"/chat{ANY}", "ai_chat", "huggingchat"),
    *_search(r"/(?:models|datasets|spaces)", "search"),
    (r"/(?P<f>models|datasets|spaces)", "feed", "{f}"),
    (rf"/settings{ANY}", "settings", "hugging face"),
    (rf"/{HUGGINGFACE_OWNER}/(?P<n>{SEG}){ANY}", "model", "{o}/{n}"),
    (rf"/{HUGGINGFACE_OWNER}", "profile", "{o}"),
    (r"/", "feed", "hugging face"),
)
KAGGLE: Rules = (
    (rf"/(?:competitions|c)/(?P<c>{SEG}){ANY}", "competition", "{c}"),
    (rf"/datasets/(?P<d>{SEG}/{SEG}){ANY}", "dataset", "{d}"),
    (rf"/code/(?P<n>{SEG}/{SEG}){ANY}", "code", "{n}"),
    (rf"/models/(?P<m>{SEG}/{SEG}){ANY}", "model", "{m}"),
    (rf"/discussions/(?:{SEG}/)?(?P<id>\d+){ANY}", "post", "{id}"),
    *_search(r"/search", "q"),
    (r"/(?:competitions|datasets|code|models|discussions|learn)", "feed", "kaggle"),
    (rf"/(?P<u>{_not('settings account learn docs')}{SEG})", "profile", "{u}"),
    (r"/", "feed", "kaggle"),
)

# Commerce, companies, jobs ----------------------------------------------------------

AMAZON: Rules = (
    (
        rf"/(?:{SEG}/)?(?:dp|gp/product|gp/aw/d|exec/obidos/ASIN|o/ASIN)/(?P<a>[A-Z0-9]{{10}}){ANY}",
        "product",
        "{a}",
    ),
    *_search(r"/s", "k", "field-keywords"),
    (rf"/ap{ANY}", "login", "{host}"),
    (rf"/(?:gp/css/order-history|your-orders|gp/your-account){ANY}", "dashboard", "orders"),
)
EBAY: Rules = (
    (rf"/itm/(?:{SEG}/)?(?P<id>\d+){ANY}", "product", "{id}"),
    *_search(rf"/sch{ANY}", "_nkw"),
)
ETSY: Rules = (
    (rf"/(?:{LOCALE}/)?listing/(?P<id>\d+){ANY}", "product", "{id}"),
    (rf"/(?:{LOCALE}/)?shop/(?P<s>{SEG}){ANY}", "company", "{s}"),
    *_search(rf"/(?:{LOCALE}/)?search", "q"),
)
ALIEXPRESS: Rules = ((r"/item/(?P<id>\d+)\.html", "product", "{id}"),)
WALMART: Rules = (
    (rf"/ip/(?:{SEG}/)?(?P<id>\d+){ANY}", "product", "{id}"),
    *_search(r"/search", "q"),
)
APPLE_APPS: Rules = ((rf"/(?:\w+/)?app/(?:{SEG}/)?id(?P<id>\d+){ANY}", "product", "id{id}"),)
PRODUCT_HUNT: Rules = (
    (rf"/(?:posts|products)/(?P<s>{SEG}){ANY}", "product", "{s}"),
    (rf"/@(?P<u>{SEG}){ANY}", "profile", "{u}"),
    *_search(rf"/search{ANY}", "q"),
    (rf"/topics/(?P<t>{SEG})", "feed", "topics/{t}"),
    (rf"/(?:leaderboard{ANY})?", "feed", "product hunt"),
)
CRUNCHBASE: Rules = (
    (rf"/organization/(?P<s>{SEG}){ANY}", "company", "{s}"),
    (rf"/person/(?P<s>{SEG}){ANY}", "profile", "{s}"),
    (rf"/(?:discover|search){ANY}", "company_search", '""'),
    (rf"/lists{ANY}", "dashboard", "crunchbase"),
)
YC: Rules = (
    (rf"/companies/(?P<c>{_not('industry location batch founders')}{SEG}){ANY}", "company", "{c}"),
    (rf"/launches/(?P<l>{SEG}){ANY}", "product", "{l}"),
    (rf"/companies{ANY}", "company_search", "{query?|search}", ("query",)),
)
WORK_AT_A_STARTUP: Rules = (
    (r"/jobs/(?P<id>\d+)", "job", "{id}"),
    (rf"/companies/(?P<c>{SEG})", "company", "{c}"),
)
WELLFOUND: Rules = (
    (rf"/company/(?P<c>{SEG}){ANY}", "company", "{c}"),
    (r"/jobs/(?P<id>\d+)(?:-.*)?", "job", "{id}"),
    (rf"/u/(?P<u>{SEG})", "profile", "{u}"),
)
INDEED: Rules = (
    (r"/(?:viewjob|rc/clk|m/viewjob)", "job", "{jk}", ("jk",)),
    (r"/(?:jobs|m/jobs)", "job", "{vjk}", ("vjk",)),
    *_search(r"/(?:jobs|m/jobs)", "q"),
    (rf"/cmp/(?P<c>{SEG}){ANY}", "company", "{c}"),
)
GLASSDOOR: Rules = (
    (
        r"/(?:Overview|Reviews|Salary|Salaries|Interview)/(?:Working-at-)?(?P<c>[^/]+?)"
        r"-(?:EI_IE|Reviews-E|Salaries-E|Interview-Questions-E)\d+.*",
        "company",
        "{c}",
    ),
    (rf"/(?:job-listing|partner/jobListing){ANY}", "job", "{jl}", ("jl",)),
    (rf"/Job{ANY}", "job_search", '""'),
)  # fmt: skip
GREENHOUSE: Rules = ((rf"/(?P<c>{SEG})/jobs/(?P<id>\d+){ANY}", "job", "{c}/{id}"),)
LEVER_ASHBY: Rules = (
    (rf"/(?P<c>{SEG})/(?P<id>[0-9a-f-]{{36}}){ANY}", "job", "{c}/{id}"),
    (rf"/(?P<c>{SEG})", "company", "{c}"),
)
AIRBNB: Rules = ((r"/rooms/(?P<id>\d+)", "booking", "{id}"),)
BOOKING_COM: Rules = ((r"/hotel/\w+/(?P<h>[^./]+)(?:\.[\w-]+)?\.html", "booking", "{h}"),)

# Writing, Q&A, learning ----------------------------------------------------------------

MEDIUM: Rules = (
    (rf"/@(?P<u>{SEG})/(?:[^/]*-)?(?P<id>[0-9a-f]{{8,12}})", "post", "{id}"),
    (r"/p/(?P<id>[0-9a-f]{8,12})", "post", "{id}"),
    (rf"/tag/(?P<t>{SEG}){ANY}", "feed", "tag/{t}"),
    *_search(rf"/search{ANY}", "q"),
    (rf"/(?:me/)?notifications{ANY}", "notifications", "medium"),
    (rf"/@(?P<u>{SEG}){ANY}", "profile", "{u}"),
    (rf"/(?P<pub>{SEG})/(?:[^/]*-)?(?P<id>[0-9a-f]{{8,12}})", "post", "{id}"),
    (r"/", "feed", "home"),
    (rf"/(?P<pub>{_not('m me plans membership about creators')}{SEG})", "channel", "{pub}"),
)
MEDIUM_SUB: Rules = (
    (r"/(?:[^/]*-)?(?P<id>[0-9a-f]{8,12})", "post", "{id}"),
    (r"/", "profile", "{sub}"),
)
SUBSTACK_PUB: Rules = (
    (rf"/p/(?P<s>{SEG}){ANY}", "post", "{sub}/{s}"),
    (r"/(?:archive|about|podcast)?", "channel", "{sub}"),
)
SUBSTACK: Rules = (
    (rf"/@(?P<u>{SEG}){ANY}", "profile", "{u}"),
    (rf"/profile/(?P<u>{SEG}){ANY}", "profile", "{u}"),
    (rf"/(?:home|inbox)/post/p-(?P<id>\d+){ANY}", "post", "{id}"),
    (rf"/(?P<f>home|inbox|notes|activity|chat){ANY}", "feed", "{f}"),
    (rf"/search/(?P<q>{SEG}){ANY}", "search", "{q|search}"),
)
DEV_TO: Rules = (
    *_search(r"/search", "q"),
    (r"/", "feed", "home"),
    (rf"/(?P<u>{SEG})/(?P<s>{SEG})", "post", "{u}/{s}"),
    (rf"/(?P<u>{_not('settings notifications dashboard reading-list top latest tags')}{SEG})",
     "profile", "{u}"),
)  # fmt: skip
HASHNODE: Rules = ((rf"/(?P<s>{SEG})", "post", "{sub}/{s}"),)

_WIKI_SEARCH = r"[^:/]+:(?:Search|Suche|Buscar|Recherche|Ricerca|Pesquisar|Zoeken|Szukaj|Поиск)"
WIKIMEDIA: Rules = (
    *_search(rf"/wiki/{_WIKI_SEARCH}{ANY}", "search"),
    (rf"/wiki/{_WIKI_SEARCH}/(?P<q>.+)", "search", "{q|spaces|search}"),
    (r"/wiki/(?P<t>.+)", "wiki", "{sub}:{t|spaces}"),
    *_search(r"/w/index\.php", "search"),
    (r"/w/index\.php", "wiki", "{sub}:{title|spaces}", ("title",)),
    (r"/(?:zh|sr|zh-[a-z]+|sr-[a-z]+)/(?P<t>.+)", "wiki", "{sub}:{t|spaces}"),
    (r"/", "wiki", "{sub}"),
)
WIKIDATA: Rules = (
    (r"/wiki/(?P<t>.+)", "wiki", "{t}"),
    *_search(r"/w/index\.php", "search"),
)
FANDOM: Rules = ((rf"(?:/{LOCALE})?/wiki/(?P<t>.+)", "wiki", "{sub}:{t|spaces}"),)
LEETCODE: Rules = (
    (rf"/problems/(?P<s>{SEG}){ANY}", "question", "{s}"),
    (rf"/u/(?P<u>{SEG})", "profile", "{u}"),
    (rf"/(?:problemset|contest|explore){ANY}", "feed", "leetcode"),
)
COURSES: Rules = (
    (rf"/(?:learn|course|courses|specializations|professional-certificates)/(?P<c>{SEG}){ANY}",
     "course", "{c}"),
    *_search(r"/(?:search|courses)", "query", "q"),
)  # fmt: skip

# Code playgrounds ------------------------------------------------------------------------

REPLIT: Rules = (
    (rf"/@(?P<u>{SEG})/(?P<r>{SEG}){ANY}", "code", "{u}/{r}"),
    (rf"/@(?P<u>{SEG})", "profile", "{u}"),
)
CODESANDBOX: Rules = (
    (r"/(?:s|p/sandbox|p/devbox|embed)/(?P<id>[\w-]+)(?:/.*)?", "code", "{id}"),
    (r"/p/github/(?P<p>[^/]+/[^/]+)(?:/.*)?", "code", "{p}"),
)
CODEPEN: Rules = (
    (rf"/(?P<u>{SEG})/(?:pen|full|details|embed)/(?P<id>\w+){ANY}", "code", "{u}/{id}"),
)
JSFIDDLE: Rules = ((r"/(?:(?P<u>[\w-]+)/)?(?P<id>\w{4,})(?:/\d+)?(?:/show)?", "code", "{id}"),)
STACKBLITZ: Rules = ((rf"/edit/(?P<id>[\w-]+){ANY}", "code", "{id}"),)
OBSERVABLE: Rules = ((rf"/@(?P<u>{SEG})/(?P<n>{SEG}){ANY}", "code", "{u}/{n}"),)

# Search engines ------------------------------------------------------------------------

DUCKDUCKGO: Rules = (
    *_search(r"/(?:html|lite)?", "q"),
    (r"/l", "redirect", "{uddg|host}", ("uddg",)),
)
BING: Rules = (
    *_search(r"/(?:search|images/search|videos/search|news/search|shop)", "q"),
    (rf"/(?:chat|copilot|copilotsearch){ANY}", "ai_chat", "copilot"),
    (rf"/ck/a{ANY}", "redirect", "{host}"),
    (rf"/maps{ANY}", "maps", "{q|search}", ("q",)),
    (rf"/maps{ANY}", "maps", "bing maps"),
)
YAHOO_SEARCH: Rules = (*_search(r"/(?:search|yhs/search)", "p", "q"),)
YANDEX: Rules = (
    *_search(r"/(?:search|images/search)", "text"),
    (rf"/maps{ANY}", "maps", "yandex maps"),
)
BAIDU: Rules = (*_search(r"/s", "wd", "word"),)
NAVER: Rules = (*_search(r"/search\.naver", "query"),)
GENERIC_SEARCH_ENGINE: Rules = (
    *_search(r"/(?:search|do/search|do/dsearch|sp/search|web)?", "q", "query"),
)
MAPS_OSM: Rules = (
    (r"/search", "maps", "{query|search}", ("query",)),
    (r"/.*", "maps", "openstreetmap"),
)
MAPS_OTHER: Rules = ((r"/.*", "maps", "{q|search}", ("q",)), (r"/.*", "maps", "{host}"))

# Browsers' own pages and loopback are handled before the table (see __init__).

# The table ---------------------------------------------------------------------------------

SITES: dict[str, Rules] = {
    # code hosting
    "github.com": GITHUB,
    "gist.github.com": GIST,
    "gist.githubusercontent.com": RAW_GITHUB,
    "raw.githubusercontent.com": RAW_GITHUB,
    "docs.github.com": DOCS_ALL,
    "gitlab.com": GITLAB,
    "bitbucket.org": BITBUCKET,
    # social and professional networks
    "linkedin.com": LINKEDIN,
    "*.linkedin.com": LINKEDIN,  # de.linkedin.com, uk.linkedin.com …
    "x.com": X_TWITTER,
    "twitter.com": X_TWITTER,
    "nitter.net": X_TWITTER,
    "reddit.com": REDDIT,
    "old.reddit.com": REDDIT,
    "new.reddit.com": REDDIT,
    "np.reddit.com": REDDIT,
    "sh.reddit.com": REDDIT,
    "redd.it": REDD_IT,
    "v.redd.it": V_REDD_IT,
    "out.reddit.com": ((r"/.*", "redirect", "{url|host}", ("url",)),),
    "news.ycombinator.com": HACKER_NEWS,
    "hn.algolia.com": HN_SEARCH,
    "stackoverflow.com": STACK_EXCHANGE,
    "*.stackoverflow.com": STACK_EXCHANGE,
    "stackexchange.com": STACK_EXCHANGE,
    "*.stackexchange.com": STACK_EXCHANGE,
    "superuser.com": STACK_EXCHANGE,
    "*.superuser.com": STACK_EXCHANGE,
    "serverfault.com": STACK_EXCHANGE,
    "*.serverfault.com": STACK_EXCHANGE,
    "askubuntu.com": STACK_EXCHANGE,
    "*.askubuntu.com": STACK_EXCHANGE,
    "mathoverflow.net": STACK_EXCHANGE,
    "*.mathoverflow.net": STACK_EXCHANGE,
    "stackapps.com": STACK_EXCHANGE,
    "instagram.com": INSTAGRAM,
    "facebook.com": FACEBOOK,
    "web.facebook.com": FACEBOOK,
    "touch.facebook.com": FACEBOOK,
    "mbasic.facebook.com": FACEBOOK,
    "fb.com": FACEBOOK,
    "l.facebook.com": FB_REDIRECT,
    "lm.facebook.com": FB_REDIRECT,
    "fb.watch": FB_WATCH,
    "messenger.com": MESSENGER,
    "threads.net": THREADS,
    "threads.com": THREADS,
    "bsky.app": BLUESKY,
    "mastodon.social": MASTODON,
    "mastodon.online": MASTODON,
    "fosstodon.org": MASTODON,
    "hachyderm.io": MASTODON,
    "tiktok.com": TIKTOK,
    "quora.com": QUORA,
    # Google
    "google.com": GOOGLE,
    "maps.google.com": GOOGLE_MAPS,
    "docs.google.com": GOOGLE_DOCS,
    "forms.gle": GOOGLE_FORMS_SHORT,
    "drive.google.com": GOOGLE_DRIVE,
    "mail.google.com": GMAIL,
    "chat.google.com": ((r"/.*", "messaging", "google chat"),),
    "calendar.google.com": GOOGLE_CALENDAR,
    "meet.google.com": GOOGLE_MEET,
    "scholar.google.com": GOOGLE_SCHOLAR,
    "gemini.google.com": GEMINI,
    "bard.google.com": BARD,
    "aistudio.google.com": _ai("ai studio", r"/prompts/(?P<id>[\w-]+)"),
    "news.google.com": ((r"/.*", "feed", "google news"),),
    "photos.google.com": ((r"/.*", "drive", "google photos"),),
    "keep.google.com": ((r"/.*", "doc", "google keep"),),
    "myaccount.google.com": ((r"/.*", "settings", "google account"),),
    "accounts.google.com": LOGIN_ALL,
    "play.google.com": GOOGLE_PLAY,
    "chromewebstore.google.com": CHROME_WEBSTORE,
    "chrome.google.com": CHROME_WEBSTORE,
    "colab.research.google.com": COLAB,
    "console.cloud.google.com": GCP_CONSOLE,
    "console.firebase.google.com": FIREBASE_CONSOLE,
    "lookerstudio.google.com": LOOKER_STUDIO,
    "datastudio.google.com": LOOKER_STUDIO,
    "analytics.google.com": ((r"/.*", "dashboard", "google analytics"),),
    "search.google.com": ((r"/search-console.*", "dashboard", "search console"),),
    "maps.app.goo.gl": ((r"/.*", "maps", "shared link"),),
    # video and music
    "youtube.com": YOUTUBE,
    "youtube-nocookie.com": YOUTUBE,
    "youtu.be": YOUTU_BE,
    "music.youtube.com": YOUTUBE_MUSIC,
    "studio.youtube.com": YOUTUBE_STUDIO,
    "vimeo.com": VIMEO,
    "player.vimeo.com": VIMEO_PLAYER,
    "twitch.tv": TWITCH,
    "clips.twitch.tv": TWITCH_CLIPS,
    "loom.com": LOOM,
    "netflix.com": NETFLIX,
    "open.spotify.com": SPOTIFY,
    "soundcloud.com": SOUNDCLOUD,
    # chat, mail, meetings, calendars
    "app.slack.com": SLACK_APP,
    "*.slack.com": SLACK_WORKSPACE,
    "slack-redir.net": SLACK_REDIR,
    "discord.com": DISCORD,
    "discordapp.com": DISCORD,
    "ptb.discord.com": DISCORD,
    "canary.discord.com": DISCORD,
    "discord.gg": LOGIN_ALL,  # invite codes admit whoever holds them
    "teams.microsoft.com": TEAMS,
    "teams.live.com": TEAMS,
    "teams.cloud.microsoft": TEAMS,
    "web.whatsapp.com": WHATSAPP,
    "wa.me": WHATSAPP,
    "api.whatsapp.com": WHATSAPP,
    "web.telegram.org": TELEGRAM_WEB,
    "t.me": T_ME,
    "outlook.live.com": OUTLOOK,
    "outlook.office.com": OUTLOOK,
    "outlook.office365.com": OUTLOOK,
    "outlook.cloud.microsoft": OUTLOOK,
    "mail.proton.me": OTHER_MAIL,
    "mail.yahoo.com": OTHER_MAIL,
    "app.fastmail.com": OTHER_MAIL,
    "mail.zoho.com": OTHER_MAIL,
    "app.hey.com": OTHER_MAIL,
    "mail.superhuman.com": OTHER_MAIL,
    "mail.notion.so": OTHER_MAIL,
    "calendar.proton.me": ((r"/.*", "calendar", "proton"),),
    "calendar.notion.so": ((r"/.*", "calendar", "notion calendar"),),
    "cron.com": ((r"/.*", "calendar", "cron"),),
    "zoom.us": ZOOM,
    "*.zoom.us": ZOOM,
    "zoom.com": ZOOM,
    "*.zoom.com": ZOOM,
    "*.webex.com": WEBEX,
    "whereby.com": ROOM_MEETING,
    "meet.jit.si": ROOM_MEETING,
    "calendly.com": CALENDLY,
    "cal.com": CAL_COM,
    "app.cal.com": CAL_COM,
    "savvycal.com": CAL_COM,
    "lu.ma": LUMA,
    "luma.com": LUMA,
    "eventbrite.com": EVENTBRITE,
    "meetup.com": MEETUP,
    # AI assistants
    "chat.openai.com": CHATGPT,
    "chatgpt.com": CHATGPT,
    "claude.ai": CLAUDE,
    "perplexity.ai": PERPLEXITY,
    "copilot.microsoft.com": _ai("copilot"),
    "poe.com": _ai("poe"),
    "chat.mistral.ai": _ai("le chat"),
    "chat.deepseek.com": _ai("deepseek"),
    "grok.com": _ai("grok"),
    "chat.qwen.ai": _ai("qwen"),
    "platform.openai.com": OPENAI_PLATFORM,
    "console.anthropic.com": ((r"/.*", "dashboard", "anthropic console"),),
    # documents, design, notes, drives
    "figma.com": FIGMA,
    "canva.com": CANVA,
    "miro.com": MIRO,
    "excalidraw.com": WHITEBOARD,
    "tldraw.com": WHITEBOARD,
    "app.diagrams.net": WHITEBOARD,
    "draw.io": WHITEBOARD,
    "lucid.app": LUCID,
    "notion.so": NOTION,
    "notion.com": NOTION,
    "*.notion.site": NOTION_SITE,
    "coda.io": CODA,
    "overleaf.com": OVERLEAF,
    "dropbox.com": DROPBOX,
    "paper.dropbox.com": DROPBOX_PAPER,
    "onedrive.live.com": ONEDRIVE,
    "1drv.ms": ONEDRIVE,
    "*.sharepoint.com": SHAREPOINT,
    "app.box.com": BOX,
    "*.app.box.com": BOX,
    "icloud.com": ICLOUD,
    # project management, CRM, support
    "*.atlassian.net": ATLASSIAN,
    "id.atlassian.com": LOGIN_ALL,
    "start.atlassian.com": ((r"/.*", "dashboard", "atlassian"),),
    "trello.com": TRELLO,
    "app.asana.com": ASANA,
    "linear.app": LINEAR,
    "app.clickup.com": CLICKUP,
    "*.monday.com": MONDAY,
    "app.shortcut.com": SHORTCUT,
    "*.youtrack.cloud": YOUTRACK,
    "*.pagerduty.com": PAGERDUTY,
    "*.freshdesk.com": FRESHDESK,
    "3.basecamp.com": BASECAMP,
    "app.intercom.com": INTERCOM,
    "airtable.com": AIRTABLE,
    "*.lightning.force.com": SALESFORCE,
    "*.my.salesforce.com": SALESFORCE,
    "login.salesforce.com": LOGIN_ALL,
    "app.hubspot.com": HUBSPOT,
    "app-eu1.hubspot.com": HUBSPOT,
    "*.zendesk.com": ZENDESK,
    # developer platforms and consoles
    "dashboard.stripe.com": STRIPE_DASHBOARD,
    "docs.stripe.com": DOCS_ALL,
    "checkout.stripe.com": HOST_ONLY,
    "buy.stripe.com": HOST_ONLY,
    "invoice.stripe.com": HOST_ONLY,
    "billing.stripe.com": HOST_ONLY,
    "vercel.com": VERCEL,
    "supabase.com": SUPABASE,
    "app.supabase.com": SUPABASE,
    "console.aws.amazon.com": AWS_CONSOLE,
    "*.console.aws.amazon.com": AWS_CONSOLE,
    "signin.aws.amazon.com": LOGIN_ALL,
    "*.awsapps.com": LOGIN_ALL,
    "portal.azure.com": AZURE_PORTAL,
    "entra.microsoft.com": MS_DASHBOARD,
    "admin.microsoft.com": MS_DASHBOARD,
    "intune.microsoft.com": MS_DASHBOARD,
    "dev.azure.com": CONSOLE,
    "learn.microsoft.com": DOCS_ALL,
    "docs.microsoft.com": DOCS_ALL,
    "login.microsoftonline.com": LOGIN_ALL,
    "login.live.com": LOGIN_ALL,
    "login.microsoft.com": LOGIN_ALL,
    "account.microsoft.com": ((r"/.*", "settings", "microsoft account"),),
    "appleid.apple.com": LOGIN_ALL,
    "account.apple.com": LOGIN_ALL,
    "sentry.io": SENTRY,
    "*.sentry.io": SENTRY_ORG,
    "*.grafana.net": GRAFANA,
    "app.datadoghq.com": DATADOG,
    "*.datadoghq.com": DATADOG,
    "*.datadoghq.eu": DATADOG,
    "one.newrelic.com": ((r"/.*", "dashboard", "new relic"),),
    "dashboard.heroku.com": HEROKU,
    "app.netlify.com": NETLIFY,
    "dash.cloudflare.com": CLOUDFLARE,
    "dashboard.render.com": CONSOLE,
    "railway.app": CONSOLE,
    "railway.com": CONSOLE,
    "fly.io": CONSOLE,
    "cloud.digitalocean.com": CONSOLE,
    "us.posthog.com": CONSOLE,
    "eu.posthog.com": CONSOLE,
    "app.posthog.com": CONSOLE,
    "mixpanel.com": CONSOLE,
    "app.amplitude.com": CONSOLE,
    "app.snowflake.com": CONSOLE,
    "*.cloud.databricks.com": CONSOLE,
    "*.online.tableau.com": CONSOLE,
    # packages, papers, documentation
    "pypi.org": PYPI,
    "pypi.python.org": PYPI,
    "npmjs.com": NPM,
    "crates.io": CRATES,
    "docs.rs": DOCS_RS,
    "lib.rs": LIB_RS,
    "rubygems.org": RUBYGEMS,
    "packagist.org": PACKAGIST,
    "nuget.org": NUGET,
    "pkg.go.dev": PKG_GO,
    "hub.docker.com": DOCKER_HUB,
    "formulae.brew.sh": HOMEBREW,
    "anaconda.org": ANACONDA,
    "marketplace.visualstudio.com": VS_MARKETPLACE,
    "open-vsx.org": OPEN_VSX,
    "addons.mozilla.org": MOZILLA_ADDONS,
    "jsr.io": JSR,
    "central.sonatype.com": MAVEN,
    "mvnrepository.com": MAVEN,
    "hex.pm": HEX_PUB,
    "pub.dev": HEX_PUB,
    "cran.r-project.org": CRAN,
    "readthedocs.org": READTHEDOCS_ORG,
    "*.readthedocs.io": DOCS_ALL,
    "*.readthedocs.org": DOCS_ALL,
    "*.rtfd.io": DOCS_ALL,
    "docs.python.org": DOCS_ALL,
    "developer.mozilla.org": DOCS_ALL,
    "devdocs.io": DOCS_ALL,
    "en.cppreference.com": DOCS_ALL,
    "man7.org": DOCS_ALL,
    "w3schools.com": DOCS_ALL,
    "geeksforgeeks.org": DOCS_ALL,
    "react.dev": DOCS_ALL,
    "vuejs.org": DOCS_ALL,
    "svelte.dev": DOCS_ALL,
    "doc.rust-lang.org": DOCS_ALL,
    "kubernetes.io": DOCS_ALL,
    "arxiv.org": ARXIV,
    "export.arxiv.org": ARXIV,
    "*.arxiv.org": ARXIV_MIRROR,
    "alphaxiv.org": ARXIV_MIRROR,
    "doi.org": DOI,
    "dx.doi.org": DOI,
    "dl.acm.org": ACM_DL,
    "openreview.net": OPENREVIEW,
    "semanticscholar.org": SEMANTIC_SCHOLAR,
    "aclanthology.org": ACL,
    "pubmed.ncbi.nlm.nih.gov": PUBMED,
    "ieeexplore.ieee.org": IEEE,
    "biorxiv.org": BIORXIV,
    "medrxiv.org": BIORXIV,
    "researchgate.net": RESEARCHGATE,
    "paperswithcode.com": PAPERS_WITH_CODE,
    "huggingface.co": HUGGINGFACE,
    "hf.co": HUGGINGFACE,
    "kaggle.com": KAGGLE,
    # commerce, companies, jobs
    "amazon.com": AMAZON,
    "amzn.to": REDIRECT_HOST,
    "a.co": REDIRECT_HOST,
    "t.co": REDIRECT_HOST,
    "bit.ly": REDIRECT_HOST,
    "lnkd.in": REDIRECT_HOST,
    "ebay.com": EBAY,
    "etsy.com": ETSY,
    "aliexpress.com": ALIEXPRESS,
    "walmart.com": WALMART,
    "apps.apple.com": APPLE_APPS,
    "producthunt.com": PRODUCT_HUNT,
    "crunchbase.com": CRUNCHBASE,
    "ycombinator.com": YC,
    "workatastartup.com": WORK_AT_A_STARTUP,
    "wellfound.com": WELLFOUND,
    "angel.co": WELLFOUND,
    "indeed.com": INDEED,
    "*.indeed.com": INDEED,
    "glassdoor.com": GLASSDOOR,
    "boards.greenhouse.io": GREENHOUSE,
    "job-boards.greenhouse.io": GREENHOUSE,
    "jobs.lever.co": LEVER_ASHBY,
    "jobs.ashbyhq.com": LEVER_ASHBY,
    "airbnb.com": AIRBNB,
    "booking.com": BOOKING_COM,
    # writing, Q&A, learning
    "medium.com": MEDIUM,
    "*.medium.com": MEDIUM_SUB,
    "*.substack.com": SUBSTACK_PUB,
    "substack.com": SUBSTACK,
    "dev.to": DEV_TO,
    "*.hashnode.dev": HASHNODE,
    "*.wikipedia.org": WIKIMEDIA,
    "*.wiktionary.org": WIKIMEDIA,
    "*.wikibooks.org": WIKIMEDIA,
    "*.wikiquote.org": WIKIMEDIA,
    "*.wikisource.org": WIKIMEDIA,
    "*.wikivoyage.org": WIKIMEDIA,
    "*.wikinews.org": WIKIMEDIA,
    "*.wikiversity.org": WIKIMEDIA,
    "*.wikimedia.org": WIKIMEDIA,
    "wikidata.org": WIKIDATA,
    "mediawiki.org": WIKIDATA,
    "*.fandom.com": FANDOM,
    "leetcode.com": LEETCODE,
    "coursera.org": COURSES,
    "udemy.com": COURSES,
    "edx.org": COURSES,
    # code playgrounds
    "replit.com": REPLIT,
    "codesandbox.io": CODESANDBOX,
    "codepen.io": CODEPEN,
    "jsfiddle.net": JSFIDDLE,
    "stackblitz.com": STACKBLITZ,
    "observablehq.com": OBSERVABLE,
    # search engines and maps
    "duckduckgo.com": DUCKDUCKGO,
    "html.duckduckgo.com": DUCKDUCKGO,
    "lite.duckduckgo.com": DUCKDUCKGO,
    "bing.com": BING,
    "cn.bing.com": BING,
    "search.yahoo.com": YAHOO_SEARCH,
    "baidu.com": BAIDU,
    "search.naver.com": NAVER,
    "search.brave.com": GENERIC_SEARCH_ENGINE,
    "ecosia.org": GENERIC_SEARCH_ENGINE,
    "kagi.com": GENERIC_SEARCH_ENGINE,
    "startpage.com": GENERIC_SEARCH_ENGINE,
    "search.marginalia.nu": GENERIC_SEARCH_ENGINE,
    "openstreetmap.org": MAPS_OSM,
    "maps.apple.com": MAPS_OTHER,
    # loopback: local development servers, any port
    "localhost": LOCAL,
    "*.localhost": LOCAL,
    "127.0.0.1": LOCAL,
    "0.0.0.0": LOCAL,
    "::1": LOCAL,
    "host.docker.internal": LOCAL,
}

# Families of hosts mapped onto one key: (regex over the whole host, key). A named
# group ``sub`` keeps a subdomain: maps.google.de → maps.google.com.
HOST_ALIASES: tuple[tuple[str, str], ...] = (
    (r"(?:(?P<sub>[a-z0-9.-]+)\.)?google\.(?:com?\.)?[a-z]{2}", "google.com"),
    (r"(?:(?P<sub>[a-z0-9.-]+)\.)?amazon\.(?:com?\.)?[a-z]{2,3}", "amazon.com"),
    (r"(?:(?P<sub>[a-z0-9.-]+)\.)?ebay\.(?:com?\.)?[a-z]{2,3}", "ebay.com"),
    (r"yandex\.(?:com?\.)?[a-z]{2,3}", "yandex"),
    (r"gitlab\.[a-z0-9.-]+", "gitlab.com"),  # self-hosted GitLab
    (r"(?:jira|confluence)\.[a-z0-9.-]+", "*.atlassian.net"),  # self-hosted Jira/Confluence
    (r"grafana\.[a-z0-9.-]+", "*.grafana.net"),  # self-hosted Grafana
    (r"127(?:\.\d{1,3}){3}", "127.0.0.1"),  # all of 127/8 is loopback
)
EXTRA_SITES: dict[str, Rules] = {"yandex": YANDEX}

# Generic rules, tried when no site rule matched: (host regex, path rule). Ordered:
# documentation before sign-in, so /docs/auth is a docs page, not a login.
_DOCS_HOST = r"(?:docs?|developers?|devdocs|documentation|help|api-docs|manual|guide|wiki)\..+"
_BLOG_HOST = r"(?:blog|engineering|news)\..+"
_FORUM_HOST = r"(?:forum|forums|community|discuss|discourse)\..+"
_AUTH_HOST = r"(?:login|signin|sso|auth|idp|weblogin|accounts|account|oauth|adfs|cas|secure)\..+"
_AUTH_WORDS = (
    r"login|log-in|logon|signin|sign-in|sign_in|signup|sign-up|sign_up|register|logout|"
    r"signout|sign-out|oauth|oauth2|authorize|authorise|sso|saml|saml2|idp|adfs|openid|"
    r"openid-connect|cas|2fa|mfa|password|password_reset|reset-password|forgot-password|"
    r"forgot_password|reset|verify|verification|confirm|email-confirmation|activate|"
    r"magic-link|invite|invitation|unsubscribe|auth|session|sessions|handshake|callback|"
    r"checkpoint|recover|challenge|authwall"
)
# A dated article path (/2023/11/19/slug, /tech/2023/nov/slug). Bounded repetitions keep a
# hostile path with thousands of segments from costing quadratic time.
_DATE_PATH = (
    r"(?:/[^/]+){0,4}/(?:19|20)\d\d/(?:[01]?\d|[a-z]{3})(?:/[0-3]?\d)?(?:/[^/]+){0,4}"
    r"/[^/]*[a-z][^/]*"
)

GENERIC: tuple[tuple[str, Rule], ...] = (
    (r".+", (rf"/(?:{_AUTH_WORDS})(?:/.*)?", "login", "{host}")),
    (_DOCS_HOST, (r"/.*", "docs", "{host}{path?|doc}")),
    (r".+\.(?:gitbook\.io|readme\.io|mintlify\.app)", (r"/.*", "docs", "{host}{path?|doc}")),
    (
        r".+",
        (
            r"(?:/[^/]+)*/(?:docs|documentation|api-reference|api-docs|reference|manual|"
            r"man-pages|apidocs|javadoc)(?:/.*)?",
            "docs",
            "{host}{path|doc}",
        ),
    ),
    (r".+", (rf"/hc/(?:{LOCALE}/)?articles/(?P<id>\d+)(?:-.*)?", "docs", "{host}/articles/{id}")),
    (r".+", (r"(?:/[^/]+)?/wiki/(?P<t>[^/]+)", "wiki", "{host}/wiki/{t|spaces}")),
    (r".+", (rf"/(?:{_AUTH_WORDS})/.*", "login", "{host}")),
    (r".+", (rf"(?:/[^/]+)+/(?:{_AUTH_WORDS})(?:[./][^/]*)?(?:/.*)?", "login", "{host}")),
    (_FORUM_HOST, (r"/t/(?P<s>[^/]+)(?:/\d+)*", "post", "{host}/t/{s}")),
    (_FORUM_HOST, (r"/.*", "feed", "{host}")),
    (_BLOG_HOST, (r"/.+", "post", "{host}{path}")),
    (
        r".+",
        (
            r"(?:/[^/]+)*/(?:blog|posts?|articles?|news|stories)/[^/]+(?:/.*)?",
            "post",
            "{host}{path}",
        ),
    ),
    (r".+", (_DATE_PATH, "post", "{host}{path}")),
    (r".+", (r"/@(?P<u>[\w.-]+)/(?P<id>\d{6,})", "post", "{u}/{id}")),
    (r".+", (r"/@(?P<u>[\w.-]+)", "profile", "{u}")),
    (r".+", (r"(?:/[^/]+)*/[^/]+\.pdf", "document", "{host}{path}")),
    (r".+", (r"(?:/.*)?/search(?:/.*)?", "search", "{q|search}", ("q",))),
    (r".+", (r"(?:/.*)?/search(?:/.*)?", "search", "{query|search}", ("query",))),
    (r".+", (r"(?:/.*)?/search(?:/.*)?", "search", "{search|search}", ("search",))),
    (r".+", (r"(?:/.*)?/search(?:/.*)?", "search", "{keywords|search}", ("keywords",))),
    (_AUTH_HOST, (r"/.*", "login", "{host}")),
)
