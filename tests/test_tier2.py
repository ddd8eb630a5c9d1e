"""Tier 2: validation with precise reasons, stripping back to Tier 1, the rules producer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from actframes.api import compile_path, to_json
from actframes.errors import UsageError
from actframes.tier2 import label_frames, load_rules, merge, strip, validate

from .builders import run_cli
from .test_golden import build

RULES = """
[[label]]
name = "actframes"
title = "actframes"

[[label]]
name = "requests-review"
site = "github\\\\.com"
entity = "^psf/requests"

[[label]]
name = "never"
app = "^Photoshop$"
"""


@pytest.fixture()
def doc(tmp_path: Path) -> dict[str, Any]:
    return compile_path(build(tmp_path / "g.db"), "2026-03-10", "Europe/Berlin")


def test_rules_producer_labels_matching_frames(doc: dict[str, Any]) -> None:
    entries = label_frames(doc, load_rules(RULES))
    assert entries == [
        {
            "label": "actframes.rules/actframes",
            "confidence": "high",
            "evidence": {"frames": ["F1", "F9"]},
        },
        {
            "label": "actframes.rules/requests-review",
            "confidence": "high",
            "evidence": {"frames": ["F5", "F7"]},
        },
    ]
    labelled = merge(doc, entries)
    assert validate(labelled) == []
    assert list(labelled)[-1] == "inferred"


def test_strip_gives_the_tier1_document_byte_for_byte(doc: dict[str, Any]) -> None:
    labelled = merge(doc, label_frames(doc, load_rules(RULES)))
    assert to_json(strip(labelled)) == to_json(doc)
    assert "inferred" not in strip(labelled)


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        (
            {"label": "project", "confidence": "high", "evidence": {"frames": ["F1"]}},
            "not namespaced",
        ),
        (
            {"label": "x.y/p", "confidence": "sure", "evidence": {"frames": ["F1"]}},
            "confidence 'sure' is not one of high, medium, speculative",
        ),
        (
            {"label": "x.y/p", "confidence": "high", "evidence": {"frames": ["F404"]}},
            "evidence names frame 'F404', which the document does not have",
        ),
        (
            {"label": "x.y/p", "confidence": "high", "evidence": {"rows": "500"}},
            "evidence names row 500, which no frame of the document cites",
        ),
        (
            {"label": "x.y/p", "confidence": "high", "evidence": {}},
            "evidence must name frames or rows",
        ),
        ({"label": "x.y/p", "confidence": "high", "evidence": {"rows": "a-b"}}, "compact ranges"),
        (
            {"label": "x.y/p", "confidence": "high", "evidence": {"frames": ["F1"]}, "why": 1},
            "unknown key 'why'",
        ),
        ("text", "an entry must be an object"),
    ],
)
def test_malformed_entries_are_refused_with_a_reason(
    doc: dict[str, Any], entry: Any, reason: str
) -> None:
    bad = {**doc, "inferred": [entry]}
    problems = validate(bad)
    assert problems and any(reason in p.reason for p in problems), problems
    assert problems[0].line().startswith("inferred[0]: ")
    with pytest.raises(UsageError):
        merge(doc, [entry])


def test_rows_evidence_within_cited_rows_is_accepted(doc: dict[str, Any]) -> None:
    ok = {
        **doc,
        "inferred": [
            {"label": "x.y/p", "confidence": "medium", "evidence": {"rows": "1-2,4"}, "note": "why"}
        ],
    }
    assert validate(ok) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[label]]\nname='x'\napp='('", "bad regex"),
        ("[[label]]\napp='x'", "needs a name"),
        ("[[label]]\nname='x'", "matches nothing"),
        ("[[label", "not valid TOML"),
        ("label = 5", "must be \\[\\[label\\]\\] tables"),
        ("[label]\nname='x'\napp='x'", "must be \\[\\[label\\]\\] tables"),
        ("[[label]]\nname='x'\napp=5", "a regex is text, not 5"),
        ("[[label]]\nname='x'\napp='x'\ntitle=['a']", "title: a regex is text"),
    ],
)
def test_bad_rules_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        load_rules(text)


def test_cli_label_validate_strip(tmp_path: Path, doc: dict[str, Any]) -> None:
    src = tmp_path / "doc.json"
    src.write_text(to_json(doc), encoding="utf-8")
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES, encoding="utf-8")
    labelled = run_cli("tier2", "label", str(src), "--rules", str(rules))
    assert labelled.returncode == 0, labelled.stderr
    out = tmp_path / "labelled.json"
    out.write_text(labelled.stdout, encoding="utf-8")
    assert run_cli("tier2", "validate", str(out)).returncode == 0
    stripped = run_cli("tier2", "strip", str(out))
    assert stripped.stdout == to_json(doc)
    broken = tmp_path / "broken.json"
    broken.write_text(labelled.stdout.replace('"high"', '"certain"', 1), encoding="utf-8")
    refused = run_cli("tier2", "validate", str(broken))
    assert refused.returncode == 1 and "confidence 'certain'" in refused.stdout
