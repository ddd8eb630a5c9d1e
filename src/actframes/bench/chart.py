"""The question-answering benchmark's chart: accuracy per representation and question
kind as a PNG, drawn with a small pure-Python PNG encoder (zlib + struct, a 5x7 bitmap
font), no plotting library."""

from __future__ import annotations

import struct
import zlib
from typing import Any

from .questions import KINDS

# A 5x7 bitmap font: each glyph is 7 rows of 5 pixels ('#' on).
_FONT_ROWS = {
    "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#",
    "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
    "C": ".###.|#...#|#....|#....|#....|#...#|.###.",
    "D": "####.|#...#|#...#|#...#|#...#|#...#|####.",
    "E": "#####|#....|#....|####.|#....|#....|#####",
    "F": "#####|#....|#....|####.|#....|#....|#....",
    "G": ".###.|#...#|#....|#.###|#...#|#...#|.####",
    "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.",
    "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
    "L": "#....|#....|#....|#....|#....|#....|#####",
    "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#",
    "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.",
    "P": "####.|#...#|#...#|####.|#....|#....|#....",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
    "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S": ".####|#....|#....|.###.|....#|....#|####.",
    "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
    "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.",
    "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.",
    "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..",
    "Z": "#####|....#|...#.|..#..|.#...|#....|#####",
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.",
    "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####",
    "3": "#####|...#.|..#..|...#.|....#|#...#|.###.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
    "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": "..##.|.#...|#....|####.|#...#|#...#|.###.",
    "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.",
    "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
    " ": ".....|.....|.....|.....|.....|.....|.....",
    "-": ".....|.....|.....|#####|.....|.....|.....",
    "_": ".....|.....|.....|.....|.....|.....|#####",
    "%": "##..#|##..#|...#.|..#..|.#...|#..##|#..##",
    ":": ".....|.##..|.##..|.....|.##..|.##..|.....",
    ".": ".....|.....|.....|.....|.....|.##..|.##..",
    "/": "....#|....#|...#.|..#..|.#...|#....|#....",
    "+": ".....|..#..|..#..|#####|..#..|..#..|.....",
    "(": "...#.|..#..|.#...|.#...|.#...|..#..|...#.",
    ")": ".#...|..#..|...#.|...#.|...#.|..#..|.#...",
    "#": ".#.#.|.#.#.|#####|.#.#.|#####|.#.#.|.#.#.",
    "=": ".....|.....|#####|.....|#####|.....|.....",
    ",": ".....|.....|.....|.....|.##..|..#..|.#...",
    "@": ".###.|#...#|#.###|#.#.#|#.###|#....|.####",
    "?": ".###.|#...#|....#|...#.|..#..|.....|..#..",
}
_FONT = {ch: [row for row in rows.split("|")] for ch, rows in _FONT_ROWS.items()}

_KIND_LABELS = {
    "top_app": "TOP APP",
    "app_minutes": "APP MIN",
    "site_minutes": "SITE MIN",
    "distinct_apps": "N APPS",
    "compare_apps": "COMPARE",
    "app_used": "APP USED",
    "site_visited": "VISITED",
    "absent_app": "ABS APP",
    "absent_site": "ABS SITE",
    "first_activity": "FIRST",
    "last_activity": "LAST",
    "longest_frame": "LONGEST",
    "entity_viewed": "ENTITY",
    "keys_in_app": "KEYS",
    "away_periods": "AWAY",
    "all": "ALL",
}
_COLORS = {
    "raw": (140, 140, 140),
    "context": (31, 119, 180),
    "json": (255, 127, 14),
    "summary": (214, 39, 40),
}
_WHITE = (255, 255, 255)
_INK = (30, 30, 30)
_GRID = (225, 225, 225)


class Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.w, self.h = width, height
        self.px = bytearray(bytes(_WHITE) * (width * height))

    def rect(self, x: int, y: int, w: int, h: int, color: tuple[int, int, int]) -> None:
        x0, y0, x1, y1 = max(0, x), max(0, y), min(self.w, x + w), min(self.h, y + h)
        if x1 <= x0 or y1 <= y0:
            return
        line = bytes(color) * (x1 - x0)
        for yy in range(y0, y1):
            i = (yy * self.w + x0) * 3
            self.px[i : i + len(line)] = line

    def text(
        self, x: int, y: int, s: str, color: tuple[int, int, int] = _INK, scale: int = 1
    ) -> int:
        for ch in s.upper():
            glyph = _FONT.get(ch, _FONT["?"])
            for r, row in enumerate(glyph):
                for c, bit in enumerate(row):
                    if bit == "#":
                        self.rect(x + c * scale, y + r * scale, scale, scale, color)
            x += 6 * scale
        return x

    def png(self) -> bytes:
        return encode_png(self.w, self.h, bytes(self.px))


def text_width(s: str, scale: int = 1) -> int:
    return len(s) * 6 * scale - scale


def encode_png(width: int, height: int, rgb: bytes) -> bytes:
    """An 8-bit RGB PNG: signature, IHDR, one zlib IDAT (filter 0 per row), IEND."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + tag
            + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    stride = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def chart_png(results: dict[str, Any], labels: dict[str, str]) -> bytes:
    """Accuracy by question type (and overall), one bar per representation."""
    overall = results["summary"]["overall"]
    reps = [r for r in results["representations"] if overall[r]["questions"]]
    kinds = [k for k in KINDS if any(k in overall[r]["by_kind"] for r in reps)] + ["all"]
    bar = 12
    group = max(56, bar * len(reps) + 12)
    left, top, plot_h, bottom = 52, 78, 220, 40
    width = left + group * len(kinds) + 20
    height = top + plot_h + bottom
    c = Canvas(width, height)
    who = results["model"]
    c.text(left, 10, f"QA ACCURACY BY QUESTION TYPE (ANSWERER: {who})"[:80], scale=2)
    x = left
    for rep in reps:
        c.rect(x, 40, 10, 10, _COLORS.get(rep, _INK))
        x = c.text(x + 14, 42, labels.get(rep, rep)) + 16
    for pct in (0, 25, 50, 75, 100):
        y = top + plot_h - pct * plot_h // 100
        c.rect(left, y, width - left - 20, 1, _GRID if pct else _INK)
        label = f"{pct}%"
        c.text(left - 6 - text_width(label), y - 3, label)
    for i, kind in enumerate(kinds):
        gx = left + i * group + (group - bar * len(reps)) // 2
        for j, rep in enumerate(reps):
            t = overall[rep]
            if kind == "all":
                acc = t["accuracy"]
            else:
                slot = t["by_kind"].get(kind)
                acc = slot[0] / slot[1] if slot and slot[1] else None
            if acc is None:
                continue
            h = round(acc * plot_h)
            c.rect(gx + j * bar, top + plot_h - h, bar - 2, h, _COLORS.get(rep, _INK))
        label = _KIND_LABELS.get(kind, kind.upper())[:9]
        lx = left + i * group + (group - text_width(label)) // 2
        c.text(lx, top + plot_h + 10, label)
    return c.png()
