"""Regions of free nodes and their cut nodes: stranded regions and flows, parity, dead pockets, bottlenecks.

One depth-first pass over the free nodes (:func:`free_regions`) finds the
connected free regions and, with Tarjan's low-link numbers, their cut
nodes and the sides each cut node separates. Each rule is then a small
function over what that pass found:

* :func:`region_pass` — each region must touch both heads of some
  unfinished flow (else a stranded region); each flow whose heads are not
  side by side needs such a region (else a stranded flow);
* :func:`parity` — on a bipartite board a path alternates sides, so each
  region's colour imbalance must be what the flows it can host can make;
* :func:`cut_nodes` — a side no head touches can never be filled (a dead
  pocket); the sides no single flow can fill from inside all need the one
  path through the cut node, which serves at most two (a bottleneck), and
  two flows that depend on one region and cross the node both need it.

Touch masks are int64 bitmasks of flows: bit ``k`` of ``own0[v]`` says
that slot ``2k``'s head (the end grown from ``flow.ends[0]``) is next to
``v``; ``own1`` the same for slot ``2k + 1``. A flow can fill a set of
nodes from inside when the set touches both of its heads.

Notes
-----
Cut nodes by low-link numbers: R. Tarjan, "Depth-first search and linear
graph algorithms", SIAM J. Computing 1(2), 1972.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .codes import BOTTLENECK, DEAD_POCKET, PARITY, STRANDED_FLOW, STRANDED_REGION
from .common import heads_beside, popcount
from .fragments import full
from .jit import njit, njit_borrowed

__all__ = ["region_pass", "head_touches", "free_regions", "parity", "cut_nodes", "CutTree", "Regions"]

#: What the depth-first pass learns, per free node (arrays of length n).
CutTree = namedtuple("CutTree", [
    "disc",        # discovery index, -1 for nodes not free
    "low",         # Tarjan's low-link number
    "fin",         # discovery index just after the node's subtree
    "node_at",     # discovery index -> node
    "sub0", "sub1",    # touch masks over the node's subtree
    "join0", "join1",  # touch masks over the child subtrees still joined above the node
    # The sides a cut node separates (child subtrees), as linked lists per
    # cut node: touch masks, next side, and each cut node's first and last.
    "side0", "side1", "side_next", "first_side", "last_side",
    "cuts",        # the cut nodes, in the order of their first side
])

#: Per region (arrays of length n, the first ``count`` used).
Regions = namedtuple("Regions", [
    "start", "end",    # its range of discovery indices
    "both",            # the flows that can fill it from inside
    "cut0", "cut1",    # its range in ``CutTree.cuts``
])


@njit(cache=True)
def region_pass(color, link, ptr, nbr, heads, done, nflows, side):  # pragma: no cover - compiled
    """Stranded regions and flows, parity, dead pockets and bottlenecks.

    Regions are joined by the links a path may still use: between two
    free nodes, a link known to be used, or one between nodes that both
    have a link to spare (:mod:`.fragments`). A fragment is thus a corridor,
    entered only at its ends, not open ground: the regions on its two
    sides are apart.

    Parameters
    ----------
    color : ndarray of uint8, shape (n,)
        Node colours (:mod:`.codes`).
    link : ndarray of uint8, shape (n,)
        Links known to be used (:mod:`.fragments`).
    ptr, nbr : ndarray of int64
        The adjacency as CSR arrays (:func:`flowgraph.engines.search.board.csr`).
    heads : ndarray of int64, shape (2 * nflows,)
        The head of every slot (flow ``k``: ``2k``, ``2k + 1``).
    done : int
        Bitmask of finished flows.
    nflows : int
    side : ndarray of int8, shape (n,) or (0,)
        Side (0 or 1) of every node on a bipartite board; empty if not.

    Returns
    -------
    int
        0 if the state survives, else a reason code (:data:`.codes.REASONS`).
    """
    own0, own1, need, pos, neg = head_touches(link, ptr, nbr, heads, done, nflows, side)
    tree, regions, nreg = free_regions(color, link, ptr, nbr, own0, own1)
    served = 0  # flows some region can host
    served_twice = 0  # flows two regions or more can host
    for r in range(nreg):
        both = regions.both[r]
        if both == 0:
            return STRANDED_REGION  # no flow can fill it
        served_twice |= served & both
        served |= both
    if need & ~served:
        return STRANDED_FLOW  # no region joins its two heads
    if side.shape[0] > 0 and not parity(side, tree.node_at, regions, nreg, served_twice, pos, neg):
        return PARITY
    return cut_nodes(own0, own1, tree, regions, nreg, need & served & ~served_twice)


@njit(cache=True)
def head_touches(link, ptr, nbr, heads, done, nflows, side):  # pragma: no cover - compiled
    """The touch masks of every node and the flows' needs.

    A node with two known links (:mod:`.fragments`) touches no head: it has no
    link left to give one.

    Returns
    -------
    own0, own1 : ndarray of int64, shape (n,)
        Flows whose slot-0 (slot-1) head is next to the node.
    need : int
        Unfinished flows whose heads are not side by side.
    pos, neg : int
        On a bipartite board, unfinished flows whose remaining path has one
        more node of side 1 (both heads on side 0), or of side 0.
    """
    n = ptr.shape[0] - 1
    own0 = np.zeros(n, np.int64)
    own1 = np.zeros(n, np.int64)
    need = np.int64(0)
    pos = np.int64(0)
    neg = np.int64(0)
    one = np.int64(1)
    for k in range(nflows):
        if (done >> k) & 1:
            continue
        a = heads[2 * k]
        b = heads[2 * k + 1]
        bit = one << k
        for i in range(ptr[a], ptr[a + 1]):
            if not full(link, nbr[i]):
                own0[nbr[i]] |= bit
        for i in range(ptr[b], ptr[b + 1]):
            if not full(link, nbr[i]):
                own1[nbr[i]] |= bit
        if not heads_beside(ptr, nbr, a, b):
            need |= bit
        if side.shape[0] > 0 and side[a] == side[b]:
            if side[a]:
                neg |= bit
            else:
                pos |= bit
    return own0, own1, need, pos, neg


@njit(cache=True)
def free_regions(color, link, ptr, nbr, own0, own1):  # pragma: no cover - compiled
    """The free regions and their cut nodes, by one iterative depth-first pass.

    Over the links a path may still use (see :func:`region_pass`).

    Returns
    -------
    tree : CutTree
    regions : Regions
    count : int
        The number of regions.
    """
    n = color.shape[0]
    # Only ``disc`` is filled beforehand: the pass sets a node's other
    # entries when it discovers it (filling all 14 arrays cost a third of
    # the pass on a 36x20 board).
    tree = CutTree(
        np.full(n, -1, np.int64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
        np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
        np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
        np.empty(n, np.int64), np.empty(n, np.int64),
    )
    regions = Regions(
        np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
        np.empty(n, np.int64),
    )
    stack = np.empty((3, n), np.int64)  # node, parent, next link to look at
    nreg = 0
    order = 0
    nside = 0
    ncut = 0
    for s in range(n):
        if color[s] != 0 or tree.disc[s] >= 0:
            continue
        regions.start[nreg] = order
        regions.cut0[nreg] = ncut
        order, nside, ncut = _explore(color, link, ptr, nbr, own0, own1, tree, stack, s, order, nside, ncut)
        regions.end[nreg] = order
        regions.cut1[nreg] = ncut
        regions.both[nreg] = tree.sub0[s] & tree.sub1[s]
        nreg += 1
    return tree, regions, nreg


@njit(cache=True)
def _discover(t, v, order):  # pragma: no cover - compiled
    """Number ``v`` and start its entries: no subtree, no sides yet."""
    t.disc[v] = order
    t.low[v] = order
    t.node_at[order] = v
    t.sub0[v] = 0
    t.sub1[v] = 0
    t.join0[v] = 0
    t.join1[v] = 0
    t.first_side[v] = -1


@njit(cache=True)
def _explore(color, link, ptr, nbr, own0, own1, t, stack, s, order, nside, ncut):  # pragma: no cover - compiled
    """Tarjan's depth-first pass over the region of ``s``; returns the counters after it."""
    _discover(t, s, order)
    order += 1
    sp = 0
    stack[0, 0] = s
    stack[1, 0] = -1
    stack[2, 0] = ptr[s]
    while sp >= 0:
        v = stack[0, sp]
        parent = stack[1, sp]
        i = stack[2, sp]
        descended = False
        vfull = full(link, v)
        while i < ptr[v + 1]:
            w = nbr[i]
            known = (link[v] >> (i - ptr[v])) & 1
            i += 1
            if color[w] != 0:
                continue
            if not known and (vfull or full(link, w)):
                continue  # a link no path can use any more
            d = t.disc[w]
            if d < 0:
                _discover(t, w, order)
                order += 1
                stack[2, sp] = i
                sp += 1
                stack[0, sp] = w
                stack[1, sp] = v
                stack[2, sp] = ptr[w]
                descended = True
                break
            if d < t.low[v] and w != parent:
                t.low[v] = d
        if descended:
            continue
        sp -= 1
        t.fin[v] = order
        m0 = t.sub0[v] | own0[v]
        m1 = t.sub1[v] | own1[v]
        t.sub0[v] = m0
        t.sub1[v] = m1
        if parent < 0:
            continue
        # Fold v's finished subtree into its parent: a side of a cut node, or joined above.
        if t.low[v] < t.low[parent]:
            t.low[parent] = t.low[v]
        if t.low[v] >= t.disc[parent]:  # nothing below v reaches above parent: a side of parent
            t.side0[nside] = m0
            t.side1[nside] = m1
            t.side_next[nside] = -1
            if t.first_side[parent] < 0:
                t.first_side[parent] = nside
                t.cuts[ncut] = parent
                ncut += 1
            else:
                t.side_next[t.last_side[parent]] = nside
            t.last_side[parent] = nside
            nside += 1
        else:
            t.join0[parent] |= m0
            t.join1[parent] |= m1
        t.sub0[parent] |= m0
        t.sub1[parent] |= m1
    return order, nside, ncut


