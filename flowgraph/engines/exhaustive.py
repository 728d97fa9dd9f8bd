"""Every solution of a puzzle, or the first few and how many: the exhaustive link search.

Counting (``validate --count``) and proving a Numberlink puzzle unique (``validate --unique``) need the whole
search space, not one answer. This module runs the compiled search (:mod:`flowgraph.kernels.link_search`: the links
around one node decided at a time, in board order, with propagation) on the puzzle graph as :mod:`.link_layout`
lays it out, in slices of :data:`SLICE` decisions so that the time limit and Ctrl-C are kept, and turns what it
found into verified-ready :class:`~flowgraph.model.Solution` objects. It works on any graph: square, hex, warps,
bridges (a lane is a node of its own), holes and walls.

Where the two board orders tie (a square board) both race, in turns, and past :data:`PARALLEL_AFTER` decisions
in two processes where a fork is safe (:func:`_race_apart`); a caller that runs the search in parts
(:class:`LinkSearch`) may also send the second order to a child for good (:meth:`LinkSearch.fork`) and do
other work while it runs.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import SearchLimitError
from ..model import Limits, Puzzle, Solution
from . import FORK_SAFE_THREADS, memory
from .link_layout import LinkLayout, board_orders

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["Enumeration", "LinkSearch", "enumerate_solutions", "SLICE", "RACE_SLICE", "MEMO_START", "MEMO_SLOTS"]

#: Decisions per slice of the compiled search between two looks at the clock (about 40-100 ms).
SLICE = 50_000
#: Decisions of each slice when two orders are raced (about 10 ms): the loser spends at most one slice more
#: than the winner.
RACE_SLICE = 5_000
#: Slots of the failure memo at the start and at most (powers of two; 16 bytes each: 1 MiB, 64 MiB).
MEMO_START = 1 << 16
MEMO_SLOTS = 1 << 22
#: Decisions after which a race still running goes on in two processes where it can (:func:`_can_fork`):
#: a fork costs about 10 ms, and from then on each order has a processor of its own.
PARALLEL_AFTER = 20_000


def _grown(table: np.ndarray, regs: np.ndarray) -> np.ndarray:
    """The failure memo four times larger, with the entries of ``table`` that land on distinct slots."""
    kept = table[(table[:, 0] != 0) | (table[:, 1] != 0)]
    bigger = np.zeros((min(4 * len(table), MEMO_SLOTS), 2), np.int64)
    bigger[kept[:, 0] & (len(bigger) - 1)] = kept  # two on one slot: the last stays (it is a cache)
    regs[9] = int(np.count_nonzero(bigger[:, 0] | bigger[:, 1]))
    return bigger


@dataclass(frozen=True)
class Enumeration:
    """What :func:`enumerate_solutions` found.

    Attributes
    ----------
    count : int
        Solutions found (all of them when ``complete``; else at least this many).
    complete : bool
        True when the search space was exhausted, so ``count`` is exact.
    solutions : tuple of Solution
        The first ones found, at most ``keep`` (unverified).
    stats : dict
        ``seconds``, ``decisions`` (sets of links tried at a node, by every order raced), ``order``
        ("rows" or "columns": the one that answered),
        ``memo_hits`` (frontiers skipped as seen before), ``memo_slots`` (the memo's size at the end),
        ``processes`` (2, only when the race went on in two processes).
    """

    count: int
    complete: bool
    solutions: tuple[Solution, ...]
    stats: dict


def enumerate_solutions(puzzle: Puzzle, cap: int | None = None, *, keep: int = 2, canonical: bool = False,
                        limits: Limits | None = None, memo: bool = True, order: str | None = None,
                        nested: bool = True) -> Enumeration:
    """Find every solution of ``puzzle`` under its rules (or stop at ``cap``), keeping the first ``keep``.

    Parameters
    ----------
    puzzle : Puzzle
        Any family; ``puzzle.rules`` says whether every cell must be filled.
    cap : int, optional
        Stop when this many solutions are found (None: find all).
    keep : int
        How many solutions to return (the first found).
    canonical : bool
        Numberlink rules only: count only the canonical solutions, those that no short jump or
        corner move turns into another one: no path uses two links of a triangle or three of a
        4-cycle (a jump over the nodes between), and no path turns at a node ``b`` of a 4-cycle
        ``a-b-c-d`` while the opposite node ``d``, later in board order and no endpoint, is empty.
        Every solution becomes a canonical one by such moves (each leaves fewer nodes used, or as
        many with the turn later in board order); see
        :func:`flowgraph.authoring.uniqueness.count_solutions`.
    limits : Limits, optional
        ``time_limit_s`` bounds the whole search (checked between slices of :data:`SLICE` decisions),
        ``max_states`` the decisions.
    memo : bool
        Skip frontiers already seen to lead nowhere (the failure memo of
        :func:`~flowgraph.kernels.link_search.exhaust_pass`); off only to measure it.
    nested : bool
        On a planar board (square, no warps, no bridges), skip frontiers where two flows that must
        join below the frontier alternate along it (``nesting.is_nested``); off only to measure it.
    order : {None, "rows", "columns"}
        The board order (None: whichever keeps the frontier narrower; on a tie, as on a square
        board, both are raced: slices of :data:`RACE_SLICE` decisions alternate and the first
        search to end answers, as the better order of a square board is often several times
        faster and which one cannot be told beforehand; docs/benchmarks.md). A race still
        running after :data:`PARALLEL_AFTER` decisions goes on in a forked second process where
        that is safe and a second processor is there (:func:`_can_fork`), halving its time.
        With ``canonical`` it also says which corners are canonical (raced: those of the order
        that answered, ``stats["order"]``): in rows order on a square board these are the
        solutions numlin_v2 counts (its L-shape canonisation).

    Returns
    -------
    Enumeration

    Raises
    ------
    SearchLimitError
        The time limit (reason ``"time"``) or the decisions (``"states"``) ran out; its ``stats`` hold
        ``count`` (solutions found so far) and ``decisions``.
    ValueError
        ``canonical`` under Flow Free rules, ``cap`` or ``keep`` below 0, or an unknown ``order``.
    """
    return LinkSearch(puzzle, cap, keep=keep, canonical=canonical, memo=memo, order=order, nested=nested).run(limits)


class LinkSearch:
    """Enumerate solutions by the exhaustive link search, a part at a time.

    The exhaustive link search of :func:`enumerate_solutions`, run in parts: each :meth:`run` goes on
    from where the last one stopped at its limits, so a caller can try other methods between parts and
    lose no work. The parameters are :func:`enumerate_solutions`'s.

    Raises
    ------
    ValueError
        As :func:`enumerate_solutions`.
    """

    def __init__(self, puzzle: Puzzle, cap: int | None = None, *, keep: int = 2, canonical: bool = False,
                 memo: bool = True, order: str | None = None, nested: bool = True):
        fill = puzzle.rules.fills_every_cell
        if canonical and fill:
            raise ValueError("canonical solutions are a Numberlink-rules notion (cells may stay empty)")
        if (cap is not None and cap < 1) or keep < 0:
            raise ValueError("cap must be at least 1 and keep at least 0")
        if order not in (None, "rows", "columns"):
            raise ValueError(f"unknown board order {order!r}: expected rows or columns")
        if order is None:  # the narrower frontier; on a tie (a square board) both orders, raced
            widths = [(width, name) for width, _, name in board_orders(puzzle)]
            orders = [name for width, name in widths if width == min(widths)[0]]
        else:
            orders = [order]
        mode = int(fill) | 2  # the nesting check where the layout is planar (_Run clears it elsewhere)
        self.puzzle, self.keep = puzzle, keep
        self.runs = [_Run(LinkLayout(puzzle, canonical, name), mode if nested else int(fill), cap, keep, memo,
                          len(puzzle.flows)) for name in orders]
        self.result: Enumeration | None = None
        self._child: _Child | None = None

    def fork(self, limits: Limits | None = None) -> bool:
        """Run the second board order in a child process.

        From now on the second board order goes on in a forked child process, between and during
        this process's parts and whatever it does between them (a SAT model, say): the next
        :meth:`run` races it. Only where :func:`_can_fork` allows, and for a search still racing two
        orders.

        Parameters
        ----------
        limits : Limits, optional
            The child's own: ``time_limit_s`` from now and ``max_states`` decisions at most (then
            this process races on alone).

        Returns
        -------
        bool
            Whether a child was started. Call :meth:`close` when done with the search (the child
            also ends when this process does).
        """
        if self.result is not None or self._child is not None or len(self.runs) != 2 or not _can_fork():
            return False
        limits = limits or Limits()
        deadline = None if limits.time_limit_s is None else time.perf_counter() + limits.time_limit_s
        self._child = _Child(self.runs[1], deadline, limits.max_states)
        return True

    def close(self) -> None:
        """Stop the child of :meth:`fork`, if one is running (its work is lost)."""
        if self._child is not None:
            self._child.stop()
            self._child = None

    @property
    def decisions(self) -> int:
        """Decisions made so far, by every order."""
        return sum(r.decisions for r in self.runs)

    def run(self, limits: Limits | None = None) -> Enumeration:
        """Go on until the search ends, or ``limits`` (seconds and decisions of this part) run out.

        Returns
        -------
        Enumeration
            Its ``stats["seconds"]`` are this part's; the same object again once the search has ended.

        Raises
        ------
        SearchLimitError
            As :func:`enumerate_solutions`; the search can go on with another :meth:`run`.
        """
        from ..kernels.codes import PAUSED

        if self.result is not None:
            return self.result
        limits = limits or Limits()
        t0 = time.perf_counter()
        if self._child is not None:
            self.result = _race(self.puzzle, self.runs, self._child, self.keep, limits, t0)  # a limit: the child goes on
            self.close()
            return self.result
        runs, start = self.runs, self.decisions
        budget = limits.max_states
        step = min(RACE_SLICE, SLICE) if len(runs) > 1 else SLICE
        while True:
            for run in runs:
                spent = self.decisions - start
                if budget is not None and spent >= budget:
                    raise SearchLimitError("states", {**run.stats(t0), "decisions": self.decisions,
                                                      "count": max(r.count for r in runs)})
                status = run.go(step if budget is None else int(min(step, budget - spent)))
                if status != PAUSED:
                    self.result = _ended(self.puzzle, run, status, self.keep, t0, self.decisions)
                    return self.result
                if (limits.time_limit_s is not None and time.perf_counter() - t0 >= limits.time_limit_s) \
                        or memory.exceeded():
                    raise SearchLimitError("memory" if memory.exceeded() else "time",
                                           {**run.stats(t0), "decisions": self.decisions,
                                            "count": max(r.count for r in runs)})
            left = None if budget is None else budget - (self.decisions - start)
            if len(runs) == 2 and self.decisions >= PARALLEL_AFTER and (left is None or left >= PARALLEL_AFTER) \
                    and _can_fork():  # (a fork for a few decisions more costs more than it saves)
                self.result = _race_apart(self.puzzle, runs, self.keep, left, limits.time_limit_s, t0)
                return self.result


def _ended(puzzle: Puzzle, run: _Run, status: int, keep: int, t0: float, decisions: int,
           **more: int) -> Enumeration:
    """The enumeration of a run that ended (exhausted or capped), its first ``keep`` solutions kept."""
    from ..kernels.codes import CAPPED, EXHAUSTED

    assert status in (EXHAUSTED, CAPPED)
    stats = {**run.stats(t0), "decisions": decisions, **more}
    sols = tuple(Solution(puzzle, run.lay.paths(run.out[i]), "exhaustive", stats)
                 for i in range(min(run.count, keep)))
    return Enumeration(run.count, status == EXHAUSTED, sols, stats)


def _can_fork() -> bool:
    """Whether the race may go on in a second process: Linux (a fork copies the search's arrays for
    nothing), two processors for this process, no parent of ours in :mod:`multiprocessing` (a batch's
    workers already fill the processors), and no thread but the main one and SAT's watchdog (the
    child touches nothing of the watchdog's; a fork copies other threads' locks as they stand, and
    the studio's server has threads)."""
    import multiprocessing
    import threading

    others = [t for t in threading.enumerate() if t is not threading.main_thread()]
    return sys.platform.startswith("linux") and all(t in FORK_SAFE_THREADS for t in others) \
        and multiprocessing.parent_process() is None and len(os.sched_getaffinity(0)) >= 2



