"""A screenpipe workday as its summer-2026 writers leave it (macOS, two monitors; app
2.6.78, EzraEllette/screenpipe at b23e6850; SPEC.md §1.2a gives the file of each fact).

- Focus-aware capture: the focused monitor writes event-driven frames (``app_switch``,
  ``click``, ``key_press``, ``idle`` every 30 s) with the focused app, window, URL and
  document; a monitor that lost focus stays "warm" for 60 s and writes a frame on each
  visual change (here every 5 s) with no app, window or URL and ``focused = 0``, then
  nothing. A frame whose content did not change points at the earlier frame's elements
  (``elements_ref_frame_id``) instead of having its own.
- HD recording over the meeting: one marker frame per monitor per second (``focused = 1``,
  no app, snapshot or trigger; a ``hd_monitor_…`` chunk at 10 fps), inserted when its
  5-minute chunk is finalised, so after the event-driven frames around it.
- Input: ``text`` rows with the app and window (Return kept as a newline); ``key`` rows
  for shortcuts and for keys without a character (arrows: ``modifiers`` 32, no text);
  clicks merged with their accessibility look-up into one row, or, when the look-up came
  too late, a separate ``click_count = 0`` row; a keyboard copy or cut gives a ``key`` row,
  its ``c``/``x`` clipboard row and the poller's ``p`` row (0-750 ms apart, either
  first); a menu copy only a ``p`` row; a paste a ``key`` row and a ``v`` row; one
  ``scroll`` row per gesture; ``app_switch`` and ``window_focus`` rows; ``frame_id`` set
  on the rows that caused a frame.
- ``ocr_text`` is gone; ``display_layout`` and screenpipe's own activity ledger hold rows
  the reader must not count.

``SummerDay`` keeps the truth: the focused app of every capture and every input made.
"""

from __future__ import annotations

import json
import random
import zlib
from dataclasses import dataclass, field

from .screenpipe_versions import APPS, WORDS, Episode, Store, Typed, stamp

MONITOR_OF = {"Slack": "monitor_2", "zoom.us": "monitor_2"}  # the rest on monitor_1
DOCUMENTS = {"Code": "/Users/me/src/actframes/reader.py", "Notes": "/Users/me/Notes/café.md"}
MEETING = ("zoom.us", "Zoom Meeting", None)
IDLE_MS = 30_000  # the event-driven capture's idle interval
WARM_MS, WARM_STEP_MS = 60_000, 5_000  # an unfocused monitor's warm period and its cadence
HD_CHUNK_MS, HD_FPS = 300_000, 10


@dataclass
class Click:
    ts_ms: int
    app: str
    x: int
    y: int
    name: str
    merged: bool  # its look-up merged into the click row (else a click_count 0 row)


@dataclass
class Copy:
    ts_ms: int
    op: str  # "c" or "x" (keyboard), "p" (menu: the poller's row alone)
    app: str
    poll_ms: int = 0  # the poller's row, relative to the c/x row (negative: before it)


@dataclass
class SummerDay:
    episodes: list[Episode]
    typed: list[Typed] = field(default_factory=list)  # (ts, text, app) via app_at
    arrows: list[tuple[int, str]] = field(default_factory=list)
    shortcuts: list[tuple[int, str]] = field(default_factory=list)
    clicks: list[Click] = field(default_factory=list)
    copies: list[Copy] = field(default_factory=list)
    pastes: list[tuple[int, str]] = field(default_factory=list)
    scrolls: list[tuple[int, str]] = field(default_factory=list)  # gestures
    meeting: Episode | None = None

    def app_at(self, ts: int) -> str | None:
        for e in self.episodes:
            if e.start_ms <= ts < e.end_ms:
                return e.app
        return None

    def made(self) -> dict[str, int]:
        """The input the user made, in the reader's units: every typed character (a
        Return too), every shortcut and key without a character, each keyboard copy, cut
        and paste a key as well; real clicks; copies and cuts by keyboard or menu."""
        keyboard = [c for c in self.copies if c.op in "cx"]
        return {
            "keys": sum(len(t.text) for t in self.typed)
            + len(self.arrows)
            + len(self.shortcuts)
            + len(keyboard)
            + len(self.pastes),
            "clicks": len(self.clicks),
            "copies": len(self.copies),
            "pastes": len(self.pastes),
        }


