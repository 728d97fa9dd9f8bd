"""The studio's gate for heavy requests: a few at a time, within one memory budget, the rest 429; and the memory a
finished request freed given back to the system (glibc keeps a thread's arena otherwise).

:mod:`.app` makes one :class:`Gate` per app, with its bounds (``WORKERS``, ``QUEUE``, ``MEMORY_BUDGET``); each
request's cost is weighed before it runs (:mod:`.costs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import functools
import threading

from ..io.footprint import over_budget

__all__ = ["Gate", "HttpError"]


class HttpError(Exception):
    """An answer other than 200 that the studio gives on purpose: its ``status``, ``message`` and ``headers``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


class Gate:
    """At most ``workers`` heavy requests run at once, within ``memory`` bytes together, and ``queue`` wait for
    a turn; the next is 429.

    Each runs in a daemon thread of its own (at most ``workers + queue``
    exist), which waits for its turn on a threading semaphore and then for
    its memory (its cost, weighed before it runs, :mod:`flowgraph.io.footprint`),
    so the event loop never waits, and a server told to stop (:meth:`stop`)
    answers every open heavy request 503 at once and exits without waiting
    for a board still being read (a 40,000-cell one takes seconds). A
    request that alone costs more than ``memory`` is 413 at once.
    """

    def __init__(self, workers: int, queue: int, memory: int | None = None):
        self.workers, self.queue, self.memory = workers, queue, memory
        self._lock = threading.Lock()
        self._turns = threading.BoundedSemaphore(workers)
        self._room = threading.Condition()
        self.in_use = 0  # bytes the running requests were weighed at
        self._open: set[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = set()
        self.stopping = False

    async def run(self, fn, *args, cost: tuple[int, int] = (0, 0)):
        """Run a request's work once the gate lets it.

        ``fn(*args)`` once a worker and ``cost[0]`` bytes are free; 413 (``HttpError``) when the request alone
        takes more than the budget, 429 when the queue is full, 503 once stopping."""
        need, cells = cost
        if self.memory is not None:
            refused = over_budget(need, self.memory, cells, "answering", "the studio's; the command line takes "
                                  "--memory-limit")
            if refused is not None:
                raise HttpError(413, refused[0].upper() + refused[1:])
        with self._lock:
            if self.stopping:
                raise HttpError(503, "the studio is stopping")
            if len(self._open) >= self.workers + self.queue:  # admitted: running or waiting
                raise HttpError(429, "the studio is busy with other large requests: try again in a moment",
                            {"Retry-After": "1"})
            loop = asyncio.get_running_loop()
            future = loop.create_future()
            self._open.add((loop, future))
        try:
            threading.Thread(target=self._work, args=(loop, future, fn, args, need), daemon=True,
                             name="flowgraph-studio-heavy").start()
            return await future
        finally:
            with self._lock:
                self._open.discard((loop, future))

    def _work(self, loop, future, fn, args, need: int) -> None:
        try:
            with self._turns, self._memory(need):
                outcome = (True, fn(*args)) if not self.stopping else (False, HttpError(503, "the studio is stopping"))
        except BaseException as exc:  # noqa: BLE001 - handed to the request's task, which answers it
            outcome = (False, exc)
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server stopped, nobody waits for it
            loop.call_soon_threadsafe(_settle, future, outcome)

    @contextlib.contextmanager
    def _memory(self, need: int):
        """Hold ``need`` bytes of the budget while the request runs (waiting until the running ones leave room)."""
        budget = self.memory
        if budget is None:
            yield
            return
        with self._room:
            self._room.wait_for(lambda: self.stopping or self.in_use + need <= budget)
            self.in_use += need
        try:
            yield
        finally:
            _give_back_memory()
            with self._room:
                self.in_use -= need
                self._room.notify_all()

    def stop(self) -> None:
        """Answer every open heavy request 503 now; later ones too (the server is shutting down)."""
        with self._lock:
            self.stopping = True
            for loop, future in list(self._open):
                loop.call_soon_threadsafe(_settle, future, (False, HttpError(503, "the studio is stopping")))
        with self._room:
            self._room.notify_all()  # a request waiting for memory sees the stop and ends


@functools.lru_cache(maxsize=1)
def _malloc_trim():
    """glibc's ``malloc_trim``, or None elsewhere (musl, macOS, Windows)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def _give_back_memory() -> None:
    """Return the memory a finished heavy request freed to the system.

    Each heavy request runs in a thread of its own, and glibc gives each thread its own malloc arena,
    which keeps what it freed: scans one after the other left several times one scan's memory resident
    (docs/benchmarks.md). ``malloc_trim(0)`` hands every arena's free memory back, in milliseconds.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _settle(future: asyncio.Future, outcome: tuple) -> None:
    if not future.done():
        ok, value = outcome
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
