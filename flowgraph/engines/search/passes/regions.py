"""Global prunings over the free cells, compiled with numba.

The search spends most of its time here: every settled state needs one
pass over all free nodes. The pass is written over plain int arrays (the
adjacency in CSR form, the colour bytes, the head of every slot) so that
numba compiles it to machine code; the compiled code is cached beside the
module, so only the first run on a machine pays the compile (a few
seconds).

Functions return a reason code, 0 when the state survives; :data:`REASONS`
turns a code into the words :func:`flowgraph.search.prune_reason` reports.

Notes
-----
Regions and cut nodes come from one iterative depth-first pass with
Tarjan's low-link numbers (R. Tarjan, "Depth-first search and linear graph
algorithms", SIAM J. Computing 1(2), 1972). Flow sets are int64 bitmasks,
so a board has at most 63 flows (the colour byte's limit too).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "REASONS", "ACTIVE", "FLOW", "csr", "straight_links", "head_moves", "step_head", "settle_pass", "region_pass",
    "chokepoint_pass", "corridor_pass", "bend_pass",
]

#: Reason code -> the words prune_reason reports (0: the state survives).
REASONS = (
    None, "stranded region", "stranded flow", "parity", "dead pocket", "bottleneck", "chokepoint",
    "no moves", "dead end", "two flows meet", "unfilled cells", "loose bend",
)
(
    _STRANDED_REGION, _STRANDED_FLOW, _PARITY, _DEAD_POCKET, _BOTTLENECK, _CHOKEPOINT,
    _NO_MOVES, _DEAD_END, _TWO_FLOWS_MEET, _UNFILLED, _LOOSE_BEND,
) = range(1, 12)
_MAX_PAIRED = 4  # free nodes with up to this many possible links get the pair test (3: more states, same time)
ACTIVE = 0x40  # colour bit: head or goal of an unfinished flow
FLOW = 0x3F  # colour bits: flow index + 1


def csr(adj: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Adjacency lists as CSR arrays.

    Parameters
    ----------
    adj : tuple of tuple of int
        Node -> neighbour indices, for ``n`` nodes.

    Returns
    -------
    ptr : ndarray of int64, shape (n + 1,)
        Node ``v``'s neighbours are ``nbr[ptr[v]:ptr[v + 1]]``.
    nbr : ndarray of int64, shape (sum of degrees,)
    """
    ptr = np.zeros(len(adj) + 1, np.int64)
    for v, around in enumerate(adj):
        ptr[v + 1] = ptr[v] + len(around)
    nbr = np.fromiter((w for around in adj for w in around), np.int64, int(ptr[-1]))
    return ptr, nbr


def straight_links(ptr: np.ndarray, nbr: np.ndarray, straight: dict[tuple[int, int], int]) -> np.ndarray:
    """The straight-on map aligned with ``nbr``.

    Parameters
    ----------
    ptr, nbr : ndarray of int64
        The adjacency (:func:`csr`).
    straight : dict of (int, int) -> int
        ``(p, u) -> w``, the node straight on from ``p`` through ``u``.

    Returns
    -------
    ndarray of int64, shape (len(nbr),)
        At index ``i`` in ``u``'s neighbours (``nbr[i] == p``), the node
        straight on from ``p`` through ``u``, or -1.
    """
    out = np.full(nbr.shape[0], -1, np.int64)
    for u in range(ptr.shape[0] - 1):
        for i in range(ptr[u], ptr[u + 1]):
            out[i] = straight.get((int(nbr[i]), u), -1)
    return out


@njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def region_pass(color, ptr, nbr, heads, done, nflows, par):  # pragma: no cover - compiled
    """Stranded regions and flows, parity, dead pockets and bottlenecks.

    One depth-first pass over the free nodes finds the connected free
    regions and, with Tarjan's low-link numbers, their cut nodes. Each
    region must touch both heads of some unfinished flow; each flow whose
    heads are not side by side needs such a region. On a bipartite board
    (``par`` not empty) a path alternates sides, so the path a flow still
    has to lay has as many cells of each side, or one more of the side
    opposite its heads when both heads are on the same side; a region's
    imbalance (side-1 cells minus side-0 cells) must be the sum over the
    flows it hosts. A cut node splits its region into sides: a side no head
    touches can never be filled (a dead pocket); a side no single flow can
    fill from inside must be entered through the cut node, and its one path
    serves at most two such sides; two flows that depend on this region
    alone and have heads on different sides both need the node (a
    bottleneck).

    Parameters
    ----------
    color : ndarray of uint8, shape (n,)
        0 for a free node, else flow index + 1 (bit 0x40 on heads).
    ptr, nbr : ndarray of int64
        The adjacency (:func:`csr`).
    heads : ndarray of int64, shape (2 * nflows,)
        The head of every slot (flow ``k``: ``2k``, ``2k + 1``).
    done : int
        Bitmask of finished flows.
    nflows : int
    par : ndarray of int8, shape (n,) or (0,)
        Side (0 or 1) of every node on a bipartite board; empty if not.

    Returns
    -------
    int
        0 if the state survives, else a code of :data:`REASONS`.
    """
    n = color.shape[0]
    has_par = par.shape[0] > 0
    own0 = np.zeros(n, np.int64)  # flows whose slot-0 head touches the node
    own1 = np.zeros(n, np.int64)
    need = 0  # unfinished flows whose heads are not side by side
    pos = 0  # flows whose remaining path has one more cell of side 1
    neg = 0  # ... of side 0
    one = np.int64(1)
    for k in range(nflows):
        if (done >> k) & 1:
            continue
        a = heads[2 * k]
        b = heads[2 * k + 1]
        bit = one << k
        beside = False
        for i in range(ptr[a], ptr[a + 1]):
            u = nbr[i]
            own0[u] |= bit
            if u == b:
                beside = True
        for i in range(ptr[b], ptr[b + 1]):
            own1[nbr[i]] |= bit
        if not beside:
            need |= bit
        if has_par and par[a] == par[b]:
            if par[a]:
                neg |= bit
            else:
                pos |= bit

    disc = np.full(n, -1, np.int64)
    low = np.zeros(n, np.int64)
    fin = np.zeros(n, np.int64)
    node_at = np.zeros(n, np.int64)  # discovery order -> node
    sub0 = np.zeros(n, np.int64)  # touch masks over the node's DFS subtree
    sub1 = np.zeros(n, np.int64)
    join0 = np.zeros(n, np.int64)  # over child subtrees still joined above the node
    join1 = np.zeros(n, np.int64)
    stack_v = np.empty(n, np.int64)
    stack_p = np.empty(n, np.int64)
    stack_i = np.empty(n, np.int64)
    # Child subtrees a cut node separates, as linked lists per cut node;
    # cut nodes listed in the order of their first such child.
    rec0 = np.empty(n, np.int64)
    rec1 = np.empty(n, np.int64)
    rec_next = np.full(n, -1, np.int64)
    first_rec = np.full(n, -1, np.int64)
    last_rec = np.full(n, -1, np.int64)
    cuts = np.empty(n, np.int64)
    nrec = 0
    ncut = 0
    # Per region: its range of discovery indices, the flows able to host
    # it, its range in ``cuts``, its colour imbalance.
    reg_start = np.empty(n, np.int64)
    reg_end = np.empty(n, np.int64)
    reg_both = np.empty(n, np.int64)
    reg_cut0 = np.empty(n, np.int64)
    reg_cut1 = np.empty(n, np.int64)
    reg_imb = np.empty(n, np.int64)
    nreg = 0
    served = 0
    served_twice = 0
    order = 0
    for s in range(n):
        if color[s] != 0 or disc[s] >= 0:
            continue
        start = order
        cut0 = ncut
        disc[s] = order
        low[s] = order
        node_at[order] = s
        order += 1
        sp = 0
        stack_v[0] = s
        stack_p[0] = -1
        stack_i[0] = ptr[s]
        while sp >= 0:
            v = stack_v[sp]
            parent = stack_p[sp]
            i = stack_i[sp]
            end = ptr[v + 1]
            descended = False
            while i < end:
                w = nbr[i]
                i += 1
                if color[w] == 0:
                    d = disc[w]
                    if d < 0:
                        disc[w] = order
                        low[w] = order
                        node_at[order] = w
                        order += 1
                        stack_i[sp] = i
                        sp += 1
                        stack_v[sp] = w
                        stack_p[sp] = v
                        stack_i[sp] = ptr[w]
                        descended = True
                        break
                    if d < low[v] and w != parent:
                        low[v] = d
            if descended:
                continue
            sp -= 1
            fin[v] = order
            m0 = sub0[v] | own0[v]
            m1 = sub1[v] | own1[v]
            sub0[v] = m0
            sub1[v] = m1
            if parent >= 0:
                if low[v] < low[parent]:
                    low[parent] = low[v]
                if low[v] >= disc[parent]:
                    rec0[nrec] = m0
                    rec1[nrec] = m1
                    if first_rec[parent] < 0:
                        first_rec[parent] = nrec
                        cuts[ncut] = parent
                        ncut += 1
                    else:
                        rec_next[last_rec[parent]] = nrec
                    last_rec[parent] = nrec
                    nrec += 1
                else:
                    join0[parent] |= m0
                    join1[parent] |= m1
                sub0[parent] |= m0
                sub1[parent] |= m1
        both = sub0[s] & sub1[s]
        if both == 0:
            return _STRANDED_REGION  # no flow can fill it
        served_twice |= served & both
        served |= both
        imb = 0
        if has_par:
            for j in range(start, order):
                imb += 2 * par[node_at[j]] - 1
        reg_start[nreg] = start
        reg_end[nreg] = order
        reg_both[nreg] = both
        reg_cut0[nreg] = cut0
        reg_cut1[nreg] = ncut
        reg_imb[nreg] = imb
        nreg += 1
    if need & ~served:
        return _STRANDED_FLOW  # no region joins its two heads

    if has_par:
        for r in range(nreg):
            both = reg_both[r]
            mine = both & ~served_twice  # flows no other region can host
            opt = both & served_twice
            forced = _popcount(mine & pos) - _popcount(mine & neg)
            d = reg_imb[r]
            if d < forced - _popcount(opt & neg) or d > forced + _popcount(opt & pos):
                return _PARITY

    only = need & served & ~served_twice  # flows that depend on one region
    pre0 = np.zeros(n + 1, np.int64)
    pre1 = np.zeros(n + 1, np.int64)
    suf0 = np.zeros(n + 1, np.int64)
    suf1 = np.zeros(n + 1, np.int64)
    for r in range(nreg):
        if reg_cut1[r] == reg_cut0[r]:
            continue
        start = reg_start[r]
        m = reg_end[r] - start
        # Prefix and suffix ORs in discovery order give the touch masks of
        # "everything outside this subtree" in O(1) per cut node.
        for j in range(m):
            v = node_at[start + j]
            pre0[j + 1] = pre0[j] | own0[v]
            pre1[j + 1] = pre1[j] | own1[v]
        suf0[m] = 0
        suf1[m] = 0
        for j in range(m - 1, -1, -1):
            v = node_at[start + j]
            suf0[j] = suf0[j + 1] | own0[v]
            suf1[j] = suf1[j + 1] | own1[v]
        flows = only & reg_both[r]
        root = node_at[start]
        for c in range(reg_cut0[r], reg_cut1[r]):
            v = cuts[c]
            nsides = 0
            needy = 0
            crossing = flows
            j = first_rec[v]
            while j >= 0:
                a = rec0[j]
                b = rec1[j]
                nsides += 1
                if a & b == 0:
                    if a | b == 0:
                        if v != root:
                            return _DEAD_POCKET  # nothing can enter and leave it
                    needy += 1
                crossing &= ~(a & b)
                j = rec_next[j]
            if v == root:
                if nsides < 2:
                    continue  # a DFS root is a cut node only with two children
                j = first_rec[v]
                while j >= 0:
                    if rec0[j] | rec1[j] == 0:
                        return _DEAD_POCKET
                    j = rec_next[j]
            else:
                lo = disc[v] - start
                hi = fin[v] - start
                a = pre0[lo] | suf0[hi] | join0[v]
                b = pre1[lo] | suf1[hi] | join1[v]
                if a & b == 0:
                    if a | b == 0:
                        return _DEAD_POCKET
                    needy += 1
                crossing &= ~(a & b)
            if needy > 2:
                return _BOTTLENECK  # one path through v serves at most two sides
            if flows & (flows - 1) and crossing & (crossing - 1):
                return _BOTTLENECK  # two flows must pass the same node
    return 0


