"""The UI-log reader and patterns on the real RPA logs; pattern evidence vs labels."""

from pathlib import Path

import pytest

from actframes.compile.pipeline import compile_capture
from actframes.sources.uilog import UILogSource, actions_of, is_uilog
from actframes.steps.patterns import evidence_ids, find_patterns
from actframes.window import day_window

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
pytestmark = pytest.mark.skipif(
    not CORPORA.is_dir(), reason=f"needs the shared corpora in {CORPORA}"
)

LOGS = {
    "rpa-uilogs-leno/StudentRecord_segmented.csv": "StudentRecord",
    "rpa-uilogs-leno/Reimbursement_segmented.csv": "Reimbursement",
    "rpa-task-recognition-rebmann/L1.csv": None,
    "rpa-task-recognition-rebmann/L2.csv": None,
    "rpa-task-recognition-rebmann/L3.csv": None,
}


def score(name: str, task: str | None) -> tuple[float, float, int]:
    """(precision, recall, patterns): precision = evidence rows whose Task is their
    pattern's majority Task; recall = task instances with an evidence row of a pattern
    whose majority Task is theirs."""
    src = UILogSource(CORPORA / name)
    rows = src.rows()
    cap = src.read(rows[0].ts_ms - 86_400_000, rows[-1].ts_ms + 86_400_000)
    label = {
        r.row: (task or r.labels.get("Task", ""), r.labels.get("caseID") or r.labels.get("idx", ""))
        for r in rows
    }
    pats = find_patterns(actions_of(rows), cap.snapshots, "UTC")
    good = total = 0
    covered: set[tuple[str, str]] = set()
    for p in pats:
        ids = [i for i in evidence_ids(p) if i in label]
        tasks = [label[i][0] for i in ids]
        if not tasks:
            continue
        major = max(sorted(set(tasks)), key=tasks.count)
        good += tasks.count(major)
        total += len(tasks)
        covered |= {label[i] for i in ids if label[i][0] == major}
    instances = set(label.values())
    precision = good / total if total else 0.0
    recall = len(covered & instances) / len(instances)
    print(
        f"\n{name}: patterns={len(pats)} precision={precision:.3f} recall={recall:.3f} "
        f"instances={len(instances)}"
    )
    return precision, recall, len(pats)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_pattern_evidence_vs_labels(name: str) -> None:
    precision, recall, n = score(name, LOGS[name])
    assert n > 0
    assert precision >= 0.6
    assert recall >= 0.6


def test_detects_uilogs_and_compiles() -> None:
    path = CORPORA / "rpa-uilogs-leno/StudentRecord.csv"
    assert is_uilog(path)
    assert not is_uilog(CORPORA / "rpa-uilogs-leno/SOURCE.md")
    w = day_window("2019-10-21", "UTC")
    doc = compile_capture(UILogSource(path).read(w.start_ms, w.end_ms), w)
    assert doc["frames"] and doc["coverage"]["input_events"] == 2409 - 0  # every counted row


def test_routine_actions_among_patterns() -> None:
    src = UILogSource(CORPORA / "rpa-uilogs-leno/StudentRecord.csv")
    rows = src.rows()
    cap = src.read(rows[0].ts_ms, rows[-1].ts_ms + 1)
    pats = find_patterns(actions_of(rows), cap.snapshots, "UTC")
    submit = [p for p in pats if p["kind"] == "repeated_click" and p["target"]["name"] == "Submit"]
    assert submit and submit[0]["count"] == 50  # once per routine instance
    assert any(p["kind"] == "app_pingpong" and p["apps"] == ["Chrome", "Excel"] for p in pats)


def test_non_monotonic_rows_sorted_by_time_then_row() -> None:
    rows = UILogSource(CORPORA / "rpa-task-recognition-rebmann/L1.csv").rows()
    keys = [(r.ts_ms, r.row) for r in rows]
    assert keys == sorted(keys) and [r.row for r in rows] != sorted(r.row for r in rows)