def make_summer_day(seed: int, start_ms: int, minutes: int = 120) -> SummerDay:
    """Episodes of 1 to 8 minutes on a 2 s grid, a meeting of 11 minutes (HD recorded)
    in the middle, one 10-minute absence, and input inside the episodes."""
    rnd = random.Random(seed)
    eps: list[Episode] = []
    t, end, last = start_ms, start_ms + minutes * 60_000, ""
    meeting: Episode | None = None
    paused = False
    while t < end:
        if meeting is None and t > start_ms + minutes * 20_000:
            app, title, url = MEETING
            n = 330 * 2000
        else:
            app, title, url = rnd.choice([a for a in APPS if a[0] != last])
            n = rnd.randint(30, 240) * 2000
        last = app
        eps.append(Episode(t, min(t + n, end), app, title, url))
        if app == MEETING[0]:
            meeting = eps[-1]
        t += n
        if not paused and t > start_ms + minutes * 40_000:
            paused, t = True, t + 600_000
    day = SummerDay(eps, meeting=meeting)
    for e in eps:
        s = e.start_ms + 1_500
        while s < e.end_ms - 3_000:
            roll = rnd.random()
            if roll < 0.35:
                words = [rnd.choice(WORDS) for _ in range(rnd.randint(1, 6))]
                day.typed.append(Typed(s, " ".join(words) + ("\n" if rnd.random() < 0.3 else "")))
            elif roll < 0.45:
                day.arrows.append((s, e.app))
            elif roll < 0.52:
                day.shortcuts.append((s, e.app))
            elif roll < 0.7:
                x, y = rnd.randint(0, 1800), rnd.randint(0, 1000)
                day.clicks.append(Click(s, e.app, x, y, "Send", rnd.random() < 0.85))
            elif roll < 0.8:
                op = rnd.choice("cx")
                day.copies.append(Copy(s, op, e.app, rnd.choice([-40, 120, 480, 700])))
            elif roll < 0.84:
                day.copies.append(Copy(s, "p", e.app))
            elif roll < 0.9:
                day.pastes.append((s, e.app))
            else:
                day.scrolls.append((s, e.app))
            s += rnd.randint(3_000, 12_000)
    return day


class SummerStore(Store):
    """The summer-2026 writers over a ``Store`` at (or upgraded to) ``SUMMER``."""

    def __init__(self, store: Store) -> None:  # wraps an open store; no new file
        self.__dict__.update(store.__dict__)
        self.hd_chunks: dict[str, int] = {}

    def frame(self, ts: int, device: str, **cols: object) -> int:
        path = f"/Users/me/.screenpipe/data/snapshots/{device}/{ts}.jpg"
        row: dict[str, object] = {
            "video_chunk_id": None,
            "offset_index": 0,
            "timestamp": stamp(ts),
            "name": path,
            "device_name": device,
            "snapshot_path": path,
        }
        row.update(cols)
        return self._insert("frames", row)

    def focused_frame(
        self, ts: int, e: Episode, trigger: str, ref: int | None, *, coherent: bool = True
    ) -> int:
        """A capture of the focused monitor. ``ref``: the earlier frame with the same
        content, whose elements this one points at. Not ``coherent``: the focused app
        changed between the screenshot and the accessibility walk, so the frame keeps
        the screenshot's app, without window or URL (since v2.6.62)."""
        text = f"{e.title}\n{e.app} content"
        fid = self.frame(
            ts,
            MONITOR_OF.get(e.app, "monitor_1"),
            app_name=e.app,
            window_name=e.title if coherent else None,
            browser_url=e.url if coherent else None,
            document_path=DOCUMENTS.get(e.app) if coherent else None,
            focused=1,
            capture_trigger=trigger,
            accessibility_text=text,
            full_text=text,
            text_source="accessibility",
            content_hash=zlib.crc32(text.encode()),
            elements_ref_frame_id=ref,
        )
        if ref is None and coherent:
            root = self._insert(
                "elements",
                {
                    "frame_id": fid,
                    "source": "accessibility",
                    "role": "AXWindow",
                    "depth": 0,
                    "left_bound": 0.0,
                    "top_bound": 0.0,
                    "width_bound": 1.0,
                    "height_bound": 1.0,
                    "on_screen": 1,
                },
            )
            self._insert(
                "elements",
                {
                    "frame_id": fid,
                    "source": "accessibility",
                    "role": "AXButton",
                    "text": "Send",
                    "parent_id": root,
                    "depth": 1,
                    "left_bound": 0.4,
                    "top_bound": 0.4,
                    "width_bound": 0.1,
                    "height_bound": 0.05,
                    "on_screen": 1,
                },
            )
        return fid

    def unfocused_frame(self, ts: int, device: str) -> int:
        """A warm monitor without focus: OCR text only, no app, window, URL; not focused."""
        return self.frame(
            ts,
            device,
            focused=0,
            capture_trigger="visual_change",
            full_text="Daily Mix 3:41",
            text_source="ocr",
            text_json='[{"text":"Daily Mix","conf":0.93}]',
        )

    def hd_chunk(self, device: str, start_ms: int) -> int:
        path = f"/Users/me/.screenpipe/data/2026-08-24/hd_{device}_{start_ms}.mp4"
        return self._insert(
            "video_chunks", {"file_path": path, "device_name": device, "fps": float(HD_FPS)}
        )

    def hd_marker(self, chunk: int, n: int, ts: int, device: str) -> int:
        """``insert_hd_index_frame``: chunk, offset, time, focused = 1, device; nothing else."""
        return self._insert(
            "frames",
            {
                "video_chunk_id": chunk,
                "offset_index": n * HD_FPS,
                "timestamp": stamp(ts),
                "focused": 1,
                "device_name": device,
            },
        )

    def layout(self, ts: int) -> None:
        displays = [
            {"id": 1, "stable_id": "37D8832A", "name": "Built-in Retina Display", "x": 0,
             "y": 0, "width": 1512, "height": 982, "is_primary": True},
            {"id": 2, "stable_id": "5C1F0A77", "name": "DELL U2723QE", "x": 1512, "y": -300,
             "width": 2560, "height": 1440, "is_primary": False},
        ]  # fmt: skip
        self._insert(
            "display_layout",
            {"timestamp": stamp(ts), "reason": "startup", "layout_json": json.dumps(displays)},
        )


