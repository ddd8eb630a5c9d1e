"""``actframes bench routines``: R and h in the paper's shape, and routine detection
scored against labelled UI logs.

Per corpus: the routines mined (rules printed), h raw and delegable in-sample and
out-of-sample (``recurrence``), R per routine under a cost model (``overhead``: medians,
spread, and how the median moves when each parameter is halved or doubled). For UI logs
with labels (``caseID``, or ``Task`` + ``idx``): precision and recall of the routines'
occurrences against the labelled task instances, overall and per origin of the task
(``TASK_ORIGIN``: real recordings of a person against synthetic or generated streams).

Scoring. Each occurrence's steps carry the labels of the rows they stand for; the
occurrence belongs to the (task, instance) most of its steps carry, and the routine to
the task most of its steps carry. Precision = occurrence steps whose label is their
occurrence's instance and whose task is the routine's / all occurrence steps. Recall =
labelled instances that are the instance of at least one occurrence of a routine of
their own task / all labelled instances.

False routines. Each segment's steps are put in random order (seeds ``SHUFFLE_SEEDS``),
which keeps every action's frequency and segment and destroys any order, and mined with
the same rules: every routine found there is chance (target: none).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..api import open_store
from ..routines.mine import Corpus, Rules, mine
from ..routines.overhead import CostModel, cost, sensitivity, summary
from ..routines.recurrence import in_sample, out_of_sample, pct, split_days
from ..routines.store_mining import ALL_END_MS, ALL_START_MS

# Where each labelled task of the published logs comes from (their SOURCE notes).
TASK_ORIGIN: dict[str, str] = {
    "Reimbursement": "real",
    "StudentRecord": "real",
    "CopyPasteStuff": "synthetic",
    "TravelRequest": "synthetic",
}
FIORI_PREFIX = "TF_"  # SAP Fiori task flows: recorded, timing not human-paced
SHUFFLE_SEEDS = (0, 1, 2)


def shuffled_routines(
    segs: Sequence[Sequence[Any]], rules: Rules, seeds: Sequence[int] = SHUFFLE_SEEDS
) -> list[int]:
    """Routines mined on the segments with each one's steps shuffled, per seed."""
    out = []
    for seed in seeds:
        rnd = random.Random(seed)
        shuffled = []
        for seg in segs:
            steps = list(seg)
            rnd.shuffle(steps)
            shuffled.append(steps)
        out.append(len(mine(Corpus(shuffled), rules)))
    return out


def origin(task: str) -> str:
    if task in TASK_ORIGIN:
        return TASK_ORIGIN[task]
    return "fiori" if task.startswith(FIORI_PREFIX) else "unknown"


class Target(NamedTuple):
    name: str
    path: Path
    zone: str
    rules: Rules
    labelled: bool  # a UI log with task labels


def measure(
    t: Target,
    model: CostModel,
    counter: Callable[[str], int],
    holdout_days: int | None = None,
) -> dict[str, Any]:
    with open_store(t.path, disk_cache=False) as store:
        found = store.routines(t.zone, ALL_START_MS, ALL_END_MS, t.rules)
    screen = next(iter(found.screens.values()), None)
    m = model._replace(screen_w=screen[0], screen_h=screen[1]) if screen else model
    costs = [cost(r, m, counter) for r in found.routines]
    train, test, how = split_days(found.segs, holdout_days)
    ctrain, ctest = Corpus(train), Corpus(test)
    mined_train = mine(ctrain, t.rules)
    out: dict[str, Any] = {
        "name": t.name,
        "rules": t.rules._asdict(),
        "cost_model": m.as_dict(),
        "steps": found.corpus.n_steps,
        "segments": len(found.segs),
        "days": len({s.day for s in found.steps}),
        "routines": len(found.routines),
        "false_routines_shuffled": {
            "seeds": list(SHUFFLE_SEEDS),
            "routines": shuffled_routines(found.segs, t.rules),
        },
        "h_in_sample": in_sample(found.corpus, found.mined, t.rules).as_dict(),
        "h_out_of_sample": {
            "split": how,
            "routines_mined_on_train": len(mined_train),
            **out_of_sample(ctrain, ctest, mined_train, t.rules).as_dict(),
        },
        "r": summary(costs) if costs else None,
        "sensitivity": sensitivity(found.routines, m, counter) if costs else [],
        "per_routine": [
            {
                "id": r["id"],
                "title": r["title"],
                "length": r["length"],
                "occurrences": r["occurrences"],
                "expected": r["expected"],
                "rederive_tokens": c.rederive,
                "plan_tokens": c.plan,
                "script_tokens": c.script,
                "r_operational": round(c.r_operational, 1),
                "r_ceiling": round(c.r_ceiling, 1),
            }
            for r, c in zip(found.routines, costs, strict=True)
        ],
    }
    if t.labelled:
        out["labels"] = score_labels(t.path, found.corpus, found.mined)
    return out


def labels_of(path: Path) -> dict[int, tuple[str, str]]:
    """Row id → (task, instance) of a labelled UI log; the task of a log with only
    ``caseID`` is the file's name."""
    from ..sources.uilog import read_rows

    rows, _ = read_rows(path)
    stem = path.stem.removesuffix("_segmented")
    out = {}
    for r in rows:
        task = r.labels.get("Task") or stem
        inst = r.labels.get("caseID") or r.labels.get("idx")
        if inst is not None:
            out[r.row] = (task, inst)
    return out


