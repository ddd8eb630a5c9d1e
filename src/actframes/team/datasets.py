"""The team datasets on disk: Parquet files under one folder, one file per partition.

    DIR/ledger/person=P/day=D/part-0.parquet     per (person, day)
    DIR/frames/person=P/day=D/part-0.parquet
    DIR/steps/person=P/day=D/part-0.parquet
    DIR/routines/person=P/part-0.parquet         per person (mined across their days)
    DIR/h/person=P/part-0.parquet
    DIR/docs/person=P/D.json                     with --docs: the Tier-1 document
    DIR/state.json                               fingerprints of what was compiled

Every file also holds its ``person`` (and ``day``) column, so a file read on its own, or
a glob read without partition discovery (DuckDB, pandas), keeps them.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

STR, I64 = pa.string(), pa.int64()

SCHEMAS: dict[str, pa.Schema] = {
    "ledger": pa.schema(
        [
            ("person", STR),
            ("day", STR),
            ("app", STR),
            ("site", STR),
            ("active_s", I64),
            ("keys", I64),
            ("clicks", I64),
        ]
    ),
    "frames": pa.schema(
        [
            ("person", STR),
            ("day", STR),
            ("id", STR),
            ("app", STR),
            ("site", STR),
            ("start", STR),
            ("end", STR),
            ("active_s", I64),
            ("wall_s", I64),
            ("keys", I64),
            ("clicks", I64),
            ("copies", I64),
            ("pastes", I64),
            ("interruptions", I64),
            ("titles", STR),  # a JSON list, only with --with-titles; else ""
        ]
    ),
    "steps": pa.schema(
        [
            ("person", STR),
            ("day", STR),
            ("t_ms", I64),
            ("device", STR),
            ("op", STR),
            ("app", STR),
            ("page", STR),
            ("role", STR),
            ("name", STR),
            ("raw_name", STR),
            ("url", STR),  # without query string and fragment
            ("x", I64),
            ("y", I64),
            ("events", pa.list_(I64)),
            ("row", I64),
            ("method", STR),
        ]
    ),
    "routines": pa.schema(
        [
            ("person", STR),
            ("id", STR),
            ("title", STR),
            ("length", I64),
            ("occurrences", I64),
            ("days", I64),
            ("day_list", pa.list_(STR)),
            ("sites", pa.list_(STR)),
            ("apps", pa.list_(STR)),
            ("script", STR),
            ("rederive_tokens", I64),
            ("plan_tokens", I64),
            ("script_tokens", I64),
            ("r_operational", pa.float64()),
            ("r_ceiling", pa.float64()),
        ]
    ),
    "h": pa.schema(
        [
            ("person", STR),
            ("days", I64),
            ("steps", I64),
            ("raw_steps", I64),
            ("delegable_steps", I64),
            ("holdout_split", STR),
            ("holdout_steps", I64),
            ("holdout_raw_steps", I64),
            ("holdout_delegable_steps", I64),
            ("routines", I64),
        ]
    ),
}
DAY_DATASETS = ("ledger", "frames", "steps")
PERSON_DATASETS = ("routines", "h")
STATE = "state.json"
STATE_VERSION = 1


def part_dir(root: Path, dataset: str, person: str, day: str | None = None) -> Path:
    d = root / dataset / f"person={person}"
    return d / f"day={day}" if day is not None else d


def write_part(
    root: Path, dataset: str, rows: list[dict[str, Any]], person: str, day: str | None = None
) -> Path:
    """Write one partition (replacing it), rows in the order given, atomically."""
    keys = {"person": person} if day is None else {"person": person, "day": day}
    schema = SCHEMAS[dataset]
    table = pa.Table.from_pylist([{**keys, **r} for r in rows], schema=schema)
    d = part_dir(root, dataset, person, day)
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / ".part-0.parquet.tmp"
    pq.write_table(table, tmp)
    final = d / "part-0.parquet"
    os.replace(tmp, final)
    return final


def remove_part(root: Path, dataset: str, person: str, day: str | None = None) -> None:
    shutil.rmtree(part_dir(root, dataset, person, day), ignore_errors=True)


def files(root: Path, dataset: str) -> list[Path]:
    """The dataset's files in (person, day) order."""
    return sorted((root / dataset).glob("person=*/**/part-0.parquet"))


def read(root: Path, dataset: str, person: str | None = None) -> pa.Table:
    """The whole dataset (or one person's part) as one table, in (person, day) order."""
    schema = SCHEMAS[dataset]
    found = files(root, dataset)
    if person is not None:
        found = [f for f in found if f"person={person}" in f.parts]
    tables = [pq.read_table(f, schema=schema) for f in found]
    return pa.concat_tables(tables) if tables else schema.empty_table()


def doc_path(root: Path, person: str, day: str) -> Path:
    return root / "docs" / f"person={person}" / f"{day}.json"


def write_doc(root: Path, person: str, day: str, text: str) -> None:
    p = doc_path(root, person, day)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(".json.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, p)


def load_state(root: Path) -> dict[str, Any]:
    """{"version", "people": {person: {"store", "tz", "days": {day: fingerprint}}}}; an
    unreadable or older state is an empty one (everything is compiled again)."""
    try:
        got = json.loads((root / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"version": STATE_VERSION, "people": {}}
    if not isinstance(got, dict) or got.get("version") != STATE_VERSION:
        return {"version": STATE_VERSION, "people": {}}
    return got


def save_state(root: Path, state: dict[str, Any]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / (STATE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, root / STATE)
