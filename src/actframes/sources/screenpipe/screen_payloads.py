"""The screen text a hybrid-parquet screenpipe store keeps in Parquet files (SPEC.md §1.2e).

A sealed frame's ``full_text`` and ``accessibility_text`` are NULL in the index and live in
the ``search.parquet`` file ``payload_files`` names for it: the row whose ``id`` is the
frame's and whose ``generation`` is ``frame_payloads.generation``. With ``parquet-bulk-v1``
the ``elements`` rows of a range ``_bulk_element_ranges`` names live in a
``payloads/bulk-v1/elements/<uuid>.parquet`` file of ``_bulk_files``. Paths are relative
to the store's root; each file is checked against its SHA-256 before it is decoded (with
pyarrow, the ``parquet`` extra), decoded once per process while its size and time are
unchanged, and never written.

A file that cannot be read is a ``SourceError`` (one line), or, when the caller collects
``problems``, one line there and its rows left out: an index built from a read that
silently skipped rows would never see them again.
"""

from __future__ import annotations

import hashlib
from itertools import pairwise
from pathlib import Path, PurePosixPath
from typing import Any

from ...errors import SourceError
from .payloads import EXTRA, parquet_available, store_root

SEARCH_COLUMNS = ("full_text", "accessibility_text")  # of search.parquet, after id, generation
ELEMENT_COLUMNS = ("frame_id", "source", "role", "text")  # of an element file, as read here
NO_PYARROW = (
    "screenpipe hybrid-parquet payloads not read (pyarrow is not installed: "
    f"{EXTRA}): the screen text of sealed frames and archived elements is missing"
)

# (path, size, mtime_ns, columns) -> columns by name (id and generation first)
_Decoded = dict[str, list[Any]]
_CACHE: dict[tuple[str, int, int, tuple[str, ...]], _Decoded] = {}
_CACHE_MAX = 8  # a search file holds up to 1,024 frames, an element file 32,768 rows


class PayloadFiles:
    """Reads payload files of one store, reporting each problem once."""

    def __init__(self, root: Path | None, problems: list[str] | None) -> None:
        self.root = root
        self.problems = problems

    @classmethod
    def of(cls, conn: Any, problems: list[str] | None) -> PayloadFiles:
        return cls(store_root(conn), problems)

    def columns(self, rel: object, checksum: object, names: tuple[str, ...]) -> _Decoded | None:
        """The file's ``id``, ``generation`` and ``names`` columns; None (after raising or
        noting why) when it cannot be read."""
        if not parquet_available():
            return self._fail(NO_PYARROW)
        if not isinstance(rel, str) or self.root is None:
            return self._fail(f"screenpipe payload {rel!r} is not inside the store")
        parts = PurePosixPath(rel).parts
        if not parts or PurePosixPath(rel).is_absolute() or ".." in parts or "\\" in rel:
            return self._fail(f"screenpipe payload {rel!r} is not inside the store")
        path = self.root.joinpath(*parts)
        try:
            st = path.stat()
        except OSError:
            return self._fail(self._line(rel, "is missing"))
        key = (str(path), st.st_size, st.st_mtime_ns, names)
        hit = _CACHE.get(key)
        if hit is not None:
            return hit
        try:
            data = path.read_bytes()
        except OSError as exc:
            return self._fail(self._line(rel, f"cannot be read ({exc.strerror})"))
        if not isinstance(checksum, str) or hashlib.sha256(data).hexdigest() != checksum.lower():
            return self._fail(self._line(rel, "does not match its checksum"))
        decoded = _decode(data, names)
        if decoded is None:
            return self._fail(self._line(rel, "is not a Parquet file of screen text"))
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = decoded
        return decoded

    @staticmethod
    def _line(rel: str, what: str) -> str:
        return f"screenpipe payload {rel} {what}: its screen text is missing"

    def _fail(self, line: str) -> _Decoded | None:
        """None, after raising ``line`` or noting it once."""
        if self.problems is None:
            raise SourceError(line)
        if line not in self.problems:
            self.problems.append(line)
        return None


def _decode(data: bytes, names: tuple[str, ...]) -> _Decoded | None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    wanted = ["id", "generation", *names]
    try:
        file = pq.ParquetFile(pa.BufferReader(data))
        if not set(wanted) <= set(file.schema_arrow.names):
            return None
        table = file.read(columns=wanted)
    except (pa.ArrowException, OSError, ValueError):
        return None
    out = {c: table.column(c).to_pylist() for c in wanted}
    ids, gens = out["id"], out["generation"]
    if any(type(i) is not int for i in ids) or any(type(g) is not int for g in gens):
        return None
    if any(a >= b for a, b in pairwise(ids)):
        return None  # upstream writes ids strictly ascending and checks it on read
    return out


def frame_texts(
    files: PayloadFiles, rows: list[tuple[int, int, object, object]]
) -> dict[int, tuple[object, object]]:
    """(full_text, accessibility_text) of sealed frames, by frame id, from (frame id,
    generation, search_path, search_checksum) rows; a frame whose row the file lacks at
    that generation has none."""
    by_file: dict[tuple[object, object], list[tuple[int, int]]] = {}
    for fid, gen, rel, checksum in rows:
        by_file.setdefault((rel, checksum), []).append((fid, gen))
    out: dict[int, tuple[object, object]] = {}
    for (rel, checksum), wanted in sorted(by_file.items(), key=lambda kv: str(kv[0][0])):
        cols = files.columns(rel, checksum, SEARCH_COLUMNS)
        if cols is None:
            continue
        at = {i: n for n, i in enumerate(cols["id"])}
        for fid, gen in wanted:
            n = at.get(fid)
            if n is not None and cols["generation"][n] == gen:
                out[fid] = (cols["full_text"][n], cols["accessibility_text"][n])
    return out


def archived_elements(
    files: PayloadFiles,
    ranges: list[tuple[int, int, object, object]],
    frame_ids: set[int],
    above: int,
) -> list[tuple[int, int, object, object]]:
    """(id, frame_id, role, text) of the accessibility elements of ``frame_ids`` with ids
    above ``above`` in the element files of ``ranges`` (first id, last id, path,
    checksum): only ids inside the file's range count, as screenpipe's reader takes them."""
    out = []
    for first, last, rel, checksum in ranges:
        cols = files.columns(rel, checksum, ELEMENT_COLUMNS)
        if cols is None:
            continue
        for eid, fid, source, role, text in zip(
            cols["id"], cols["frame_id"], cols["source"], cols["role"], cols["text"], strict=True
        ):
            if (
                fid in frame_ids
                and first <= eid <= last
                and eid > above
                and source == "accessibility"
            ):
                out.append((eid, fid, role, text))
    return out


__all__ = ["NO_PYARROW", "PayloadFiles", "archived_elements", "frame_texts"]
