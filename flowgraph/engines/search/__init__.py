"""The heap-ordered search engine: the project's own solver.

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
constrained head (fewest moves; among equals one that can enter a
fragment, then the one nearest its goal) moves next, and its moves are
tried tightest first (fewest free nodes around the new head). A state
(:class:`~.state.State`) holds the node colours, the links known to be
used between free nodes (below), the heads as an int array, the nodes each
head has left as persistent linked lists (so states share them), and the
counts the score is made of.

Links between free nodes
------------------------
Colours say which flow holds a node; most deductions far from the heads
say something else: that two free nodes are linked by some path whose
flow is not known yet. The state keeps those links
(:mod:`flowgraph.kernels.fragments`): a free node with exactly two possible links uses
both; with the heuristics, the inside nodes the bend walk finds link their
other two neighbours, and the pair test keeps a node's known links. Linked
free nodes form fragments; a node with two known links takes no other, a
link that would close a loop kills the state, and a head that enters a
fragment runs along it to its other end. The other rules see fragment
nodes as free nodes, which only weakens them. On an empty 50x50 board the
corners alone fix nested L-shaped fragments down every diagonal to the
first endpoint (962 links on ``inputs10_009`` before the first decision).
Among heads with equally few moves the search branches first on one that
can enter a fragment, so which flow takes a fragment is settled early.
What the links gained is measured in docs/benchmarks.md ("The search
alone, third stop: links between free cells").

Run times of one ordering are heavy-tailed (a puzzle takes 20 states with
one choice of ends and more than 10,000 with the other), so :func:`solve`
restarts: the first attempt may expand ``FIRST_ATTEMPT_STATES`` states (with
the discrepancy cost most boards never need more), attempt ``i > 0``
``RESTART_STATES << i // 2``. The first grows every flow from its default
end, the second from the other end, every third both ends, the rest from a
seeded random choice per flow. On boards of 400 nodes or more the first
grows both ends (with a discrepancy cost of 48 cells) and the second, with
a quota of ``BIG_SECOND_ATTEMPT_STATES`` states, the
default ends: measured on the 40x20 and janko boards (see :func:`.heap._flips`). Only an attempt that exhausts its space
counts as a proof (Gomes, Selman and Kautz, "Boosting combinatorial search
through randomization", AAAI 1998).

Prunings
--------
Sound (they follow from the rules, so they may prove "no solution"):

* **forced moves** — a head with one way out moves there; a free node
  whose only two possible links include a head is taken by that head.
  Chains of forced moves are applied without going through the heap.
* **dead ends** — a free node with fewer than two possible links (free
  neighbours with a link to spare, heads, and its known links); a head
  with no move at all.
* **closed loops** — a link between free nodes that would close their
  fragment into a loop, or give a node a third link.
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
  test; it rarely fires after the cut-node tests and costs about as little.
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
  it is stated over 4-cycles, see :func:`flowgraph.kernels.bends.bend_pass`).
  It is checked on every node whose links a move completes, on every
  move a head could make (a loose turn is no move, so more moves are
  forced), on every free node left with just two possible links (a
  corner of the free space must bend around an endpoint too), and on the
  three pairs of links a free node with three possible links could have:
  when every pair left shares a head, that head takes the node (so a head
  runs straight along a wall where turning off it would be loose). A free
  inside node the walk finds must link a head: that head's one open link
  goes there, a forced move; a free one is linked (see above). Near a
  new link between free nodes, the fragments on both sides may not touch
  each other either (:func:`flowgraph.kernels.fragments.chord_near`). These tests
  solve the hard janko boards (docs/benchmarks.md, "Design measurements").

When a search with the heuristics on exhausts its space, :func:`~.heap.solve`
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
:mod:`flowgraph.kernels`, one module per rule; :mod:`.heap` keeps the heap, the
branching and the budgets, :mod:`.state` the state, :mod:`.board` the
puzzle as int arrays, :mod:`.prune` the debugging entry
:func:`prune_reason`. Most of the time goes to the one compiled call per
child state (:func:`flowgraph.kernels.settle.move_pass`: the move, the forced moves
and links, the region pass, the chokepoints), most of that to the region
pass (profiles: docs/benchmarks.md, "Design measurements").
"""

from ...kernels import warm_up
from ...model import Limits
from .board import BoardArrays, compile_puzzle
from .heap import RULES, TRACES, solve
from .prune import prune_reason

__all__ = ["RULES", "TRACES", "solve", "warm_up", "prune_reason", "Limits", "compile_puzzle", "BoardArrays"]