@njit(cache=True)
def parity(side, node_at, regions, nreg, served_twice, pos, neg):  # pragma: no cover - compiled
    """Whether every region's colour imbalance can be made by the flows it can host.

    A region's imbalance is its side-1 nodes minus its side-0 nodes. A flow
    in ``pos`` (``neg``) adds +1 (-1) to the region its path fills, any
    other flow 0; flows only this region can host must be counted, flows
    others can host may be.
    """
    for r in range(nreg):
        imb = 0
        for j in range(regions.start[r], regions.end[r]):
            imb += 2 * side[node_at[j]] - 1
        both = regions.both[r]
        mine = both & ~served_twice  # flows no other region can host
        opt = both & served_twice
        forced = popcount(mine & pos) - popcount(mine & neg)
        if imb < forced - popcount(opt & neg) or imb > forced + popcount(opt & pos):
            return False
    return True


@njit(cache=True)
def cut_nodes(own0, own1, t, regions, nreg, only):  # pragma: no cover - compiled
    """Dead pockets and bottlenecks at every cut node.

    ``only`` holds the flows that depend on a single region.

    Returns
    -------
    int
        0, or the dead-pocket or bottleneck code.
    """
    n = own0.shape[0]
    # Prefix and suffix ORs in discovery order give the touch masks of
    # "everything outside this subtree" in O(1) per cut node.
    outside = np.empty((4, n + 1), np.int64)  # pre0, pre1, suf0, suf1
    outside[0, 0] = 0
    outside[1, 0] = 0
    for r in range(nreg):
        if regions.cut1[r] == regions.cut0[r]:
            continue
        start = regions.start[r]
        m = regions.end[r] - start
        for j in range(m):
            v = t.node_at[start + j]
            outside[0, j + 1] = outside[0, j] | own0[v]
            outside[1, j + 1] = outside[1, j] | own1[v]
        outside[2, m] = 0
        outside[3, m] = 0
        for j in range(m - 1, -1, -1):
            v = t.node_at[start + j]
            outside[2, j] = outside[2, j + 1] | own0[v]
            outside[3, j] = outside[3, j + 1] | own1[v]
        flows = only & regions.both[r]
        root = t.node_at[start]
        for c in range(regions.cut0[r], regions.cut1[r]):
            code = _cut_node(t, t.cuts[c], root, start, flows, outside)
            if code:
                return code
    return 0


