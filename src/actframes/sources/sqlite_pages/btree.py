"""SQLite table b-tree pages read from raw bytes (https://www.sqlite.org/fileformat2.html).

Pure: pages come through a callable, so the same walk runs over the database file or over a
snapshot that mixes the file with WAL frames. The incremental settled mark (issue #20) uses it
to list the pages that hold a rowid range and how each interior page routes that range; a page
it lists as unchanged must really hold the same rows, so everything here is strict: any byte
that is not what a table b-tree holds there gives None, never a guess and never an exception.

Layout relied on (big-endian throughout): a b-tree page header of 8 bytes (leaf) or 12
(interior; the right-most child at offset 8), after the 100-byte database header on page 1;
the cell pointer array right after it. Interior table cell: 4-byte left child, varint rowid.
Leaf table cell: varint payload size P, varint rowid, the local part of the payload, then the
first overflow page (4 bytes) when P exceeds the page's local maximum. Overflow pages chain by
their first 4 bytes (0 ends the chain) and carry U - 4 payload bytes each.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import NamedTuple

ReadPage = Callable[[int], bytes]  # page number (1-based) -> the page's bytes (page_size long)
Routing = tuple[tuple[int, int, int], ...]  # (child page, lowest key, highest key), in key order

MAGIC = b"SQLite format 3\x00"
INTERIOR_TABLE = 0x05
LEAF_TABLE = 0x0D
MAX_DEPTH = 20  # SQLite's own cursor depth limit; deeper means a loop or corruption
MIN_USABLE = 480  # the file format's lower bound on the usable size
_I64 = 1 << 64
_I63 = 1 << 63
_U32 = struct.Struct(">I")


class DbHeader(NamedTuple):
    page_size: int  # 65536 where the header says 1
    usable: int  # page_size - reserved bytes (header offset 20)
    auto_vacuum: bool  # header offset 52 (largest root b-tree page) != 0


class KeyRangePages(NamedTuple):
    leaves: frozenset[int]  # table leaf pages whose key range meets [lo, hi]
    overflow: frozenset[int]  # every overflow page of every cell of those leaves
    routes: dict[int, Routing]  # each interior page visited -> routing(page, pgno, lo, hi)


def db_header(page1: bytes) -> DbHeader | None:
    """None when the bytes are not a SQLite 3 database header (magic, sane page size)."""
    if len(page1) < 100 or page1[:16] != MAGIC:
        return None
    raw = (page1[16] << 8) | page1[17]
    size = 65536 if raw == 1 else raw
    if size < 512 or size > 65536 or size & (size - 1):
        return None
    # file format versions 1 (legacy) or 2 (WAL); payload fractions fixed by the format
    if page1[18] not in (1, 2) or page1[19] not in (1, 2) or page1[21:24] != b"\x40\x20\x20":
        return None
    usable = size - page1[20]
    if usable < MIN_USABLE:
        return None
    return DbHeader(size, usable, _U32.unpack_from(page1, 52)[0] != 0)


def _varint(page: bytes, i: int) -> tuple[int, int]:
    """(unsigned value, offset after it) of the varint at ``i``; IndexError past the end."""
    v = 0
    for j in range(i, i + 8):
        b = page[j]
        v = (v << 7) | (b & 0x7F)
        if b < 0x80:
            return v, j + 1
    return (v << 8) | page[i + 8], i + 9


def _skip_varint(page: bytes, i: int) -> int:
    """The offset after the varint at ``i`` (its value unread)."""
    for j in range(i, i + 8):
        if page[j] < 0x80:
            return j + 1
    if i + 8 >= len(page):
        raise IndexError(i + 8)
    return i + 9


def _signed(v: int) -> int:
    return v - _I64 if v >= _I63 else v


def _header_at(pgno: int) -> int:
    return 100 if pgno == 1 else 0


def _cell_pointers(
    page: bytes, pgno: int, kind: int, usable: int
) -> tuple[int, tuple[int, ...]] | None:
    """Where the b-tree header of page ``pgno`` starts, and its cell pointer array, when the
    page is a whole page of type ``kind`` and every pointer lands inside the cell content
    area (None otherwise)."""
    h = _header_at(pgno)
    header = 12 if kind == INTERIOR_TABLE else 8
    if len(page) < usable or usable < h + header or page[h] != kind:
        return None
    ptrs = _pointers(page, h, header, usable)
    return None if ptrs is None else (h, ptrs)


def _pointers(page: bytes, h: int, header: int, usable: int) -> tuple[int, ...] | None:
    """The cell pointer array of the b-tree page whose header starts at ``h``, every pointer
    checked to land inside the cell content area (None otherwise)."""
    n = (page[h + 3] << 8) | page[h + 4]
    start = h + header
    end = start + 2 * n
    if end > usable:
        return None
    ptrs: tuple[int, ...] = struct.unpack_from(f">{n}H", page, start)
    if ptrs:
        content = ((page[h + 5] << 8) | page[h + 6]) or 65536
        if min(ptrs) < max(end, content) or max(ptrs) >= usable:
            return None
    return ptrs


def _interior(page: bytes, pgno: int, usable: int) -> tuple[list[int], list[int], int] | None:
    """(left children, keys, right-most child) of an interior table page; keys strictly
    increasing and every child page number at least 2 (page 1 is never a child)."""
    found = _cell_pointers(page, pgno, INTERIOR_TABLE, usable)
    if found is None:
        return None
    h, ptrs = found
    right = _U32.unpack_from(page, h + 8)[0]
    children: list[int] = []
    keys: list[int] = []
    last = -_I63 - 1
    for p in ptrs:
        child = _U32.unpack_from(page, p)[0]
        b = page[p + 4]
        if b < 0x80:
            key, q = b, p + 5
        else:
            raw, q = _varint(page, p + 4)
            key = _signed(raw)
        if q > usable or child < 2 or key <= last:
            return None
        children.append(child)
        keys.append(key)
        last = key
    if right < 2:
        return None
    return children, keys, right


def _route(children: list[int], keys: list[int], right: int, lo: int, hi: int) -> Routing:
    out: list[tuple[int, int, int]] = []
    below = lo  # the lowest key of [lo, hi] not yet routed
    for child, key in zip(children, keys, strict=True):
        if key >= below:
            top = min(key, hi)
            out.append((child, below, top))
            if key >= hi:
                return tuple(out)
            below = key + 1
    if below <= hi:
        out.append((right, below, hi))
    return tuple(out)


def routing(
    page: bytes, pgno: int, lo: int, hi: int, *, usable: int | None = None
) -> Routing | None:
    """How an interior TABLE b-tree page (type 0x05; on page 1 after the 100-byte header) sends
    the keys lo..hi: child i holds keys in (K_{i-1}, K_i], the right-most child keys > K_last.
    Each entry is (child page, lowest key, highest key), keys clipped to [lo, hi], only the
    children whose range meets [lo, hi], in key order (empty when lo > hi). None when the page
    is not an interior table page or does not parse (any offset out of bounds, keys not
    strictly increasing, a child page number below 2). ``usable`` (default: the page's
    length) bounds every cell."""
    try:
        parsed = _interior(page, pgno, len(page) if usable is None else usable)
    except (IndexError, struct.error):
        return None
    if parsed is None:
        return None
    return _route(*parsed, lo, hi) if lo <= hi else ()


def cell_keys(page: bytes, pgno: int, *, usable: int | None = None) -> list[int]:
    """The rowids of a table leaf page's cells, in cell order. ValueError when the page is
    not a table leaf page or a cell pointer or key runs out of bounds (``usable``, default
    the page's length)."""
    limit = len(page) if usable is None else usable
    keys: list[int] = []
    try:
        found = _cell_pointers(page, pgno, LEAF_TABLE, limit)
        ptrs = None if found is None else found[1]
        for p in ptrs or ():
            raw, q = _varint(page, _skip_varint(page, p))
            if q > limit:
                break
            keys.append(_signed(raw))
    except (IndexError, struct.error):
        ptrs = None
    if ptrs is None or len(keys) != len(ptrs):
        raise ValueError(f"page {pgno} is not a table leaf page that parses")
    return keys


def _unproven(page: bytes, ptrs: tuple[int, ...], usable: int) -> list[int]:
    """The leaf cells (pointers) that may spill or run past ``usable``: all but those whose
    first one or two bytes prove neither, in one comprehension (the walk's hot loop). A payload
    size of one byte (b < 0x80) is at most 127, below any page's local maximum X; the cell
    ends by p + 1 + 9 (rowid) + b. Of two bytes (0x80 < b, next byte < 0x80): at most
    (b - 0x80) * 128 + 127, which the bound on b keeps at most X; the cell ends by
    p + 11 + that. Every other cell is parsed in full."""
    top = 0x80 + (usable - 35 - 127) // 128  # the largest first byte of a 2-byte size <= X
    one = usable - 10
    two = usable + (0x80 << 7) - 138
    return [
        p
        for p in ptrs
        if not (
            ((b := page[p]) < 0x80 and p + b <= one)
            or (0x80 < b <= top and page[p + 1] < 0x80 and p + (b << 7) <= two)
        )
    ]


def _leaf_overflow_heads(page: bytes, pgno: int, usable: int) -> list[tuple[int, int]] | None:
    """(first overflow page, number of overflow pages) of each cell of a table leaf page that
    spills; None when the page is not a table leaf page or a cell runs out of bounds."""
    found = _cell_pointers(page, pgno, LEAF_TABLE, usable)
    if found is None:
        return None
    _, ptrs = found
    big = usable - 35  # X: the most payload a leaf cell keeps on the page
    least = ((usable - 12) * 32 // 255) - 23  # M
    chunk = usable - 4  # payload bytes per overflow page
    fits = usable - 9  # a payload ending by here fits whatever the length of its rowid
    heads: list[tuple[int, int]] = []
    for p in _unproven(page, ptrs, usable):
        # the payload size: inline for the 1- and 2-byte varints nearly every cell has
        b = page[p]
        if b < 0x80:
            size, q = b, p + 1
        else:
            c = page[p + 1]
            if c < 0x80:
                size, q = ((b & 0x7F) << 7) | c, p + 2
            else:
                size, q = _varint(page, p)
        if size <= big:
            # the rowid's length is needed only near the end of the page
            if q + size > fits and _skip_varint(page, q) + size > usable:
                return None
            continue
        q = _skip_varint(page, q)  # the rowid, unread
        local = least + (size - least) % chunk
        if local > big:
            local = least
        q += local
        if q + 4 > usable:
            return None
        heads.append((_U32.unpack_from(page, q)[0], -(-(size - local) // chunk)))
    return heads


class _Walk:
    """One descent's state: pages met so far (each may be met once), what it found."""

    def __init__(self, read: ReadPage, size: int, usable: int, page_count: int | None) -> None:
        self.read = read
        self.size = size
        self.usable = usable
        self.page_count = page_count
        self.seen: set[int] = set()
        self.leaves: set[int] = set()
        self.overflow: set[int] = set()
        self.routes: dict[int, Routing] = {}

    def page(self, pgno: int) -> bytes | None:
        """The page's bytes once; None for a page number out of range, met before, or a read
        that did not give a whole page."""
        if pgno < 1 or pgno in self.seen:
            return None
        if self.page_count is not None and pgno > self.page_count:
            return None
        self.seen.add(pgno)
        data = self.read(pgno)
        return data if len(data) == self.size else None

    def chain(self, first: int, count: int) -> bool:
        """Follow exactly ``count`` overflow pages from ``first``; the last must end the chain."""
        pgno = first
        for _ in range(count):
            if pgno < 2:
                return False
            data = self.page(pgno)
            if data is None:
                return False
            self.overflow.add(pgno)
            pgno = _U32.unpack_from(data, 0)[0]
        return pgno == 0

    def descend(self, pgno: int, lo: int, hi: int, top: tuple[int, int], depth: int) -> bool:
        """Visit the page ``pgno`` for the keys lo..hi that reach it; ``top`` is the whole
        range asked for, the one each interior page's recorded routing is of."""
        if depth > MAX_DEPTH:
            return False
        data = self.page(pgno)
        if data is None:
            return False
        kind = data[_header_at(pgno)]
        if kind == LEAF_TABLE:
            heads = _leaf_overflow_heads(data, pgno, self.usable)
            if heads is None:
                return False
            self.leaves.add(pgno)
            return all(self.chain(first, count) for first, count in heads)
        parsed = _interior(data, pgno, self.usable)
        if parsed is None:
            return False
        whole = _route(*parsed, *top)
        self.routes[pgno] = whole
        for child, a, b in whole if (lo, hi) == top else _route(*parsed, lo, hi):
            if not self.descend(child, a, b, top, depth + 1):
                return False
        return True


def key_range_pages(
    read: ReadPage, root: int, lo: int, hi: int, usable: int, *, page_count: int | None = None
) -> KeyRangePages | None:
    """The pages of the table b-tree rooted at ``root`` that hold the rows with rowid lo..hi,
    found by descending only into the children a search for those keys reaches (each interior
    page routes the part of [lo, hi] its parent sent it). ``routes`` holds each interior page
    visited with its routing of the whole [lo, hi]. None when lo > hi, when any page met is not
    what a table b-tree holds there (wrong type byte, a cell or pointer out of bounds, an
    overflow chain that loops or runs past the stated payload, a page number 0, above
    ``page_count`` when given, or met twice, a read that is not one whole page), or the tree is
    deeper than 20. Every page must be as long as the root page."""
    if lo > hi or usable < MIN_USABLE:
        return None
    first = read(root) if root >= 1 else b""
    if len(first) < usable:
        return None
    walk = _Walk(lambda pgno: first if pgno == root else read(pgno), len(first), usable, page_count)
    try:
        found = walk.descend(root, lo, hi, (lo, hi), 1)
    except (IndexError, struct.error):
        return None
    if not found:
        return None
    return KeyRangePages(frozenset(walk.leaves), frozenset(walk.overflow), walk.routes)
