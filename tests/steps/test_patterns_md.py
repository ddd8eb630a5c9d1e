"""``patterns --format md``: a Markdown list in words, grouped by kind, screen text
unable to start markup, unknown kinds still shown."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.steps.patterns_md import to_markdown

CLICK = {
    "kind": "repeated_click",
    "app": "Google Chrome",
    "op": "click",
    "target": {"role": "button", "name": "Save *now* [x](http://evil)\n# hi"},
    "count": 5,
    "sequences": 4,
    "first": "2026-11-25T09:37:01+01:00",
    "last": "2026-11-27T10:01:00+01:00",
    "events": [1, 2, 3, 4, 5],
}
LOOP = {
    "kind": "url_loop",
    "template": "crm.acme.test/contacts/`new`",
    "day": "2026-11-25",
    "count": 8,
    "first": "2026-11-25T10:26:31+01:00",
    "last": "2026-11-25T10:47:34+01:00",
    "rows": [7, 8],
}
NEW = {"kind": "something_new", "n": 3, "events": [9]}


def test_sections_bullets_and_evidence() -> None:
    md = to_markdown([LOOP, CLICK, NEW], "2026-11-25", "2026-12-01", "Europe/Berlin")
    lines = md.splitlines()
    assert lines[0] == "# Patterns, 2026-11-25 to 2026-12-01 (Europe/Berlin)"
    heads = [line for line in lines if line.startswith("## ")]
    assert heads == [
        "## Repeated clicks (1)",
        "## Pages visited over and over (1)",
        "## something_new (1)",
    ]
    bullets = [line for line in lines if line.startswith("- ")]
    assert len(bullets) == 3
    assert bullets[0].startswith("- click button “Save \\*now\\* \\[x\\](http://evil) \\# hi” in ")
    assert (
        "5 times in 4 sequence(s), 2026-11-25 09:37 … 2026-11-27 10:01 (evidence: 5 events)"
        in (bullets[0])
    )
    assert bullets[1] == (
        "- `crm.acme.test/contacts/'new'` — 8 visits on 2026-11-25, "
        "2026-11-25 10:26 … 2026-11-25 10:47 (evidence: 2 rows)"
    )
    assert bullets[2] == '- `{"kind": "something_new", "n": 3}` (evidence: 1 events)'
    assert not any(line.startswith("- {") for line in lines)


def test_an_empty_window_says_so() -> None:
    md = to_markdown([], "2026-11-25", "2026-12-01", "UTC")
    assert "No patterns in this window" in md


@settings(max_examples=200, deadline=None)
@given(name=st.text(max_size=40), app=st.text(max_size=20))
def test_screen_text_never_breaks_the_list(name: str, app: str) -> None:
    pattern = {**CLICK, "app": app, "target": {"role": "button", "name": name}}
    md = to_markdown([pattern], "2026-11-25", "2026-12-01", "UTC")
    lines = md.splitlines()
    assert len(lines) == 5  # title, blank, section, blank, the one bullet
    bullet = lines[4]
    assert bullet.startswith("- click button “")
    # No markup can open inside the quoted text: every special character is escaped.
    quoted = bullet[len("- click button “") :].split("” in ", 1)[0]
    for i, ch in enumerate(quoted):
        if ch in "`*_[]<>#|":
            assert i > 0 and quoted[i - 1] == "\\"
