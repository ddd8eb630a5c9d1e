"""sources/sqlite_pages/btree.py against real SQLite files, SQLite itself the oracle: the ``dbstat``
virtual table names every page of a b-tree (its type and its path from the root), and SQL
gives the rowids. Databases are built with page sizes 512 to 65536, with and without an
INTEGER PRIMARY KEY, short rows and rows that spill into 1..N overflow pages, deletions
that leave holes and free pages, trees of 3+ levels, and the schema table's own b-tree
rooted on page 1 (after the 100-byte database header)."""

from __future__ import annotations

import contextlib
import itertools
import random
import sqlite3
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.sources.sqlite_pages import btree
from actframes.sources.sqlite_pages.btree import (
    DbHeader,
    cell_keys,
    db_header,
    key_range_pages,
    routing,
)

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
# IPK rowids that need 9-byte varints (negative, or at least 2**56) and the 2-8-byte ones
ODD_KEYS = (I64_MIN, -(1 << 40), -5, -1, 0, 1 << 56, (1 << 62) + 7, I64_MAX)


@dataclass(frozen=True)
class Db:
    path: Path
    data: bytes
    header: DbHeader

    def read(self, pgno: int) -> bytes:
        size = self.header.page_size
        return self.data[(pgno - 1) * size : pgno * size] if pgno >= 1 else b""

    def sql(self, query: str, *args: object) -> list[tuple[object, ...]]:
        with sqlite3.connect(f"file:{self.path}?mode=ro", uri=True) as c:
            rows: list[tuple[object, ...]] = c.execute(query, args).fetchall()
        return rows

    def root(self, table: str) -> int:
        if table == "sqlite_schema":
            return 1
        return int(self.sql("SELECT rootpage FROM sqlite_schema WHERE name = ?", table)[0][0])

    def pages(self, table: str, kind: str) -> set[int]:
        q = "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ?"
        return {int(p) for (p,) in self.sql(q, table, kind)}

    def rowids(self, table: str, lo: int = I64_MIN, hi: int = I64_MAX) -> list[int]:
        q = f"SELECT rowid FROM {table} WHERE rowid BETWEEN ? AND ? ORDER BY rowid"
        return [int(r) for (r,) in self.sql(q, lo, hi)]

    def walk(self, table: str, lo: int = I64_MIN, hi: int = I64_MAX) -> object:
        return key_range_pages(self.read, self.root(table), lo, hi, self.header.usable)


def _value(rng: random.Random, usable: int) -> bytes | str:
    """Mostly short values; some spill into 1..5 overflow pages (fewer on big pages, so the
    files stay small)."""
    if rng.random() < (1 / 6 if usable <= 1024 else 1 / 15 if usable <= 4096 else 1 / 300):
        return rng.randbytes(usable + rng.randrange(0, 5 * (usable - 4)))
    return "v" * rng.randrange(0, 40)


