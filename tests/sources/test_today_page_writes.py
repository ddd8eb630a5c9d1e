"""Today's incremental document on a screenpipe database under page-level writes.

A warm server answers today from a resident cache: the rows appended after its cut are
read and spliced onto the rows before it, for as long as the settled mark says those did
not change. Here the database is screenpipe's newest schema in WAL mode
(``screenpipe_versions``), written with small pages (512 bytes) so that its tables are
three levels deep with a few hundred rows and long titles spill onto overflow pages; a
writer on its own connection then does, between reads, what SQLite writers do to such a
file: appends (one row, or many in one transaction), edits of rows hours before the last
one (same size, other size, only bytes on an overflow page), deletions that free whole
leaves (left unwritten: ``secure_delete`` off, SQLite's default), rows inserted early or
into a gap of ids (also in place of a deleted one: as many early rows), checkpoints of
every kind (screenpipe truncates its WAL every five minutes), VACUUM, rolled-back
transactions (spilled into the WAL before the rollback). After every step the cache's
document must be the bytes of a fresh compile. The examples below check first that each
dangerous operation really wrote the pages it is named for (read from the ``-wal`` and
``-shm`` files), so a failure there names its cause.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from actframes.emit.json_out import to_json
from actframes.resident import ResidentCache
from actframes.timeparse import parse_iso_ms

from ..tail_days import T0, WINDOW, fresh
from .screenpipe_versions import NEWEST, Store, make_day, stamp, write_day

HOUR = 3_600_000
START = T0 - 3 * HOUR  # 06:00Z; the day's rows end at 08:30Z, appends go on from there
EARLY = START + 90 * 60_000  # rows before 07:30Z: an hour and more before the last row
PAGE = 512
LONG = 120  # a title longer than this is on overflow pages (with the text columns)


def _long_title(i: int) -> str:
    return f"Quarterly planning {i} " + "notes " * 40 + "end"  # ends in ASCII


def build(path: Path) -> Store:
    """The store, written as screenpipe's event-driven capture and input recorder write
    it; a few rows deleted (ids missing below the last one). Its connection is the
    writer of the tests."""
    store = Store(path, NEWEST, page_size=PAGE)
    day = make_day(seed=7, start_ms=START, minutes=150)
    for i, ep in enumerate(day.episodes):
        if ep.app == "Google Chrome":  # long titles and URLs: on overflow pages
            ep.title = _long_title(i)
            ep.url = "https://docs.example.com/document/d/" + "k" * 300 + f"/edit?tab={i}"
    write_day(store, day, "single", 30_000)
    store.write_input(day)
    store.conn.execute("DELETE FROM frames WHERE id % 37 = 0")
    store.conn.execute("DELETE FROM ui_events WHERE id % 41 = 0")
    store.conn.commit()
    # SQLite's default (Debian's build sets it on): freed pages are left unwritten.
    store.conn.execute("PRAGMA secure_delete = OFF")
    return store


@contextmanager
def warm_cache(path: Path) -> Iterator[ResidentCache]:
    """The resident cache as a warm server holds it, its mark made on two connections."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("actframes.sources.screenpipe.parallel_parts.os.cpu_count", lambda: 2)
        cache = ResidentCache(path)
        try:
            yield cache
        finally:
            cache.close()


def answer(cache: ResidentCache) -> str:
    return to_json(cache.document(WINDOW))


def inline(cache: ResidentCache) -> int:
    """How many verdicts the cache's source made on its main connection alone, the kept
    halves of the mark served before (``screenpipe.tail``)."""
    tails = getattr(getattr(cache, "_source", None), "_tails", None)
    return 0 if tails is None else int(tails.inline)


# ----------------------------------------------------------------- the writer's operations


def _early_id(store: Store, table: str, n: int, where: str = "1") -> int | None:
    """The ``n``-th (modulo) row of ``table`` before EARLY that ``where`` holds."""
    ids = [
        r[0]
        for r in store.conn.execute(
            f"SELECT id FROM {table} WHERE timestamp < ? AND {where} ORDER BY id",
            (stamp(EARLY),),
        )
    ]
    return ids[n % len(ids)] if ids else None