def _race_apart(puzzle: Puzzle, runs: list[_Run], keep: int, budget: int | None, seconds: float | None,
                t0: float) -> Enumeration:
    """Go on with the two orders of a race in two processes: this one the first, a forked child the
    second (:class:`_Child`); the first to end answers, and the other is stopped.

    ``budget`` is the decisions left (None: no bound), ``seconds`` the time limit from ``t0``. The
    child gets the time limit's end and half the decisions; a child that stops at its limit, or dies,
    leaves this process racing alone. Raises as :func:`enumerate_solutions`; on a limit the second
    order's run is where the fork left it (its work in the child is lost), so a :class:`LinkSearch`
    can go on.
    """
    share = None if budget is None else budget // 2
    child = _Child(runs[1], None if seconds is None else t0 + seconds, share)
    try:
        mine = None if budget is None or share is None else budget - share
        return _race(puzzle, runs, child, keep, Limits(time_limit_s=seconds, max_states=mine), t0)
    finally:
        child.stop()


class _Child:
    """The second order of a race, going on in a forked child process (:func:`_far_side`).

    ``deadline`` (``time.perf_counter`` seconds) and ``share`` (decisions from now) bound it; None: no bound.
    """

    def __init__(self, run: _Run, deadline: float | None, share: int | None):
        import multiprocessing
        import warnings

        context = multiprocessing.get_context("fork")
        self.receive, send = context.Pipe(duplex=False)
        self.process = context.Process(target=_far_side, args=(run, send, deadline, share, os.getpid()), daemon=True)
        with warnings.catch_warnings():  # Python 3.12+ warns of any thread at a fork: _can_fork allowed only ours
            warnings.filterwarnings("ignore", "This process .* is multi-threaded", DeprecationWarning)
            self.process.start()
        send.close()
        self.decisions, self.count = run.decisions, run.count  # as last heard
        self.alone = False  # the child stopped at its limit or died: race on alone

    def poll(self) -> tuple[int, np.ndarray] | None:
        """(status, first solutions' link states) once the child has ended its search; else None."""
        from ..kernels.codes import PAUSED

        if self.alone or not self.receive.poll():
            return None
        try:
            status, self.count, self.decisions, out = self.receive.recv()
        except (EOFError, OSError):  # the child died
            self.alone = True
            return None
        if status == PAUSED:  # it stopped at its limit
            self.alone = True
            return None
        return status, out

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.receive.close()