def write_summer_day(store: Store, day: SummerDay) -> list[tuple[int, str]]:
    """The day's frames as the summer writers leave them; returns the truth: (instant,
    app) of every capture of the focused window."""
    w = SummerStore(store)
    w.layout(day.episodes[0].start_ms - 5_000)
    truth: list[tuple[int, str]] = []
    writes: list[tuple[int, int, object]] = []  # (write time, order, what)
    clicks_at = {c.ts_ms: c for c in day.clicks}
    for k, e in enumerate(day.episodes):
        last_focus = day.episodes[k - 1] if k and day.episodes[k - 1].end_ms == e.start_ms else None
        instants = [(e.start_ms, "app_switch")]
        t = e.start_ms + IDLE_MS
        while t < e.end_ms:
            instants.append((t, "idle"))
            t += IDLE_MS
        instants += [(c, "click") for c in clicks_at if e.start_ms < c < e.end_ms]
        instants += [(x.ts_ms, "key_press") for x in day.typed if e.start_ms < x.ts_ms < e.end_ms]
        if e.end_ms not in {x.start_ms for x in day.episodes}:
            instants.append((e.end_ms, "idle"))  # the last capture before the user left
        for ts, trig in sorted(instants):
            writes.append((ts, 0, ("focused", ts, e, trig)))
            truth.append((ts, e.app))
        # The monitor that lost focus, if the previous app was on the other one: warm.
        if last_focus is not None:
            dev = MONITOR_OF.get(last_focus.app, "monitor_1")
            if dev != MONITOR_OF.get(e.app, "monitor_1"):
                t = e.start_ms + 2_000
                while t < min(e.end_ms, e.start_ms + WARM_MS):
                    writes.append((t, 1, ("unfocused", t, dev)))
                    t += WARM_STEP_MS
    if day.meeting is not None:
        m = day.meeting
        for dev in ("monitor_1", "monitor_2"):
            start = m.start_ms
            while start < m.end_ms:
                stop = min(start + HD_CHUNK_MS, m.end_ms)
                n_frames = (stop - start) // 1000
                # written once ffmpeg finalised the chunk, a couple of seconds after it
                writes.append((stop + 2_000, 2, ("hd", dev, start, n_frames)))
                start = stop
    writes.sort(key=lambda x: (x[0], x[1]))
    last_content: dict[str, tuple[str, int]] = {}
    for _, _, what in writes:
        assert isinstance(what, tuple)
        if what[0] == "focused":
            _, ts, e, trig = what
            dev = MONITOR_OF.get(e.app, "monitor_1")
            seen = last_content.get(dev)
            ref = seen[1] if seen and seen[0] == e.title and trig == "idle" else None
            coherent = not (trig == "app_switch" and ts % 7 == 0)
            fid = w.focused_frame(ts, e, trig, ref, coherent=coherent)
            if ref is None and coherent:
                last_content[dev] = (e.title, fid)
        elif what[0] == "unfocused":
            w.unfocused_frame(what[1], what[2])
        else:
            _, dev, start, n_frames = what
            chunk = w.hd_chunk(dev, start)
            for n in range(n_frames):
                w.hd_marker(chunk, n, start + n * 1000, dev)
    w.conn.commit()
    return truth


