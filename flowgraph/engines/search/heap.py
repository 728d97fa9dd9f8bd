"""The heap-ordered search engine.

States are kept on a heap (``heapq``) as ``(score, tie, state)``. The
score is A*-like: branching decisions made so far plus open cells (forced
moves cost nothing), plus a cost for every step away from the preferred
move (the sibling's rank, see below), then solved flows; ties go to the
newest state, so the search dives depth first among equals. The rank cost
makes it a limited discrepancy search (Harvey and Ginsberg, IJCAI 1995):
a state that took the second-best move early waits until the dive below
the best move has gone about ``DISCREPANCY_CELLS`` cells deeper than it,
instead of until that whole subtree is exhausted, which is what undoes an
early wrong path. It runs unchanged on square, hex, warped and bridged
boards: the engine sees only the cell graph, turned once per solve into
int-indexed adjacency.

Each flow grows from one endpoint, the one with fewer neighbours (nearer
the boundary); the other is its goal, and a flow is finished when its head
reaches the goal. Forced moves may extend either end. The flow moved by the
last decision keeps moving until it is finished; otherwise the most
constrained head (fewest moves) moves next, and its moves are tried
tightest first (fewest free nodes around the new head). A state is a
``bytearray`` of node colours (``0`` free, ``k + 1`` for flow ``k``, plus
the ``ACTIVE`` bit on heads and goals), the paths grown from each end as
persistent linked lists (so states share them), a bitmask of finished
flows, the free-node count, the number of decisions, the last head moved,
the heads as an int array and the discrepancies so far.

Run times of one ordering are heavy-tailed (a puzzle takes 20 states with
one choice of ends and more than 10,000 with the other), so :func:`solve`
restarts: the first attempt may expand ``FIRST_ATTEMPT_NODES`` states (with
the discrepancy cost most boards never need more), attempt ``i > 0``
``RESTART_NODES << i // 2``. The first grows every flow from its default
end, the second from the other end, every third both ends, the rest from a
seeded random choice per flow. Only an attempt that exhausts its space
counts as a proof (Gomes, Selman and Kautz, "Boosting combinatorial search
through randomization", AAAI 1998).

Prunings
--------
Sound (they follow from the rules, so they may prove "no solution"):

* **forced moves** — a head with one way out moves there; a free node
  whose only two possible links include a head is taken by that head.
  Chains of forced moves are applied without going through the heap.
* **dead ends** — a free node with fewer than two possible links (free
  neighbours and heads); a head with no move at all.
* **two flows meet** — a free node whose only two possible links are heads
  of two different flows.
* **stranded regions and flows** — every connected region of free nodes
  must touch both heads of some unfinished flow, and every unfinished flow
  needs such a region (or its heads side by side).
* **bottlenecks and dead pockets** — Tarjan's low-link numbers, in the same
  pass, find the cut nodes of each region. A cut node carries one path, so
  it may not be the only way through for two flows; a side of it that no
  head touches can never be filled (a dead pocket); and the sides that no
  single flow can fill from inside all need the path through the cut node,
  which serves at most two of them.
* **chokepoints** — from the head just moved, walk straight (the next node
  shares no neighbour with the node two steps back but the one between)
  over 2-3 free nodes to a wall, the edge or a path. If removing them
  leaves more unfinished flows cut off from their goal than they have
  nodes, the flows cannot all pass. A generic form of Zucker's chokepoint
  test; it rarely fires after the cut-node tests (21 times in 3,485 walks
  on ``ExtremePack12x12_30``) and costs about as little.
* **parity** — on a bipartite board a path alternates sides, so the cells
  a flow still has to fill are balanced, or have one extra of the side
  opposite its head and goal when those two are on the same side. Each
  region's imbalance must be the sum over the flows it can host.

Heuristic (fast on real levels, *not* sound for the Flow Free rules, where a
path may run beside itself):

* **self-touch** — a head may not step onto a node that touches its own
  path other than at the head it grows from (and its goal); a head beside
  its goal always joins it.
* **loose bends** — what the self-touch rule implies: paths are chordless,
  so the node inside a bend (the fourth node of a 4-cycle through it) is
  an endpoint or a bend of another flow, whose inside is again one, down to
  an endpoint; on a square grid, every bend has an endpoint on its inside
  diagonal (T. Ahle's Numberlink solver uses this on square grids; here
  it is stated over 4-cycles, see :func:`flowgraph.regions.bend_pass`).
  It is checked on every node whose links a move completes, on every
  move a head could make (a loose turn is no move, so more moves are
  forced), on every free node left with just two possible links (a
  corner of the free space must bend around an endpoint too), and on the
  three pairs of links a free node with three possible links could have:
  when every pair left shares a head, that head takes the node (so a head
  runs straight along a wall where turning off it would be loose). A free
  inside node the walk finds must link a head: that head's one open link
  goes there, a forced move. Of the
  56 janko boards the search left unsolved after 60 s each without these
  tests, it solves 49 within 20,000 states each and all 56 within 60 s
  (``janko_049_12x12``: no solution in 1,000,000 states before, now 2).

When a search with the heuristics on exhausts its space, :func:`solve`
searches again with them off before it answers "no solution". The move
ordering, the restarts and the choice of ends lose nothing.

Notes
-----
The ideas follow Matt Zucker, "Flow Free solver" (2016, blog post and the C
program ``flow_solver``): best-first search with cost-to-come plus free
cells, growth from the end nearer a wall, the last colour kept moving,
forced moves, dead-end and stranded-region checks, chokepoints and the
self-touch rule. Here each is stated for an arbitrary graph (the chokepoint
walk uses "straight on" from the graph, the single-cell bottleneck becomes
a cut-node test), so no rule knows the board's geometry.

The per-state work over all nodes (forced moves, dead ends, loose bends,
regions, cut nodes, parity, chokepoints) runs compiled (numba) in
:mod:`flowgraph.regions`; this module keeps the heap, the branching and the
persistent head lists. Where the time goes (pyinstrument, the first attempt
on ``numberlink/janko_150_36x20``, 20,000 states, 2.3 s, about 8,600 states
per second on 720 nodes): about half in the compiled passes, half in this
module's main loop (copying states, the heap, the branching step), handing
states to the compiled code and ordering moves. Before the passes were
compiled, ``ExtremePack12x12_30``'s first 20,000 states took 8.5 s, 70 % of
it in the region pass (1.4 s compiled).
"""

