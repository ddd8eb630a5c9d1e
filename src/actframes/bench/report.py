"""The question-answering benchmark end to end, and its outputs.

``run_qa`` loads each store with the oracle, generates the questions of each day,
renders the representations with the library, has the answerer (the deterministic reader
or a model) answer from each, and scores the answers. ``write_outputs`` writes
``results.json``, ``report.md`` (tables in the paper's shape) and ``chart.png`` (drawn with
a small pure-Python PNG encoder: zlib + struct, no plotting library).
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..emit.context import DEFAULT_BUDGET
from ..emit.tokens import ENCODING, count_tokens
from .answerers import Answerer, build_prompt, parse_reply, summarize
from .oracle import OracleError, day_facts, load_store, store_days
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
            rendered = render_day(ds.db, day, ds.tz, budget=config.budget, source=ds.source)
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
    paths["png"].write_bytes(chart_png(results))
    return paths


# ---------------------------------------------------------------------------- PNG chart

# A 5x7 bitmap font: each glyph is 7 rows of 5 pixels ('#' on).
_FONT_ROWS = {
    "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#",
    "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
    "C": ".###.|#...#|#....|#....|#....|#...#|.###.",
    "D": "####.|#...#|#...#|#...#|#...#|#...#|####.",
    "E": "#####|#....|#....|####.|#....|#....|#####",
    "F": "#####|#....|#....|####.|#....|#....|#....",
    "G": ".###.|#...#|#....|#.###|#...#|#...#|.####",
    "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.",
    "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
    "L": "#....|#....|#....|#....|#....|#....|#####",
    "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#",
    "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.",
    "P": "####.|#...#|#...#|####.|#....|#....|#....",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
    "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S": ".####|#....|#....|.###.|....#|....#|####.",
    "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
    "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.",
    "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.",
    "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..",
    "Z": "#####|....#|...#.|..#..|.#...|#....|#####",
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.",
    "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####",
    "3": "#####|...#.|..#..|...#.|....#|#...#|.###.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
    "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": "..##.|.#...|#....|####.|#...#|#...#|.###.",
    "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.",
    "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
    " ": ".....|.....|.....|.....|.....|.....|.....",
    "-": ".....|.....|.....|#####|.....|.....|.....",
    "_": ".....|.....|.....|.....|.....|.....|#####",
    "%": "##..#|##..#|...#.|..#..|.#...|#..##|#..##",
    ":": ".....|.##..|.##..|.....|.##..|.##..|.....",
    ".": ".....|.....|.....|.....|.....|.##..|.##..",
    "/": "....#|....#|...#.|..#..|.#...|#....|#....",
    "+": ".....|..#..|..#..|#####|..#..|..#..|.....",
    "(": "...#.|..#..|.#...|.#...|.#...|..#..|...#.",
    ")": ".#...|..#..|...#.|...#.|...#.|..#..|.#...",
    "#": ".#.#.|.#.#.|#####|.#.#.|#####|.#.#.|.#.#.",
    "=": ".....|.....|#####|.....|#####|.....|.....",
    ",": ".....|.....|.....|.....|.##..|..#..|.#...",
    "@": ".###.|#...#|#.###|#.#.#|#.###|#....|.####",
    "?": ".###.|#...#|....#|...#.|..#..|.....|..#..",
}
_FONT = {ch: [row for row in rows.split("|")] for ch, rows in _FONT_ROWS.items()}

_KIND_LABELS = {
    "top_app": "TOP APP",
    "app_minutes": "APP MIN",
    "site_minutes": "SITE MIN",
    "distinct_apps": "N APPS",
    "compare_apps": "COMPARE",
    "app_used": "APP USED",
    "site_visited": "VISITED",
    "absent_app": "ABS APP",
    "absent_site": "ABS SITE",
    "first_activity": "FIRST",
    "last_activity": "LAST",
    "longest_frame": "LONGEST",
    "entity_viewed": "ENTITY",
    "keys_in_app": "KEYS",
    "away_periods": "AWAY",
    "all": "ALL",
}
_COLORS = {
    "raw": (140, 140, 140),
    "context": (31, 119, 180),
    "json": (255, 127, 14),
    "summary": (214, 39, 40),
}
_WHITE = (255, 255, 255)
_INK = (30, 30, 30)
_GRID = (225, 225, 225)


class Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.w, self.h = width, height
        self.px = bytearray(bytes(_WHITE) * (width * height))

    def rect(self, x: int, y: int, w: int, h: int, color: tuple[int, int, int]) -> None:
        x0, y0, x1, y1 = max(0, x), max(0, y), min(self.w, x + w), min(self.h, y + h)
        if x1 <= x0 or y1 <= y0:
            return
        line = bytes(color) * (x1 - x0)
        for yy in range(y0, y1):
            i = (yy * self.w + x0) * 3
            self.px[i : i + len(line)] = line

    def text(
        self, x: int, y: int, s: str, color: tuple[int, int, int] = _INK, scale: int = 1
    ) -> int:
        for ch in s.upper():
            glyph = _FONT.get(ch, _FONT["?"])
            for r, row in enumerate(glyph):
                for c, bit in enumerate(row):
                    if bit == "#":
                        self.rect(x + c * scale, y + r * scale, scale, scale, color)
            x += 6 * scale
        return x

    def png(self) -> bytes:
        return encode_png(self.w, self.h, bytes(self.px))


def text_width(s: str, scale: int = 1) -> int:
    return len(s) * 6 * scale - scale


def encode_png(width: int, height: int, rgb: bytes) -> bytes:
    """An 8-bit RGB PNG: signature, IHDR, one zlib IDAT (filter 0 per row), IEND."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + tag
            + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    stride = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def chart_png(results: dict[str, Any]) -> bytes:
    """Accuracy by question type (and overall), one bar per representation."""
    overall = results["summary"]["overall"]
    reps = [r for r in results["representations"] if overall[r]["questions"]]
    kinds = [k for k in KINDS if any(k in overall[r]["by_kind"] for r in reps)] + ["all"]
    bar = 12
    group = max(56, bar * len(reps) + 12)
    left, top, plot_h, bottom = 52, 78, 220, 40
    width = left + group * len(kinds) + 20
    height = top + plot_h + bottom
    c = Canvas(width, height)
    who = results["model"]
    c.text(left, 10, f"QA ACCURACY BY QUESTION TYPE (ANSWERER: {who})"[:80], scale=2)
    x = left
    for rep in reps:
        c.rect(x, 40, 10, 10, _COLORS.get(rep, _INK))
        x = c.text(x + 14, 42, REP_LABELS.get(rep, rep)) + 16
    for pct in (0, 25, 50, 75, 100):
        y = top + plot_h - pct * plot_h // 100
        c.rect(left, y, width - left - 20, 1, _GRID if pct else _INK)
        label = f"{pct}%"
        c.text(left - 6 - text_width(label), y - 3, label)
    for i, kind in enumerate(kinds):
        gx = left + i * group + (group - bar * len(reps)) // 2
        for j, rep in enumerate(reps):
            t = overall[rep]
            if kind == "all":
                acc = t["accuracy"]
            else:
                slot = t["by_kind"].get(kind)
                acc = slot[0] / slot[1] if slot and slot[1] else None
            if acc is None:
                continue
            h = round(acc * plot_h)
            c.rect(gx + j * bar, top + plot_h - h, bar - 2, h, _COLORS.get(rep, _INK))
        label = _KIND_LABELS.get(kind, kind.upper())[:9]
        lx = left + i * group + (group - text_width(label)) // 2
        c.text(lx, top + plot_h + 10, label)
    return c.png()
