"""Routine steps of whole days on disk, for one-shot processes (``actframes routines``).

One file per (store, local day, zone, version), holding the day's steps (``DaySteps``) and
the fingerprint of everything they were read from (``sources.actions.steps_fingerprints``).
An entry is served only when the store's fingerprint for the day is the same now, so a
day is read from the store again as soon as any row it depends on changed; stores with
no such fingerprint are never cached here. Typed text is never written: steps read with
``--include-text`` are not kept on disk. Writes replace the file atomically; an
unreadable entry is treated as absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import __version__
from .atomic_write import write_json_atomically
from .entities import rules_digest
from .fast.fasthash import sha256
from .routines.step_tokens import RStep
from .routines.store_mining import DaySteps


class DayStepsCache:
    def __init__(self, root: Path) -> None:
        self.root = root / "routine-days"

    def entry(self, path: Path, kind: str, day: str, tz: str) -> Path:
        ident = json.dumps([str(Path(path).resolve()), kind, day, tz, __version__, rules_digest()])
        return self.root / (sha256(ident.encode()).hexdigest()[:32] + ".json")

    def get(self, entry: Path, fingerprint: str) -> DaySteps | None:
        try:
            stored = json.loads(entry.read_text(encoding="utf-8"))
            if not isinstance(stored, dict) or stored.get("fingerprint") != fingerprint:
                return None
            steps = tuple(_step(s) for s in stored["steps"])
            screens = tuple((str(d), (int(w), int(h))) for d, (w, h) in stored["screens"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return DaySteps(steps, screens)

    def put(self, entry: Path, fingerprint: str, day: DaySteps) -> None:
        record = {
            "fingerprint": fingerprint,
            "steps": [list(s) for s in day.steps],
            "screens": [[d, list(wh)] for d, wh in day.screens],
        }
        write_json_atomically(entry, record)

    def clear(self) -> int:
        """Delete every kept day (and any half-written file); how many files went."""
        gone = [p for p in self.files() if p.suffix == ".json"]
        for p in gone:
            p.unlink(missing_ok=True)
        return len(gone)

    def files(self) -> list[Path]:
        return sorted(self.root.iterdir()) if self.root.is_dir() else []


def _step(fields: list[Any]) -> RStep:
    if len(fields) != len(RStep._fields):
        raise ValueError("not a step")
    step = RStep(*fields)
    return step._replace(events=tuple(step.events))
