"""Labels: a reference keyed by an id carries what its window title called it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from .caps import cap, compile_, snap

DOC = "https://docs.google.com/document/d/1Bctq8S86erXi0o5/edit"
QUESTION = "https://stackoverflow.com/questions/990754/how-to-leave"


def test_an_id_keyed_reference_carries_the_title_that_named_it() -> None:
    rows = [
        snap(1, 0, "Google Chrome", DOC, "Untitled document - Google Docs - Google Chrome"),
        snap(2, 5, "Google Chrome", DOC, "Design doc - Google Docs - Google Chrome"),
        snap(3, 65, "Google Chrome", QUESTION, "How to leave a virtualenv - Stack Overflow"),
        snap(4, 95, "Google Chrome", DOC, "Design doc - Google Docs - Google Chrome"),
        snap(5, 125, "Code", None, "main.py - proj - Visual Studio Code"),
        snap(6, 155, "Code"),
    ]
    doc = compile_(cap(rows))
    by_key = {(v["kind"], v["entity"]): v for v in doc["viewed"]}
    # The title held longest (60 s + 30 s) wins over the 5 s one shown first.
    design = by_key[("doc", "1Bctq8S86erXi0o5")]
    assert design["label"] == "Design doc - Google Docs"
    assert list(design) == ["kind", "entity", "label", "first", "views"]
    assert by_key[("question", "990754")]["label"] == "How to leave a virtualenv - Stack Overflow"
    # A reference read from the title is named by it already: no label.
    (file_ref,) = [v for v in doc["viewed"] if v["kind"] == "file"]
    assert "label" not in file_ref
    # Frames' pages carry it too, before the count.
    first = doc["frames"][0]
    assert first["pages"][0] == {
        "kind": "doc",
        "entity": "1Bctq8S86erXi0o5",
        "label": "Design doc - Google Docs",
    }


def test_no_label_when_the_title_is_only_the_id_or_an_address() -> None:
    gh = "https://github.com/psf/requests"
    rows = [
        snap(1, 0, "Google Chrome", gh, "psf/requests"),
        snap(2, 30, "Google Chrome", DOC, "docs.google.com/document/d/1Bctq8S86erXi0o5/edit"),
        snap(3, 60, "Google Chrome", QUESTION, "Google Chrome"),
        snap(4, 90, "Code"),
    ]
    doc = compile_(cap(rows))
    assert [v for v in doc["viewed"] if "label" in v] == []


@given(st.permutations(range(6)))
@settings(max_examples=30, deadline=None)
def test_labels_do_not_depend_on_row_order(order: list[int]) -> None:
    titles = ["Plan A - Google Docs", "Plan B - Google Docs", "Plan A - Google Docs"]
    rows = [snap(i + 1, i * 30, "Google Chrome", DOC, titles[i % 3]) for i in range(6)]
    rows.append(snap(7, 180, "Code"))
    want = compile_(cap(rows))
    got = compile_(cap([rows[i] for i in order] + [rows[6]]))
    assert got["viewed"] == want["viewed"]
    assert want["viewed"][0]["label"] == "Plan A - Google Docs"


def test_equal_times_pick_the_title_that_sorts_first() -> None:
    rows = [
        snap(1, 0, "Google Chrome", DOC, "Zeta plan - Google Docs"),
        snap(2, 30, "Google Chrome", DOC, "Alpha plan - Google Docs"),
        snap(3, 60, "Code"),
    ]
    (v,) = compile_(cap(rows))["viewed"]
    assert v["label"] == "Alpha plan - Google Docs"


def test_importing_labels_compiles_no_pattern() -> None:
    """The address pattern is built on its first use from the machine's pattern cache
    (``fast/recache.py``), as the rule tables' are: importing the module compiles none."""
    import subprocess
    import sys

    code = (
        "import re\n"
        "from actframes.compile import page_refs\n"  # labels' own imports first
        "from actframes.fast import lazyre\n"
        "seen = []\n"
        "real = re._compile\n"
        "re._compile = lambda p, f: seen.append(p) or real(p, f)\n"
        "from actframes.compile import labels\n"
        "print(len(seen))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "0"