def _build(
    path: Path, page_size: int, rows: int, *, auto_vacuum: str = "NONE", wal: bool = False
) -> Db:
    rng = random.Random(page_size * 7 + rows)
    c = sqlite3.connect(path)
    c.execute(f"PRAGMA page_size = {page_size}")
    c.execute(f"PRAGMA auto_vacuum = {auto_vacuum}")
    if wal:
        c.execute("PRAGMA journal_mode = WAL")
    c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b BLOB)")
    c.execute("CREATE TABLE u (x, y)")  # rowid table without an INTEGER PRIMARY KEY
    c.execute("CREATE TABLE w (k INTEGER PRIMARY KEY, v) WITHOUT ROWID")
    c.execute("CREATE INDEX u_x ON u (x)")
    usable = page_size
    keys = [*ODD_KEYS, *range(10, 10 + rows)]
    c.executemany(
        "INSERT INTO t VALUES (?, ?, ?)", [(k, f"r{k}", _value(rng, usable)) for k in keys]
    )
    c.executemany("INSERT INTO u VALUES (?, ?)", [(i, _value(rng, usable)) for i in range(rows)])
    c.executemany("INSERT INTO w VALUES (?, ?)", [(i, "w") for i in range(50)])
    # holes: a run of rows deleted (their pages freed) and scattered single rows
    c.execute("DELETE FROM t WHERE id BETWEEN ? AND ?", (rows // 3, rows // 3 + rows // 5))
    c.execute("DELETE FROM t WHERE id % 17 = 3")
    c.execute(
        "DELETE FROM u WHERE rowid % 5 = 0 OR rowid BETWEEN ? AND ?", (rows // 2, rows // 2 + 40)
    )
    c.commit()
    if wal:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    data = path.read_bytes()
    header = db_header(data[:100])
    assert header is not None
    return Db(path, data, header)


@pytest.fixture(scope="module")
def dbs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Db]:
    d = tmp_path_factory.mktemp("btree")
    return {
        "512": _build(d / "p512.db", 512, 2500),  # 3+ levels
        "1024-av": _build(d / "p1024.db", 1024, 1500, auto_vacuum="FULL"),
        "4096-wal": _build(d / "p4096.db", 4096, 3000, wal=True),
        "65536": _build(d / "p65536.db", 65536, 4000),
    }


@pytest.fixture(scope="module")
def schema_db(tmp_path_factory: pytest.TempPathFactory) -> Db:
    """So many tables that the schema table's b-tree has an interior root: page 1."""
    path = tmp_path_factory.mktemp("schema") / "many.db"
    c = sqlite3.connect(path)
    c.execute("PRAGMA page_size = 512")
    for i in range(120):
        c.execute(f"CREATE TABLE t{i} (id INTEGER PRIMARY KEY, {'c' * 30}{i} TEXT)")
    c.commit()
    c.close()
    data = path.read_bytes()
    header = db_header(data)
    assert header is not None
    return Db(path, data, header)


NAMES = ("512", "1024-av", "4096-wal", "65536")
TABLES = ("t", "u")


def _cases() -> Iterator[tuple[str, str]]:
    for name in NAMES:
        for table in TABLES:
            yield name, table


# -- db_header --------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_db_header_agrees_with_the_pragmas(dbs: dict[str, Db], name: str) -> None:
    db = dbs[name]
    (size,), (vacuum,) = db.sql("PRAGMA page_size")[0], db.sql("PRAGMA auto_vacuum")[0]
    assert db.header.page_size == size == len(db.read(1))
    assert db.header.auto_vacuum == (vacuum != 0)
    assert db.header.auto_vacuum == (name == "1024-av")
    assert db.header.usable == size  # Python's sqlite3 reserves no bytes per page


def test_db_header_refuses_what_is_not_a_database(dbs: dict[str, Db]) -> None:
    page1 = dbs["512"].read(1)
    assert db_header(page1[:99]) is None
    assert db_header(b"SQLite format 2\x00" + page1[16:]) is None
    for bad_size in (0, 256, 1000, 3):
        assert db_header(page1[:16] + struct.pack(">H", bad_size) + page1[18:]) is None
    assert db_header(page1[:21] + b"\x41" + page1[22:]) is None  # payload fraction fixed
    big = dbs["65536"].read(1)
    assert big[16:18] == b"\x00\x01"  # the format spells 65536 as 1
    assert db_header(big) == DbHeader(65536, 65536, False)


# -- the whole table ----------------------------------------------------------------------


@pytest.mark.parametrize(("name", "table"), list(_cases()))
def test_whole_range_is_the_pages_dbstat_names(dbs: dict[str, Db], name: str, table: str) -> None:
    db = dbs[name]
    found = db.walk(table)
    assert found is not None
    assert found.leaves == db.pages(table, "leaf")
    assert found.overflow == db.pages(table, "overflow")
    assert set(found.routes) == db.pages(table, "internal")
    assert found.overflow, "the fixture has rows that spill"
    keys = [k for p in _leaf_order(db, table) for k in cell_keys(db.read(p), p)]
    assert keys == db.rowids(table)


def test_fixture_trees_are_deep_and_holey(dbs: dict[str, Db]) -> None:
    db = dbs["512"]
    depth = max(str(p).count("/") for (p,) in db.sql("SELECT path FROM dbstat WHERE name='t'"))
    assert depth >= 3  # '/000/000/': two levels of interior pages above the leaves
    assert int(str(db.sql("PRAGMA freelist_count")[0][0])) > 0


def test_the_schema_table_on_page_1(schema_db: Db) -> None:
    assert schema_db.read(1)[100] == 0x05  # page 1 is an interior page after the header
    found = schema_db.walk("sqlite_schema")
    assert found is not None
    assert set(found.routes) == schema_db.pages("sqlite_schema", "internal") >= {1}
    assert found.leaves == schema_db.pages("sqlite_schema", "leaf")
    keys = [
        k for p in _leaf_order(schema_db, "sqlite_schema") for k in cell_keys(schema_db.read(p), p)
    ]
    assert keys == schema_db.rowids("sqlite_schema")


def _leaf_order(db: Db, table: str) -> list[int]:
    rows = db.sql("SELECT path, pageno FROM dbstat WHERE name=? AND pagetype='leaf'", table)
    return [int(p) for _, p in sorted(rows, key=lambda r: _path_key(str(r[0])))]


def _path_key(path: str) -> list[int]:
    return [int(part, 16) for part in path.strip("/").split("/") if part]


# -- routing ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "table"), [*_cases(), ("512", "sqlite_schema")])
def test_routing_is_dbstats_tree(dbs: dict[str, Db], name: str, table: str) -> None:
    """Each interior page's children, in order, are dbstat's; every rowid under a child lies
    in the range routing gives it."""
    db = dbs[name]
    rows = db.sql("SELECT path, pageno, pagetype FROM dbstat WHERE name=?", table)
    pages = {str(path): int(str(p)) for path, p, kind in rows if kind != "overflow"}
    interior = sorted(str(path) for path, _, kind in rows if kind == "internal")
    # the lowest and highest rowid under each path (every ancestor of each leaf)
    span: dict[str, tuple[int, int]] = {}
    for path, p, kind in rows:
        keys = cell_keys(db.read(int(str(p))), int(str(p))) if kind == "leaf" else []
        if not keys:
            continue
        parts = str(path).strip("/").split("/")
        for depth in range(len(parts) + 1):
            at = "/" + "".join(part + "/" for part in parts[:depth])
            low, high = span.get(at, (min(keys), max(keys)))
            span[at] = (min(low, *keys), max(high, *keys))
    children: dict[str, list[str]] = {}
    for path in pages:
        if path != "/":
            children.setdefault(path[: path.rstrip("/").rfind("/") + 1], []).append(path)
    for path in interior:
        p = pages[path]
        got = routing(db.read(p), p, I64_MIN, I64_MAX)
        assert got is not None
        kids = sorted(children[path], key=_path_key)
        assert [c for c, _, _ in got] == [pages[k] for k in kids]
        assert got[0][1] == I64_MIN and got[-1][2] == I64_MAX
        for (_, lo, hi), kid in zip(got, kids, strict=True):
            if kid in span:
                assert lo <= span[kid][0] <= span[kid][1] <= hi


def _interior_pages(db: Db) -> list[int]:
    return sorted(db.pages("t", "internal") | db.pages("u", "internal"))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_routing_sends_every_key_to_exactly_one_child(
    dbs: dict[str, Db], data: st.DataObject
) -> None:
    db = dbs[data.draw(st.sampled_from(NAMES))]
    pgno = data.draw(st.sampled_from(_interior_pages(db)))
    lo = data.draw(st.integers(-100, 5000) | st.integers(I64_MIN, I64_MAX))
    hi = lo + data.draw(st.integers(0, 3000))
    if hi > I64_MAX:
        hi = I64_MAX
    got = routing(db.read(pgno), pgno, lo, hi)
    assert got is not None
    # clipped ranges, in key order, abutting: together exactly [lo, hi]
    assert got[0][1] == lo and got[-1][2] == hi
    for (_, _, b), (_, c, _) in itertools.pairwise(got):
        assert c == b + 1
    assert all(a <= b for _, a, b in got)
    whole = routing(db.read(pgno), pgno, I64_MIN, I64_MAX)
    assert whole is not None
    for child, a, b in got:  # the same child the unclipped routing gives those keys
        assert any(c == child and wa <= a and b <= wb for c, wa, wb in whole)


# -- sub-ranges -----------------------------------------------------------------------------


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_sub_range_finds_exactly_its_rows(dbs: dict[str, Db], data: st.DataObject) -> None:
    name, table = data.draw(st.sampled_from(list(_cases())))
    db = dbs[name]
    lo = data.draw(st.integers(-50, 4200) | st.sampled_from(ODD_KEYS))
    hi = min(I64_MAX, lo + data.draw(st.integers(0, 600) | st.just(0)))
    found = db.walk(table, lo, hi)
    assert found is not None
    keys = sorted(k for p in found.leaves for k in cell_keys(db.read(p), p) if lo <= k <= hi)
    assert keys == db.rowids(table, lo, hi)
    routed = {c for r in found.routes.values() for c, _, _ in r}
    for leaf in found.leaves:
        held = [k for k in cell_keys(db.read(leaf), leaf) if lo <= k <= hi]
        assert held or leaf in routed
    assert found.leaves <= db.pages(table, "leaf")
    assert found.overflow <= db.pages(table, "overflow")
    for p, r in found.routes.items():
        assert r == routing(db.read(p), p, lo, hi)


# -- what is not a table b-tree ------------------------------------------------------------


def _patched(db: Db, pgno: int, at: int, new: bytes) -> Callable[[int], bytes]:
    page = bytearray(db.read(pgno))
    page[at : at + len(new)] = new
    return lambda n: bytes(page) if n == pgno else db.read(n)


def _spilling_leaf(db: Db, table: str, chain: int) -> tuple[int, list[int]]:
    """A leaf of ``table`` with a cell whose overflow chain has at least ``chain`` pages, and
    that chain in order (from dbstat's overflow paths)."""
    rows = db.sql("SELECT path, pageno FROM dbstat WHERE name=? AND pagetype='overflow'", table)
    chains: dict[str, list[tuple[int, int]]] = {}
    for path, p in rows:
        head, _, nth = str(path).rpartition("+")
        chains.setdefault(head, []).append((int(nth, 16), int(str(p))))
    for head, pages in sorted(chains.items()):
        if len(pages) >= chain:
            leaf_path = head.rpartition("/")[0] + "/"
            (leaf,) = db.sql("SELECT pageno FROM dbstat WHERE name=? AND path=?", table, leaf_path)
            return int(str(leaf[0])), [p for _, p in sorted(pages)]
    raise AssertionError("no such chain")


def _walk_with(db: Db, read: Callable[[int], bytes], table: str = "t", **kw: int) -> object:
    return key_range_pages(read, db.root(table), I64_MIN, I64_MAX, db.header.usable, **kw)


def test_overflow_chains_that_loop_stop_early_or_run_on_are_refused(dbs: dict[str, Db]) -> None:
    db = dbs["512"]
    _, chain = _spilling_leaf(db, "t", 3)
    first, second, last = chain[0], chain[1], chain[-1]
    assert _walk_with(db, _patched(db, second, 0, struct.pack(">I", first))) is None  # loop
    assert _walk_with(db, _patched(db, first, 0, struct.pack(">I", 0))) is None  # too short
    assert _walk_with(db, _patched(db, last, 0, struct.pack(">I", 2))) is None  # runs on
    assert _walk_with(db, _patched(db, first, 0, struct.pack(">I", 1 << 30))) is None  # past end
    assert _walk_with(db, _patched(db, first, 0, struct.pack(">I", 1))) is None  # page 1
    assert _walk_with(db, db.read) is not None


def test_wrong_type_bytes_and_bad_pointers_are_refused(dbs: dict[str, Db]) -> None:
    db = dbs["512"]
    usable = db.header.usable
    leaf = min(db.pages("t", "leaf"))
    inner = max(db.pages("t", "internal"))
    root = db.root("t")
    assert _walk_with(db, _patched(db, leaf, 0, b"\x0a")) is None  # an index leaf
    assert _walk_with(db, _patched(db, inner, 0, b"\x02")) is None  # an index interior page
    assert _walk_with(db, _patched(db, root, 0, b"\x00")) is None
    assert _walk_with(db, _patched(db, leaf, 8, struct.pack(">H", usable))) is None  # past end
    assert _walk_with(db, _patched(db, leaf, 8, struct.pack(">H", 3))) is None  # into header
    assert _walk_with(db, _patched(db, leaf, 3, struct.pack(">H", 4000))) is None  # cell count
    assert _walk_with(db, _patched(db, inner, 8, struct.pack(">I", 0))) is None  # right child 0
    (cell,) = struct.unpack_from(">H", db.read(inner), 12)
    assert _walk_with(db, _patched(db, inner, cell, struct.pack(">I", 0))) is None  # child 0
    assert _walk_with(db, _patched(db, inner, cell, struct.pack(">I", inner))) is None  # a loop
    first_two = db.read(inner)[12:16]  # cells swapped: keys no longer increasing
    swapped = _patched(db, inner, 12, first_two[2:] + first_two[:2])
    assert routing(swapped(inner), inner, I64_MIN, I64_MAX) is None
    assert _walk_with(db, swapped) is None
    n_pages = len(db.data) // db.header.page_size
    assert _walk_with(db, db.read, page_count=n_pages) is not None
    assert _walk_with(db, db.read, page_count=n_pages // 2) is None
    assert key_range_pages(db.read, db.root("w"), 0, 10, usable) is None  # WITHOUT ROWID
    assert key_range_pages(db.read, db.root("u_x"), 0, 10, usable) is None  # an index
    assert key_range_pages(db.read, 0, 0, 10, usable) is None
    assert key_range_pages(db.read, db.root("t"), 10, 9, usable) is None  # lo > hi


def test_truncated_pages_are_refused(dbs: dict[str, Db]) -> None:
    db = dbs["4096-wal"]
    for victim in (min(db.pages("t", "leaf")), db.root("t"), min(db.pages("t", "overflow"))):
        for cut in (0, 1, 100, db.header.page_size - 1):

            def short(n: int, victim: int = victim, cut: int = cut) -> bytes:
                return db.read(n)[:cut] if n == victim else db.read(n)

            assert _walk_with(db, short) is None
    root = db.root("t")
    assert routing(db.read(root), root, 0, 10) is not None
    assert routing(db.read(root)[:11], root, 0, 10) is None
    assert routing(db.read(root)[:-1], root, 0, 10, usable=4096) is None
    half = len(db.data) // db.header.page_size // 2  # the file cut short: pages past it empty
    assert _walk_with(db, lambda n: db.read(n) if n <= half else b"") is None


def test_a_damaged_page_outside_the_range_is_not_visited(dbs: dict[str, Db]) -> None:
    """Only the children a search for [lo, hi] reaches are read."""
    db = dbs["512"]
    lo, hi = 100, 120
    found = db.walk("t", lo, hi)
    assert found is not None
    far = max(db.pages("t", "leaf") - found.leaves)
    read = _patched(db, far, 0, b"\x0a")
    again = key_range_pages(read, db.root("t"), lo, hi, db.header.usable)
    assert again == found


def _interior_page(size: int, right: int) -> bytes:
    head = bytes([0x05, 0, 0, 0, 0]) + struct.pack(">HBI", size, 0, right)
    return head + bytes(size - len(head))


def test_a_tree_deeper_than_20_is_refused() -> None:
    size = 512

    def chain(levels: int) -> Callable[[int], bytes]:
        # pages 2..levels+1 are interior pages of no cells, each sending every key right,
        # down to an empty leaf
        leaf = bytes([0x0D, 0, 0, 0, 0, 0x02, 0x00]) + bytes(size - 7)
        return lambda n: (
            _interior_page(size, n + 1)
            if 2 <= n <= levels + 1
            else (leaf if n == levels + 2 else b"")
        )

    ok = key_range_pages(chain(19), 2, 0, 5, size)
    assert ok is not None and ok.leaves == {21} and len(ok.routes) == 19
    assert key_range_pages(chain(20), 2, 0, 5, size) is None


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_damage_never_raises(dbs: dict[str, Db], data: st.DataObject) -> None:
    db = dbs["512"]
    pages = sorted(db.pages("t", "internal") | db.pages("t", "leaf") | db.pages("t", "overflow"))
    victim = data.draw(st.sampled_from(pages))
    page = bytearray(db.read(victim))
    for _ in range(data.draw(st.integers(1, 6))):
        page[data.draw(st.integers(0, len(page) - 1))] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(page)))
    damaged = bytes(page[:cut])
    lo = data.draw(st.integers(-20, 3000))
    hi = lo + data.draw(st.integers(0, 3000))
    key_range_pages(lambda n: damaged if n == victim else db.read(n), db.root("t"), lo, hi, 512)
    routing(damaged, victim, lo, hi)
    with contextlib.suppress(ValueError):
        cell_keys(damaged, victim)


def _plain_heads(page: bytes, usable: int) -> list[tuple[int, int]] | None:
    """Every cell of a table leaf page decoded in full, in the file format's words: the
    spilling cells' (first overflow page, page count), or None when a cell runs out of bounds."""

    def varint(i: int) -> tuple[int, int]:
        v = 0
        for j in range(8):
            v = (v << 7) | (page[i + j] & 0x7F)
            if page[i + j] < 0x80:
                return v, i + j + 1
        return (v << 8) | page[i + 8], i + 9

    x, m = usable - 35, ((usable - 12) * 32 // 255) - 23
    n = struct.unpack_from(">H", page, 3)[0]
    out = []
    try:
        for (p,) in struct.iter_unpack(">H", page[8 : 8 + 2 * n]):
            size, q = varint(p)
            _, q = varint(q)
            local = size if size <= x else m + (size - m) % (usable - 4)
            local = m if local > x else local
            end = q + local + (4 if size > x else 0)
            if end > usable:
                return None
            if size > x:
                pages = -(-(size - local) // (usable - 4))
                out.append((struct.unpack_from(">I", page, q + local)[0], pages))
    except IndexError:
        return None
    return out


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_the_fast_leaf_parse_is_the_plain_one(dbs: dict[str, Db], data: st.DataObject) -> None:
    """The walk skips decoding cells whose first bytes prove they neither spill nor run past
    the page; on real leaves and on leaves with bytes changed it finds what a full decode of
    every cell finds."""
    db = dbs[data.draw(st.sampled_from(NAMES))]
    usable = db.header.usable
    leaf = data.draw(st.sampled_from(sorted(db.pages("t", "leaf") | db.pages("u", "leaf"))))
    page = bytearray(db.read(leaf))
    n = struct.unpack_from(">H", page, 3)[0]
    ptrs = [struct.unpack_from(">H", page, 8 + 2 * i)[0] for i in range(n)]
    for _ in range(data.draw(st.integers(0, 4))):
        at = data.draw(st.sampled_from(ptrs)) + data.draw(st.integers(0, 3)) if ptrs else 0
        page[min(at, usable - 1)] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()) and ptrs:  # a cell moved towards the end of the page
        i = data.draw(st.integers(0, n - 1))
        page[8 + 2 * i : 10 + 2 * i] = struct.pack(
            ">H", data.draw(st.integers(usable - 300, usable - 1))
        )
    try:  # the walk turns an index past the page into None
        got = btree._leaf_overflow_heads(bytes(page), leaf, usable)
    except IndexError:
        got = None
    # The pointers as changed (a moved cell's too), not as drawn from.
    ptrs = [struct.unpack_from(">H", page, 8 + 2 * i)[0] for i in range(n)]
    plain = _plain_heads(bytes(page), usable) if min(ptrs, default=usable) >= 8 + 2 * n else None
    if got is not None:  # the walk may refuse more (a cell before the content area)
        assert got == plain
    elif plain is not None:
        content = struct.unpack_from(">H", page, 5)[0] or 65536
        assert min(ptrs) < content