def _race(puzzle: Puzzle, runs: list[_Run], child: _Child, keep: int, limits: Limits, t0: float) -> Enumeration:
    """This process's order in short slices against ``child``'s, until one ends or ``limits`` (from
    ``t0``: seconds, and this process's decisions) run out. The child is left running either way."""
    from ..kernels.codes import PAUSED

    mine, other = runs
    end = None if limits.max_states is None else mine.decisions + limits.max_states
    deadline = None if limits.time_limit_s is None else t0 + limits.time_limit_s

    def limit(reason: str) -> SearchLimitError:
        return SearchLimitError(reason, {**mine.stats(t0), "decisions": mine.decisions + child.decisions,
                                         "count": max(mine.count, child.count), "processes": 2})

    while True:
        # short slices, so that the child's answer is taken up within milliseconds
        room = RACE_SLICE if end is None else int(min(RACE_SLICE, end - mine.decisions))
        if room <= 0:
            raise limit("states")
        status = mine.go(room)
        if status != PAUSED:
            return _ended(puzzle, mine, status, keep, t0, mine.decisions + child.decisions, processes=2)
        ended = child.poll()
        if ended is not None:
            other.adopt(child.count, child.decisions, ended[1])
            return _ended(puzzle, other, ended[0], keep, t0, mine.decisions + child.decisions, processes=2)
        if deadline is not None and time.perf_counter() >= deadline:
            raise limit("time")
        if memory.exceeded():
            raise limit("memory")


