"""screenpipe stores with the words on screen, as each version's writers leave them
(SPEC.md §1.2e gives the upstream file of each fact; the schema is replayed by
``screenpipe_versions.migrate``), with phrases planted in a terminal's OCR text, in a
page's accessibility text and in its ``elements``.

- late 2024 (``50ec5df``): the frame row first, its OCR later in a transaction of its own,
  one ``ocr_text`` row per visible window with app, window and ``focused``; two monitors,
  so a later frame's OCR may be written first.
- 2026-03-15 (``67f4c43``, ``insert_snapshot_frame_with_ocr``): one transaction per
  capture — the frame (``accessibility_text``, ``text_source``, ``full_text`` computed as
  the writer does), its ``ocr_text`` row when OCR ran, OCR elements (Apple's flat blocks)
  and accessibility elements (one per tree node, containers without text).
- summer 2026 (``b23e6850``): no ``ocr_text``; elements in a later transaction than their
  frame (so after the next frame); a frame whose content did not change points at the
  earlier frame's elements; ``on_screen``; a tree that does not match the screenshot
  leaves only OCR.
"""

from __future__ import annotations

import json
from pathlib import Path

from .screenpipe_versions import LATE_2024, NEWEST, SUMMER, Store, stamp

T0 = 1_773_741_600_000  # 2026-03-17T10:00:00Z
T_2024 = 1_732_096_800_000  # 2024-11-20T10:00:00Z

TERMINAL_OCR = (
    "$ pytest -q tests/test_billing.py\n"
    "Traceback (most recent call last):\n"
    '  File "billing.py", line 42, in charge\n'
    "KeyError: 'customer_id'"
)
# (role, text, depth) in the order the tree walker visits them
DASHBOARD = [
    ("AXWebArea", "", 0),
    ("AXHeading", "Quarterly churn dashboard", 1),
    ("AXStaticText", "Net revenue retention 93%", 1),
    ("AXButton", "Export CSV", 1),
    ("AXStaticText", "Invoice INV-2291 overdue", 1),
]
SLACK_CHROME = [("AXWindow", "", 0), ("AXButton", "Minimize", 1), ("AXStaticText", "Slack", 1)]
SLACK_OCR = "deploy freeze until friday\nask @maria before merging"
NOTES_OCR = "groceries: oat milk, lemons"


def tree_text(nodes: list[tuple[str, str, int]]) -> str:
    """The walker's text: each node's text trimmed, joined by newlines."""
    return "\n".join(t.strip() for _, t, _ in nodes if t.strip())


def blocks(text: str) -> str:
    """text_json as Apple's OCR writes it: flat level-0 blocks, one per line."""
    out = []
    for n, line in enumerate(text.split("\n")):
        out.append(
            {
                "level": "0", "page_num": "1", "block_num": str(n), "par_num": "0",
                "line_num": "0", "word_num": "0", "left": "0.05", "top": f"{0.05 + n * 0.04:.2f}",
                "width": "0.6", "height": "0.03", "conf": "0.98", "text": line,
            }
        )  # fmt: skip
    return json.dumps(out)


def full_text(acc: str | None, source: str | None, ocr: str) -> str | None:
    """``full_text`` as ``insert_snapshot_frame_with_ocr`` computes it."""
    if source == "hybrid":
        parts = [t for t in (acc or "", ocr) if t]
        return "\n".join(parts) or None
    return acc or ocr or None


