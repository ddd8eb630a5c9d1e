"""The question-answering benchmark end to end, and its outputs.

``run_qa`` loads each store with the oracle, generates the questions of each day,
renders the representations with the library, has the answerer (the deterministic reader
or a model) answer from each, and scores the answers. ``write_outputs`` writes
``results.json``, ``report.md`` (tables in the paper's shape) and ``chart.png`` (drawn by
``chart``: a small pure-Python PNG encoder, zlib + struct, no plotting library).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..emit.context import DEFAULT_BUDGET
from ..emit.token_count import ENCODING, count_tokens
from .answerers import Answerer, build_prompt, parse_reply, summarize
from .chart import chart_png
from .oracle import day_facts, store_days
from .oracle_store import OracleError, load_store
from .questions import ABSENT_KINDS, DURATION_KINDS, KINDS, Question, generate
from .readers import answer, read
from .scoring import score
from .tokens_report import render_day

DEFAULT_REPS = ("raw", "context", "json")
REP_LABELS = {
    "raw": "raw rows",
    "context": "context block",
    "json": "JSON document",
    "summary": "LLM summary",
}
DEFAULT_MAX_PROMPT_TOKENS = 180_000


@dataclass
class Dataset:
    name: str
    db: Path
    tz: str
    days: list[str] | None = None  # None: every day with rows
    source: str | None = None
    audible_active: bool = True  # False: --no-audible-active (``sources.open_source``)


@dataclass
class QAConfig:
    model: str = "none"
    reps: tuple[str, ...] = DEFAULT_REPS
    budget: int = DEFAULT_BUDGET
    seed: int = 0
    max_prompt_tokens: int = DEFAULT_MAX_PROMPT_TOKENS
    progress: Callable[[str], None] = field(default=lambda _msg: None)


def run_qa(
    datasets: Sequence[Dataset], config: QAConfig, answerer: Answerer | None = None
) -> dict[str, Any]:
    """Every dataset's days, questions, answers and scores, and the summary tables."""
    reps = list(config.reps)
    if answerer is not None and "summary" not in reps:
        reps.append("summary")
    days_out: list[dict[str, Any]] = []
    for ds in datasets:
        try:
            store = load_store(ds.db)
        except OracleError as exc:
            from ..errors import SourceError

            raise SourceError(str(exc)) from exc
        for day in ds.days or store_days(store, ds.tz):
            config.progress(f"{ds.name} {day}")
            facts = day_facts(store, day, ds.tz)
            questions = generate(facts, store, config.seed)
            if not questions:
                continue
            rendered = render_day(
                ds.db,
                day,
                ds.tz,
                budget=config.budget,
                source=ds.source,
                audible_active=ds.audible_active,
            )
            texts = dict(rendered.texts)
            day_out: dict[str, Any] = {
                "dataset": ds.name,
                "day": day,
                "tz": ds.tz,
                "source": rendered.kind,
                "rows": rendered.rows,
                "questions": [q.to_json() for q in questions],
                "representations": {},
            }
            for rep in reps:
                day_out["representations"][rep] = _answer_rep(
                    rep, texts, day, ds.tz, questions, answerer, config
                )
            days_out.append(day_out)
    return {
        "encoding": ENCODING,
        "model": config.model,
        "budget": config.budget,
        "seed": config.seed,
        "representations": reps,
        "datasets": [
            {"name": d.name, "db": str(d.db), "tz": d.tz, "days": d.days} for d in datasets
        ],
        "days": days_out,
        "summary": summarize_results(days_out, reps),
    }


def _answer_rep(
    rep: str,
    texts: dict[str, str],
    day: str,
    tz: str,
    questions: list[Question],
    answerer: Answerer | None,
    config: QAConfig,
) -> dict[str, Any]:
    if rep == "summary":
        if answerer is None:
            return {"status": "skipped: a summary needs a model", "tokens": None, "answers": {}}
        texts["summary"] = summarize(answerer, texts["raw"], day, tz)
    if rep not in texts:
        return {"status": f"skipped: no {rep} text", "tokens": None, "answers": {}}
    text = texts[rep]
    tokens = count_tokens(text)
    out: dict[str, Any] = {"status": "ok", "tokens": tokens}
    if rep == "summary":
        out["text"] = text
    if answerer is None:
        k = read(rep, text, day)
        if k is None:
            return {**out, "status": "skipped: no deterministic reader", "answers": {}}
        raw_answers = {q.qid: answer(q, k) for q in questions}
    else:
        prompt = build_prompt(rep, text, day, tz, questions)
        n = count_tokens(prompt)
        if n > config.max_prompt_tokens:
            return {
                **out,
                "status": f"skipped: prompt of {n:,} tokens exceeds {config.max_prompt_tokens:,}",
                "answers": {},
            }
        config.progress(f"  {rep}: asking {answerer.name} ({n:,} tokens)")
        reply = answerer.complete(prompt)
        out["reply"] = reply
        raw_answers = parse_reply(reply, questions)
    out["answers"] = {
        q.qid: {"answer": raw_answers.get(q.qid), **score(q, raw_answers.get(q.qid)).to_json()}
        for q in questions
    }
    return out


# ---------------------------------------------------------------------------- summary