def _far_side(run: _Run, send: Connection, deadline: float | None, share: int | None, parent: int) -> None:
    """The forked child of a race (:class:`_Child`): run on until the end, the deadline, ``share`` more
    decisions or the parent's end, then send (status, solutions found, decisions, the first solutions'
    link states)."""
    import signal

    from ..kernels.codes import PAUSED

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops this one
    try:
        end = None if share is None else run.decisions + share
        status = PAUSED
        while status == PAUSED and os.getppid() == parent:
            if (deadline is not None and time.perf_counter() >= deadline) or \
                    (end is not None and run.decisions >= end):
                break
            status = run.go(SLICE if end is None else int(min(SLICE, end - run.decisions)))
        send.send((status, run.count, run.decisions, run.out[:min(run.count, len(run.out))].copy()))
        send.close()
    except BaseException:  # out of memory, say: the parent reads the pipe's end and races on alone
        os._exit(1)


class _Run:
    """One exhaustive link search in one board order, resumable slice by slice (its whole state is in arrays)."""

    def __init__(self, lay: LinkLayout, mode: int, cap: int | None, keep: int, memo: bool, flows: int):
        from ..kernels.codes import REGISTERS, STACK_COLUMNS, hash_fits

        self.lay = lay
        n, m = len(lay.nodes), len(lay.ends)
        self.edge = np.zeros(m, np.uint8)
        self.mate = np.arange(n, dtype=np.int64)
        self.mate[lay.clue >= 0] = -2 - lay.clue[lay.clue >= 0]
        self.must = np.zeros(n, np.uint8)
        self.regs = np.zeros(REGISTERS, np.int64)
        self.trail = np.zeros((lay.trail_size, 3), np.int64)
        self.stack = np.zeros((n + 1, STACK_COLUMNS), np.int64)
        self.queue = np.zeros(max(n, 1), np.int64)
        self.inq = np.zeros(max(n, 1), np.uint8)
        self.pend = np.zeros((lay.pend_size, 2), np.int64)
        self.out = np.zeros((keep, m), np.uint8)
        # the failure memo starts small (a fresh large block costs more than a small board's search) and grows
        self.table = np.zeros((MEMO_START if memo and hash_fits(n, m, flows) else 1, 2), np.int64)
        self.mode = (mode | (4 if lay.rectangle else 0)) if lay.planar and mode & 2 else mode & 1
        self.cap = np.iinfo(np.int64).max if cap is None else cap

    @property
    def decisions(self) -> int:
        return int(self.regs[2])

    @property
    def count(self) -> int:
        return int(self.regs[3])

    def adopt(self, count: int, decisions: int, out: np.ndarray) -> None:
        """Take on the end of this run as a forked copy of it found it (solutions, decisions, their links)."""
        self.out[:len(out)] = out
        self.regs[3] = count
        self.regs[2] = decisions

    def stats(self, t0: float) -> dict:
        return {"seconds": round(time.perf_counter() - t0, 6), "decisions": self.decisions, "order": self.lay.order,
                "memo_hits": int(self.regs[8]), "memo_slots": len(self.table)}

    def go(self, decisions: int) -> int:
        """Up to ``decisions`` more decisions; the pass's status (PAUSED: more to do)."""
        from .. import kernels
        from ..kernels.codes import PAUSED

        lay = self.lay
        status = kernels.exhaust_pass(lay.ptr, lay.nbr, lay.lnk, lay.ends, lay.clue, lay.cyc, lay.cptr, lay.cidx,
                                     self.mode, self.cap, decisions, self.edge, self.mate, self.must, self.trail,
                                     self.regs, self.stack, self.queue, self.inq, self.pend, self.out, self.table,
                                     lay.place)
        if status == PAUSED and 2 * self.regs[9] > len(self.table) and len(self.table) < MEMO_SLOTS:
            self.table = _grown(self.table, self.regs)
        return int(status)
