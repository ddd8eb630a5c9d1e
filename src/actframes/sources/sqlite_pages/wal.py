"""A WAL-mode SQLite database read as SQLite's own readers see it, from its files, read-only
(https://www.sqlite.org/walformat.html, https://www.sqlite.org/fileformat2.html).

``read_pin`` takes the WAL-index header from the ``-shm`` file: which WAL generation
(salts) holds the committed state and how many of its frames (``max_frame``). A read
transaction that starts while the header stays the same sees exactly that state: for
each page, the latest frame at or below ``max_frame`` that holds it, else the database
file. ``WalFrames`` follows one generation of the ``-wal`` file frame by frame, as far as
the pins it is shown, and so answers which pages were written between two pins and what a
page held at a pin. The incremental settled mark (``screenpipe.settled_parts``) trusts
those answers only while a read transaction of that state is open (the checkpointer then
copies no later frame into the file) and only when the generation is still the same
afterwards (no restart overwrote frames meanwhile). Nothing here writes: every file is
opened read-only, and anything unexpected gives None or False.
"""

from __future__ import annotations

import os
import struct
import sys
import threading
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

_SHM_HEADER = 48  # one copy of the WAL-index header; two copies, one after the other
_SHM_VERSION = 3007000  # the only WAL-index version SQLite writes
_WAL_HEADER = 32
_FRAME_HEADER = 24
_WAL_MAGIC = (0x377F0682, 0x377F0683)
_MAX_WAL = 256 << 20  # a longer WAL is not followed (its scan would cost more than SQL)
_CHUNK = 4 << 20  # frames are scanned in reads of about this size
_NATIVE = "<" if sys.byteorder == "little" else ">"
_SHM = struct.Struct(_NATIVE + "IIIBBHIIII8sII")
_U32 = struct.Struct(_NATIVE + "I")
_BE_HEADER = struct.Struct(">IIII8sII")
_BE_FRAME = struct.Struct(">II8sII")
_MASK = 0xFFFFFFFF
# Bytes as stored: O_BINARY where the system would otherwise translate line ends (Windows).
_READ_ONLY = os.O_RDONLY | getattr(os, "O_BINARY", 0)
_PREAD: Callable[[int, int, int], bytes] | None = getattr(os, "pread", None)  # POSIX only


class Pin(NamedTuple):
    """The committed state a WAL-index header names."""

    # The WAL generation: frames with other salts are not of it. The 8 bytes as stored:
    # SQLite copies them between the files as they are, in no byte order.
    salts: bytes
    change: int  # iChange: moves with every commit
    max_frame: int  # the last committed frame of the generation (0: none)
    pages: int  # the database's size in pages
    page_size: int


def read_pin(db: Path) -> Pin | None:
    """The ``-shm`` file's WAL-index header beside ``db``, when both copies agree, it is
    initialised, of the known version and its checksum is right; None without a
    ``-shm`` file (a rollback-journal database) or on anything else."""
    try:
        with open(_beside(db, "-shm"), "rb") as f:
            raw = f.read(2 * _SHM_HEADER)
    except OSError:
        return None
    if len(raw) < 2 * _SHM_HEADER or raw[:_SHM_HEADER] != raw[_SHM_HEADER:]:
        return None  # a writer between the two copies, or no header yet
    (version, _, change, is_init, _, size, max_frame, pages, _, _, salts, c1, c2) = (
        _SHM.unpack_from(raw)
    )
    if version != _SHM_VERSION or not is_init or (c1, c2) != shm_checksum(raw[:40]):
        return None
    page_size = 65536 if size == 1 else size
    if page_size < 512 or page_size & (page_size - 1):
        return None
    return Pin(salts, change, max_frame, pages, page_size)


