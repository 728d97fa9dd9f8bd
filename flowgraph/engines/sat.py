"""The SAT engine: the puzzle graph as CNF (:mod:`.sat_model`), solved with python-sat.

This module runs the solver: one incremental Glucose 4 solver per puzzle,
each model checked for cycles detached from every endpoint (a clause cuts
each, and the same solver is solved again, keeping what it learnt), the time
budget kept by a watchdog that interrupts the solver, and Ctrl-C passed on.
The model itself, and why it is built as it is, is :mod:`.sat_model`'s.

Notes
-----
Glucose 4.1 was chosen by measurement over CaDiCaL 1.5.3 and 1.9.5 and
MiniSat 2.2 (docs/benchmarks.md), and because python-sat can interrupt it
for the time budget, which it cannot do for CaDiCaL.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Callable, Iterator

import numpy as np
from pysat.solvers import Solver

from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Puzzle, Solution
from . import ENGINE_RULES, FORK_SAFE_THREADS, memory
from .sat_model import Model

__all__ = ["solve", "solutions", "SolutionSearch", "nearby_solution", "warm_up", "SOLVER"]

#: python-sat back end.
SOLVER = "glucose4"


def _ctrl_c(call, **kwargs):
    """``call(**kwargs)``, with Ctrl-C raised as KeyboardInterrupt: python-sat's solvers catch SIGINT themselves
    and raise an error of their own ("Caught keyboard interrupt"), which a batch would take for a failed puzzle."""
    try:
        return call(**kwargs)
    except Exception as exc:
        if "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise


class _Watchdog:
    """One daemon thread that interrupts SAT solvers whose deadline passed.

    A ``threading.Timer`` per solver call costs a thread start, a
    noticeable share of a small board's whole solve (docs/benchmarks.md); this thread is started once
    and sleeps until the earliest deadline of the calls running (several,
    when the studio serves requests in threads).
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._calls: dict[int, tuple[float, Callable[[], None]]] = {}
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None

    @contextlib.contextmanager
    def watch(self, deadline: float, interrupt):
        """Call ``interrupt()`` if the block is still running at ``deadline`` (``time.perf_counter`` seconds)."""
        with self._cond:
            key = next(self._ids)
            self._calls[key] = (deadline, interrupt)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="flowgraph-sat-watchdog", daemon=True)
                FORK_SAFE_THREADS.add(self._thread)  # it touches nothing a forked link search uses
                self._thread.start()
            self._cond.notify()
        try:
            yield
        finally:
            with self._cond:
                self._calls.pop(key, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.perf_counter()
                for key, (deadline, interrupt) in list(self._calls.items()):
                    if deadline <= now:
                        del self._calls[key]
                        interrupt()
                soonest = min((d for d, _ in self._calls.values()), default=None)
                self._cond.wait(None if soonest is None else soonest - now)


_WATCHDOG = _Watchdog()


def solve_until(solver, deadline: float | None, **kwargs) -> bool | None:
    """``solver.solve(**kwargs)`` (python-sat), interrupted at ``deadline`` (``time.perf_counter`` seconds).

    Returns
    -------
    bool or None
        The answer, or None when the deadline came first.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C (python-sat's own error for it turned back into one).
    """
    if deadline is not None and deadline <= time.perf_counter():
        return None
    with memory.interrupting(solver.interrupt) as watched:
        if deadline is None and not watched:
            return _ctrl_c(solver.solve, **kwargs)
        with _WATCHDOG.watch(deadline, solver.interrupt) if deadline is not None else contextlib.nullcontext():
            result = _ctrl_c(solver.solve_limited, expect_interrupt=True, **kwargs)
    solver.clear_interrupt()
    return None if memory.exceeded() else result


class _Run:
    """One incremental solver with budget handling."""

    def __init__(self, model: Model, heuristic: bool, limits: Limits, t0: float):
        self.model = model
        self.solver = Solver(name=SOLVER, bootstrap_with=model.clauses)
        if heuristic:
            self.solver.append_formula(model.heuristic)
        self.heuristic = heuristic
        self.limits = limits
        self.t0 = t0
        self.calls = 0
        self.cuts = 0

    def close(self) -> None:
        self.solver.delete()

    def stats(self) -> dict:
        conflicts = self.solver.accum_stats().get("conflicts", 0) if self.solver else 0
        return {
            "seconds": round(time.perf_counter() - self.t0, 6),
            "sat_calls": self.calls,
            "conflicts": conflicts,
            "cycle_cuts": self.cuts,
            "heuristic": self.heuristic,
            "variables": self.model.variables,
            "clauses": len(self.model.clauses) + (len(self.model.heuristic) if self.heuristic else 0),
        }

    def next_solution(self, assumptions: list[int] | None = None,
                      deadline: float | None = None) -> np.ndarray | None:
        """Solve, cutting detached cycles, until a real solution or UNSAT.

        ``assumptions`` (literals) hold for this call only; ``deadline`` (``time.perf_counter``
        seconds) ends it sooner than the run's own time limit.
        """
        lim = self.limits
        end = None if lim.time_limit_s is None else self.t0 + lim.time_limit_s
        if deadline is not None:
            end = deadline if end is None else min(end, deadline)
        while True:
            self.calls += 1
            if lim.max_sat_calls is not None and self.calls > lim.max_sat_calls:
                raise SearchLimitError("sat_calls", self.stats())
            result = solve_until(self.solver, end, assumptions=assumptions or [])
            if result is None:
                raise SearchLimitError("memory" if memory.exceeded() else "time", self.stats())
            if not result:
                return None
            used = self.model.used_links(self.solver.get_model())
            cuts = self.model.cycle_cuts(used)
            if not cuts:
                return used
            self.cuts += len(cuts)
            for clause in cuts:
                self.solver.add_clause(clause)

    def block(self, used: np.ndarray) -> None:
        """Forbid this exact set of links (a solution is determined by its links)."""
        self.solver.add_clause(self.model.block(used))


def warm_up() -> None:
    """Nothing to load beyond python-sat, which importing this module did."""


#: SAT has no states to show: :func:`solve` takes no ``trace``.
TRACES = False
#: Under Numberlink rules a node may have no used link (and then any flow number).
RULES = ENGINE_RULES["sat"]


def solve(puzzle: Puzzle, limits: Limits | None = None, heuristic: bool = True, *,
          trace: Callable[..., None] | None = None) -> Solution:
    """Solve a puzzle with the SAT engine.

    Parameters
    ----------
    puzzle : Puzzle
    limits : Limits, optional
        ``time_limit_s`` interrupts the SAT solver; ``max_sat_calls`` bounds the
        number of SAT calls (one per cycle-cutting round).
    heuristic : bool
        Add the no-self-touch clauses first (default); an unsatisfiable answer
        with them is always rechecked without them.
    trace : None
        Must be None (:data:`TRACES`).

    Returns
    -------
    Solution
        Unverified; ``stats`` has ``seconds``, ``sat_calls``,
        ``conflicts``, ``cycle_cuts``, ``variables``, ``clauses``, ``heuristic``.

    Raises
    ------
    UnsolvableError
        The sound model is unsatisfiable.
    SearchLimitError
        The time or call budget ran out.
    ValueError
        A ``trace`` was given.
    """
    if trace is not None:
        raise ValueError("the sat engine cannot trace: it expands no states (use the search)")
    limits = limits or Limits()
    t0 = time.perf_counter()
    model = Model(puzzle, tight=not puzzle.rules.fills_every_cell)
    calls = 0
    for mode in ((True, False) if heuristic else (False,)):
        run = _Run(model, mode, limits, t0)
        run.calls = calls
        try:
            used = run.next_solution()
            stats = run.stats()
        finally:
            calls = run.calls
            run.close()
        if used is not None:
            return Solution(puzzle, model.paths(used), "sat", stats)
    raise UnsolvableError("no solution: the SAT model is unsatisfiable", stats)


def solutions(puzzle: Puzzle, limit: int = 2, limits: Limits | None = None, *, tight: bool = False,
              corners: bool = False, exclude: Solution | None = None) -> tuple[list[Solution], dict]:
    """Up to ``limit`` distinct solutions, found with the sound model.

    Used by ``flowgraph validate --unique``: fewer than ``limit`` solutions
    means the list is complete (the model was exhausted).

    Parameters
    ----------
    puzzle : Puzzle
    limit : int
    limits : Limits, optional
    tight : bool
        Numberlink rules only: only solutions whose paths have no chord (see
        ``Model._tight``); the list is then complete for those alone.
    exclude : Solution, optional
        A solution not to find again.

    Returns
    -------
    solutions : list of Solution
    stats : dict

    Raises
    ------
    SearchLimitError
        A budget ran out first; its ``solutions`` attribute holds those found before it did.
    """
    search = SolutionSearch(puzzle, tight=tight, corners=corners, exclude=exclude, limits=limits)
    found: list[Solution] = []
    try:
        while len(found) < limit:
            solution = search.next()
            if solution is None:
                break
            found.append(solution)
        return found, search.run.stats()
    except SearchLimitError as err:
        err.solutions = tuple(found)  # type: ignore[attr-defined]  # (what was found is kept: count says it)
        raise
    finally:
        search.close()


class SolutionSearch:
    """The solutions of the sound model one at a time, in parts: a part that runs out of time leaves
    the solver as it was (with all it learnt), and the next :meth:`next` goes on from there.

    Parameters
    ----------
    puzzle : Puzzle
    tight, corners : bool
        As :func:`solutions`.
    exclude : Solution, optional
        A solution not to find.
    limits : Limits, optional
        For the whole search, from now (``time_limit_s``, ``max_sat_calls``); each part may have a
        shorter time of its own.

    Raises
    ------
    KeyError
        ``exclude`` uses a link that ``puzzle`` does not have.
    """

    def __init__(self, puzzle: Puzzle, *, tight: bool = False, corners: bool = False,
                 exclude: Solution | None = None, limits: Limits | None = None):
        t0 = time.perf_counter()  # the whole search's limits count the model's making too
        self.puzzle = puzzle
        self.model = Model(puzzle, tight=tight, corners=corners)
        self.run = _Run(self.model, False, limits or Limits(), t0)
        if exclude is not None:
            self.run.block(_links_of(self.model, exclude))

    def next(self, limits: Limits | None = None) -> Solution | None:
        """The next solution (blocked from then on), or None when there is no other.

        Raises
        ------
        SearchLimitError
            ``limits.time_limit_s`` (or the whole search's limits) ran out first; call again to go on.
        """
        seconds = None if limits is None else limits.time_limit_s
        used = self.run.next_solution(deadline=None if seconds is None else time.perf_counter() + seconds)
        if used is None:
            return None
        self.run.block(used)
        return Solution(self.puzzle, self.model.paths(used), "sat", self.run.stats())

    def close(self) -> None:
        """Release the SAT solver."""
        self.run.close()


def _links_of(model: Model, solution: Solution) -> np.ndarray:
    """The link numbers of ``model`` that ``solution``'s paths use, shape (links used,)."""
    index = {frozenset(link): e for e, link in enumerate(model.links.tolist())}
    return np.array([index[frozenset((model.index[a], model.index[b]))]
                     for path in solution.paths.values() for a, b in itertools.pairwise(path)], np.int64)


#: Window sides (in lines and columns of the board's nodes) tried in turn by :func:`nearby_solution`.
WINDOW_SIDES = (5, 8, 12, 16, 24)
#: Seconds one window's SAT call may take before the next window is tried.
WINDOW_SECONDS = 3.0
#: The largest share of the board's nodes a window holds; a larger one is nearly the whole model's
#: search (janko_176_17x17's 16-line windows spent 3.5 s and found nothing the whole model did not).
WINDOW_MOST = 0.75


def _windows(model: Model) -> Iterator[np.ndarray]:
    """Boolean masks over the model's nodes: squares of each of :data:`WINDOW_SIDES` lines by as many
    columns (by rank, so any topology's coordinates do), overlapping by half, row by row, smallest
    first, up to the first that holds over :data:`WINDOW_MOST` of the board."""
    pos = np.array([node[:2] for node in model.nodes], np.int64)
    rows = np.unique(pos[:, 0], return_inverse=True)[1].ravel()
    cols = np.unique(pos[:, 1], return_inverse=True)[1].ravel()
    for side in WINDOW_SIDES:
        step = max(1, side // 2)
        for r0 in range(0, max(1, rows.max() + 2 - side + step - 1), step):
            for c0 in range(0, max(1, cols.max() + 2 - side + step - 1), step):
                inside = (rows >= r0) & (rows < r0 + side) & (cols >= c0) & (cols < c0 + side)
                if inside.mean() > WINDOW_MOST:  # nearly the whole board: the whole model's turn
                    return
                yield inside


def nearby_solution(puzzle: Puzzle, solution: Solution, limits: Limits | None = None, *,
                    corners: bool = False) -> Solution | None:
    """Another solution that differs from ``solution`` only inside one window of the board.

    A large neighbourhood search (Shaw, "Using constraint programming and local search methods to
    solve vehicle routing problems", CP 1998): one SAT model with ``solution`` blocked, solved
    again and again under assumptions that fix every link outside a window to ``solution``'s
    (:func:`_windows`), each call at most :data:`WINDOW_SECONDS`. Each call is small, so a second
    solution that moves a few neighbouring flows is found in milliseconds where the whole model
    may search for minutes. Under Numberlink rules the chord-free model is used (with ``corners``,
    the canonical one of :func:`solutions`): what it finds is a solution all the same.

    Parameters
    ----------
    puzzle : Puzzle
    solution : Solution
        A solution of ``puzzle``.
    limits : Limits, optional
        ``time_limit_s`` bounds the whole search (without one, 10 windows' worth);
        ``max_sat_calls`` is not used.
    corners : bool
        Numberlink rules only: the model of canonical solutions (corner clauses too).

    Returns
    -------
    Solution or None
        Unverified, its links differ from ``solution``'s; None when no window gives one in time
        (which proves nothing).

    Raises
    ------
    KeyError
        ``solution`` uses a link that ``puzzle`` does not have.
    """
    limits = limits or Limits()
    t0 = time.perf_counter()
    end = t0 + (limits.time_limit_s if limits.time_limit_s is not None else WINDOW_SECONDS * 10)
    numberlink = not puzzle.rules.fills_every_cell
    model = Model(puzzle, tight=numberlink, corners=corners and numberlink)
    run = _Run(model, False, Limits(), t0)  # no limit of its own: each call gets its deadline
    try:
        used = np.zeros(len(model.links), bool)
        used[_links_of(model, solution)] = True
        run.block(np.flatnonzero(used))
        literals = np.where(used, 1, -1) * np.arange(1, len(model.links) + 1)
        a, b = model.links[:, 0], model.links[:, 1]
        for inside in _windows(model):
            if time.perf_counter() >= end:
                return None
            fixed = ~(inside[a] | inside[b])
            try:
                found = run.next_solution(literals[fixed].tolist(), min(end, time.perf_counter() + WINDOW_SECONDS))
            except SearchLimitError:
                continue  # this window's call ran out: the next window (the loop checks the end)
            if found is not None:
                return Solution(puzzle, model.paths(found), "sat", run.stats())
        return None
    finally:
        run.close()