def score_labels(path: Path, corpus: Corpus, mined: Sequence[Any]) -> dict[str, Any]:
    label = labels_of(path)

    def step_label(seg: int, pos: int) -> tuple[str, str] | None:
        s = corpus.segs[seg][pos]
        ids = list(s.events) or ([s.row] if s.row is not None else [])
        got = [label[i] for i in ids if i in label]
        return Counter(got).most_common(1)[0][0] if got else None

    per_part: dict[str, dict[str, int]] = {}

    def bump(part: str, key: str, n: int = 1) -> None:
        per_part.setdefault(part, Counter())[key] += n  # type: ignore[arg-type]

    instances = sorted(set(label.values()))
    for task, _ in instances:
        bump(origin(task), "instances")
        bump("all", "instances")
    found_inst: set[tuple[str, str]] = set()
    steps_by_part: Counter[str] = Counter()
    covered_by_part: Counter[str] = Counter()
    covered: set[tuple[int, int]] = set()
    for m in mined:
        n = len(m.tokens)
        occ_labels = [[step_label(s, p + k) for k in range(n)] for s, p in m.occurrences]
        tasks = [lab[0] for labs in occ_labels for lab in labs if lab is not None]
        # A routine none of whose steps carry a label counts against precision too.
        task = sorted(Counter(tasks).items(), key=lambda kv: (-kv[1], kv[0]))[0][0] if tasks else ""
        part = origin(task) if task else "unlabelled"
        for (s, p), labs in zip(m.occurrences, occ_labels, strict=True):
            covered.update((s, p + k) for k in range(n))
            known = [lab for lab in labs if lab is not None]
            inst = (
                sorted(Counter(known).items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
                if known
                else None
            )
            good = sum(1 for lab in labs if lab is not None and lab == inst and lab[0] == task)
            for key in (part, "all"):
                bump(key, "occurrence_steps", n)
                bump(key, "good_steps", good)
            if inst is not None and inst[0] == task:
                found_inst.add(inst)
    for task, _ in found_inst:
        bump(origin(task), "found")
        bump("all", "found")
    for s, seg in enumerate(corpus.segs):
        for p in range(len(seg)):
            lab = step_label(s, p)
            part = origin(lab[0]) if lab else "unlabelled"
            steps_by_part[part] += 1
            steps_by_part["all"] += 1
            if (s, p) in covered:
                covered_by_part[part] += 1
                covered_by_part["all"] += 1
    out = {}
    for part in sorted(set(per_part) | set(steps_by_part)):
        c = per_part.get(part, {})
        out[part] = {
            "instances": c.get("instances", 0),
            "instances_found": c.get("found", 0),
            "precision_pct": pct(c.get("good_steps", 0), c.get("occurrence_steps", 0)),
            "recall_pct": pct(c.get("found", 0), c.get("instances", 0)),
            "steps": steps_by_part.get(part, 0),
            "h_delegable_pct": pct(covered_by_part.get(part, 0), steps_by_part.get(part, 0)),
        }
    return out


def markdown(results: Sequence[dict[str, Any]]) -> str:
    lines = ["# Routines: R and h", ""]
    lines.append(
        "| corpus | steps | days | routines | false on shuffled | h raw (in / out) |"
        " h delegable (in / out) | R operational median [p10–p90] | R ceiling median [p10–p90] |"
    )
    lines.append("|---|---:|---:|---:|---|---|---|---|---|")
    for r in results:
        hi, ho = r["h_in_sample"], r["h_out_of_sample"]
        rr = r["r"]
        op = _r(rr["r_operational"]) if rr else "n/a"
        ce = _r(rr["r_ceiling"]) if rr else "n/a"
        lines.append(
            f"| {r['name']} | {r['steps']} | {r['days']} | {r['routines']} |"
            f" {' '.join(map(str, r['false_routines_shuffled']['routines']))} |"
            f" {_p(hi['raw_pct'])} / {_p(ho['raw_pct'])} |"
            f" {_p(hi['delegable_pct'])} / {_p(ho['delegable_pct'])} | {op} | {ce} |"
        )
    lines += ["", "Out-of-sample splits:", ""]
    for r in results:
        lines.append(f"- {r['name']}: {r['h_out_of_sample']['split']}")
    labelled = [r for r in results if "labels" in r]
    if labelled:
        lines += ["", "## Routine detection against the logs' labels", ""]
        lines.append(
            "| log | part | instances | found | precision | recall | steps | h delegable |"
        )
        lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in labelled:
            for part, v in r["labels"].items():
                lines.append(
                    f"| {r['name']} | {part} | {v['instances']} | {v['instances_found']} |"
                    f" {_p(v['precision_pct'])} | {_p(v['recall_pct'])} | {v['steps']} |"
                    f" {_p(v['h_delegable_pct'])} |"
                )
    for r in results:
        if not r["sensitivity"]:
            continue
        m = r["cost_model"]
        lines += [
            "",
            f"## Cost model and sensitivity: {r['name']}",
            "",
            f"Per step: {m['screenshots']} screenshot(s) of {m['screen_w']}×{m['screen_h']}"
            f" ({m['image_tokens']} tokens each) + context {m['context']} + history"
            f" {m['history']} per earlier step + reasoning {m['reasoning']}.",
            "",
            "| parameter | factor | value | R operational median | R ceiling median |",
            "|---|---:|---|---:|---:|",
        ]
        for s in r["sensitivity"]:
            lines.append(
                f"| {s['param']} | ×{s['factor_pct'] / 100:g} | {s['value']} |"
                f" {s['r_operational_median']}× | {s['r_ceiling_median']}× |"
            )
    return "\n".join(lines) + "\n"


def _p(v: float | None) -> str:
    return "n/a" if v is None else f"{v}%"


def _r(d: dict[str, float]) -> str:
    return f"{d['median']}× [{d['p10']}–{d['p90']}]"


def write(results: Sequence[dict[str, Any]], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    j, md = out / "routines.json", out / "routines.md"
    j.write_text(json.dumps(list(results), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    md.write_text(markdown(results), encoding="utf-8")
    return j, md