def shm_checksum(data: bytes) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) read as 32-bit words in
    this machine's byte order, from (0, 0): the WAL-index header's is over its first 40
    bytes. Two running sums, each word added with the other sum, modulo 2**32."""
    words = struct.unpack(f"{_NATIVE}{len(data) // 4}I", data)
    s1 = s2 = 0
    for i in range(0, len(words), 2):
        s1 = (s1 + words[i] + s2) & _MASK
        s2 = (s2 + words[i + 1] + s1) & _MASK
    return s1, s2


class WalFrames:
    """The frames of one WAL generation of ``db``, followed up to the latest pin shown:
    which page each frame holds. Frames at or below a pin's ``max_frame`` never change
    within a generation (the WAL only grows until it restarts with new salts)."""

    def __init__(self, db: Path) -> None:
        self._db, self._wal = db, _beside(db, "-wal")
        self._lock, self._open_lock = threading.Lock(), threading.Lock()
        self.generation: bytes | None = None  # None: following none
        self.page_size = 0
        self._frames: list[int] = []  # page number of frame i + 1
        self._pages: dict[int, list[int]] = {}  # page number -> its frames, ascending
        self._fds: dict[Path, int] = {}  # files opened since the last follow (read-only)

    def follow(self, pin: Pin) -> bool:
        """Index the frames of ``pin``'s generation up to its ``max_frame``. False when
        that generation is not the one followed so far (it is then followed from its
        first frame) or the WAL cannot be followed (``generation`` is then None)."""
        with self._lock:
            same = (
                pin.salts == self.generation
                and pin.page_size == self.page_size
                and pin.max_frame >= len(self._frames)
            )
            self._close()  # opened again: a WAL deleted and made anew is another file
            if not same:
                self._reset(pin)
            try:
                ok = self._scan(pin.max_frame)
            except OSError:
                ok = False
            if not ok:
                self._reset(None)
            return same and ok

    def written(self, after: int, upto: int) -> list[tuple[int, int]]:
        """(frame, page number) of each frame after ``after`` up to ``upto``, in order."""
        upto = min(upto, len(self._frames))
        return [(i + 1, self._frames[i]) for i in range(max(after, 0), upto)]

    def frame_image(self, i: int) -> bytes:
        """The page image frame ``i`` (1-based) holds; OSError when it cannot be read."""
        if not 1 <= i <= len(self._frames):
            raise OSError(f"frame {i} is not followed")
        at = _WAL_HEADER + (i - 1) * (_FRAME_HEADER + self.page_size) + _FRAME_HEADER
        return self._read(self._wal, at, self.page_size)

    def page(self, pgno: int, at: int) -> bytes:
        """Page ``pgno`` as a reader pinned at frame ``at`` sees it: its latest frame at
        or below ``at``, else the database file's."""
        frames = self._pages.get(pgno, ())
        k = bisect_right(frames, at)
        if k:
            return self.frame_image(frames[k - 1])
        return self._read(self._db, (pgno - 1) * self.page_size, self.page_size)

    def close(self) -> None:
        with self._lock:
            self._close()

    # ------------------------------------------------------------------ internals

    def _reset(self, pin: Pin | None) -> None:
        self.generation = None if pin is None else pin.salts
        self.page_size = 0 if pin is None else pin.page_size
        self._frames, self._pages = [], {}

    def _scan(self, upto: int) -> bool:
        """Index frames up to ``upto``, each checked to carry the generation's salts."""
        size = _FRAME_HEADER + self.page_size
        if self.generation is None or _WAL_HEADER + upto * size > _MAX_WAL:
            return False
        if upto == 0:
            return True
        if not self._frames and not self._header_ok():
            return False
        step = max(1, _CHUNK // size)
        while len(self._frames) < upto:
            first = len(self._frames)
            n = min(step, upto - first)
            data = self._read(self._wal, _WAL_HEADER + first * size, n * size)
            for k in range(n):
                pgno, _, salts, _, _ = _BE_FRAME.unpack_from(data, k * size)
                if salts != self.generation or pgno < 1:
                    return False
                self._frames.append(pgno)
                self._pages.setdefault(pgno, []).append(first + k + 1)
        return True

    def _header_ok(self) -> bool:
        """The WAL file's header names the generation followed and its page size."""
        magic, version, size, _, salts, _, _ = _BE_HEADER.unpack(
            self._read(self._wal, 0, _WAL_HEADER)
        )
        return (
            magic in _WAL_MAGIC
            and version == _SHM_VERSION
            and size == self.page_size
            and salts == self.generation
        )

    def _read(self, path: Path, at: int, n: int) -> bytes:
        """``n`` bytes of ``path`` from ``at``; OSError on a short read. Each file is opened
        once (read-only) between two follows; reads from several threads share it."""
        fd = self._fds.get(path)
        if fd is None:
            with self._open_lock:
                fd = self._fds.get(path)
                if fd is None:
                    fd = self._fds[path] = os.open(path, _READ_ONLY)
        if _PREAD is not None:
            data = _PREAD(fd, n, at)
        else:  # no pread (Windows): a seek and a read, one thread at a time per store
            with self._open_lock:
                os.lseek(fd, at, os.SEEK_SET)
                data = _read_all(fd, n)
        if len(data) != n:
            raise OSError(f"{path.name}: {len(data)} of {n} bytes at {at}")
        return data

    def _close(self) -> None:
        fds, self._fds = self._fds, {}
        for fd in fds.values():
            os.close(fd)


def _read_all(fd: int, n: int) -> bytes:
    """Up to ``n`` bytes from ``fd``'s position: fewer only at the end of the file."""
    parts: list[bytes] = []
    while n > 0:
        got = os.read(fd, n)
        if not got:
            break
        parts.append(got)
        n -= len(got)
    return b"".join(parts)


def _beside(db: Path, suffix: str) -> Path:
    return db.with_name(db.name + suffix)