def _newest_ms(store: Store) -> int:
    return parse_iso_ms(store.conn.execute("SELECT max(timestamp) FROM frames").fetchone()[0])


def _same_bytes(text: str) -> str:
    """``text`` with its last character replaced by another of as many UTF-8 bytes."""
    last = text[-1]
    if ord(last) < 128:
        other = chr(ord(last) ^ 1)
    else:
        other = {1: "a", 2: "éè", 3: "☕★", 4: "𝄞𝄢"}[len(last.encode())].replace(last, "")[0]
    return text[:-1] + other


def append_frame(store: Store, n: int) -> None:
    at = _newest_ms(store) + 30_000 + n % 20 * 1000
    store.capture_event(at, "monitor_1", ("Code", "Slack")[n % 2], f"w{n % 3}", None, "idle")
    store.event(at + 300, "click", x=5, y=5, button=0, click_count=1, app_name="Code")
    store.conn.commit()


def append_many(store: Store, n: int) -> None:
    """Forty captures and their input in one transaction (leaves split, parents too)."""
    at = _newest_ms(store)
    for k in range(40):
        at += 20_000
        app = ("Code", "Slack", "Terminal")[(n + k) % 3]
        store.capture_event(at, "monitor_1", app, f"t{k % 4}", None, "idle")
        store.event(at + 300, "text", text_content="x" * (1 + k % 9))
        store.event(at + 900, "key", key_code=1, modifiers=8, app_name=app, window_title="w")
    store.conn.commit()


def _update(store: Store, sql: str, *args: object) -> None:
    store.conn.execute(sql, args)
    store.conn.commit()


def title_same_size(store: Store, n: int) -> None:
    rid = _early_id(store, "frames", n)
    (title,) = store.conn.execute("SELECT window_name FROM frames WHERE id = ?", (rid,)).fetchone()
    _update(store, "UPDATE frames SET window_name = ? WHERE id = ?", _same_bytes(title), rid)


def overflow_same_size(store: Store, n: int) -> None:
    """The last character of a long title: only its overflow page changes."""
    rid = _early_id(store, "frames", n, f"length(window_name) > {LONG}")
    (title,) = store.conn.execute("SELECT window_name FROM frames WHERE id = ?", (rid,)).fetchone()
    _update(store, "UPDATE frames SET window_name = ? WHERE id = ?", _same_bytes(title), rid)


def title_longer(store: Store, n: int) -> None:
    rid = _early_id(store, "frames", n)
    _update(store, "UPDATE frames SET window_name = window_name || ' (2)' WHERE id = ?", rid)


def app_changed(store: Store, n: int) -> None:
    rid = _early_id(store, "frames", n)
    app = ("Zed", "Mail", "Google Chrome")[n % 3]
    _update(store, "UPDATE frames SET app_name = ? WHERE id = ? AND app_name != ?", app, rid, app)


def moved_out(store: Store, n: int) -> None:
    """An early frame's timestamp moved to just before the newest row."""
    at = stamp(_newest_ms(store) - 10_000 - n % 30 * 1000)
    _update(
        store, "UPDATE frames SET timestamp = ? WHERE id = ?", at, _early_id(store, "frames", n)
    )


def moved_in(store: Store, n: int) -> None:
    """The newest rows' frame (or event) moved into the early hours."""
    table = ("frames", "ui_events")[n % 2]
    at = stamp(START + 20 * 60_000 + n % 3600 * 1000 + 7)
    _update(store, f"UPDATE {table} SET timestamp = ? WHERE id = (SELECT max(id) FROM {table})", at)


def moved_early(store: Store, n: int) -> None:
    """An early frame's timestamp moved by seconds, still early (as many early rows)."""
    rid = _early_id(store, "frames", n, f"timestamp < '{stamp(EARLY - HOUR)}'")
    (ts,) = store.conn.execute("SELECT timestamp FROM frames WHERE id = ?", (rid,)).fetchone()
    at = stamp(parse_iso_ms(ts) + 7_000 + n % 20 * 1000)
    _update(store, "UPDATE frames SET timestamp = ? WHERE id = ?", at, rid)


