"""The day as a picture: one self-contained HTML file (inline CSS and JavaScript, no
network), drawn from the same document as the JSON so the numbers agree to the second.

What it shows and how it is built is in docs/report.md. The rules that keep it honest:

- Everything on the page is rendered here, server-side, from the document: one lane per
  (app, site), one bar per frame, one mark per interruption, shaded gaps and away
  periods, the ledger as bars. The page is readable (and countable) without running any
  script; the small inline script only fills the detail panel on hover or focus.
- The whole document is embedded as JSON in ``<script type="application/json">`` with
  ``<``, ``>``, ``&``, U+2028 and U+2029 escaped, so no title can close the script, and
  the detail panel builds its text with ``textContent``, never as markup.
- Every other string goes through ``html.escape``. A Content-Security-Policy allows no
  network at all and only this module's own script (by its hash).
- A pure function of the document: no clock, no randomness, integer arithmetic for
  positions, colours from CRC-32 (Python's ``hash`` is salted per process), and times
  sliced from the document's ISO strings, which already carry the zone's offset.

The parts: ``html_view`` (the sections), ``html_layout`` (time range, lanes, colours,
positions), ``html_assets`` (CSS, script, CSP).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from .html_assets import CSP, CSS, SCRIPT
from .html_layout import Doc
from .html_shares import shares_sections
from .html_view import HtmlView


def to_html(doc: Doc) -> str:
    """Render ``doc`` (schema_version 1) as one self-contained HTML page."""
    view = HtmlView(doc)
    body = [
        '<a class="skip" href="#ledger">Skip to the ledger</a>',
        view.header(),
        "<main>",
        view.timeline(),
        view.ledger(),
        shares_sections(doc),
        view.frames_table(),
        view.notes(),
        "</main>",
    ]
    return page(view.title, body, embed_json(doc))


def page(title: str, body: Sequence[str], embedded: str, css: str = CSS) -> str:
    """A whole page around ``body``: the policy, the style, ``embedded`` (JSON made safe
    by ``embed_json``) for the script, and the script, the only one the policy allows."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">',
        '<meta name="generator" content="actframes">',
        # An empty icon, so the browser never asks the network (or disk) for one.
        '<link rel="icon" href="data:,">',
        f"<title>{escape(title)}</title>",
        f"<style>{css}</style>",
        "</head>",
        "<body>",
        *body,
        f'<script type="application/json" id="actframes-doc">{embedded}</script>',
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def embed_json(doc: object) -> str:
    """The document as JSON safe inside a script element: ``<``, ``>`` and ``&`` as
    \\u escapes (so ``</script>`` or ``<!--`` in a title cannot end or bend the element),
    and U+2028/U+2029, which old JavaScript parsers read as line ends."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for ch, esc in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, esc)
    return text
