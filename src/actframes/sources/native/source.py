"""Reader for the native store the recorder writes (its identity in ``native_schema.py``,
the migrations in ``capture/store.py``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path

from ...errors import SourceError
from ...model import INPUT_KINDS, Capture, InputEvent, Rejected, ScreenText, Snapshot, Span
from ...native_schema import READ_TABLES, SCHEMA_VERSION
from ...timeparse import MAX_TS_MS, MIN_TS_MS
from .._columns import DuplicateIds, UnplacedRows, columns_from_groups
from .._rows import Names, check_ms, first_of_each_id
from ..base import READ_MARGIN_MS, Source, connect_ro, data_version, fetch, read_failed, tables
from .screen_text import read_screen_text

DAY_MS = 86_400_000

# Rows that can never be placed in a day are read for every window, so each reports them.
# In an index NULLs sort first and text or blobs after every number, so three index ranges
# find every row without a plausible time, without a table scan.
_UNPLACEABLE_RANGES = ("ts_ms IS NULL", f"ts_ms < {MIN_TS_MS}", f"ts_ms >= {MAX_TS_MS}")


def _unplaceable(select: str) -> str:
    """``select`` (ending in WHERE …) for each unplaceable range, as one query."""
    return " UNION ALL ".join(f"{select} {cond}" for cond in _UNPLACEABLE_RANGES)


class NativeSource(Source):
    kind = "native"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = connect_ro(path)
        try:
            self._check_schema()
        except BaseException:  # a refused store is not left open
            self._conn.close()
            raise

    def _check_schema(self) -> None:
        version = int(self._conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise SourceError(
                f"{self.path}: store schema {version} is newer than this actframes reads "
                f"({SCHEMA_VERSION}); upgrade actframes"
            )
        missing = READ_TABLES - tables(self._conn)
        if missing:
            names = ", ".join(sorted(missing))
            raise SourceError(f"{self.path}: native store lacks table(s) {names}")

    def close(self) -> None:
        self._conn.close()

    def commits_seen(self) -> int | None:
        """Changes whenever another connection commits (``base.data_version``): the
        document cache stores a fingerprint only if no commit landed between it and
        the read (``cache.py``)."""
        return data_version(self._conn)

    def fingerprint(self, start_ms: int, end_ms: int) -> str | None:
        """What identifies the window's rows without reading them: the store's id and the
        change counters of every UTC day the read touches (triggers bump them on any
        insert, update or delete; day -1 counts rows without a plausible time), plus the
        away spans. None for stores older than schema 3, which keep no counters."""
        if "change_days" not in tables(self._conn):
            return None
        lo = (start_ms - READ_MARGIN_MS) // DAY_MS
        hi = (end_ms + READ_MARGIN_MS) // DAY_MS
        try:
            store_id = fetch(self._conn, "SELECT value FROM meta WHERE key = 'store_id'")
            days = fetch(
                self._conn,
                "SELECT day, version FROM change_days WHERE day BETWEEN ? AND ? OR day = -1"
                " ORDER BY day",
                (lo, hi),
            )
            away = fetch(
                self._conn,
                "SELECT count(*), max(id), total(start_ms), total(end_ms) FROM afk"
                " WHERE end_ms > ? AND start_ms < ?",
                (start_ms, end_ms),
            )
        except sqlite3.DatabaseError:
            return None
        return repr((store_id, days, away))

    def settled_mark(self, start_ms: int, end_ms: int, cut_ms: int) -> str | None:
        """What identifies, without reading them, the rows a read of [start_ms, end_ms)
        holds before ``cut_ms``: equal marks mean that since, rows were only inserted,
        none before the cut. The change counters' triggers add one per insert or delete
        and two per update (the old and the new row's day), so over the read's days the
        counters less the rows from the cut on stay equal under inserts from the cut on
        and grow with anything else; only that short range is counted. Away spans and the
        recorder's session rows count whole. None for stores older than schema 3."""
        if "change_days" not in tables(self._conn):
            return None
        lo_day = (start_ms - READ_MARGIN_MS) // DAY_MS
        hi_day = (end_ms + READ_MARGIN_MS) // DAY_MS
        after = (cut_ms, (hi_day + 1) * DAY_MS)
        try:
            (versions,) = fetch(
                self._conn,
                "SELECT total(version) FROM change_days WHERE day BETWEEN ? AND ?",
                (lo_day, hi_day),
            )[0]
            (later,) = fetch(
                self._conn,
                "SELECT (SELECT count(*) FROM snapshots WHERE ts_ms >= ? AND ts_ms < ?)"
                " + (SELECT count(*) FROM input_events WHERE ts_ms >= ? AND ts_ms < ?)",
                (*after, *after),
            )[0]
            away = fetch(
                self._conn,
                "SELECT count(*), max(id), total(start_ms), total(end_ms) FROM afk"
                " WHERE end_ms > ? AND start_ms < ?",
                (start_ms, end_ms),
            )
            state = (
                fetch(self._conn, "SELECT count(*), max(id) FROM recorder_state")
                if "recorder_state" in tables(self._conn)
                else []
            )
        except sqlite3.DatabaseError:
            return None
        return repr((versions - later, away, state))

    def settled_read(
        self, start_ms: int, end_ms: int, cut_ms: int, mark: object, next_cut_ms: int
    ) -> tuple[Capture, Callable[[], str | None]] | None:
        """``read(cut_ms, end_ms)``, and the mark at ``next_cut_ms``, when the window's rows
        before ``cut_ms`` still have ``mark``; else None (``tail.py``). The marks and the
        read are taken in one read transaction, so from one state of the store: a commit
        between them would otherwise pair the rows it left before the cut with a tail it
        changed, a document of no state the store was ever in. In WAL mode a writer goes
        on meanwhile (its commit shows at the next call); in rollback-journal mode it
        waits the few milliseconds of a tail read."""
        if not isinstance(mark, str) or self._conn.in_transaction:
            return None
        try:
            self._conn.execute("BEGIN")
        except sqlite3.DatabaseError:
            return None
        try:
            if self.settled_mark(start_ms, end_ms, cut_ms) != mark:
                return None
            found: str | None = mark
            if next_cut_ms != cut_ms:
                found = self.settled_mark(start_ms, end_ms, next_cut_ms)
            if found is None:
                return None
            cap = self.read(cut_ms, end_ms)
        finally:
            self._conn.rollback()  # it only read
        next_mark: str = found
        return cap, lambda: next_mark

    def read(self, start_ms: int, end_ms: int) -> Capture:
        lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
        cap = Capture(kind=self.kind, has_input=True, has_afk=True)
        try:
            self._read(cap, lo, hi, start_ms, end_ms)
            cap.has_input, cap.has_afk = self._measured(start_ms, end_ms)
        except sqlite3.DatabaseError as exc:
            raise read_failed(self.path, exc) from exc
        return cap

    def screen_text(
        self, start_ms: int, end_ms: int, after: Mapping[str, int] | None = None
    ) -> list[ScreenText]:
        """The screen text the recorder kept (``--screen-text``) in [start_ms, end_ms), of
        each kind only rows with ids above ``after[kind]``; [] for stores without it."""
        try:
            return read_screen_text(self._conn, start_ms, end_ms, after)
        except sqlite3.DatabaseError as exc:
            raise read_failed(self.path, exc) from exc

    def _read(self, cap: Capture, lo: int, hi: int, start_ms: int, end_ms: int) -> None:
        names = Names()
        cols = "SELECT id, ts_ms, app, title, url, device FROM snapshots WHERE"
        q = f"{cols} ts_ms >= ? AND ts_ms < ? UNION ALL {_unplaceable(cols)}"
        for rid, ts_raw, app_raw, title_raw, url, device in fetch(self._conn, q, (lo, hi)):
            ts = check_ms(ts_raw, "snapshots", rid)
            if isinstance(ts, Rejected):
                cap.rejected.append(ts)
                continue
            app = names.app(app_raw)
            if not app:
                cap.rejected.append(Rejected("snapshots", str(rid), "empty app name", ts))
                continue
            url = url.strip() if isinstance(url, str) and url.strip() else None
            cap.snapshots.append(Snapshot(rid, ts, app, names.title(title_raw), url, device or ""))
        self._read_events(cap, lo, hi, names)
        q = "SELECT start_ms, end_ms FROM afk WHERE end_ms > ? AND start_ms < ? ORDER BY start_ms"
        for s, e in fetch(self._conn, q, (start_ms, end_ms)):
            if isinstance(s, int) and isinstance(e, int) and e > s:
                cap.afk.append(Span(s, e))

    def _measured(self, start_ms: int, end_ms: int) -> tuple[bool, bool]:
        """Whether input and away time were measured throughout the window: a recorder
        session that could not (Wayland without readable input devices or idle notices)
        says so in its ``start`` row, ``"input": "none"`` / ``"afk": "none"``."""
        if "recorder_state" not in tables(self._conn):
            return True, True
        q = (
            "SELECT detail FROM recorder_state WHERE state = 'start' AND ts_ms < ? AND ts_ms >="
            " (SELECT coalesce(max(ts_ms), 0) FROM recorder_state"
            "  WHERE state = 'start' AND ts_ms <= ?)"
        )
        has_input = has_afk = True
        for (detail,) in fetch(self._conn, q, (end_ms, start_ms)):
            try:
                notes = json.loads(detail) if isinstance(detail, str) else None
            except ValueError:
                continue
            if isinstance(notes, dict):
                has_input = has_input and notes.get("input") != "none"
                has_afk = has_afk and notes.get("afk") != "none"
        return has_input, has_afk

    def _read_events(self, cap: Capture, lo: int, hi: int, names: Names) -> None:
        """In bulk (grouped in SQL) unless some row needs a report."""
        kinds = ",".join(f"'{k}'" for k in INPUT_KINDS)
        odd = fetch(
            self._conn,
            f"SELECT count(*) FROM ({_unplaceable('SELECT kind FROM input_events WHERE')})"
            f" WHERE kind IN ({kinds})",
        )[0][0]
        if not odd:
            q = (
                "SELECT typeof(ts_ms) = 'integer', kind, app, device, group_concat(id),"
                " group_concat(ts_ms), group_concat(CASE WHEN typeof(count) = 'integer'"
                " AND count > 0 THEN count ELSE 1 END)"
                " FROM (SELECT * FROM input_events"
                f" WHERE ts_ms >= ? AND ts_ms < ? AND kind IN ({kinds})"
                " ORDER BY ts_ms, id LIMIT -1)"
                " GROUP BY 1, kind, app, device"
            )
            groups = fetch(self._conn, q, (lo, hi))
            if all(g[0] for g in groups):  # else a row needs a report: read one by one
                try:
                    cap.event_columns = columns_from_groups((g[1:] for g in groups), _known_kind)
                    cap.distinct_ids = True  # (checked)
                    return
                except (DuplicateIds, UnplacedRows):  # a damaged id column: one by one
                    pass
        q = (
            "SELECT id, ts_ms, kind, count, app, device FROM input_events"
            f" WHERE ts_ms >= ? AND ts_ms < ? AND kind IN ({kinds}) UNION ALL "
            + _unplaceable(
                f"SELECT id, ts_ms, kind, count, app, device FROM input_events"
                f" WHERE kind IN ({kinds}) AND"
            )
        )
        for rid, ts_raw, kind, count, app_raw, device in fetch(self._conn, q, (lo, hi)):
            ts = check_ms(ts_raw, "input_events", rid)
            if isinstance(ts, Rejected):
                cap.rejected.append(ts)
                continue
            n = count if isinstance(count, int) and count > 0 else 1
            ev_app = names.app(app_raw) or None
            cap.events.append(InputEvent(rid, ts, kind, ev_app, device or None, n))
        # Ids are the table's key; only a damaged file repeats one: one event per id.
        cap.events, dropped = first_of_each_id(cap.events, "input_events")
        cap.rejected.extend(dropped)
        cap.distinct_ids = True


def _known_kind(kind: str) -> str | None:
    return kind if kind in INPUT_KINDS else None