@njit(cache=True)
def chokepoint_pass(color, ptr, nbr, ahead, heads, done, nflows, slot, widest):  # pragma: no cover - compiled
    """Corridors of width 2 to ``widest`` beside the head in ``slot``.

    From the head, walk straight (:func:`straight_links`) over free nodes
    until the walk meets a wall, the edge or a path; each walk of 2 to
    ``widest`` nodes is a corridor checked by :func:`corridor_pass`.

    Returns
    -------
    int
        0 if the state survives, else the chokepoint code of :data:`REASONS`.
    """
    h = heads[slot]
    line = np.empty(widest + 1, np.int64)
    for i in range(ptr[h], ptr[h + 1]):
        u = nbr[i]
        if color[u] != 0:
            continue
        line[0] = u
        width = 1
        p = h
        while width <= widest:
            w = -1
            for j in range(ptr[u], ptr[u + 1]):
                if nbr[j] == p:
                    w = ahead[j]
                    break
            if w < 0 or color[w] != 0:  # the walk is blocked
                if width > 1 and corridor_pass(color, ptr, nbr, heads, done, nflows, line[:width]):
                    return _CHOKEPOINT
                break
            line[width] = w
            width += 1
            p = u
            u = w
    return 0


@njit(cache=True)
def corridor_pass(color, ptr, nbr, heads, done, nflows, line):  # pragma: no cover - compiled
    """Whether removing the corridor ``line`` strands more flows than it has nodes.

    Parameters
    ----------
    color, ptr, nbr, heads, done, nflows
        As for :func:`region_pass`.
    line : ndarray of int64, shape (w,)
        Free nodes across a corridor, ``w`` its width.

    Returns
    -------
    int
        0 if the state survives, else the chokepoint code of :data:`REASONS`.
    """
    width = line.shape[0]
    pending = 0
    for k in range(nflows):
        if not (done >> k) & 1:
            a = heads[2 * k]
            b = heads[2 * k + 1]
            beside = False
            for i in range(ptr[a], ptr[a + 1]):
                if nbr[i] == b:
                    beside = True
            if not beside:
                pending += 1
    if pending <= width:
        return 0
    n = color.shape[0]
    label = np.zeros(n, np.int64)
    for v in line:
        label[v] = -1
    todo = np.empty(n, np.int64)
    region = 0
    stranded = 0
    for k in range(nflows):
        if (done >> k) & 1:
            continue
        a = heads[2 * k]
        b = heads[2 * k + 1]
        beside = False
        for i in range(ptr[a], ptr[a + 1]):
            if nbr[i] == b:
                beside = True
        if beside:
            continue
        # Label the regions around head a (flood fill), then look for one at b.
        for i in range(ptr[a], ptr[a + 1]):
            s = nbr[i]
            if color[s] == 0 and label[s] == 0:
                region += 1
                label[s] = region
                top = 0
                todo[0] = s
                while top >= 0:
                    x = todo[top]
                    top -= 1
                    for j in range(ptr[x], ptr[x + 1]):
                        y = nbr[j]
                        if color[y] == 0 and label[y] == 0:
                            label[y] = region
                            top += 1
                            todo[top] = y
        joined = False
        for i in range(ptr[b], ptr[b + 1]):
            s = nbr[i]
            if color[s] == 0 and label[s] > 0:
                for j in range(ptr[a], ptr[a + 1]):
                    t = nbr[j]
                    if color[t] == 0 and label[t] == label[s]:
                        joined = True
        if not joined:
            stranded += 1
            if stranded > width:
                return _CHOKEPOINT
    return 0


