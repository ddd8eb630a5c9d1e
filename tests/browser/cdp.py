"""The browser tests' DevTools client: the package's (``actframes.routines.cdp``), with
these tests' defaults (seconds, no sandbox: they only open local pages), plus PNG helpers.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from actframes.routines.cdp import Browser as _Browser
from actframes.routines.cdp import CDPError, find_chromium

__all__ = ["Browser", "CDPError", "find_chromium", "ink_fraction", "png_pixels", "save"]


class Browser(_Browser):
    """One headless browser with a fresh profile, as these tests have always used it."""

    def __init__(self, binary: str, *, timeout: float = 30.0) -> None:
        super().__init__(binary, timeout_ms=round(timeout * 1000), sandbox=False)


# ---------------------------------------------------------------- PNG, without Pillow


def png_pixels(png: bytes) -> tuple[int, int, int, list[bytes]]:
    """Decode an 8-bit, non-interlaced PNG (what Chromium writes) into rows of raw
    pixels: (width, height, bytes per pixel, rows)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    width = height = bpp = 0
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind = png[pos + 4 : pos + 8]
        body = png[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace:
                raise ValueError("only 8-bit non-interlaced PNGs are decoded here")
            bpp = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        filt = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if filt == 1:
                line[x] = (line[x] + a) & 0xFF
            elif filt == 2:
                line[x] = (line[x] + b) & 0xFF
            elif filt == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def ink_fraction(png: bytes) -> tuple[int, int, float]:
    """(width, height, share of pixels that differ from the most common colour): a
    blank page is one colour, a drawn one is not."""
    width, height, bpp, rows = png_pixels(png)
    counts: dict[bytes, int] = {}
    for row in rows:
        for x in range(0, len(row), bpp):
            px = row[x : x + bpp]
            counts[px] = counts.get(px, 0) + 1
    background = max(counts.values())
    total = width * height
    return width, height, (total - background) / total if total else 0.0


def save(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
