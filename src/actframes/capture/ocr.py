"""OCR of the focused window for ``record --screen-text-ocr`` (X11 only): the window's
pixels grabbed from the X server, read by Tesseract through pytesseract (the ``ocr``
extra; the ``tesseract`` program comes from the distribution, e.g. ``tesseract-ocr``).

Used only where the window shows no accessibility text (terminals such as xterm, remote
desktops, canvases). The pixels never leave memory; only the recognised text is kept,
and only after the same filtering and redaction as accessibility text.
"""

from __future__ import annotations

import shutil
from typing import Any

from Xlib import X

MAX_PIXELS = 4_000_000  # a larger window is read as its top-left part of this size
OCR_TIMEOUT_S = 20


def ocr_problem() -> str | None:
    """Why OCR cannot run here, or None when it can."""
    try:
        import PIL.Image  # noqa: F401
        import pytesseract  # noqa: F401
    except ImportError:
        return "pytesseract is not installed (pip install 'actframes[ocr]')"
    if shutil.which("tesseract") is None:
        return "the tesseract program is not installed (e.g. apt install tesseract-ocr)"
    return None


def grab_window(screen: Any, box: tuple[int, int, int, int] | None) -> Any:
    """The pixels of ``box`` on an X11 screen (a ``PIL.Image``), or None when they cannot
    be had (no box, off screen, not X11, a failed request)."""
    root = getattr(screen, "root", None)
    if root is None or box is None:
        return None
    from PIL import Image

    x, y, w, h = box
    try:
        geo = root.get_geometry()
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(int(geo.width), x + w), min(int(geo.height), y + h)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        height = min(y1 - y0, max(8, MAX_PIXELS // (x1 - x0)))
        raw = root.get_image(x0, y0, x1 - x0, height, X.ZPixmap, 0xFFFFFFFF)
        if int(raw.depth) not in (24, 32):
            return None
        return Image.frombytes("RGB", (x1 - x0, height), bytes(raw.data), "raw", "BGRX")
    except Exception:
        return None


def read_text(image: Any) -> str:
    """The text Tesseract reads in ``image`` (small text is enlarged first); "" when it
    reads nothing or fails."""
    import pytesseract
    from PIL import Image

    w, h = image.size
    if w * h * 4 <= MAX_PIXELS * 2:
        image = image.resize((w * 2, h * 2), Image.Resampling.LANCZOS)
    try:
        return str(pytesseract.image_to_string(image.convert("L"), timeout=OCR_TIMEOUT_S))
    except Exception:
        return ""