@njit(cache=True)
def head_moves(color, ptr, nbr, heads, slot, heuristic, endpoint, out):  # pragma: no cover - compiled
    """How many moves the head in ``slot`` has; the moves go to ``out``.

    A move is a free neighbour, or the other head of the flow (a join).
    With ``heuristic`` (the self-touch rule) a free node that touches the
    flow's own path other than at this head and the other head is no move,
    nor is one that would make the head a loose bend (:func:`bend_pass`),
    and a head beside the other head has that join as its only move.

    Returns
    -------
    int
        The number of moves, written to ``out[:count]`` in neighbour order
        (``out`` needs room for the head's degree).
    """
    h = heads[slot]
    other = heads[slot ^ 1]
    mine = (slot >> 1) + 1
    count = 0
    back = -1  # the node before the head, if the head is no endpoint
    scratch = np.zeros(2, np.int64)  # a move is only tried: record nothing
    if heuristic and not endpoint[h]:
        for i in range(ptr[h], ptr[h + 1]):
            w = nbr[i]
            if w != other and color[w] & FLOW == mine:
                back = w
    for i in range(ptr[h], ptr[h + 1]):
        v = nbr[i]
        if v == other:
            if heuristic:
                out[0] = v
                return 1
        elif color[v] == 0:
            if heuristic:
                touches = False
                for j in range(ptr[v], ptr[v + 1]):
                    w = nbr[j]
                    if w != h and w != other and (color[w] & FLOW) == mine:
                        touches = True
                        break
                if touches:
                    continue
                if back >= 0 and _bend_chain(color, ptr, nbr, endpoint, h, back, v, mine, scratch):
                    continue
        else:
            continue
        out[count] = v
        count += 1
    return count


