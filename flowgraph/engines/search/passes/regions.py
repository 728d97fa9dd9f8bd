"""Regions of free nodes and their cut nodes: stranded regions and flows, parity, dead pockets, bottlenecks."""

from __future__ import annotations

import numpy as np
from numba import njit

from .codes import _BOTTLENECK, _DEAD_POCKET, _PARITY, _STRANDED_FLOW, _STRANDED_REGION, _popcount

__all__ = ["region_pass"]


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