from __future__ import annotations

import heapq
import itertools
import random
import sys
import time
import numpy as np

from ...errors import SearchLimitError, UnsolvableError
from ...model import Limits, Puzzle, Solution
from .board import Board, compile_puzzle
from .passes.chokepoints import chokepoint_pass
from .passes.codes import REASONS
from .passes.moves import head_moves, step_head
from .passes.settle import settle_pass
from .state import AT, COLOR, DECISIONS, DISCREPANCIES, DONE, FREE, HEADS, LAST, _root, _unwind

__all__ = ["solve"]


RESTART_NODES = 1000  # node quota of the second attempt and, doubling every RESTART_GROWTH, the later ones
DISCREPANCY_CELLS = 16  # what one step away from the preferred move costs in the score, in open cells
FIRST_ATTEMPT_NODES = 60000  # node quota of the first attempt (a 10 s limit allows ~100k here)
RESTART_GROWTH = 2
CHOKEPOINT_WIDTH = 3  # widest corridor the chokepoint test walks, as in Zucker's solver


class _Restart(Exception):
    """Raised by a search attempt that used up its node quota."""


class _Dead(Exception):
    """Raised inside state updates when a state cannot lead to a solution."""


class _Search:
    def __init__(
        self, board: Board, heuristic: bool, limits: Limits, t0: float, nodes0: int,
        flips: int = 0, quota: int | None = None,
    ):
        self.adj = board.adj
        self.nflows = len(board.ends)
        self.all_done = (1 << self.nflows) - 1
        self.ptr, self.nbr, self.side, self.ahead = board.ptr, board.nbr, board.side, board.ahead
        self.endpoint = board.endpoint
        self.opts = np.empty(len(board.adj) + 1, np.int64)  # moves found by head_moves
        self.log = np.empty(2 * (len(board.adj) + self.nflows) + 4, np.int64)  # moves made by settle_pass
        # Each flow grows from the endpoint with fewer neighbours (nearer
        # the boundary); the other is its goal. Bit k of ``flips`` swaps them
        # for flow k (restarts try other choices).
        # ``flips`` None: both ends grow, the most constrained head moves.
        self.keep_last = flips is not None
        if flips is None:
            self.grow = tuple(range(2 * len(board.ends)))
        else:
            self.grow = tuple(
                2 * k + ((len(board.adj[b]) < len(board.adj[a])) ^ (flips >> k & 1))
                for k, (a, b) in enumerate(board.ends)
            )
        self.dist = board.dist  # a tie-break for moves
        self.stop_at = None if quota is None else nodes0 + quota
        self.heuristic = heuristic
        self.limits = limits
        self.t0 = t0
        self.nodes = nodes0
        self.pushed = 0
        self.frontier_peak = 0
        # Rough bytes per frontier state: colours, head list, head array, list, heap slot.
        self.state_bytes = (
            sys.getsizeof(bytearray(len(board.nodes))) + 16 * self.nflows
            + sys.getsizeof(np.zeros(2 * self.nflows, np.int64)) + 200
        )

    # -- moves --------------------------------------------------------------
    def moves(self, st: list, slot: int) -> list[int]:
        """Nodes the head in ``slot`` may step to; the other head means "join".

        Compiled: :func:`flowgraph.regions.head_moves` (it states the
        self-touch rule).
        """
        out = self.opts
        count = head_moves(
            np.frombuffer(st[COLOR], np.uint8), self.ptr, self.nbr, st[AT], slot, self.heuristic, self.endpoint, out
        )
        return out[:count].tolist()

    def step(self, st: list, slot: int, v: int) -> None:
        """Move the head in ``slot`` to ``v`` in place (joining the other head finishes the flow)."""
        heads = st[HEADS]
        if v != heads[slot ^ 1][0]:  # a join leaves both lists as they are
            heads[slot] = (v, heads[slot])
        done, free = step_head(np.frombuffer(st[COLOR], np.uint8), st[AT], slot, v, st[DONE], st[FREE])
        st[DONE], st[FREE] = int(done), int(free)

    # -- propagation and pruning ---------------------------------------------
    def settle(self, st: list, touched: list[int] | np.ndarray) -> None:
        """Apply forced moves and run the prunings in place; raise _Dead if hopeless.

        The work is one compiled pass (:func:`flowgraph.regions.settle_pass`:
        forced moves, dead ends, two flows meeting, then
        :func:`~flowgraph.regions.region_pass`); the moves it made are then
        pushed onto the state's persistent head lists.
        """
        heads = st[HEADS]
        at = st[AT]
        log = self.log
        code, done, free, nlog = settle_pass(
            np.frombuffer(st[COLOR], np.uint8), self.ptr, self.nbr, at, st[DONE], st[FREE],
            touched if isinstance(touched, np.ndarray) else np.array(touched, np.int64),
            self.heuristic, self.nflows, self.side, self.endpoint, log,
        )
        if code:
            raise _Dead(REASONS[code])
        if nlog:
            moved = log[:nlog].tolist()
            for i in range(0, nlog, 2):
                slot, v = moved[i], moved[i + 1]
                if v != heads[slot ^ 1][0]:  # a join leaves both lists as they are
                    heads[slot] = (v, heads[slot])
        st[DONE], st[FREE] = int(done), int(free)

    def chokepoints(self, st: list, slot: int) -> None:
        """Corridors of width 2-3 beside the head in ``slot`` (Zucker's chokepoints).

        One compiled pass, :func:`flowgraph.regions.chokepoint_pass`.
        """
        if st[DONE] >> (slot >> 1) & 1:
            return
        code = chokepoint_pass(
            np.frombuffer(st[COLOR], np.uint8), self.ptr, self.nbr, self.ahead, st[AT], st[DONE], self.nflows,
            slot, CHOKEPOINT_WIDTH,
        )
        if code:
            raise _Dead(REASONS[code])

    # -- main loop -----------------------------------------------------------
    def children(self, st: list) -> tuple[int, list[int]]:
        """The head to branch on and its moves.

        The flow moved last keeps moving until it is finished, from
        whichever of its heads has fewer moves; otherwise the most
        constrained head (fewest moves) in the puzzle.
        """
        done = st[DONE]
        best_slot, best = -1, None
        last = st[LAST]
        slots = self.grow
        if self.keep_last and last >= 0 and not done >> (last >> 1) & 1:
            slots = (last,)
        for slot in slots:
            if done >> (slot >> 1) & 1:
                continue
            opts = self.moves(st, slot)
            if best is None or len(opts) < len(best):
                best_slot, best = slot, opts
                if len(opts) <= 1:
                    break
        return best_slot, best or []

    def run(self, root: list) -> list | None:
        """Best-first search from ``root``; the solved state or None."""
        try:
            self.settle(root, list(range(len(root[COLOR]))))  # the first look covers every node
        except _Dead:
            return None
        lim = self.limits
        heap = [(self.score(root), 0, root)]
        counter = itertools.count(1)
        max_frontier = (lim.memory_bytes // self.state_bytes) if lim.memory_bytes else None
        pair = np.empty(2, np.int64)  # the nodes a branching move touched, for settle
        while heap:
            _, _, st = heapq.heappop(heap)
            self.nodes += 1
            if st[DONE] == self.all_done and st[FREE] == 0:
                return st
            if lim.max_nodes is not None and self.nodes > lim.max_nodes:
                raise SearchLimitError("nodes", self.stats())
            if self.stop_at is not None and self.nodes > self.stop_at:
                raise _Restart
            if lim.time_limit_s is not None and self.nodes & 63 == 0:
                if time.perf_counter() - self.t0 > lim.time_limit_s:
                    raise SearchLimitError("time", self.stats())
            slot, opts = self.children(st)
            branching = len(opts) > 1
            kids = []
            for v in opts:
                child = [bytearray(st[COLOR]), list(st[HEADS]), st[DONE], st[FREE], st[DECISIONS] + branching, slot, st[AT].copy()]
                h = child[HEADS][slot][0]
                self.step(child, slot, v)
                try:
                    pair[0] = h
                    pair[1] = v
                    self.settle(child, pair)
                    if branching:
                        self.chokepoints(child, slot)
                except _Dead:
                    continue
                kids.append(child)
            if len(kids) > 1:
                goal = self.dist[slot ^ 1]
                kids.sort(key=lambda child: -(self.room(child, slot) * len(goal) + goal[child[HEADS][slot][0]]))
            # Ties on the heap go to the newest state (depth first), and the
            # tightest move (fewest free nodes around the new head; then the
            # nearest to the goal) is pushed last.
            rank = len(kids)
            for child in kids:
                rank -= 1  # 0 for the preferred move, pushed last
                child.append(st[DISCREPANCIES] + rank)
                self.pushed += 1
                heapq.heappush(heap, (self.score(child), -next(counter), child))
            if len(heap) > self.frontier_peak:
                self.frontier_peak = len(heap)
                if max_frontier is not None and len(heap) > max_frontier:
                    raise SearchLimitError("memory", self.stats())
        return None

    def score(self, st: list) -> int:
        """Lower is better: A*-like cost (decisions so far + open cells), then solved flows.

        Forced moves cost nothing, so states that propagated further come
        first; each step away from the preferred move costs
        ``DISCREPANCY_CELLS`` open cells (on an 88-puzzle sample with
        30,000 states each, solved / states: 0 cells 74 / 510k, 3 cells
        76 / 452k, 8 cells 78 / 410k, 16 cells 79 / 360k, 64 cells
        78 / 392k); among equals, more solved flows win.
        """
        return ((st[DECISIONS] + st[FREE] + DISCREPANCY_CELLS * st[DISCREPANCIES]) << 6) - bin(st[DONE]).count("1")

    def room(self, st: list, slot: int) -> int:
        """Free nodes next to the head in ``slot``."""
        color = st[COLOR]
        return sum(1 for w in self.adj[st[HEADS][slot][0]] if color[w] == 0)

    def stats(self) -> dict:
        return {
            "seconds": round(time.perf_counter() - self.t0, 6),
            "nodes": self.nodes,
            "pushed": self.pushed,
            "frontier_peak": self.frontier_peak,
            "heuristic": self.heuristic,
        }


def solve(puzzle: Puzzle, limits: Limits | None = None, heuristic: bool = True) -> Solution:
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
        up its node quota (see the module notes).

    Returns
    -------
    Solution
        Unverified; callers verify with :func:`flowgraph.verify.verify`.
        ``stats`` has ``seconds``, ``nodes`` (states expanded, all passes
        and attempts), ``pushed`` and ``frontier_peak`` (of the last
        attempt), ``heuristic`` (whether the answer came from the heuristic
        pass) and ``restarts``.

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
    nodes = restarts = 0
    for mode in ((True, False) if heuristic else (False,)):
        for attempt in itertools.count():
            search = _Search(board, mode, limits, t0, nodes, _flips(attempt, len(board.ends)), _quota(attempt))
            try:
                final = search.run(_root(board))
            except _Restart:
                nodes = search.nodes
                restarts += 1
                continue
            except SearchLimitError as err:
                err.stats["restarts"] = restarts
                raise
            break
        nodes = search.nodes
        if final is not None:
            paths = {}
            for k, flow in enumerate(puzzle.flows):
                first = list(_unwind(final[HEADS][2 * k]))
                first.reverse()
                path = first + list(_unwind(final[HEADS][2 * k + 1]))
                paths[flow.label] = tuple(board.nodes[i] for i in path)
            return Solution(puzzle, paths, "search", {**search.stats(), "restarts": restarts})
    raise UnsolvableError("no solution: the search space is exhausted", {**search.stats(), "restarts": restarts})


def _quota(attempt: int) -> int:
    """States attempt ``attempt`` may expand before the next restart."""
    if attempt == 0:
        return FIRST_ATTEMPT_NODES
    return RESTART_NODES << attempt // RESTART_GROWTH


def _flips(attempt: int, nflows: int) -> int | None:
    """Which flows grow from their other end in this attempt (a bitmask).

    None: every third attempt from the third on grows both ends of every
    flow and moves the most constrained head, a different enough search to
    rescue puzzles that the one-ended attempts find hard.
    """
    if attempt == 0:
        return 0
    if attempt == 1:
        return (1 << nflows) - 1
    if attempt % 3 == 2:
        return None
    return random.Random(attempt).getrandbits(nflows) if nflows else 0