@njit(cache=True)
def step_head(color, heads, slot, v, done, free):  # pragma: no cover - compiled
    """Move the head in ``slot`` to ``v`` in place; joining the other head finishes the flow.

    Returns
    -------
    done, free : int
        The finished-flow bitmask and free-node count after the move.
    """
    h = heads[slot]
    color[h] &= FLOW
    if v == heads[slot ^ 1]:
        color[v] &= FLOW
        done |= np.int64(1) << (slot >> 1)
    else:
        color[v] = ((slot >> 1) + 1) | ACTIVE
        heads[slot] = v
        free -= 1
    return done, free


@njit(cache=True)
def _forced(color, heads, slot, v, done, free, changed, nch, log, nlog):
    """A forced move: step, note the two nodes it changed and log it."""
    changed[nch] = heads[slot]
    changed[nch + 1] = v
    done, free = step_head(color, heads, slot, v, done, free)
    log[nlog] = slot
    log[nlog + 1] = v
    return done, free, nch + 2, nlog + 2


@njit(cache=True)
def _linkable(color, w):
    """Whether a path may still link to ``w``: a free node or a head (or goal)."""
    return color[w] == 0 or color[w] & ACTIVE


@njit(cache=True)
def bend_pass(color, ptr, nbr, endpoint, x, must):  # pragma: no cover - compiled
    """Whether the path node ``x`` bends around nothing (a loose bend).

    Under the self-touch rule every path is chordless: no two of its nodes
    are linked in the graph unless they are consecutive. Let ``x`` (not an
    endpoint) be linked to ``s1`` and ``s2``, and let ``d`` be the one
    other node next to both (the inside of the bend, on a square grid the
    diagonal cell). ``d`` cannot be on ``x``'s flow (a chord), so it is an
    endpoint of another flow, or a path node of another flow linked to two
    nodes other than ``s1`` and ``s2``. When ``d`` has exactly two other
    neighbours, ``e1`` and ``e2``, it must link both: another bend, whose
    inside is looked at in turn. The walk ends at an endpoint (the bends
    wrap around it) or where nothing more follows; it fails where ``d``
    cannot be what it must be. On a square grid this says that every bend
    has an endpoint on its inside diagonal with nested bends in between,
    the rule behind T. Ahle's Numberlink solver (``canSE``/``canSW`` in
    github.com/thomasahle/numberlink, ``paper.go``); here it is derived
    for any graph from the 4-cycles through the bend: warps are links like
    any other, and on a hex board the inside of a turn mostly has more than
    two other neighbours, so the walk stops there.

    Parameters
    ----------
    color : ndarray of uint8
        Node colours (as for :func:`region_pass`).
    ptr, nbr : ndarray of int64
        The adjacency (:func:`csr`).
    endpoint : ndarray of uint8
        Node -> 1 for the puzzle's endpoints.
    x : int
        A path node, not a head: both its links are made.
    must : ndarray of int64, shape (2,)
        If ``must[0]`` is negative, receives the first forced link found to
        a head, as ``(head, node)``: the head's one open link must go to
        that free node, so the head moves there.

    Returns
    -------
    int
        ``_LOOSE_BEND`` if the bend cannot be completed, else 0.
    """
    mine = color[x] & FLOW
    s1 = -1
    s2 = -1
    for i in range(ptr[x], ptr[x + 1]):
        w = nbr[i]
        if color[w] & FLOW == mine:
            if s1 < 0:
                s1 = w
            elif s2 < 0:
                s2 = w
            else:
                return 0  # not chordless (forced moves may do that): nothing follows
    if s2 < 0:
        return 0
    return _bend_chain(color, ptr, nbr, endpoint, x, s1, s2, mine, must)