def event_type(store: Store, n: int) -> None:
    rid = _early_id(store, "ui_events", n, "event_type IN ('click', 'key', 'scroll')")
    new = ("scroll", "click", "key")[n % 3]
    _update(store, "UPDATE ui_events SET event_type = ? WHERE id = ?", new, rid)


def event_text(store: Store, n: int) -> None:
    rid = _early_id(store, "ui_events", n, "event_type = 'text'")
    more = "y" * (1 + n % 40)
    _update(
        store,
        "UPDATE ui_events SET text_content = text_content || ?,"
        " text_length = text_length + ? WHERE id = ?",
        more,
        len(more),
        rid,
    )


def delete_one(store: Store, n: int) -> None:
    table = ("frames", "ui_events")[n % 2]
    _update(store, f"DELETE FROM {table} WHERE id = ?", _early_id(store, table, n))


def delete_run(store: Store, n: int) -> None:
    """The early rows of a stretch of time, as screenpipe deletes a time range: enough
    rows to empty whole leaves (frames: about one a leaf, events: about five)."""
    table, size = (("frames", 4 + n % 6), ("ui_events", 15 + n % 30))[n % 2]
    a, b = store.conn.execute(
        f"SELECT min(timestamp), max(timestamp) FROM (SELECT timestamp FROM {table}"
        " WHERE id >= ? AND timestamp < ? ORDER BY id LIMIT ?)",
        (_early_id(store, table, n), stamp(EARLY), size),
    ).fetchone()
    _update(store, f"DELETE FROM {table} WHERE timestamp BETWEEN ? AND ?", a, b)


def insert_early(store: Store, n: int) -> None:
    """A recorder catching up: new ids, early timestamps."""
    at = START + 10 * 60_000 + n % 3600 * 1_000 + 3
    store.capture_event(at, "monitor_1", "Mail", f"late write {n}", None, "idle")
    store.event(at + 200, "click", x=1, y=1, button=0, click_count=1, app_name="Mail")
    store.conn.commit()


def _insert_at(store: Store, table: str, rid: int) -> None:
    """A row given the missing id ``rid``, stamped a millisecond after the row before it."""
    (ts,) = store.conn.execute(
        f"SELECT timestamp FROM {table} WHERE id < ? ORDER BY id DESC LIMIT 1", (rid,)
    ).fetchone()
    at = stamp(parse_iso_ms(ts) + 1)
    if table == "frames":
        store.conn.execute(
            "INSERT INTO frames (id, offset_index, timestamp, name, app_name, window_name,"
            " focused, device_name, capture_trigger) VALUES (?, 0, ?, 'gap', 'Mail', 'gap',"
            " 1, 'monitor_1', 'idle')",
            (rid, at),
        )
    else:
        store.conn.execute(
            "INSERT INTO ui_events (id, timestamp, session_id, relative_ms, event_type, x, y,"
            " button, click_count, app_name) VALUES (?, ?, 'sess-1', 0, 'click', 3, 3, 0, 1,"
            " 'Mail')",
            (rid, at),
        )


def insert_into_gap(store: Store, n: int) -> None:
    """A row given an id missing below the last one."""
    table = ("frames", "ui_events")[n % 2]
    gaps = store.conn.execute(
        f"SELECT a.id + 1 FROM {table} a WHERE a.id < (SELECT max(id) FROM {table})"
        f" AND NOT EXISTS (SELECT 1 FROM {table} b WHERE b.id = a.id + 1) ORDER BY a.id"
    ).fetchall()
    _insert_at(store, table, gaps[n % len(gaps)][0])
    store.conn.commit()


def early_stats(store: Store, table: str) -> tuple[int, int, int]:
    """The count, first and last id of ``table``'s rows before EARLY."""
    got = store.conn.execute(
        f"SELECT count(*), min(id), max(id) FROM {table} WHERE timestamp < ?", (stamp(EARLY),)
    ).fetchone()
    return got[0], got[1], got[2]


