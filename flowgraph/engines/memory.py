"""The memory a call may take, watched while it runs (``Limits.memory_bytes``).

A count, an explanation or a rating on a large open board can run long, and what it holds (SAT's learnt
clauses, the search's states, the explanation's trials) is not known in advance, so it is measured: one
daemon thread reads the process's resident memory every :data:`SAMPLE_S` seconds while a watch is open and
marks a watch whose call has grown past its bound. The engines look at the mark where they look at the clock
(the heap search every 64 states, the link search between slices, explain between steps and trials) and
stop with ``SearchLimitError("memory")``; a SAT call is interrupted as at its deadline.

What is measured is the process's resident set (Linux: ``/proc/self/statm``; elsewhere the peak from
``getrusage``, which only grows; where neither exists nothing is watched). In a process that runs calls side
by side (the studio's threads), each call's growth includes the others'.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator

from . import FORK_SAFE_THREADS

__all__ = ["SAMPLE_S", "Watch", "watch", "exceeded", "interrupting", "resident_bytes"]

#: Seconds between two readings of the resident memory while a watch is open.
SAMPLE_S = 0.01

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """The process's resident memory now, in bytes (None where it cannot be read).

    Linux reads ``/proc/self/statm``; macOS and the BSDs give the peak (``ru_maxrss``), which only grows.
    """
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
        import sys
    except ImportError:  # pragma: no cover - Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


class Watch:
    """One call's bound: ``limit`` bytes of growth over ``start`` (the resident memory when it opened).

    Attributes
    ----------
    limit : int
        Bytes the call may add to the process's resident memory.
    start : int
        The resident memory when the watch opened, bytes.
    peak : int
        The most the call has added so far, bytes (as sampled).
    over : bool
        Whether the call has grown past ``limit``; once set it stays set.
    """

    __slots__ = ("limit", "start", "peak", "over", "interrupts")

    def __init__(self, limit: int, start: int) -> None:
        self.limit, self.start, self.peak, self.over = limit, start, 0, False
        self.interrupts: dict[int, Callable[[], None]] = {}

    def sample(self, now: int) -> None:
        """Take one reading of the resident memory (bytes); past the bound, interrupt what asked to be."""
        self.peak = max(self.peak, now - self.start)
        if self.peak > self.limit and not self.over:
            self.over = True
            for interrupt in list(self.interrupts.values()):
                interrupt()


class _Sampler:
    """The one thread that reads the resident memory for every open watch."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._open: dict[int, Watch] = {}
        self._thread: threading.Thread | None = None

    def add(self, w: Watch) -> None:
        with self._cond:
            self._open[id(w)] = w
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="flowgraph-memory-watch", daemon=True)
                FORK_SAFE_THREADS.add(self._thread)  # it reads a file and sets flags: a forked child uses neither
                self._thread.start()
            self._cond.notify()

    def remove(self, w: Watch) -> None:
        with self._cond:
            self._open.pop(id(w), None)

    def _run(self) -> None:
        with self._cond:
            while True:
                while not self._open:
                    self._cond.wait()
                now = resident_bytes()
                if now is not None:
                    for w in self._open.values():
                        w.sample(now)
                self._cond.wait(SAMPLE_S)


_SAMPLER = _Sampler()
_LOCAL = threading.local()


def _stack() -> list[Watch]:
    stack = getattr(_LOCAL, "watches", None)
    if stack is None:
        stack = _LOCAL.watches = []
    return stack


@contextlib.contextmanager
def watch(limit_bytes: int | None) -> Iterator[Watch | None]:
    """Watch the memory the block adds, up to ``limit_bytes`` (None: not watched).

    Watches nest (the count inside an explanation has its own): :func:`exceeded` is true in this thread
    once any of its open watches is past its bound.

    Parameters
    ----------
    limit_bytes : int or None
        Bytes of resident memory the block may add.

    Yields
    ------
    Watch or None
        The watch (None when nothing is watched: no bound, or no way to read the resident memory).

    Raises
    ------
    ValueError
        ``limit_bytes`` is not None and not a whole number above 0.
    """
    if limit_bytes is None:
        yield None
        return
    if isinstance(limit_bytes, bool) or not isinstance(limit_bytes, int) or limit_bytes <= 0:
        raise ValueError(f"memory_bytes must be a whole number of bytes above 0 or None, not {limit_bytes!r}")
    start = resident_bytes()
    if start is None:  # pragma: no cover - Windows
        yield None
        return
    w = Watch(limit_bytes, start)
    stack = _stack()
    stack.append(w)
    _SAMPLER.add(w)
    try:
        yield w
    finally:
        _SAMPLER.remove(w)
        stack.remove(w)


def exceeded() -> bool:
    """Whether a watch open in this thread has seen its call grow past its bound (cheap: read at every
    check of the clock)."""
    stack: list[Watch] | None = getattr(_LOCAL, "watches", None)
    return bool(stack) and any(w.over for w in stack or ())


@contextlib.contextmanager
def interrupting(interrupt: Callable[[], None]) -> Iterator[bool]:
    """Call ``interrupt()`` (from the sampling thread) if a watch open in this thread goes past its bound
    while the block runs: how a SAT call, which does not come back to Python until it ends, is stopped.

    Yields
    ------
    bool
        Whether a watch is open in this thread (the caller then runs its solver interruptibly).
    """
    stack = list(_stack())
    key = id(interrupt)
    for w in stack:
        w.interrupts[key] = interrupt
    try:
        if any(w.over for w in stack):
            interrupt()
        yield bool(stack)
    finally:
        for w in stack:
            w.interrupts.pop(key, None)
