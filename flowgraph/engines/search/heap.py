"""The heap: best-first search over :class:`~.state.State`, with restarts.

States wait on a heap (``heapq``) as ``(score, tie, state)``; the package
docstring (:mod:`flowgraph.engines.search`) explains the order, the
prunings and the restarts. This module keeps the main loop, the choice of
the head to branch on, the ordering of its moves, and the budgets; the
per-state work over all nodes runs compiled in :mod:`flowgraph.kernels`.
"""

from __future__ import annotations

import heapq
import itertools
import random
import time
from collections.abc import Callable

import numpy as np

from ... import kernels
from ...errors import SearchLimitError, UnsolvableError
from ...kernels.codes import REASONS
from ...model import Limits, Node, Puzzle, Solution
from .. import ENGINE_RULES, memory
from .board import BoardArrays, compile_puzzle
from .state import State

__all__ = ["solve"]


RESTART_STATES = 1000  # state quota of the second attempt and, doubling every RESTART_GROWTH, the later ones
DISCREPANCY_CELLS = 16  # what one step away from the preferred move costs in the score, in open cells
FIRST_ATTEMPT_STATES = 40000  # state quota of the first attempt (~11 s on a 50x50 board, see _quota)
RESTART_GROWTH = 2
CHOKEPOINT_WIDTH = 3  # widest corridor the chokepoint test walks, as in Zucker's solver
BIG_BOARD_NODES = 400  # from this many graph nodes (cells, bridge lanes) the first attempt grows both ends (_flips)
BIG_DISCREPANCY_CELLS = 48  # ... with this discrepancy cost
BIG_SECOND_ATTEMPT_STATES = 15000  # state quota of the second attempt on those boards (see _quota)


class _Restart(Exception):
    """Raised by a search attempt that used up its state quota."""


class DeadState(Exception):
    """Raised inside state updates when a state cannot lead to a solution."""


