"""Regular expressions compiled once per machine rather than once per process.

Compiling a pattern (parsing it and generating the regex engine's code, in Python) costs
about 0.1 ms, and a day's page and title references reach about a hundred patterns of the
rule tables: every ``actframes day`` would spend ~10 ms compiling the same patterns. This
module keeps the generated code of each pattern in one file under the cache folder and
builds the pattern from it with the call ``re`` itself ends with (``_sre.compile``), so a
pattern built from the file is the very object ``re.compile`` returns.

Safe by construction:

- the file is named by the exact interpreter (version and build, and the engine's MAGIC,
  code size and repeat limit) and a format version; entries are keyed by pattern text and
  flags. Another Python uses another file.
- each entry carries a SHA-256 of its body, checked before the entry is used (a torn,
  truncated or foreign file is ignored), and the engine validates the code of every
  pattern it builds. Entries are checked and decoded only when used, so a file that has
  gathered many patterns costs little more to open than a small one.
- a new file is written to a temporary name and renamed over the old one (atomic).
- any failure (no cache folder, a read-only home, an interpreter without these
  internals) falls back to ``re.compile``: the cache makes a run faster, never different.

``ACTFRAMES_CACHE=off`` turns it off, as it does the document cache.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
from typing import Any

FORMAT = 2
_MAGIC_HEAD = b"actframes-rx\n"
_MAX_ENTRIES = 4096  # more, and the file is rewritten with this process's patterns only

Key = tuple[str, int]  # (pattern, flags)
Stored = tuple[bytes, bytes]  # (SHA-256 of the body, the body: marshalled _entry())

_live: dict[Key, re.Pattern[str]] = {}  # built in this process
_stored: dict[Key, Stored] | None = None  # read from the file
_missed: set[Key] = set()  # compiled here, not in the file yet


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the machine's cache when it holds it."""
    key = (pattern, int(flags))
    rx = _live.get(key)
    if rx is not None:
        return rx
    stored = _load().get(key)
    if stored is not None:
        try:
            rx = _build(pattern, _unpack(stored))
        except Exception:  # damaged or invalid: compile afresh (and rewrite the entry)
            rx = None
    if rx is None:
        rx = re.compile(pattern, key[1])
        if _engine() is not None:
            _missed.add(key)
    _live[key] = rx
    return rx


def preload() -> None:
    """Read the machine's cache now, so that the first pattern asked need not."""
    _load()


def save() -> None:
    """Write the patterns this process compiled itself into the machine's cache."""
    if not _missed:
        return
    path = _path()
    engine = _engine()
    if path is None or engine is None:
        return
    try:
        new = {key: _pack(_entry(*key)) for key in sorted(_missed)}
        merged = {**(_stored or {}), **new}
        if len(merged) > _MAX_ENTRIES:
            merged = {k: v for k, v in merged.items() if k in _live}
        _write(path, merged)
        _missed.clear()
    except Exception:
        pass  # a cache that cannot be written is only slower, never wrong


# ---------------------------------------------------------------- the file


def _load() -> dict[Key, Stored]:
    global _stored
    if _stored is None:
        _stored = {}
        path = _path()
        if path is not None and _engine() is not None:
            try:
                _stored = _read(path)
            except Exception:
                _stored = {}
    return _stored


def _read(path: str) -> dict[Key, Stored]:
    import marshal

    with open(path, "rb") as fh:
        data = fh.read()
    if not data.startswith(_MAGIC_HEAD):
        return {}
    table = marshal.loads(data[len(_MAGIC_HEAD) :])  # keys and bytes: checked when used
    return table if isinstance(table, dict) else {}


def _pack(entry: tuple[Any, ...]) -> Stored:
    import marshal

    body = marshal.dumps(entry)
    return (_sha256(body), body)


def _unpack(stored: Stored) -> tuple[Any, ...]:
    import marshal

    digest, body = stored
    if _sha256(body) != digest:
        raise ValueError("damaged entry")
    entry: tuple[Any, ...] = marshal.loads(body)
    return entry


def _write(path: str, table: dict[Key, Stored]) -> None:
    import marshal
    import tempfile

    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".rx")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(_MAGIC_HEAD + marshal.dumps(table))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _path() -> str | None:
    """In the document cache's folder (cache.default_cache_dir), under rx/."""
    env = os.environ.get("ACTFRAMES_CACHE")
    if env:
        if env.lower() in ("off", "0", "no", "false"):
            return None
        root = os.path.expanduser(env)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "actframes")
    engine = _engine()
    if engine is None:
        return None
    return os.path.join(root, "rx", f"{engine}.bin")


# ---------------------------------------------------------------- the engine


_ENGINE: list[str | None] = []


def _engine() -> str | None:
    """The interpreter's tag for compiled code, or None when the internals this relies on
    are not there (another implementation, another engine)."""
    if not _ENGINE:
        tag = None
        try:
            _sre, _compiler, _parser = _internals()
            if (
                sys.implementation.name == "cpython"
                and callable(getattr(_compiler, "_code", None))
                and callable(getattr(_parser, "parse", None))
            ):
                build = f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}|{_sre.MAXREPEAT}"
                digest = _sha256(build.encode()).hex()[:16]
                tag = f"v{FORMAT}-{sys.implementation.cache_tag}-{digest}"
        except Exception:
            tag = None
        _ENGINE.append(tag)
    return _ENGINE[0]


def _entry(pattern: str, flags: int) -> tuple[Any, ...]:
    """What ``_sre.compile`` takes besides the pattern, as ``re._compiler.compile`` makes it;
    checked against ``re.compile`` before it is stored."""
    _, _compiler, _parser = _internals()
    p = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(p, flags)]  # opcodes are int subclasses
    groupindex = {str(k): int(v) for k, v in p.state.groupdict.items()}
    indexgroup: list[str | None] = [None] * p.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    entry = (int(flags | p.state.flags), code, p.state.groups - 1, groupindex, tuple(indexgroup))
    built, ref = _build(pattern, entry), re.compile(pattern, flags)
    if (built.flags, built.groups, built.groupindex) != (ref.flags, ref.groups, ref.groupindex):
        raise ValueError(f"compiled pattern differs: {pattern!r}")
    return entry


def _build(pattern: str, entry: tuple[Any, ...]) -> re.Pattern[str]:
    _sre = _internals()[0]
    final_flags, code, groups, groupindex, indexgroup = entry
    rx: re.Pattern[str] = _sre.compile(
        pattern, final_flags, code, groups, dict(groupindex), tuple(indexgroup)
    )
    return rx


def _internals() -> tuple[Any, Any, Any]:
    """The regex engine (``_sre``) and ``re``'s own parser and code generator."""
    return (
        importlib.import_module("_sre"),
        importlib.import_module("re._compiler"),
        importlib.import_module("re._parser"),
    )


def _sha256(data: bytes) -> bytes:
    from .fasthash import sha256

    return sha256(data).digest()