class TextStore(Store):
    """A screenpipe store with writers of screen text."""

    def __init__(self, path: Path, version: str) -> None:
        super().__init__(path, version)
        # element writes submitted but not yet run (summer 2026: a later transaction)
        self.pending: list[tuple[int, str, list[tuple[str, str, int]] | None]] = []

    # ---- late 2024: frames, then OCR per window later

    def frame_2024(self, ts: int, device: str) -> int:
        chunk, off = self._chunk(device)
        row = {"video_chunk_id": chunk, "offset_index": off, "timestamp": stamp(ts)}
        return self._insert("frames", row)

    def ocr_2024(self, fid: int, windows: list[tuple[str, str, bool, str]]) -> list[int]:
        """One row per visible window (app, window, focused, text), as insert_ocr_text."""
        ids = []
        for app, window, focused, text in windows:
            row = {
                "frame_id": fid, "text": text, "text_json": blocks(text), "app_name": app,
                "ocr_engine": "AppleNative", "window_name": window, "focused": focused,
            }  # fmt: skip
            ids.append(self._insert("ocr_text", row))
            self.conn.commit()
        return ids

    # ---- event-driven capture (2026)

    def snapshot(
        self,
        ts: int,
        app: str,
        window: str,
        *,
        tree: list[tuple[str, str, int]] | None = None,
        ocr: str = "",
        source: str | None = None,
        device: str = "monitor_1",
        focused: bool = True,
        ref: int | None = None,
        deferred: bool = False,
        coherent: bool = True,
    ) -> int:
        """One capture as paired_capture and insert_snapshot_frame_with_ocr write it:
        ``accessibility_text`` the tree's text (a terminal's, or a tree-less app's: its
        OCR, ``text_source = 'ocr'``); ``deferred``: the elements come later
        (``pending``), as since summer 2026. Returns the frame id."""
        acc = tree_text(tree) if tree else (ocr or None)
        if source is None:
            source = "accessibility" if tree else ("ocr" if ocr else None)
        if not coherent:  # the tree does not match the screenshot: only OCR is searchable
            acc, source = None, "ocr" if ocr else None
        ocr_table = "ocr_text" in {
            r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        row = {
            "video_chunk_id": None, "offset_index": 0, "timestamp": stamp(ts),
            "name": f"/Users/me/.screenpipe/data/snapshots/{device}/{ts}.jpg",
            "app_name": app or None, "window_name": window or None, "focused": focused,
            "device_name": device, "snapshot_path": f"/snap/{device}/{ts}.jpg",
            "capture_trigger": "click", "accessibility_text": acc, "text_source": source,
            "accessibility_tree_json": json.dumps([{"role": r, "text": t, "depth": d}
                                                   for r, t, d in tree]) if tree else None,
            "full_text": full_text(acc, source, ocr), "elements_ref_frame_id": ref,
            "text_json": None if ocr_table or not ocr else blocks(ocr),
        }  # fmt: skip
        fid = self._insert("frames", row)
        if ocr and ocr_table:
            self._insert(
                "ocr_text",
                {"frame_id": fid, "text": ocr, "text_json": blocks(ocr),
                 "ocr_engine": "AppleNative", "text_length": len(ocr.encode())},
            )  # fmt: skip
        if ref is None:
            work = (fid, ocr, tree if coherent else None)
            if deferred:
                self.pending.append(work)
            else:
                self.elements(*work)
        self.conn.commit()
        return fid

    def elements(self, fid: int, ocr: str, tree: list[tuple[str, str, int]] | None) -> None:
        """insert_ocr_elements (a 'block' per line) then insert_accessibility_elements (a
        node each, its parent the last node one level up, text NULL when empty)."""
        for n, line in enumerate(ocr.split("\n") if ocr else []):
            self._insert(
                "elements",
                {"frame_id": fid, "source": "ocr", "role": "block", "text": line, "depth": 0,
                 "left_bound": 0.05, "top_bound": 0.05 + n * 0.04, "width_bound": 0.6,
                 "height_bound": 0.03, "confidence": 0.98, "sort_order": n},
            )  # fmt: skip
        parents: dict[int, int] = {}
        for n, (role, text, depth) in enumerate(tree or []):
            eid = self._insert(
                "elements",
                {"frame_id": fid, "source": "accessibility", "role": role, "text": text or None,
                 "parent_id": parents.get(depth - 1), "depth": depth, "left_bound": 0.1,
                 "top_bound": 0.1 + n * 0.05, "width_bound": 0.5, "height_bound": 0.04,
                 "sort_order": n, "on_screen": 1},
            )  # fmt: skip
            parents[depth] = eid
        self.conn.commit()

    def flush(self) -> None:
        """The deferred element writes, in the order they were submitted."""
        while self.pending:
            self.elements(*self.pending.pop(0))


def text_store(path: Path, version: str) -> TextStore:
    store = TextStore(path, version)
    if version >= "2026-03-12":  # frames_fts and elements_fts, as the migrations left them
        store.conn.executescript(
            """
            CREATE VIRTUAL TABLE frames_fts USING fts5(full_text, app_name, window_name,
                browser_url, id UNINDEXED, tokenize='unicode61');
            CREATE TRIGGER frames_ai AFTER INSERT ON frames
            WHEN NEW.full_text IS NOT NULL AND NEW.full_text != '' BEGIN
                INSERT INTO frames_fts(id, full_text, app_name, window_name, browser_url)
                VALUES (NEW.id, NEW.full_text, COALESCE(NEW.app_name, ''),
                        COALESCE(NEW.window_name, ''), COALESCE(NEW.browser_url, ''));
            END;
            CREATE VIRTUAL TABLE elements_fts USING fts5(text, role, frame_id UNINDEXED,
                content='elements', content_rowid='id', tokenize='unicode61');
            CREATE TRIGGER elements_ai AFTER INSERT ON elements
            WHEN NEW.text IS NOT NULL AND NEW.text != '' BEGIN
                INSERT INTO elements_fts(rowid, text, role, frame_id)
                VALUES (NEW.id, NEW.text, NEW.role, NEW.frame_id);
            END;
            """
        )
    return store


def late_2024(path: Path) -> TextStore:
    """Two monitors: the terminal focused on one (Chrome behind it), Notes on the other;
    the second monitor's OCR is written before the first's."""
    s = text_store(path, LATE_2024)
    f1 = s.frame_2024(T_2024, "monitor_1")
    f2 = s.frame_2024(T_2024 + 40, "monitor_2")
    s.ocr_2024(f2, [("Notes", "Groceries", False, NOTES_OCR)])
    s.ocr_2024(
        f1,
        [
            ("Terminal", "pytest — zsh", True, TERMINAL_OCR),
            ("Google Chrome", "Churn", False, tree_text(DASHBOARD)),
        ],
    )
    f3 = s.frame_2024(T_2024 + 2_000, "monitor_1")
    s.ocr_2024(f3, [("Terminal", "pytest — zsh", True, "")])  # nothing read: no row text
    return s


def capture_day(s: TextStore, deferred: bool = False) -> dict[str, int]:
    """The same captures for the event-driven versions; frame ids by name."""
    ids = {
        "terminal": s.snapshot(T0, "iTerm2", "pytest", ocr=TERMINAL_OCR, deferred=deferred),
        "dashboard": s.snapshot(T0 + 5_000, "Google Chrome", "Churn", tree=DASHBOARD,
                                deferred=deferred),
        "slack": s.snapshot(T0 + 9_000, "Slack", "#eng", tree=SLACK_CHROME, ocr=SLACK_OCR,
                            source="hybrid", deferred=deferred),
    }  # fmt: skip
    return ids


def newest(path: Path) -> tuple[TextStore, dict[str, int]]:
    s = text_store(path, NEWEST)
    return s, capture_day(s)


def summer(path: Path) -> tuple[TextStore, dict[str, int]]:
    s = text_store(path, SUMMER)
    ids = capture_day(s, deferred=True)
    ids["unchanged"] = s.snapshot(
        T0 + 12_000, "Google Chrome", "Churn", tree=DASHBOARD, ref=ids["dashboard"]
    )
    ids["incoherent"] = s.snapshot(
        T0 + 15_000, "Preview", "scan.pdf", tree=SLACK_CHROME, ocr="Signed lease agreement",
        coherent=False, deferred=True,
    )  # fmt: skip
    s.flush()
    ids["unfocused"] = s.snapshot(
        T0 + 16_000, "", "", ocr=NOTES_OCR, device="monitor_2", focused=False
    )
    return s, ids