def swapped_in_gap(store: Store, n: int) -> None:
    """In one transaction an early row deleted and another inserted into a gap of ids
    between the early rows: their count, first and last id stay as they were."""
    table = ("frames", "ui_events")[n % 2]
    ids = [
        r[0]
        for r in store.conn.execute(
            f"SELECT id FROM {table} WHERE timestamp < ? ORDER BY id", (stamp(EARLY),)
        )
    ]
    have = set(ids)
    gaps = [i for i in range(ids[0], ids[-1]) if i not in have]
    if len(ids) < 3 or not gaps:
        return
    gap = gaps[n % len(gaps)]
    if store.conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (gap,)).fetchone():
        return  # a later row holds that id
    store.conn.execute(f"DELETE FROM {table} WHERE id = ?", (ids[1 + n % (len(ids) - 2)],))
    _insert_at(store, table, gap)
    store.conn.commit()


def checkpoint(mode: str) -> Callable[[Store, int], None]:
    def run(store: Store, n: int) -> None:
        store.conn.commit()
        store.conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchall()

    return run


def vacuum(store: Store, n: int) -> None:
    store.conn.commit()
    store.conn.execute("VACUUM")


def rolled_back(store: Store, n: int) -> None:
    """Early rows edited and deleted, a row appended, all rolled back; with a cache of a
    few pages, the changed pages spill into the WAL before the rollback."""
    store.conn.execute("PRAGMA cache_size = 8")
    store.conn.execute(
        "UPDATE frames SET window_name = window_name || '!' WHERE timestamp < ?",
        (stamp(EARLY),),
    )
    store.conn.execute("DELETE FROM ui_events WHERE id % 3 = ?", (n % 3,))
    store.capture_event(_newest_ms(store) + 5_000, "monitor_1", "Zed", "gone", None, "idle")
    store.conn.rollback()
    store.conn.execute("PRAGMA cache_size = -2000")  # SQLite's default


OPS: dict[str, Callable[[Store, int], None]] = {
    "append_frame": append_frame,
    "append_many": append_many,
    "title_same_size": title_same_size,
    "overflow_same_size": overflow_same_size,
    "title_longer": title_longer,
    "app_changed": app_changed,
    "moved_out": moved_out,
    "moved_in": moved_in,
    "moved_early": moved_early,
    "event_type": event_type,
    "event_text": event_text,
    "delete_one": delete_one,
    "delete_run": delete_run,
    "insert_early": insert_early,
    "insert_into_gap": insert_into_gap,
    "swapped_in_gap": swapped_in_gap,
    "checkpoint_passive": checkpoint("PASSIVE"),
    "checkpoint_full": checkpoint("FULL"),
    "checkpoint_restart": checkpoint("RESTART"),
    "checkpoint_truncate": checkpoint("TRUNCATE"),
    "vacuum": vacuum,
    "rolled_back": rolled_back,
}


# ------------------------------------------------------- every step: a fresh compile's bytes