class HeapSearch:
    def __init__(
        self, board: BoardArrays, heuristic: bool, limits: Limits, t0: float, states0: int,
        flips: int | None = 0, quota: int | None = None, trace: Callable[[State], None] | None = None,
        discrepancy: int = DISCREPANCY_CELLS,
    ):
        self.node_count = len(board.nodes)
        self.nflows = len(board.ends)
        self.all_done = (1 << self.nflows) - 1
        self.ptr, self.nbr, self.side, self.ahead = board.ptr, board.nbr, board.side, board.ahead
        self.endpoint = board.endpoint
        self.opts = kernels.moves_buffer(board.ptr)  # the moves fewest_moves chose
        self.scratch = kernels.moves_buffer(board.ptr)
        self.quiet = np.zeros(2, np.int64)  # fewest_moves: the bend walk's record when a move is only tried
        self.fewest_moves = kernels.fewest_moves  # checked each call until run() has checked the root's arrays
        self.log = np.empty(kernels.log_size(len(board.nodes), self.nflows), np.int64)  # moves made by settle_pass
        # Each flow grows from the endpoint with fewer neighbours (nearer
        # the boundary); the other is its goal. Bit k of ``flips`` swaps them
        # for flow k (restarts try other choices).
        # ``flips`` None: both ends grow, the most constrained head moves.
        self.keep_last = flips is not None
        if flips is None:
            self.grow = tuple(range(2 * len(board.ends)))
        else:
            self.grow = tuple(
                2 * k + (int(board.ptr[b + 1] - board.ptr[b] < board.ptr[a + 1] - board.ptr[a]) ^ (flips >> k & 1))
                for k, (a, b) in enumerate(board.ends)
            )
        self.grow_slots = np.array(self.grow, np.int64)
        self.slots = np.arange(2 * len(board.ends), dtype=np.int64)  # slot k alone: slots[k:k + 1]
        self.goal = board.dist  # links to each endpoint: a tie-break for heads and moves
        self.stop_at = None if quota is None else states0 + quota
        self.discrepancy = discrepancy
        self.heuristic = heuristic
        self.trace = trace  # called with every state expanded (for pictures of the search)
        self.limits = limits
        self.t0 = t0
        self.states = states0
        self.pushed = 0
        self.frontier_peak = 0
        self.state_bytes = State.approx_bytes(board)

    # -- propagation and pruning ---------------------------------------------
    def settle(self, st: State, touched: np.ndarray) -> None:
        """Apply forced moves and run the prunings in place; raise DeadState if hopeless.

        The work is one compiled pass (:func:`flowgraph.kernels.settle.settle_pass`:
        forced moves, dead ends, two flows meeting, loose bends, then
        :func:`flowgraph.kernels.regions.region_pass`); the moves it made are then
        added to the state's trails.
        """
        code, done, free, nlog = kernels.settle_pass(
            st.color, st.link, self.ptr, self.nbr, st.heads, st.done, st.free, touched,
            self.heuristic, self.nflows, self.side, self.endpoint, self.log,
        )
        if code:
            raise DeadState(REASONS[code])
        st.record(self.log, nlog)
        st.done, st.free = int(done), int(free)

    def chokepoints(self, st: State, slot: int) -> None:
        """Corridors of width 2-3 beside the head in ``slot`` (Zucker's chokepoints).

        One compiled pass, :func:`flowgraph.kernels.chokepoints.chokepoint_pass`.
        """
        if st.done >> (slot >> 1) & 1:
            return
        code = kernels.chokepoint_pass(
            st.color, self.ptr, self.nbr, self.ahead, st.heads, st.done, self.nflows, slot, CHOKEPOINT_WIDTH,
        )
        if code:
            raise DeadState(REASONS[code])

    # -- main loop -----------------------------------------------------------
    def children(self, st: State) -> tuple[int, list[int]]:
        """The head to branch on and its moves.

        The flow moved last keeps moving until it is finished, from
        whichever of its heads has fewer moves; otherwise the most
        constrained head (fewest moves) in the puzzle.
        """
        last = st.last
        slots = self.grow_slots
        if self.keep_last and last >= 0 and not st.done >> (last >> 1) & 1:
            slots = self.slots[last:last + 1]
        slot, count = self.fewest_moves(st.color, st.link, self.ptr, self.nbr, st.heads, slots, st.done,
                                        self.heuristic, self.endpoint, self.goal, self.opts, self.scratch, self.quiet)
        return slot, self.opts[:count].tolist()

    def run(self, root: State) -> State | None:
        """Best-first search from ``root``; the solved state or None."""
        try:
            self.settle(root, np.arange(len(root.color), dtype=np.int64))  # the first look covers every node
        except DeadState:
            return None
        lim = self.limits
        heap = [(self.score(root), 0, root)]
        # Every state's arrays are copies of the root's: the passes' argument check, once here.
        move_pass = kernels.trusted("move_pass", root.color, root.link, self.ptr, self.nbr, root.heads, 0, 0,
                                    self.heuristic, self.nflows, self.side, self.endpoint, self.log, 0, 0, self.ahead, 0)
        self.fewest_moves = kernels.trusted("fewest_moves", root.color, root.link, self.ptr, self.nbr, root.heads,
                                            self.grow_slots, 0, self.heuristic, self.endpoint, self.goal, self.opts,
                                            self.scratch, self.quiet)
        counter = itertools.count(1)
        max_frontier = (lim.memory_bytes // self.state_bytes) if lim.memory_bytes else None
        while heap:
            _, _, st = heapq.heappop(heap)
            self.states += 1
            if self.trace is not None:
                self.trace(st)
            if st.done == self.all_done and st.free == 0:
                return st
            if lim.max_states is not None and self.states > lim.max_states:
                raise SearchLimitError("states", self.stats())
            if self.stop_at is not None and self.states > self.stop_at:
                raise _Restart
            if self.states & 63 == 0:
                if lim.time_limit_s is not None and time.perf_counter() - self.t0 > lim.time_limit_s:
                    raise SearchLimitError("time", self.stats())
                if memory.exceeded():
                    raise SearchLimitError("memory", self.stats())
            slot, opts = self.children(st)
            branching = len(opts) > 1
            kids = []
            for v in opts:
                child = st.child(slot, branching)
                code, done, free, nlog = move_pass(
                    child.color, child.link, self.ptr, self.nbr, child.heads, child.done, child.free, self.heuristic,
                    self.nflows, self.side, self.endpoint, self.log, slot, v, self.ahead,
                    CHOKEPOINT_WIDTH if branching else 0,
                )
                if code:
                    continue
                child.record(self.log, nlog)
                child.done, child.free = int(done), int(free)
                kids.append(child)
            if len(kids) > 1:
                goal = self.goal[slot ^ 1]
                far = self.node_count
                kids.sort(key=lambda child: -(self.room(child, slot) * far + int(goal[child.heads[slot]])))
            # Ties on the heap go to the newest state (depth first), and the
            # tightest move (fewest free nodes around the new head; then the
            # nearest to the goal) is pushed last.
            rank = len(kids)
            for child in kids:
                rank -= 1  # 0 for the preferred move, pushed last
                child.discrepancies = st.discrepancies + rank
                self.pushed += 1
                heapq.heappush(heap, (self.score(child), -next(counter), child))
            if len(heap) > self.frontier_peak:
                self.frontier_peak = len(heap)
                if max_frontier is not None and len(heap) > max_frontier:
                    raise SearchLimitError("memory", self.stats())
        return None

    def score(self, st: State) -> int:
        """Lower is better: A*-like cost (decisions so far + open cells), then solved flows.

        Forced moves cost nothing, so states that propagated further come
        first; each step away from the preferred move costs
        ``DISCREPANCY_CELLS`` open cells (chosen on a sample of boards:
        docs/benchmarks.md, "Design measurements"); among equals, more
        solved flows win.
        """
        return ((st.decisions + st.free + self.discrepancy * st.discrepancies) << 6) - bin(st.done).count("1")

    def room(self, st: State, slot: int) -> int:
        """Free nodes next to the head in ``slot``."""
        color = st.color
        h = st.heads[slot]
        return int(np.count_nonzero(color[self.nbr[self.ptr[h]:self.ptr[h + 1]]] == 0))

    def stats(self) -> dict:
        return {
            "seconds": round(time.perf_counter() - self.t0, 6),
            "states": self.states,
            "pushed": self.pushed,
            "frontier_peak": self.frontier_peak,
            "heuristic": self.heuristic,
        }


#: :func:`solve` reports every state it expands to ``trace``.
TRACES = True
#: Flow Free rules only: its prunings assume that every cell is filled.
RULES = ENGINE_RULES["search"]


def solve(puzzle: Puzzle, limits: Limits | None = None, heuristic: bool = True, *,
          trace: Callable[[dict[str, list[list[Node]]]], None] | None = None) -> Solution:
    """Solve a puzzle with the heap-ordered search.

    Parameters
    ----------
    puzzle : Puzzle
    limits : Limits, optional
        Node, time and memory budgets (default: 1 GiB frontier, no others).
    heuristic : bool
        Try the self-touch heuristic and its loose-bend test first
        (default). Either way the answer is sound: an exhausted heuristic
        search is repeated without them.
        Each pass restarts with other choices of ends when an attempt uses
        up its state quota (see the package notes).
    trace : callable, optional
        Called with every state the search expands, as its paths: per flow
        label, a list of pieces (the nodes grown from each endpoint; one
        piece once the flow is finished). For pictures of the search; when
        None (the default) it costs one test per state.

    Returns
    -------
    Solution
        Unverified; callers verify with :func:`flowgraph.verification.verify`.
        ``stats`` has ``seconds``, ``states`` (states expanded, all passes
        and attempts), ``pushed`` and ``frontier_peak`` (of the last
        attempt), ``heuristic`` (whether the answer came from the heuristic
        pass), ``restarts`` and ``decisions`` (the branching moves on the
        way to the answer: the rest of its moves were forced).

    Raises
    ------
    UnsolvableError
        The search space was exhausted under the real rules.
    SearchLimitError
        A budget ran out; ``err.stats`` holds the counts so far.
    """
    limits = limits or Limits()
    t0 = time.perf_counter()
    board = compile_puzzle(puzzle)
    big = len(board.nodes) >= BIG_BOARD_NODES
    states = restarts = 0
    for mode in ((True, False) if heuristic else (False,)):
        for attempt in itertools.count():
            search = HeapSearch(board, mode, limits, t0, states, _flips(attempt, len(board.ends), big), _quota(attempt, big),
                             None if trace is None else lambda st: trace(_partial_paths(puzzle, board, st)),
                             BIG_DISCREPANCY_CELLS if big and attempt == 0 else DISCREPANCY_CELLS)
            try:
                final = search.run(State.root(board))
            except _Restart:
                states = search.states
                restarts += 1
                continue
            except SearchLimitError as err:
                err.stats["restarts"] = restarts
                raise
            break
        states = search.states
        if final is not None:
            nodes = board.nodes
            paths = {flow.label: tuple([nodes[i] for i in final.path(k)]) for k, flow in enumerate(puzzle.flows)}
            return Solution(puzzle, paths, "search", {**search.stats(), "restarts": restarts, "decisions": final.decisions})
    raise UnsolvableError("no solution: the search space is exhausted", {**search.stats(), "restarts": restarts})


def _partial_paths(puzzle: Puzzle, board: BoardArrays, st: State) -> dict[str, list[list[Node]]]:
    """A state's paths as nodes: per flow, the piece grown from each end (one piece once it is finished)."""
    out = {}
    for k, flow in enumerate(puzzle.flows):
        if st.done >> k & 1:
            out[flow.label] = [[board.nodes[i] for i in st.path(k)]]
        else:
            first, second = st.pieces(k)
            out[flow.label] = [[board.nodes[i] for i in first], [board.nodes[i] for i in second]]
    return out


def _quota(attempt: int, big: bool = False) -> int:
    """States attempt ``attempt`` may expand before the next restart.

    On big boards the second attempt (the default ends, one flow at a
    time) gets :data:`BIG_SECOND_ATTEMPT_STATES`: the two orderings solve
    different boards (the quotas were chosen on the eleven 50x50 boards:
    docs/benchmarks.md, "Design measurements").
    """
    if attempt == 0:
        return FIRST_ATTEMPT_STATES
    if big and attempt == 1:
        return BIG_SECOND_ATTEMPT_STATES
    return RESTART_STATES << attempt // RESTART_GROWTH


def _flips(attempt: int, nflows: int, big: bool = False) -> int | None:
    """Which flows grow from their other end in this attempt (a bitmask).

    None: every third attempt from the third on grows both ends of every
    flow and moves the most constrained head, a different enough search to
    rescue puzzles that the one-ended attempts find hard. On boards of
    :data:`BIG_BOARD_NODES` nodes or more the first attempt does so (with
    :data:`BIG_DISCREPANCY_CELLS`), and the second grows the default ends.
    Smaller boards (samgoldman, the generated ones) keep one end first
    (measured: docs/benchmarks.md, "Design measurements").
    """
    if big and attempt < 2:
        return None if attempt == 0 else 0
    if attempt == 0:
        return 0
    if attempt == 1:
        return (1 << nflows) - 1
    if attempt % 3 == 2:
        return None
    return random.Random(attempt).getrandbits(nflows) if nflows else 0