@njit(cache=True)
def _bend_chain(color, ptr, nbr, endpoint, x, s1, s2, mine, must):  # pragma: no cover - compiled
    """The walk of :func:`bend_pass` from a node ``x`` linked to ``s1`` and ``s2``.

    ``mine`` is ``x``'s flow (colour bits), 0 if not known yet. The first
    free inside node found that must link a head goes to ``must`` as
    ``(head, node)`` if ``must[0]`` is negative.
    """
    cur = x
    for _ in range(color.shape[0]):
        # d: the one node besides cur next to both s1 and s2
        d = -1
        for i in range(ptr[s1], ptr[s1 + 1]):
            w = nbr[i]
            if w == cur:
                continue
            for j in range(ptr[s2], ptr[s2 + 1]):
                if nbr[j] == w:
                    if d >= 0:
                        return 0  # two insides: no single node is forced
                    d = w
        if d < 0:
            return 0  # no 4-cycle through the bend: it is no bend
        cd = color[d] & FLOW
        if endpoint[d]:
            return _LOOSE_BEND if cd == mine else 0
        if cd != 0 and cd == mine:
            return _LOOSE_BEND
        # d is on another flow and must link its two other neighbours
        e1 = -1
        e2 = -1
        for i in range(ptr[d], ptr[d + 1]):
            w = nbr[i]
            if w == s1 or w == s2:
                continue
            if e1 < 0:
                e1 = w
            elif e2 < 0:
                e2 = w
            else:
                return 0  # more than two ways on: nothing is forced
        if e2 < 0:
            return _LOOSE_BEND  # d cannot be passed through
        c1 = color[e1] & FLOW
        c2 = color[e2] & FLOW
        if cd != 0:
            # already on its flow: linked to nothing else, and e1, e2 free or its own
            for i in range(ptr[d], ptr[d + 1]):
                w = nbr[i]
                if w != e1 and w != e2 and color[w] & FLOW == cd:
                    return _LOOSE_BEND
            if (c1 and c1 != cd) or (c2 and c2 != cd):
                return _LOOSE_BEND
        else:
            if not (_linkable(color, e1) and _linkable(color, e2)):
                return _LOOSE_BEND
            if c1 and c2 and c1 != c2:
                return _LOOSE_BEND  # d would join two flows
            if (c1 and c1 == mine) or (c2 and c2 == mine):
                return _LOOSE_BEND  # d would be on x's flow after all
            if must[0] < 0 and (color[e1] & ACTIVE or color[e2] & ACTIVE):
                must[0] = e1 if color[e1] & ACTIVE else e2  # its one open link is d
                must[1] = d
        mine = cd or c1 or c2  # d's flow, 0 while unknown
        cur, s1, s2 = d, e1, e2
    return 0


@njit(cache=True)
def _pair_ok(color, ptr, nbr, endpoint, c, p, q, scratch):
    """Whether the free node ``c`` may link both ``p`` and ``q`` (heuristic rules).

    Not if they are heads of two flows, nor if ``p``-``c``-``q`` would be a
    loose bend (:func:`bend_pass`).
    """
    cp = color[p]
    cq = color[q]
    if cp & ACTIVE and cq & ACTIVE and cp & FLOW != cq & FLOW:
        return False
    scratch[0] = 0  # nothing recorded: c's links are not known to be these
    return _bend_chain(color, ptr, nbr, endpoint, c, p, q, (cp | cq) & FLOW, scratch) == 0