# A step: none to three operations, then a read.
steps = st.lists(
    st.lists(st.tuples(st.sampled_from(sorted(OPS)), st.integers(0, 10_000)), max_size=3),
    min_size=20,
    max_size=30,
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(steps)
# Appends between early edits: verdicts on the main connection, some finding an edit.
@example(
    [[("append_frame", k)] for k in range(3)]
    + [[("title_same_size", 1)], [("append_frame", 3)], [("append_many", 4)]]
    + [[("append_frame", k)] for k in range(5, 8)]
    + [[("overflow_same_size", 2), ("append_frame", 8)], [("append_frame", 9)], []]
    + [[("delete_one", 3)], [("append_frame", 10)], [("append_frame", 11)]]
)
def test_every_answer_after_page_writes_is_a_fresh_compiles(
    tmp_path_factory: pytest.TempPathFactory, steps: list[list[tuple[str, int]]]
) -> None:
    """Steps of none to three operations, each followed by a read: reads with nothing
    written between, and several writes of every kind between two reads."""
    store = build(tmp_path_factory.mktemp("pages") / "db.sqlite")
    try:
        with warm_cache(store.path) as cache:
            assert answer(cache) == fresh(store.path)
            for i, ops in enumerate(steps):
                for name, n in ops:
                    OPS[name](store, n)
                assert answer(cache) == fresh(store.path), (i, ops)
            # Both ways of making the verdict (two connections, or the main one alone
            # after served halves) are in the examples; this says how often each was.
            n = inline(cache)
            event(f"verdicts on the main connection alone: {'3 or more' if n > 2 else n}")
    finally:
        store.close()


def test_verdicts_on_the_main_connection_alone(store: Store) -> None:
    """After appends, the verdicts serve the kept halves and the next ones run on the main
    connection alone: their answers are a fresh compile's bytes, as are those after an
    early edit found there (its half made by SQL, the document compiled again), and
    after the appends that follow it."""
    with warm_cache(store.path) as cache:
        assert answer(cache) == fresh(store.path)
        seen = []
        for op in ("append_frame",) * 4 + ("title_same_size",) + ("append_frame",) * 4:
            OPS[op](store, len(seen))
            assert answer(cache) == fresh(store.path), (len(seen), op)
            seen.append(inline(cache))
        assert seen[3] > seen[0], seen  # the appends: on the main connection
        assert seen[4] == seen[3] + 1, seen  # the edit: found there
        assert seen[8] > seen[5], seen  # and again after appends


# --------------------------------------- one example per dangerous write, its pages checked


def _wal_state(path: Path) -> tuple[int, tuple[int, int]]:
    """The last committed frame and the salts of the WAL, from the ``-shm`` header (its
    first copy; native byte order)."""
    head = Path(f"{path}-shm").read_bytes()[:48]
    (mx_frame,) = struct.unpack_from("=I", head, 16)
    salts = struct.unpack_from("=2I", head, 32)
    return mx_frame, (salts[0], salts[1])


def _pages_written(path: Path, after: int, upto: int) -> list[int]:
    """The page numbers of WAL frames ``after`` + 1 to ``upto``."""
    wal = Path(f"{path}-wal").read_bytes()
    (size,) = struct.unpack_from(">I", wal, 8)
    return [
        struct.unpack_from(">I", wal, 32 + (i - 1) * (24 + size))[0]
        for i in range(after + 1, upto + 1)
    ]


def _page_kinds(store: Store) -> dict[int, tuple[str, str]]:
    """Every page of the tables: (table or index, "leaf" / "internal" / "overflow")."""
    return {
        pageno: (name, kind)
        for pageno, name, kind in store.conn.execute("SELECT pageno, name, pagetype FROM dbstat")
    }


def _settled(store: Store, cache: ResidentCache) -> str:
    """The answer once everything is in the database file and the WAL starts afresh: the
    frames of the next write are all the WAL holds."""
    checkpoint("TRUNCATE")(store, 0)
    assert _wal_state(store.path)[0] == 0
    got = answer(cache)
    assert got == fresh(store.path)
    return got


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = build(tmp_path / "db.sqlite")
    yield s
    s.close()


def test_the_tables_are_three_levels_deep_with_overflow_pages(store: Store) -> None:
    for table in ("frames", "ui_events"):
        deepest = store.conn.execute(
            "SELECT max(length(path) - length(replace(path, '/', ''))) FROM dbstat WHERE name = ?",
            (table,),
        ).fetchone()[0]
        assert deepest == 3, table  # root, interior pages, leaves
    kinds = _page_kinds(store).values()
    assert ("frames", "overflow") in kinds


def test_a_same_size_edit_on_an_overflow_page(store: Store) -> None:
    with warm_cache(store.path) as cache:
        answer(cache)
        before = _settled(store, cache)
        overflow_same_size(store, 3)
        written = _pages_written(store.path, 0, _wal_state(store.path)[0])
        kinds = _page_kinds(store)
        assert written and {kinds[p] for p in written} == {("frames", "overflow")}, written
        got = answer(cache)
        assert got == fresh(store.path) and got != before


def test_deleting_early_rows_that_empty_whole_leaves(store: Store) -> None:
    with warm_cache(store.path) as cache:
        answer(cache)
        before = _settled(store, cache)
        leaves = {p for p, k in _page_kinds(store).items() if k == ("ui_events", "leaf")}
        delete_run(store, 41)  # odd: 15 + 41 % 30 = 26 consecutive events
        written = set(_pages_written(store.path, 0, _wal_state(store.path)[0]))
        kinds = _page_kinds(store)
        freed = {p for p in leaves if kinds.get(p) != ("ui_events", "leaf")}
        assert freed - written, (freed, written)  # leaves freed and never written
        got = answer(cache)
        assert got == fresh(store.path) and got != before


def test_a_row_inserted_into_a_gap_of_ids(store: Store) -> None:
    with warm_cache(store.path) as cache:
        before = answer(cache)
        for n in range(2):  # a frame, then an event
            insert_into_gap(store, n)
            got = answer(cache)
            assert got == fresh(store.path) and got != before, n
            before = got


def test_a_deletion_and_a_gap_insert_that_keep_the_early_rows_count_and_ends(
    store: Store,
) -> None:
    with warm_cache(store.path) as cache:
        before = answer(cache)
        for n in range(2):  # frames, then events
            table = ("frames", "ui_events")[n]
            stats = early_stats(store, table)
            swapped_in_gap(store, n)
            assert early_stats(store, table) == stats
            got = answer(cache)
            assert got == fresh(store.path) and got != before, table
            before = got


def test_an_early_edit_then_a_truncating_checkpoint_then_appends(store: Store) -> None:
    """The edit is in the database file, not in the new WAL, which holds as many frames
    as the old one did when the cache read last: only its salts tell them apart."""
    with warm_cache(store.path) as cache:
        before = answer(cache)
        seen_frame, seen_salts = _wal_state(store.path)
        app_changed(store, 5)
        checkpoint("TRUNCATE")(store, 0)
        n = 0
        while _wal_state(store.path)[0] < seen_frame:
            if seen_frame - _wal_state(store.path)[0] > 12:
                append_frame(store, n)
            else:  # one page a commit: an event just appended, its relative time
                _update(
                    store,
                    "UPDATE ui_events SET relative_ms = relative_ms + 1"
                    " WHERE id = (SELECT max(id) FROM ui_events)",
                )
            n += 1
        frame, salts = _wal_state(store.path)
        assert frame == seen_frame and salts != seen_salts
        got = answer(cache)
        assert got == fresh(store.path) and got != before


def test_a_rollback_that_spilled_into_the_wal(store: Store) -> None:
    with warm_cache(store.path) as cache:
        answer(cache)
        before = _settled(store, cache)
        rolled_back(store, 1)
        size = Path(f"{store.path}-wal").stat().st_size
        assert _wal_state(store.path)[0] == 0 and size > 0  # frames written, none committed
        assert answer(cache) == fresh(store.path) == before
        append_frame(store, 2)  # over the rolled-back frames
        assert answer(cache) == fresh(store.path)


# What leaves the rows as they were (and the document with them).
UNCHANGED = {
    "checkpoint_full",
    "checkpoint_passive",
    "checkpoint_restart",
    "checkpoint_truncate",
    "rolled_back",
    "vacuum",
}
# An odd and an even row choice: frames and events for the operations that alternate.
EACH = [(name, 3) for name in sorted(OPS)] + [
    (name, 4)
    for name in ("delete_one", "delete_run", "insert_into_gap", "moved_in", "swapped_in_gap")
]


@pytest.mark.parametrize(("name", "n"), EACH, ids=[f"{name}-{n}" for name, n in EACH])
def test_each_operation_between_appends(store: Store, name: str, n: int) -> None:
    """Each operation once, between appends read from the tail; the operations that
    change rows change the document (the comparison could fail)."""
    with warm_cache(store.path) as cache:
        answer(cache)
        append_frame(store, 1)
        before = answer(cache)
        assert before == fresh(store.path) and cache.stats["tail"] == 1
        OPS[name](store, n)
        got = answer(cache)
        assert got == fresh(store.path)
        assert (got == before) is (name in UNCHANGED)
        append_frame(store, 2)
        assert answer(cache) == fresh(store.path)
