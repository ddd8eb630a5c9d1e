"""Engines run the same task functions: ``local`` one after another in this process,
``ray`` as Ray tasks (a private local Ray on the loopback interface, or a cluster by
address). Results come back as they finish, each with its index in the input, so the
driver can write them in a fixed order whatever order they finished in."""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from ..errors import UsageError

T = TypeVar("T")
R = TypeVar("R")

# Tasks in flight per worker on Ray: enough to keep workers busy, few enough that
# results do not pile up in the object store.
IN_FLIGHT_PER_WORKER = 4


class Done(NamedTuple, Generic[R]):
    """Item ``item`` finished: its result, or None and why its task died (a worker
    that crashed or was killed; task functions report bad input in their result)."""

    item: int
    result: R | None
    crashed: str


class Engine(Protocol):
    name: str
    workers: int

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[Done[R]]: ...

    def close(self) -> None: ...


class LocalEngine:
    name = "local"
    workers = 1

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[Done[R]]:
        for i, item in enumerate(items):
            yield Done(i, fn(item), "")

    def close(self) -> None:
        return None


def _plasma_directory(shm: str) -> str | None:
    """Where Ray keeps its objects when ``shm`` (its place on Linux) is no writable
    folder, as in a chroot or some containers: the temp folder (slower; Ray itself would
    stop at opening ``shm``). None, Ray's own choice, where it is one."""
    if not sys.platform.startswith("linux") or (os.path.isdir(shm) and os.access(shm, os.W_OK)):
        return None
    return tempfile.gettempdir()


class RayEngine:
    """Ray tasks of one CPU each. Without ``address`` a local Ray is started for this
    run on 127.0.0.1 with ``workers`` CPUs and no dashboard, and stopped by ``close``;
    with one, the driver joins that cluster (which must reach the stores' paths)."""

    name = "ray"

    def __init__(self, workers: int, address: str | None = None) -> None:
        if not address:
            _loopback_only()
        try:
            import ray
        except ImportError:
            raise UsageError("--engine ray needs Ray: pip install 'actframes[team]'") from None
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            if address:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
            else:
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    _node_ip_address="127.0.0.1",
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                    object_store_memory=200 * 1024 * 1024,
                    _plasma_directory=_plasma_directory("/dev/shm"),
                )
            self._started = True
            if not address and not _on_loopback(ray):
                self.close()
                raise UsageError("the local Ray did not stay on 127.0.0.1; not running on it")
        self.workers = _cpus(ray, workers) if address else workers
        self._remote: dict[Any, Any] = {}

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[Done[R]]:
        ray = self._ray
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = ray.remote(num_cpus=1, max_retries=0)(fn)
        limit = max(1, self.workers * IN_FLIGHT_PER_WORKER)
        pending: dict[Any, int] = {}
        nxt = 0
        while nxt < len(items) or pending:
            while nxt < len(items) and len(pending) < limit:
                pending[remote.remote(items[nxt])] = nxt
                nxt += 1
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                i = pending.pop(ref)
                try:
                    got = ray.get(ref)
                except ray.exceptions.RayError as e:
                    yield Done(i, None, str(e).splitlines()[0] if str(e) else type(e).__name__)
                else:
                    yield Done(i, got, "")

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


# On Linux a single-node Ray advertises (and listens on) the machine's network address,
# even when asked for 127.0.0.1; with this switch off it keeps to the loopback interface.
_RAY_CLUSTER_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _loopback_only() -> None:
    import sys

    os.environ[_RAY_CLUSTER_SWITCH] = "0"
    constants: Any = sys.modules.get("ray._private.ray_constants")
    if constants is not None:  # Ray was imported already: its constant is read per call
        constants.ENABLE_RAY_CLUSTER = False


def _on_loopback(ray: Any) -> bool:
    nodes: Any = ray.nodes()
    return all(str(n.get("NodeManagerAddress", "")).startswith("127.") for n in nodes)


def _cpus(ray: Any, default: int) -> int:
    got: Any = ray.cluster_resources()
    return int(got.get("CPU", default))


def make_engine(name: str, workers: int | None, address: str | None) -> Engine:
    if name == "local":
        if address:
            raise UsageError("--address is for --engine ray")
        return LocalEngine()
    if name == "ray":
        n = workers or 2
        if n < 1:
            raise UsageError("--workers must be at least 1")
        return RayEngine(n, address)
    raise UsageError(f"unknown engine {name!r} (local or ray)")
