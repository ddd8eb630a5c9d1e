"""A document read from a file (``actframes verify DOC.json``, ``actframes tier2 ...``) may
hold anything anywhere. Whatever one of its values is replaced by — another type, nothing,
a list for an object — verify gives a report or a one-line error, and tier2 validates,
strips and labels it or refuses it in one line; none fails with an error of its own."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.api import open_source
from actframes.cache import compile_window_cached
from actframes.compile.pipeline import Options
from actframes.errors import ActframesError
from actframes.tier2 import label_frames, load_rules, merge, strip, validate
from actframes.verify import verify
from actframes.window import day_window

from .builders import cli_env, run_cli
from .test_golden import build

Path_ = tuple[str | int, ...]

# One rule per field a rule reads, so that each field is searched whatever the others hold.
RULES_TOML = "".join(
    f'[[label]]\nname = "{field}"\n{field} = "."\n' for field in ("app", "site", "title", "entity")
)
RULES = load_rules(RULES_TOML)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("foreign") / "g.db")


@pytest.fixture(scope="module")
def good(store: Path) -> dict[str, Any]:
    with open_source(store) as src:
        doc, _ = compile_window_cached(
            src, day_window("2026-03-10", "Europe/Berlin"), Options(), None
        )
    out: dict[str, Any] = json.loads(json.dumps(doc))
    assert out["frames"] and any(f.get("interruptions") for f in out["frames"])
    return out


def _paths(value: Any, at: Path_ = ()) -> Iterator[Path_]:
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            yield from _paths(v, (*at, i))


def _replaced(doc: dict[str, Any], at: Path_, value: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(doc))
    parent: Any = out
    for k in at[:-1]:
        parent = parent[k]
    if value is _DELETE:
        del parent[at[-1]]
    else:
        parent[at[-1]] = value
    return out


_DELETE = object()
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["F1", "1-3", "2026-03-10", "UTC", "Code", "", "x-y"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


def _answered(call: Callable[[], object]) -> None:
    """``call`` answers, or refuses in one line (an error of this program's own kinds)."""
    try:
        call()
    except ActframesError as exc:
        assert str(exc).strip() and "\n" not in str(exc).strip()


def _check(doc: Any, store: Path) -> None:
    def verified() -> object:
        with open_source(store) as src:
            return verify(doc, src)

    _answered(verified)
    assert isinstance(validate(doc), list)
    assert "inferred" not in strip(doc)
    _answered(lambda: merge(doc, label_frames(doc, RULES)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_value_replaced(store: Path, good: dict[str, Any], data: st.DataObject) -> None:
    at = data.draw(st.sampled_from([p for p in _paths(good) if p]))
    value = data.draw(st.just(_DELETE) | json_values)
    _check(_replaced(good, at, value), store)


@pytest.mark.parametrize(
    ("at", "value"),
    [
        (("source",), None),
        (("frames",), 5),
        (("window", "tz"), 5),
        (("frames", 0, "id"), []),
        (("frames", 0, "interruptions"), None),
        (("frames", 0, "interruptions"), [5, "x"]),
        (("frames", 0, "evidence"), "x"),
        (("frames", 0, "evidence", "rows"), 7),
        (("frames", 0, "app"), 3),
        (("frames", 0, "titles"), [None, 1]),
        (("frames", 0, "pages"), ["x"]),
        (("inferred",), 4),
    ],
)
def test_the_cli_reports_foreign_shapes(
    tmp_path: Path, store: Path, good: dict[str, Any], at: Path_, value: Any
) -> None:
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps(_replaced(good, at, value)), encoding="utf-8")
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES_TOML, encoding="utf-8")
    for args in (
        ("verify", str(doc), "--db", str(store)),
        ("tier2", "validate", str(doc)),
        ("tier2", "strip", str(doc)),
        ("tier2", "label", str(doc), "--rules", str(rules)),
    ):
        proc = run_cli(*args)
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, (
            args,
            proc.stderr,
        )
        assert proc.stderr.count("\n") <= 1 or proc.returncode == 0, proc.stderr


def _capped_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI with its address space capped at 1 GiB: listing every id of a range of
    billions would fail at once (MemoryError) instead of filling the machine."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-m", "actframes.cli", *args],
        capture_output=True,
        text=True,
        env=cli_env(),
        preexec_fn=cap,
        timeout=60,
    )


def test_huge_ranges_are_checked_without_listing_them(
    tmp_path: Path, store: Path, good: dict[str, Any]
) -> None:
    """Evidence of "1-99999999999" names rows the store lacks (the first ones are shown);
    an entry citing it names a row no frame cites. Neither lists the ids."""
    doc = _replaced(good, ("frames", 0, "evidence", "rows"), "1-99999999999")
    doc["inferred"] = [
        {"label": "t.x/y", "confidence": "high", "evidence": {"rows": "5-199999999999"}}
    ]
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    fid = good["frames"][0]["id"]
    checked = _capped_cli("verify", str(path), "--db", str(store))
    assert checked.returncode == 1 and "internal error" not in checked.stderr, checked.stderr
    assert f'{fid} evidence.rows: store "rows in the store", document "missing 15,' in (
        checked.stdout
    )
    refused = _capped_cli("tier2", "validate", str(path))
    assert refused.returncode == 1 and "internal error" not in refused.stderr, refused.stderr
    assert "inferred[0]: evidence names row 100000000000, which no frame" in refused.stdout
