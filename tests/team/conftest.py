"""A small simulated team, compiled once in process and shared by the team tests.

Seven people in different zones and store families — four screenpipe-style stores with
element names (so routines recur across people), a native store, an ActivityWatch
export, a screenpipe-style store without elements — and one broken store.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from actframes.simulate import simulate_days, write_aw_export, write_native, write_screenpipe
from actframes.simulate.workflows import simulate_workflows, write_workflows
from actframes.team.engine import LocalEngine
from actframes.team.manifest import Person, load_manifest
from actframes.team.run import Summary, compile_team

WORKFLOW_ZONES = ("Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney")
FIRST_DAY = "2026-03-02"


class Team(NamedTuple):
    root: Path
    manifest: Path
    people: list[Person]
    out: Path  # the in-process compile
    summary: Summary


def write_team(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    lines = ["person,store,tz,start,end"]
    for i, tz in enumerate(WORKFLOW_ZONES):
        write_workflows(root / f"wf{i}.db", simulate_workflows(FIRST_DAY, 3, tz, seed=21 + i))
        lines.append(f"wf{i},wf{i}.db,{tz},,")
    write_native(root / "native.db", simulate_days(FIRST_DAY, 2, "Europe/Paris", 3, 600))
    lines.append(f"nat,native.db,Europe/Paris,{FIRST_DAY},2026-03-03")
    write_aw_export(root / "aw.json", simulate_days(FIRST_DAY, 2, "UTC", 4, 600))
    lines.append(f"aw,aw.json,UTC,{FIRST_DAY},2026-03-03")
    write_screenpipe(root / "sp.db", simulate_days(FIRST_DAY, 1, "America/Los_Angeles", 5, 600))
    lines.append(f"sp,sp.db,America/Los_Angeles,{FIRST_DAY},{FIRST_DAY}")
    (root / "broken.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    lines.append(f"broken,broken.db,UTC,{FIRST_DAY},{FIRST_DAY}")
    manifest = root / "team.csv"
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return manifest


@pytest.fixture(scope="session")
def team(tmp_path_factory: pytest.TempPathFactory) -> Team:
    root = tmp_path_factory.mktemp("team")
    manifest = write_team(root / "stores")
    people = load_manifest(manifest)
    out = root / "local"
    summary = compile_team(people, out, LocalEngine(), docs=True)
    return Team(root, manifest, people, out, summary)
