"""Parts of a result made at once by several workers, each in a thread of its own.

A worker is what one connection reads through (a fingerprinter of one read-only SQLite
connection): SQLite works with the interpreter's lock released, so on more than one core
the parts are made side by side. The first worker runs in the calling thread. Each part
is taken by whichever worker is free next, in the order given; what is made does not
depend on which worker made it, so neither does the result.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

W = TypeVar("W")
K = TypeVar("K", bound=Hashable)
R = TypeVar("R")

# Read-only connections that share the parts of one result (a thread each): at most one a
# core, and two are enough for the machines we are measured on.
READERS = 2


def readers(parts: int) -> int:
    """How many connections ``parts`` parts are shared between: never more than the parts."""
    return max(1, min(READERS, os.cpu_count() or 1, parts))


def nothing() -> None:
    """The default ``ready``: no one to tell."""


def made_at_once(
    todo: dict[K, Callable[[W], R]], workers: Sequence[W], ready: Callable[[], None] = nothing
) -> dict[K, R]:
    """``{key: make(worker)}`` for every part of ``todo``, each made once by one of the
    ``workers``. The first error met is raised once every thread has stopped (a worker
    takes no part after one failed). ``ready`` is called once the threads have started,
    before the calling thread's first part."""
    items = iter(list(todo.items()))
    lock = threading.Lock()
    made: dict[K, R] = {}
    errors: list[BaseException] = []

    def work(worker: W) -> None:
        while True:
            with lock:
                item = None if errors else next(items, None)
            if item is None:
                return
            try:
                part = item[1](worker)
            except BaseException as exc:  # handed to the calling thread
                with lock:
                    errors.append(exc)
                return
            with lock:
                made[item[0]] = part

    # Only as many threads as there are parts to share: one part needs none.
    threads = [
        threading.Thread(target=work, args=(w,), daemon=True)
        for w in workers[1 : max(1, len(todo))]
    ]
    for t in threads:
        t.start()
    try:
        ready()
        work(workers[0])
    finally:
        for t in threads:  # a connection is never left in use by a thread after return
            t.join()
    if errors:
        raise errors[0]
    return made
