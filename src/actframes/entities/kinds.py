"""Every kind a page or title reference can have: what it means, and an example entity.

Kinds stay open: a new rule may add one, and then adds it here too (a test checks that
every kind the tables can produce is listed). docs/entities.md shows this table.
"""

from __future__ import annotations

from collections.abc import Mapping

# kind -> (meaning, example entity)
KINDS: Mapping[str, tuple[str, str]] = {
    # people and organisations
    "profile": ("a person's or account's profile page", "jane-doe"),
    "company": ("a company or organisation page", "acme-corp"),
    "people_search": ("a search for people", '"cto berlin"'),
    "company_search": ("a search for companies", '"fintech"'),
    "job_search": ("a search for jobs", '"python remote"'),
    "job": ("one job posting", "3791234567"),
    # feeds and messaging
    "feed": ("a home, timeline or list view of a site", "home"),
    "notifications": ("a notifications or activity view", "github"),
    "messaging": ("a direct conversation, or a chat app's inbox", "D066DF7CP6X"),
    "channel": ("a channel, group, subreddit or video channel", "r/python"),
    "post": ("one post, tweet, message thread, article or story", "jack/20"),
    "question": ("a question on a Q&A site", "990754"),
    "search": ("a search, with the query as typed (a JSON string)", '"cto berlin"'),
    # code
    "repo": ("a code repository (its root or any section without its own kind)", "psf/requests"),
    "pull_request": ("a pull or merge request", "psf/requests#6712"),
    "issue": ("an issue in a repository or error tracker", "psf/requests#1"),
    "commit": ("one commit (short hash)", "psf/requests@5fa59ba"),
    "code": ("a file or folder of code, a notebook or a playground", "psf/requests/setup.py"),
    "gist": ("a gist or snippet", "octocat/6cad326836d38bd3a7ae"),
    "package": ("a package in a registry", "requests"),
    "model": ("a machine-learning model", "meta-llama/Llama-2-7b"),
    "dataset": ("a dataset", "squad"),
    "app": ("a hosted demo app (Hugging Face Spaces)", "gradio/hello_world"),
    "competition": ("a data-science competition", "titanic"),
    "local_dev": ("a local development server (loopback, any port)", "localhost:8501"),
    # documents and work tools
    "doc": ("a text document (Google Docs, Word, Notion, Writer …)", "1Bctq8S86erXi0o5"),
    "sheet": ("a spreadsheet or database table", "1xIxY2YIN83JYjsS"),
    "slides": ("a slide deck", "1xIxY2YIN83JYjsS"),
    "form": ("a form", "1FAIpQLSd"),
    "drive": ("a folder, file list or file in a cloud drive", "my-drive"),
    "design": ("a design file, whiteboard or drawing", "aBcDeFgHiJ"),
    "document": ("a document file: a PDF in a browser or viewer", "report.pdf"),
    "email": ("a mailbox view or one e-mail thread", "inbox"),
    "calendar": ("a calendar view", "week"),
    "meeting": ("a video meeting", "abc-defg-hij"),
    "booking": ("a scheduling or reservation page", "jane/30min"),
    "event": ("an event page (meetups, conferences)", "ai-meetup-berlin"),
    "ticket": ("a ticket or task in a tracker", "PROJ-123"),
    "record": ("a CRM or database record", "Account/001xx000003DGb2"),
    "dashboard": ("a console, dashboard, board or admin view", "aws/ec2"),
    "wiki": ("a wiki page", "en:Python (programming language)"),
    "docs": ("a documentation page (host and path)", "docs.python.org/3/library/sqlite3"),
    "paper": ("a scholarly paper", "arXiv:1706.03762"),
    "ai_chat": ("a conversation with an AI assistant", "chatgpt"),
    "course": ("an online course", "machine-learning"),
    # media and shopping
    "video": ("one video", "dQw4w9WgXcQ"),
    "playlist": ("a video or music playlist", "PL590L5WQmH8fJ54F"),
    "music": ("a track, album, artist or playlist in a music app", "track/4uLU6hMCjMI75M1A2tKUQC"),
    "product": ("a product or app listing", "B08N5WRWNW"),
    "maps": ("a map, place or route", "Eiffel Tower"),
    # the rest
    "settings": ("an account or app settings page", "profile"),
    "login": ("a sign-in, sign-up, SSO, password or invitation step (host only)", "github.com"),
    "redirect": ("a redirect or link-shortener hop (the target's host only)", "example.com"),
    "browser": ("a page of the browser itself", "about:newtab"),
    "file": ("a file: open in an editor (titles), or a local file in the browser", "main.py"),
    "page": ("any other page: the host only", "example.com"),
    # kinds only window titles give
    "project": ("an editor window showing no file: its project", "actframes"),
    "cwd": ("a terminal's working directory", "~/src/actframes"),
    "command": ("a terminal's running program and first plain argument", "vim main.py"),
    "folder": ("a folder in a file manager", "Downloads"),
}