@njit_borrowed
def _cut_node(t, v, root, start, flows, outside):  # pragma: no cover - compiled
    """The rules at one cut node ``v`` of the region whose depth-first root is ``root``."""
    nsides = 0
    needy = 0  # sides no single flow can fill from inside
    crossing = flows  # flows that must pass v
    j = t.first_side[v]
    while j >= 0:
        a = t.side0[j]
        b = t.side1[j]
        nsides += 1
        if a & b == 0:
            if a | b == 0 and v != root:
                return DEAD_POCKET  # nothing can enter and leave it
            needy += 1
        crossing &= ~(a & b)
        j = t.side_next[j]
    if v == root:
        if nsides < 2:
            return 0  # a depth-first root is a cut node only with two children
        j = t.first_side[v]
        while j >= 0:
            if t.side0[j] | t.side1[j] == 0:
                return DEAD_POCKET
            j = t.side_next[j]
    else:
        # The side above v: everything in the region outside v's subtree.
        lo = t.disc[v] - start
        hi = t.fin[v] - start
        a = outside[0, lo] | outside[2, hi] | t.join0[v]
        b = outside[1, lo] | outside[3, hi] | t.join1[v]
        if a & b == 0:
            if a | b == 0:
                return DEAD_POCKET
            needy += 1
        crossing &= ~(a & b)
    if needy > 2:
        return BOTTLENECK  # one path through v serves at most two sides
    if flows & (flows - 1) and crossing & (crossing - 1):
        return BOTTLENECK  # two flows must pass the same node
    return 0