def write_summer_input(store: Store, day: SummerDay) -> None:
    """The day's input rows as the summer recorder writes them (module docstring)."""
    w = SummerStore(store)
    frame_at = {
        r[1]: r[0]
        for r in w.conn.execute("SELECT id, timestamp FROM frames WHERE capture_trigger = 'click'")
    }
    rows: list[tuple[int, int, str, dict[str, object]]] = []

    def focus(app: str) -> dict[str, object]:
        title = next(a[1] for a in [*APPS, MEETING] if a[0] == app)
        return {"app_name": app, "window_title": title}

    for e in day.episodes:
        rows.append((e.start_ms, 0, "app_switch", {"text_content": e.app, "app_name": e.app}))
        rows.append((e.start_ms + 5, 1, "window_focus", {"text_content": e.title, **focus(e.app)}))
    for t in day.typed:
        app = day.app_at(t.ts_ms) or ""
        rows.append((t.ts_ms + 300, 0, "text", {"text_content": t.text, **focus(app)}))
    for ts, app in day.arrows:
        rows.append((ts, 0, "key", {"key_code": 125, "modifiers": 32, **focus(app)}))
    for ts, app in day.shortcuts:
        rows.append((ts, 0, "key", {"key_code": 1, "modifiers": 8, **focus(app)}))
    ancestors = json.dumps([{"role": "AXWindow", "name": "Inbox"}, {"role": "AXGroup"}])
    for c in day.clicks:
        click: dict[str, object] = {
            "x": c.x, "y": c.y, "button": 0, "click_count": 1, "modifiers": 0,
            "frame_id": frame_at.get(stamp(c.ts_ms)), **focus(c.app),
        }  # fmt: skip
        element = {
            "element_role": "AXButton",
            "element_name": c.name,
            "element_ancestors": ancestors,
            "element_bounds": json.dumps({"x": c.x - 20, "y": c.y - 8, "width": 60, "height": 20}),
        }
        if c.merged:
            rows.append((c.ts_ms, 0, "click", {**click, **element}))
        else:
            rows.append((c.ts_ms, 0, "click", click))
            look = {**click, "click_count": 0, "frame_id": None, **element}
            rows.append((c.ts_ms + 150, 1, "click", look))
    for cp in day.copies:
        text = {"text_content": "copied café text"}
        if cp.op == "p":
            menu = {"modifiers": ord("p"), **text, **focus(cp.app)}
            rows.append((cp.ts_ms, 0, "clipboard", menu))
            continue
        key = 8 if cp.op == "c" else 7
        rows.append((cp.ts_ms, 0, "key", {"key_code": key, "modifiers": 8, **focus(cp.app)}))
        row = {"modifiers": ord(cp.op), **text, **focus(cp.app)}
        rows.append((cp.ts_ms + 60, 1, "clipboard", row))
        poll = {"modifiers": ord("p"), **text, **focus(cp.app)}
        rows.append((cp.ts_ms + 60 + cp.poll_ms, 2, "clipboard", poll))
    for ts, app in day.pastes:
        rows.append((ts, 0, "key", {"key_code": 9, "modifiers": 8, **focus(app)}))
        rows.append((ts, 1, "clipboard", {"modifiers": ord("v"), **focus(app)}))
    for ts, app in day.scrolls:
        gesture = {"x": 700, "y": 400, "delta_x": 0, "delta_y": -42, **focus(app)}
        rows.append((ts, 0, "scroll", gesture))
    rows.sort(key=lambda r: (r[0], r[1]))
    for ts, _, etype, cols in rows:
        w.event(ts, etype, **cols)
    w.conn.commit()


def write_activity_ledger(store: Store, day: SummerDay) -> None:
    """screenpipe's own timeline, as its Activity view leaves it: not input, not frames."""
    c = store.conn
    for k, e in enumerate(day.episodes[:5]):
        c.execute(
            "INSERT INTO activity_tasks (task_key, kind, title, app_name, confidence, producer)"
            " VALUES (?, 'task', ?, ?, 0.8, 'deterministic-v1')",
            (f"task-{k}", e.title, e.app),
        )
        c.execute(
            "INSERT INTO activity_intervals (interval_key, task_id, start_at, end_at, state,"
            " confidence, producer) VALUES (?, ?, ?, ?, 'final', 0.8, 'deterministic-v1')",
            (f"iv-{k}", k + 1, stamp(e.start_ms), stamp(e.end_ms)),
        )
        c.execute(
            "INSERT INTO activity_actions (interval_id, occurred_at, action_type, summary,"
            " app_name, source_type, source_id) VALUES (?, ?, 'click', 'clicked Send', ?,"
            " 'ui_event', 1)",
            (k + 1, stamp(e.start_ms + 1000), e.app),
        )
    c.commit()