@njit(cache=True)
def _must_link(color, heads, must, done, free, changed, nch, log, nlog):
    """Move the head in ``must[0]`` to ``must[1]`` if both still are what they were."""
    if must[0] >= 0 and color[must[1]] == 0 and color[must[0]] & ACTIVE:
        slot = _slot_of(color, heads, must[0])
        if heads[slot] == must[0]:
            return _forced(color, heads, slot, must[1], done, free, changed, nch, log, nlog)
    return done, free, nch, nlog


@njit(cache=True)
def _slot_of(color, heads, d):
    slot = 2 * ((color[d] & FLOW) - 1)
    if heads[slot] != d:
        slot += 1
    return slot


@njit(cache=True)
def settle_pass(color, ptr, nbr, heads, done, free, touched, heuristic, nflows, par, endpoint, log):  # pragma: no cover
    """Forced moves, local dead ends, loose bends, then :func:`region_pass`.

    Heads with a single way out move (a head's moves depend on nodes up to
    two links away, so only heads that near a change are looked at); a
    free node with fewer than two possible links (free neighbours and
    heads) is a dead end; one whose only two possible links are heads of
    two different flows would join them; one whose only two possible
    links include a head is taken by that head; with ``heuristic``, one
    whose two possible links make a bend must bend around something
    (:func:`bend_pass`), and of one with three possible links, the pairs
    it could link are those that join no two flows and make no loose
    bend: none left is a dead end, and a head in every pair left takes
    it; a head that the bend walk finds an inside node must link moves
    there. Chains of forced moves repeat until nothing changes.

    Parameters
    ----------
    color, heads : ndarray
        As for :func:`region_pass`; both are updated in place.
    done, free : int
        Finished flows (bitmask) and free nodes before.
    touched : ndarray of int64
        Nodes changed since the last settle.
    heuristic : bool
        The self-touch rule (:func:`head_moves`) and its consequence, the
        loose-bend test (:func:`bend_pass`) on every node whose links were
        just completed.
    endpoint : ndarray of uint8
        Node -> 1 for the puzzle's endpoints.
    log : ndarray of int64, shape (at least 2 * (n + nflows),)
        Receives the moves made, as ``slot, node`` pairs.

    Returns
    -------
    code, done, free, nlog : int
        The reason code (0: the state survives), the updated counts and the
        length of ``log`` used.
    """
    n = color.shape[0]
    nlog = 0
    mark = np.zeros(n, np.int64)
    stamp = 0
    slots = np.empty(2 * nflows + 1, np.int64)
    opts = np.empty(ptr.shape[0], np.int64)  # room for any node's moves
    avail = np.empty(max(_MAX_PAIRED, 2), np.int64)  # a free node's possible links
    must = np.empty(2, np.int64)  # a head and the free node it must link (bend_pass)
    cur = touched.copy()
    ncur = cur.shape[0]
    while ncur > 0:
        changed = np.empty(2 * (n + nflows) + 4, np.int64)
        nch = 0
        if heuristic:
            for ti in range(ncur):
                x = cur[ti]
                if color[x] != 0 and not color[x] & ACTIVE and not endpoint[x]:
                    must[0] = -1
                    code = bend_pass(color, ptr, nbr, endpoint, x, must)
                    if code:
                        return code, done, free, nlog
                    done, free, nch, nlog = _must_link(color, heads, must, done, free, changed, nch, log, nlog)
        stamp += 1
        nslots = 0
        for ti in range(ncur):
            t = cur[ti]
            for ci in range(ptr[t] - 1, ptr[t + 1]):
                c = t if ci < ptr[t] else nbr[ci]
                for di in range(ptr[c] - 1, ptr[c + 1]):
                    d = c if di < ptr[c] else nbr[di]
                    if color[d] & ACTIVE and mark[d] != stamp:
                        mark[d] = stamp
                        slots[nslots] = _slot_of(color, heads, d)
                        nslots += 1
        order = np.sort(slots[:nslots])
        for si in range(nslots):
            slot = order[si]
            if (done >> (slot >> 1)) & 1:
                continue
            count = head_moves(color, ptr, nbr, heads, slot, heuristic, endpoint, opts)
            first = opts[0]
            if count == 0:
                return _NO_MOVES, done, free, nlog
            if count == 1:
                done, free, nch, nlog = _forced(color, heads, slot, first, done, free, changed, nch, log, nlog)
        # Free nodes near the changes: dead ends, and nodes a head must take.
        stamp += 1
        nch0 = nch
        for ti in range(ncur + nch0):
            t = cur[ti] if ti < ncur else changed[ti - ncur]
            for ci in range(ptr[t] - 1, ptr[t + 1]):
                c = t if ci < ptr[t] else nbr[ci]
                if mark[c] == stamp or color[c] != 0:
                    continue
                mark[c] = stamp
                navail = 0  # its possible links; the first _MAX_PAIRED go to avail
                for j in range(ptr[c], ptr[c + 1]):
                    w = nbr[j]
                    if _linkable(color, w):
                        if navail < _MAX_PAIRED:
                            avail[navail] = w
                        navail += 1
                if navail < 2:
                    return _DEAD_END, done, free, nlog  # a node that can never be passed through
                if navail == 2:
                    a0 = avail[0]
                    a1 = avail[1]
                    ca = color[a0]
                    cb = color[a1]
                    if ca & ACTIVE and cb & ACTIVE and ca != cb:
                        return _TWO_FLOWS_MEET, done, free, nlog
                    if heuristic:
                        # c must link both: if that is a bend, its inside must hold
                        must[0] = -1
                        code = _bend_chain(color, ptr, nbr, endpoint, c, a0, a1, (ca | cb) & FLOW, must)
                        if code:
                            return code, done, free, nlog
                        done, free, nch, nlog = _must_link(color, heads, must, done, free, changed, nch, log, nlog)
                    for w in (a0, a1):
                        if color[w] & ACTIVE and color[c] == 0:
                            slot = _slot_of(color, heads, w)
                            done, free, nch, nlog = _forced(color, heads, slot, c, done, free, changed, nch, log, nlog)
                elif heuristic and navail <= _MAX_PAIRED:
                    # Which two of its possible links can c have? A link that
                    # every possible pair shares is made: a head there takes c.
                    inall = 0  # bit i: avail[i] is in every possible pair so far
                    nfeas = 0
                    for i0 in range(navail):
                        for i1 in range(i0 + 1, navail):
                            if _pair_ok(color, ptr, nbr, endpoint, c, avail[i0], avail[i1], must):
                                pair = (1 << i0) | (1 << i1)
                                inall = pair if nfeas == 0 else inall & pair
                                nfeas += 1
                    if nfeas == 0:
                        return _LOOSE_BEND, done, free, nlog
                    for i in range(navail):
                        w = avail[i]
                        if inall >> i & 1 and color[w] & ACTIVE and color[c] == 0:
                            slot = _slot_of(color, heads, w)
                            done, free, nch, nlog = _forced(color, heads, slot, c, done, free, changed, nch, log, nlog)
        cur = changed[:nch]
        ncur = nch
    if free == 0:
        if done != (np.int64(1) << nflows) - 1:
            return _UNFILLED, done, free, nlog
        return 0, done, free, nlog
    return region_pass(color, ptr, nbr, heads, done, nflows, par), done, free, nlog


def warm_up() -> None:
    """Load the compiled passes now (compiling them on a machine's first run).

    Numba compiles a function on its first call, or loads it from the cache
    beside this module, which takes about a second; :func:`flowgraph.bench`
    calls this before its first timed puzzle so that no puzzle's time
    includes it.
    """
    ptr, nbr = csr(((1, 2), (0, 3), (0, 3), (1, 2)))  # a 2x2 board, one flow on a diagonal
    color = np.frombuffer(bytearray((1 | ACTIVE, 0, 0, 1 | ACTIVE)), np.uint8)
    heads = np.array([0, 3], np.int64)
    side = np.array([0, 1, 1, 0], np.int8)
    endpoint = np.array([1, 0, 0, 1], np.uint8)
    settle_pass(color, ptr, nbr, heads, 0, 2, np.array([0, 3], np.int64), True, 1, side, endpoint, np.empty(16, np.int64))
    chokepoint_pass(color, ptr, nbr, np.full(nbr.shape[0], -1, np.int64), heads, 0, 1, 0, 3)
