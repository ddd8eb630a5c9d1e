"""Answerers: the cmd: answerer with a small script standing in for a model, prompts,
replies, and one-line errors for missing SDKs, keys and commands. No network, no keys."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from actframes.bench.answerers import (
    AnswererError,
    build_prompt,
    chunk_lines,
    make_answerer,
    parse_reply,
)
from actframes.bench.questions import Question
from actframes.bench.report import Dataset, QAConfig, run_qa
from actframes.errors import UsageError

from .fixtures import DAY, TZ, hand_native

# Stands in for a model: logs each prompt, summarizes when asked to, otherwise says "yes"
# to every yes/no question, "Code" to names and "unknown" to the rest.
FAKE_MODEL = r"""
import json, re, sys
from pathlib import Path
prompt = sys.stdin.read()
log = Path(sys.argv[1])
n = len(list(log.glob("*.txt")))
(log / f"{n:03d}.txt").write_text(prompt, encoding="utf-8")
if "Write a summary" in prompt:
    print("The person mostly used Code and a browser.")
    sys.exit(0)
answers = {}
for qid, text in re.findall(r"^(q\d\d): (.*)$", prompt, re.M):
    if "yes or no" in text:
        answers[qid] = "yes"
    elif "Which app" in text:
        answers[qid] = "Code"
    else:
        answers[qid] = "unknown"
print("Here you go:\n" + json.dumps(answers))
"""


def fake_model(tmp_path: Path) -> tuple[str, Path]:
    script = tmp_path / "fake_model.py"
    script.write_text(FAKE_MODEL, encoding="utf-8")
    log = tmp_path / "prompts"
    log.mkdir()
    cmd = " ".join(shlex.quote(str(x)) for x in (sys.executable, script, log))
    return f"cmd:{cmd}", log


def test_cmd_answerer_end_to_end(tmp_path: Path) -> None:
    spec, log = fake_model(tmp_path)
    answerer = make_answerer(spec)
    assert answerer is not None
    db = hand_native(tmp_path / "n.db")
    config = QAConfig(model=spec, reps=("raw", "context", "json"))
    results = run_qa([Dataset("hand", db, TZ, [DAY])], config, answerer)
    assert results["representations"] == ["raw", "context", "json", "summary"]
    prompts = [p.read_text() for p in sorted(log.glob("*.txt"))]
    # One prompt per representation (raw, context, json, summary), the summary written
    # from the raw rows just before it is asked about.
    assert len(prompts) == 4 + 1
    assert '"app":"Code"' in prompts[0]
    assert "# activity day 2026-03-10" in prompts[1]
    assert '"schema_version"' in prompts[2]
    assert "Write a summary" in prompts[3] and '"app":"Code"' in prompts[3]
    assert "The person mostly used Code" in prompts[4]
    overall = results["summary"]["overall"]
    for rep in ("raw", "context", "json", "summary"):
        t = overall[rep]
        assert t["questions"] == 13
        assert t["hallucination"] == 1.0  # "yes" to every absent-fact probe
        # top_app, compare_apps (Code wins), app_used and site_visited are right.
        assert t["correct"] == 4
    day = results["days"][0]
    assert day["representations"]["summary"]["text"].startswith("The person")


def test_prompt_and_reply() -> None:
    qs = [
        Question("d/q01", DAY, TZ, "top_app", "Which app?", "Code", "Code"),
        Question("d/q02", DAY, TZ, "app_minutes", "How long?", "5 min", 5.0),
    ]
    prompt = build_prompt("context", "# activity day …\n", DAY, TZ, qs)
    assert "q01: Which app?" in prompt and "q02: How long?" in prompt
    assert "<record>\n# activity day …\n</record>" in prompt
    assert parse_reply('Sure! {"q01": "Code", "Q02": 4.5}', qs) == {"d/q01": "Code", "d/q02": 4.5}
    assert parse_reply("q01: Code\nq02 = 12 minutes\n", qs) == {
        "d/q01": "Code",
        "d/q02": "12 minutes",
    }
    assert parse_reply("I cannot tell.", qs) == {}


def test_chunks_hold_whole_lines() -> None:
    text = "".join(json.dumps({"i": i, "app": "Code"}) + "\n" for i in range(50))
    chunks = chunk_lines(text, 100)
    assert len(chunks) > 1
    assert "".join(chunks) == text


def test_bad_model_specs_are_one_line_usage_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    for spec, pattern in [
        ("gpt", "use none, anthropic:NAME"),
        ("anthropic:", "use none"),
        ("anthropic:claude-sonnet-4-5", r"anthropic package|ANTHROPIC_API_KEY"),
        ("openai:gpt-4o", r"openai package|OPENAI_API_KEY"),
        ("cmd:no-such-command-here --x", "no such command"),
        ("cmd:'unbalanced", "cannot split"),
    ]:
        with pytest.raises(UsageError, match=pattern) as info:
            make_answerer(spec)
        assert "\n" not in str(info.value)
    assert make_answerer("none") is None


def test_failing_command_is_a_one_line_error(tmp_path: Path) -> None:
    script = tmp_path / "fail.py"
    script.write_text("import sys\nsys.stdin.read()\nprint('boom\\nreally', file=sys.stderr)\n"
                      "sys.exit(3)\n")  # fmt: skip
    answerer = make_answerer(f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}")
    assert answerer is not None
    with pytest.raises(AnswererError, match="exited with status 3: really"):
        answerer.complete("hello")
