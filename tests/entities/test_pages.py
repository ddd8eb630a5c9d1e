"""Pages in compiled frames: typed references, and views counted per page."""

from __future__ import annotations

from tests.compile.caps import cap, compile_, snap

PR = "https://github.com/psf/requests/pull/6712"
ISSUE = "https://github.com/psf/requests/issues/1"


def _pages(urls: list[str | None], app: str = "Google Chrome") -> list[dict[str, object]]:
    # Each window shows its address as its title (no label: test_labels has those).
    rows = [snap(i, 10.0 * i, app, u, u or "") for i, u in enumerate(urls, start=1)]
    doc = compile_(cap(rows))
    frames = [f for f in doc["frames"] if f.get("site") == "github.com"]
    assert len(frames) == 1
    return frames[0]["pages"]  # type: ignore[no-any-return]


def test_a_b_a_counts_a_twice() -> None:
    assert _pages([PR, ISSUE, PR]) == [
        {"kind": "pull_request", "entity": "psf/requests#6712", "count": 2},
        {"kind": "issue", "entity": "psf/requests#1"},
    ]


def test_one_long_view_is_one() -> None:
    assert _pages([PR, PR, PR]) == [{"kind": "pull_request", "entity": "psf/requests#6712"}]


def test_one_page_under_two_urls_is_one_view() -> None:
    # The PR, then its files tab, then a comment anchor: one page, one view.
    assert _pages([PR, PR + "/files", PR + "#issuecomment-1"]) == [
        {"kind": "pull_request", "entity": "psf/requests#6712"}
    ]
