"""The document cache keys on the rule set (SPEC.md §3b, `compiled.options.rules`): another
projects file makes another entry and other bytes; the same rules, the same entry."""

from __future__ import annotations

import json
from pathlib import Path

from actframes.api import open_source, to_json
from actframes.cache import DocCache, compile_window_cached
from actframes.classify.ruleset import RuleSet
from actframes.compile.pipeline import Options
from actframes.rule_files import load_rules
from actframes.window import day_window

from .builders import cli_env, native_db, run_cli
from .compile.caps import snap

WIN = day_window("2026-03-10", "UTC")
CLAIM_SLACK = '[[project]]\nname = "chat"\n[[project.match]]\napp = "^slack$"\n'
CLAIM_CODE = '[[project]]\nname = "Billing"\naliases = ["billing-api"]\n'


def store(tmp: Path) -> Path:
    rows = [
        snap(1, 0, "Code", title="main.py - billing-api - Visual Studio Code"),
        snap(2, 60, "Slack", title="general (Channel) - Acme - Slack"),
        snap(3, 120, "Code", title="main.py - billing-api - Visual Studio Code"),
        snap(4, 180, "Slack", title="general (Channel) - Acme - Slack"),
    ]
    return native_db(tmp / "s.db", rows)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(db: Path, cache: DocCache, rules: RuleSet) -> tuple[str, bool, Path]:
    src = open_source(db)
    try:
        opts = Options(classify=rules)
        doc, hit = compile_window_cached(src, WIN, opts, cache)
        return to_json(doc), hit, cache.entry(src, WIN, opts)
    finally:
        src.close()


def test_entries_follow_the_rules(tmp_path: Path) -> None:
    db = store(tmp_path)
    cache = DocCache(tmp_path / "cache")
    a = load_rules(write(tmp_path / "a" / "projects.toml", CLAIM_SLACK))
    b = load_rules(write(tmp_path / "b" / "projects.toml", CLAIM_CODE))
    a_again = load_rules(write(tmp_path / "c" / "projects.toml", CLAIM_SLACK))
    assert a is not a_again and a.digest == a_again.digest != b.digest

    first, hit1, entry_a = run(db, cache, a)
    second, hit2, _ = run(db, cache, a)
    assert (hit1, hit2) == (False, True) and first == second
    other, hit3, entry_b = run(db, cache, b)
    assert not hit3 and entry_b != entry_a and other != first
    assert json.loads(first)["compiled"]["options"]["rules"] == a.digest
    assert json.loads(other)["compiled"]["options"]["rules"] == b.digest
    again, hit4, entry_again = run(db, cache, a_again)  # the same rules from another file
    assert hit4 and entry_again == entry_a and again == first
    assert len(list(cache.root.glob("*.json"))) == 2


def test_the_built_in_rules_are_an_entry_of_their_own(tmp_path: Path) -> None:
    db = store(tmp_path)
    cache = DocCache(tmp_path / "cache")
    plain, _, entry = run(db, cache, load_rules())
    given, _, entry_given = run(db, cache, load_rules(write(tmp_path / "p.toml", CLAIM_SLACK)))
    assert entry != entry_given and plain != given
    assert '"rules":"built-in"' in plain and '"rules":"built-in + p.toml"' in given


def test_cli_entries_follow_the_projects_file(tmp_path: Path) -> None:
    db = store(tmp_path)
    cache_dir = tmp_path / "cache"
    env = cli_env(
        ACTFRAMES_CACHE=str(cache_dir), XDG_CONFIG_HOME=str(tmp_path / "config"), TZ="UTC"
    )
    a = write(tmp_path / "a.toml", CLAIM_SLACK)
    b = write(tmp_path / "b.toml", CLAIM_CODE)

    def day(rules: Path) -> tuple[str, int]:
        p = run_cli(
            "day", "2026-03-10", "--db", str(db), "--tz", "UTC", "--projects", str(rules), env=env
        )
        assert p.returncode == 0, p.stderr
        return p.stdout, len(list((cache_dir / "docs").glob("*.json")))  # fmt: skip

    out_a, n1 = day(a)
    out_b, n2 = day(b)
    assert (n1, n2) == (1, 2) and out_a != out_b
    assert '"name":"chat"' in out_a and '"name":"Billing"' in out_b
    write(tmp_path / "a.toml", CLAIM_SLACK)  # the same bytes written again
    out_a2, n3 = day(a)
    assert n3 == 2 and out_a2 == out_a
    write(tmp_path / "a.toml", CLAIM_SLACK + '[[project.match]]\ntitle = "x"\n')  # changed
    out_a3, n4 = day(a)
    assert n4 == 3 and out_a3 != out_a


def test_same_bytes_in_every_process(tmp_path: Path) -> None:
    """The rules' digest, and so the document and its cache entry, never depend on the
    process (its string hashes): the same rows, rules and options, the same bytes."""
    db = store(tmp_path)
    a = write(tmp_path / "a.toml", CLAIM_SLACK)
    outs = set()
    for seed in ("1", "2", "3", "4"):
        env = cli_env(
            ACTFRAMES_CACHE="off", PYTHONHASHSEED=seed, TZ="UTC", XDG_CONFIG_HOME=str(tmp_path)
        )
        for extra in ((), ("--projects", str(a))):
            p = run_cli("day", "2026-03-10", "--db", str(db), "--tz", "UTC", *extra, env=env)
            assert p.returncode == 0, p.stderr
            outs.add((extra, p.stdout))
    assert len(outs) == 2
