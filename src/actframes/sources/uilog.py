"""Reader for RPA user-interface logs (CSV): the Action Logger / SmartRPA format.

Each row is one UI event: ``timeStamp`` (ISO-8601), ``targetApp`` (Chrome, Excel,
OS-Clipboard …), ``eventType`` (clickButton, editField, copy, paste, getCell …), ``url``
and element fields (``target.*``). The file is recognised by its header: a CSV whose
first line names both ``timeStamp`` and ``eventType``.

Order. Rows are sorted by (time, row number): some published logs interleave
recordings, so their timestamps are not monotonic (the Rebmann L1/L2/L3 streams). The
row number (1 = the first data line) is the row's id, for events and snapshots alike.

Snapshots. The log records no windows, so snapshots are derived: every row of an app
is an observation of the context in force — app, URL (browser) or workbook/sheet
(Excel) — so each such row is a snapshot (a new frame starts wherever the context
changes). One snapshot per change only would leave the events after a context's
first row outside its frame: a stream's last row earns no dwell. Title:
``workbook - sheet`` for Excel, the page URL for a browser. Clipboard rows
(``OS-Clipboard``, ``Clipboard``, no app) belong to no window:
they neither make snapshots nor carry an app. A browser row without a URL keeps the
last URL seen; an Excel row without a workbook keeps the last workbook and sheet.

Events. Clicks (click*, mouseClick, getCell/getRange/selectWorksheet: a cell or sheet
selection), keys (editField, insertValue, changeField, input, typed: one field edit
counts once), copy (copy, copyCell, copyRange), paste. Other types (navigation,
form submission, waits, tabs) are context, not counted input. Typed content
(``content``, ``target.value``) is read only for steps when the operator opts in.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import SourceError
from ..model import CLICK, COPY, KEY, PASTE, Capture, InputEvent, Rejected, Snapshot
from ..text import clean_name
from ..timeparse import TimestampError, check_range, parse_iso_ms
from .base import Source

CLIPBOARD_APPS = frozenset({"", "os-clipboard", "clipboard"})
BROWSERS = frozenset({"chrome", "firefox", "edge", "web", "fiori", "safari"})
SPREADSHEETS = frozenset({"excel"})

_KINDS: dict[str, str] = {
    "click": CLICK,
    "right_click": CLICK,
    "mouseclick": CLICK,
    "clickbutton": CLICK,
    "clicklink": CLICK,
    "clickcheckbox": CLICK,
    "clickradiobutton": CLICK,
    "clicktextfield": CLICK,
    "getcell": CLICK,
    "getrange": CLICK,
    "selectworksheet": CLICK,
    "editfield": KEY,
    "insertvalue": KEY,
    "changefield": KEY,
    "input": KEY,
    "typed": KEY,
    "copy": COPY,
    "copycell": COPY,
    "copyrange": COPY,
    "paste": PASTE,
}
_NAVIGATE = frozenset({"navigate_to", "gotourl", "createnewtab", "newtab", "starturl", "startpage"})
REQUIRED = ("timeStamp", "eventType")
MAX_HEADER_BYTES = 65_536


class UIRow(NamedTuple):
    """One parsed log row: context, event kind and element fields."""

    row: int
    ts_ms: int
    app: str | None  # None for clipboard rows
    event_type: str
    kind: str | None  # the counted input kind, None when not counted
    url: str | None
    workbook: str | None
    sheet: str | None
    role: str | None
    name: str | None
    x: int | None
    y: int | None
    text: str | None
    labels: dict[str, str]  # ground-truth columns when present: caseID, Task, idx


def is_uilog(path: Path) -> bool:
    """True when ``path`` is a CSV whose header names timeStamp and eventType."""
    try:
        with path.open("rb") as fh:
            head = fh.read(MAX_HEADER_BYTES)
    except OSError:
        return False
    first = head.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0].decode("utf-8", "replace")
    try:
        names = next(csv.reader(io.StringIO(first)))
    except (csv.Error, StopIteration):
        return False
    return all(n in names for n in REQUIRED)


# The last log parsed, by file identity: the source, the steps reader and the label
# scorer each ask for the same rows, and a log changed on disk is parsed afresh.
_last: tuple[tuple[str, int, int, int], list[UIRow], list[Rejected]] | None = None


def read_rows(path: Path) -> tuple[list[UIRow], list[Rejected]]:
    """Every row of the log in (time, row number) order, and the rows it cannot use."""
    global _last
    try:
        st = path.stat()
    except OSError:
        raise SourceError(f"{path}: no such file") from None
    key = (str(path.resolve()), st.st_ino, st.st_size, st.st_mtime_ns)
    if _last is None or _last[0] != key:
        rows, rejected = _parse_rows(path)
        _last = (key, rows, rejected)
    return list(_last[1]), list(_last[2])


def _parse_rows(path: Path) -> tuple[list[UIRow], list[Rejected]]:
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror})") from exc
    reader = csv.DictReader(io.StringIO(text, newline=""))
    fields = reader.fieldnames or []
    missing = [n for n in REQUIRED if n not in fields]
    if missing:
        raise SourceError(f"{path}: not a UI log (header lacks {', '.join(missing)})")
    rows: list[UIRow] = []
    rejected: list[Rejected] = []
    try:
        for n, rec in enumerate(reader, start=1):
            parsed = _row(n, rec)
            if isinstance(parsed, Rejected):
                rejected.append(parsed)
            else:
                rows.append(parsed)
    except csv.Error as exc:
        raise SourceError(f"{path}: malformed CSV near line {reader.line_num} ({exc})") from exc
    rows.sort(key=lambda r: (r.ts_ms, r.row))
    return rows, rejected


def _get(rec: dict[str, str | None], *names: str) -> str | None:
    for n in names:
        v = rec.get(n)
        if isinstance(v, str) and v.strip():
            return v.strip()
    return None


def _int(v: str | None) -> int | None:
    if v is None:
        return None
    try:
        return round(float(v))
    except ValueError:
        return None


def _row(n: int, rec: dict[str, str | None]) -> UIRow | Rejected:
    raw = rec.get("timeStamp")
    if not isinstance(raw, str) or not raw.strip():
        return Rejected("uilog", str(n), "timestamp missing")
    try:
        ts = parse_iso_ms(raw.strip())
        check_range(ts)
    except TimestampError as exc:
        return Rejected("uilog", str(n), str(exc).split(":", 1)[0])
    et = (rec.get("eventType") or "").strip()
    if not et:
        return Rejected("uilog", str(n), "eventType missing", ts)
    app_raw = clean_name(rec.get("targetApp") or "")
    app = None if app_raw.casefold() in CLIPBOARD_APPS else app_raw
    sheet_app = app is not None and app.casefold() in SPREADSHEETS
    role = _get(rec, "target.tagName", "target.type")
    if role is not None and role.upper() == "INPUT":
        # An input's kind is its type (a checkbox, a radio, a date): the tag alone says
        # nothing about which control it is.
        role = _get(rec, "target.type") or role
    name = _get(rec, "target.name", "target.innerText", "target.title", "target.id")
    if sheet_app:
        role = "cell" if _get(rec, "target.id") else ("sheet" if et == "selectWorksheet" else None)
        name = _get(rec, "target.id", "target.sheetName")
    labels = {k: v for k in ("caseID", "Task", "idx") if (v := (rec.get(k) or "").strip())}
    return UIRow(
        row=n,
        ts_ms=ts,
        app=app,
        event_type=et,
        kind=_KINDS.get(et.casefold()),
        url=_get(rec, "url"),
        workbook=_get(rec, "target.workbookName"),
        sheet=_get(rec, "target.sheetName"),
        role=role,
        name=name,
        x=_int(_get(rec, "x")),
        y=_int(_get(rec, "y")),
        text=_get(rec, "content", "clipboard_content", "target.value"),
        labels=labels,
    )


def is_navigation(r: UIRow) -> bool:
    return r.event_type.casefold() in _NAVIGATE


class Context(NamedTuple):
    app: str
    title: str
    url: str | None


def contexts(rows: list[UIRow]) -> list[tuple[UIRow, Context | None]]:
    """Each row with the window context in force at it (None before any app row)."""
    out: list[tuple[UIRow, Context | None]] = []
    cur: Context | None = None
    urls: dict[str, str | None] = {}
    books: dict[str, tuple[str | None, str | None]] = {}
    for r in rows:
        if r.app is not None:
            folded = r.app.casefold()
            if folded in SPREADSHEETS:
                book, sheet = books.get(folded, (None, None))
                if r.workbook:
                    book, sheet = r.workbook, r.sheet or (sheet if r.workbook == book else None)
                elif r.sheet:
                    sheet = r.sheet
                books[folded] = (book, sheet)
                title = " - ".join(p for p in (book, sheet) if p)
                cur = Context(r.app, title, None)
            else:
                url = r.url or urls.get(folded)
                urls[folded] = url
                cur = Context(r.app, url or "", url)
        out.append((r, cur))
    return out


def capture_of(rows: list[UIRow], start_ms: int, end_ms: int) -> Capture:
    """Snapshots and counted events of the rows in [start_ms, end_ms) plus the margin
    the compiler reads around a window."""
    from .base import READ_MARGIN_MS

    lo, hi = start_ms - READ_MARGIN_MS, end_ms + READ_MARGIN_MS
    cap = Capture(kind="uilog", has_input=True, has_afk=False, has_urls=True)
    for r, ctx in contexts(rows):
        if ctx is not None and r.app is not None and lo <= r.ts_ms < hi:
            cap.snapshots.append(Snapshot(r.row, r.ts_ms, ctx.app, ctx.title, ctx.url))
        if r.kind is not None and lo <= r.ts_ms < hi:
            cap.events.append(InputEvent(r.row, r.ts_ms, r.kind, r.app))
    return cap


class UILogSource(Source):
    kind = "uilog"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._rows: list[UIRow] | None = None
        self._rejected: list[Rejected] = []
        if not is_uilog(path):
            if not path.exists():
                raise SourceError(f"{path}: no such file")
            raise SourceError(f"{path}: not a UI log (header lacks timeStamp/eventType)")

    def rows(self) -> list[UIRow]:
        if self._rows is None:
            self._rows, self._rejected = read_rows(self.path)
        return self._rows

    def read(self, start_ms: int, end_ms: int) -> Capture:
        cap = capture_of(self.rows(), start_ms, end_ms)
        cap.rejected = list(self._rejected)
        return cap

    def close(self) -> None:
        self._rows = None


def actions_of(rows: list[UIRow], include_text: bool = False) -> list[Any]:
    """The rows that count as input, as step actions with their element fields (typed
    and clipboard text only when ``include_text``)."""
    from ..model import Action

    out: list[Any] = []
    for r, ctx in contexts(rows):
        if r.kind is None:
            continue
        out.append(
            Action(
                r.row,
                r.ts_ms,
                r.kind,
                r.app,
                ctx.title if ctx is not None and r.app is not None else None,
                r.url or (ctx.url if ctx is not None and r.app is not None else None),
                None,
                r.x,
                r.y,
                r.role,
                r.name,
                r.text if include_text else None,
            )
        )
    return out