def summarize_results(days: list[dict[str, Any]], reps: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for rep in reps:
        out[rep] = _tally([d for d in days], rep)
    by_dataset: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(d["dataset"] for d in days):
        mine = [d for d in days if d["dataset"] == name]
        by_dataset[name] = {rep: _tally(mine, rep) for rep in reps}
    return {"overall": out, "by_dataset": by_dataset}


def _tally(days: list[dict[str, Any]], rep: str) -> dict[str, Any]:
    n = correct = absent = halluc = 0
    errors: list[float] = []
    by_kind: dict[str, list[int]] = {}
    tokens: list[int] = []
    ran = 0
    for d in days:
        r = d["representations"].get(rep)
        if not r or r["status"] != "ok":
            continue
        ran += 1
        tokens.append(r["tokens"])
        for q in d["questions"]:
            a = r["answers"][q["qid"]]
            n += 1
            correct += a["correct"]
            slot = by_kind.setdefault(q["kind"], [0, 0])
            slot[0] += a["correct"]
            slot[1] += 1
            if q["kind"] in ABSENT_KINDS:
                absent += 1
                halluc += bool(a["hallucinated"])
            if q["kind"] in DURATION_KINDS and a["rel_error"] is not None:
                errors.append(a["rel_error"])
    return {
        "days": ran,
        "questions": n,
        "correct": correct,
        "accuracy": correct / n if n else None,
        "by_kind": by_kind,
        "absent_probes": absent,
        "hallucinated": halluc,
        "hallucination": halluc / absent if absent else None,
        "duration_answers": len(errors),
        "magnitude_error": sum(errors) / len(errors) if errors else None,
        "tokens_mean": round(sum(tokens) / len(tokens)) if tokens else None,
    }


# ---------------------------------------------------------------------------- Markdown


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def markdown(results: dict[str, Any], misses: int = 40) -> str:
    reps: list[str] = results["representations"]
    overall = results["summary"]["overall"]
    days = results["days"]
    nq = sum(len(d["questions"]) for d in days)
    model = results["model"]
    who = "none (the deterministic reader)" if model == "none" else model
    lines = [
        "# Question answering against the oracle",
        "",
        f"Answerer: {who} · {nq} questions over {len(days)} days"
        f" · seed {results['seed']} · context budget {results['budget']} {ENCODING} tokens",
        "",
        "| representation | tokens/day (mean) | accuracy | hallucination (absent-fact probes)"
        " | duration error (mean) |",
        "|---|---:|---:|---:|---:|",
    ]
    for rep in reps:
        t = overall[rep]
        if not t["questions"]:
            status = next(
                (d["representations"][rep]["status"] for d in days if rep in d["representations"]),
                "not run",
            )
            lines.append(f"| {REP_LABELS.get(rep, rep)} | n/a | {status} | | |")
            continue
        lines.append(
            f"| {REP_LABELS.get(rep, rep)} | {t['tokens_mean']:,} | {_pct(t['accuracy'])}"
            f" ({t['correct']}/{t['questions']}) | {_pct(t['hallucination'])}"
            f" ({t['hallucinated']}/{t['absent_probes']}) | {_pct(t['magnitude_error'])} |"
        )
    ran = [r for r in reps if overall[r]["questions"]]
    lines += ["", "## Accuracy by question type", ""]
    lines.append("| question type | n | " + " | ".join(REP_LABELS.get(r, r) for r in ran) + " |")
    lines.append("|---|---:|" + "---:|" * len(ran))
    for kind in KINDS:
        counts = [overall[r]["by_kind"].get(kind) for r in ran]
        if not any(counts):
            continue
        n = max(c[1] for c in counts if c)
        cells = [f"{100 * c[0] / c[1]:.0f}%" if c else "n/a" for c in counts]
        lines.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
    by_ds = results["summary"]["by_dataset"]
    if by_ds:
        lines += ["", "## By dataset", ""]
        lines.append(
            "| dataset | days | questions | " + " | ".join(REP_LABELS.get(r, r) for r in ran) + " |"
        )
        lines.append("|---|---:|---:|" + "---:|" * len(ran))
        for name, t in by_ds.items():
            mine = [d for d in days if d["dataset"] == name]
            cells = [_pct(t[r]["accuracy"]) for r in ran]
            nq_ds = sum(len(d["questions"]) for d in mine)
            lines.append(f"| {name} | {len(mine)} | {nq_ds} | " + " | ".join(cells) + " |")
    wrong = [
        (rep, d, q)
        for d in days
        for rep in ran
        if d["representations"][rep]["status"] == "ok"
        for q in d["questions"]
        if not d["representations"][rep]["answers"][q["qid"]]["correct"]
    ]
    if wrong:
        lines += [
            "",
            f"## Misses ({len(wrong)}{f', first {misses}' if len(wrong) > misses else ''})",
            "",
        ]
        for rep, d, q in wrong[:misses]:
            got = d["representations"][rep]["answers"][q["qid"]]["answer"]
            lines.append(
                f"- {rep} · {d['dataset']} {q['qid']} ({q['kind']}): truth {q['truth']!s}"
                f" · answer {_show(got, q['kind'])}"
            )
    return "\n".join(lines) + "\n"


def _show(value: Any, kind: str = "") -> str:
    if kind in ("first_activity", "last_activity", "entity_viewed") and isinstance(
        value, int | float
    ):
        return _hhmm(value)
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, dict) and "start" in value:
        return f"{value.get('app')} @ {_hhmm(value['start'])}"
    if isinstance(value, list):
        return (
            ", ".join(
                f"{_hhmm(s)}-{_hhmm(e)}" if isinstance(s, int | float) else str((s, e))
                for s, e in value
            )
            or "none"
        )
    return "unknown" if value is None else str(value)


def _hhmm(m: Any) -> str:
    if not isinstance(m, int | float):
        return str(m)
    return f"{int(m) // 60:02d}:{int(m) % 60:02d}"


def write_outputs(results: dict[str, Any], out: Path) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "results.json", "md": out / "report.md", "png": out / "chart.png"}
    paths["json"].write_text(
        json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    paths["md"].write_text(markdown(results), encoding="utf-8")
    paths["png"].write_bytes(chart_png(results, REP_LABELS))
    return paths
