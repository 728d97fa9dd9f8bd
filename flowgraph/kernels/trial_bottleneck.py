"""Decide explain's bottleneck rule, compiled.

Explain's bottleneck rule, compiled, for the one-step trials (:mod:`.trials`): every way between an unfinished
flow's heads crosses one link, which is then a line; no way at all cuts the flow off. The graph a flow may pass
(empty cells, loose pieces of path end to end) is shrunk once to its 2-edge-connected parts joined by its bridges
(Tarjan's low-link, iteratively), and each flow's question is asked of that tree of parts with its two heads added.
"""

from __future__ import annotations

import numpy as np

from .codes import TRIAL_CUT_OFF as _CUT_OFF
from .codes import TRIAL_LOOSE as _LOOSE
from .codes import UNDECIDED
from .jit import njit


@njit(cache=True)
def trial_heads(need, lines, root, rflow, head1, head2, order):  # pragma: no cover - compiled
    """Each flow's heads (nodes of its segments still needing a line; ``head2`` -2 when more than two) and
    the flows with heads in order of their first head; returns how many."""
    for k in range(head1.shape[0]):
        head1[k] = -1
        head2[k] = -1
    count = 0
    for v in range(need.shape[0]):
        k = rflow[root[v]]
        if k >= 0 and lines[v] < need[v]:
            if head1[k] < 0:
                head1[k] = v
                order[count] = k
                count += 1
            elif head2[k] == -1:
                head2[k] = v
            else:
                head2[k] = -2
    return count


@njit(cache=True)
def trial_passable(need, end_flow, lines, root, rflow, passable, mate):  # pragma: no cover - compiled
    """Cells a flow may pass through: empty ones and the loose ends of pieces no endpoint owns yet (``mate``:
    a loose end's other end when its piece has exactly two, else -1)."""
    n = need.shape[0]
    first = np.full(n, -1, np.int64)
    second = np.full(n, -1, np.int64)
    count = np.zeros(n, np.int64)
    for v in range(n):
        mate[v] = -1
        loose = rflow[root[v]] < 0 and 0 < lines[v] < need[v]
        passable[v] = loose or (end_flow[v] < 0 and lines[v] == 0)
        if loose:
            r = root[v]
            if count[r] == 0:
                first[r] = v
            elif count[r] == 1:
                second[r] = v
            count[r] += 1
    for r in range(n):
        if count[r] == 2:  # a piece: exactly two loose ends
            mate[first[r]], mate[second[r]] = second[r], first[r]


@njit(cache=True)
def _csr(count, ends, ids, ne):  # pragma: no cover - compiled
    """Adjacency in CSR form of ``ne`` edges ``ends[i]`` (ids ``ids[i]``) on ``count`` nodes: (start, to, id)."""
    start = np.zeros(count + 1, np.int64)
    for i in range(ne):
        start[ends[i, 0] + 1] += 1
        start[ends[i, 1] + 1] += 1
    for v in range(count):
        start[v + 1] += start[v]
    fill = start[:-1].copy()
    to = np.empty(2 * ne, np.int64)
    eid = np.empty(2 * ne, np.int64)
    for i in range(ne):
        a, b = ends[i, 0], ends[i, 1]
        to[fill[a]], eid[fill[a]] = b, ids[i]
        fill[a] += 1
        to[fill[b]], eid[fill[b]] = a, ids[i]
        fill[b] += 1
    return start, to, eid


@njit(cache=True)
def _bridges(start, to, eid, count, first, bridged):  # pragma: no cover - compiled
    """Tarjan's low-link from ``first`` (every node when ``first`` < 0), iteratively: ``bridged[v]`` the edge
    from v to its parent when it is a bridge, else -1; returns the parents (-1 at a root, -2 unreached)."""
    disc = np.full(count, -1, np.int64)
    low = np.zeros(count, np.int64)
    up = np.full(count, -2, np.int64)
    up_edge = np.full(count, -1, np.int64)
    nxt = np.empty(count, np.int64)
    stack = np.empty(count, np.int64)
    seen = 0
    lo, hi = (0, count) if first < 0 else (first, first + 1)
    for s in range(lo, hi):
        if disc[s] >= 0:
            continue
        disc[s] = low[s] = seen
        seen += 1
        up[s] = -1
        nxt[s] = start[s]
        stack[0] = s
        sn = 1
        while sn > 0:
            v = stack[sn - 1]
            if nxt[v] < start[v + 1]:
                i = nxt[v]
                nxt[v] += 1
                if eid[i] == up_edge[v]:
                    continue
                w = to[i]
                if disc[w] >= 0:
                    if disc[w] < low[v]:
                        low[v] = disc[w]
                else:
                    disc[w] = low[w] = seen
                    seen += 1
                    up[w] = v
                    up_edge[w] = eid[i]
                    nxt[w] = start[w]
                    stack[sn] = w
                    sn += 1
            else:
                sn -= 1
                bridged[v] = -1
                if sn > 0:
                    u = stack[sn - 1]
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if low[v] > disc[u]:
                        bridged[v] = up_edge[v]
    return up


@njit(cache=True)
def bottleneck_trial(links, at_start, at_link, need, end_flow, state,  # pragma: no cover - compiled
                lines, root, rflow, cells):
    """Tier 4 on the first flow (by number) with a link every way between its heads crosses: that link, to be a
    line (code -1, the heads in ``cells``); a flow cut off or with a loose end: its code; 0: none. Returns (code,
    flow, link); decides nothing itself."""
    n, m = need.shape[0], links.shape[0]
    passable = np.zeros(n, np.bool_)
    mate = np.empty(n, np.int64)
    trial_passable(need, end_flow, lines, root, rflow, passable, mate)
    # the graph every flow shares: undecided links between passable cells, and each piece end to end
    ends = np.empty((m + n, 2), np.int64)
    ids = np.empty(m + n, np.int64)
    ne = 0
    for e in range(m):
        u, v = links[e, 0], links[e, 1]
        if state[e] == UNDECIDED and passable[u] and passable[v] and root[u] != root[v]:
            ends[ne, 0], ends[ne, 1], ids[ne] = u, v, e
            ne += 1
    for v in range(n):
        if mate[v] > v:
            ends[ne, 0], ends[ne, 1], ids[ne] = v, mate[v], m + v  # a piece's id: never a link's
            ne += 1
    start, to, eid = _csr(n, ends, ids, ne)
    bridged = np.full(n, -1, np.int64)
    _bridges(start, to, eid, n, -1, bridged)
    # its 2-edge-connected parts (passable cells joined without a bridge), and the tree of them
    part = np.full(n, -1, np.int64)
    stack = np.empty(n, np.int64)
    parts = 0
    is_bridge = np.zeros(m + n, np.bool_)
    for v in range(n):
        if bridged[v] >= 0:
            is_bridge[bridged[v]] = True
    for s in range(n):
        if part[s] >= 0 or not passable[s]:
            continue
        part[s] = parts
        stack[0] = s
        sn = 1
        while sn > 0:
            sn -= 1
            v = stack[sn]
            for i in range(start[v], start[v + 1]):
                w = to[i]
                if part[w] < 0 and not is_bridge[eid[i]]:
                    part[w] = parts
                    stack[sn] = w
                    sn += 1
        parts += 1
    k_flows = end_flow.max() + 1
    head1 = np.empty(k_flows, np.int64)
    head2 = np.empty(k_flows, np.int64)
    order = np.empty(k_flows, np.int64)
    trial_heads(need, lines, root, rflow, head1, head2, order)
    tree_ends = np.empty((ne + 2 * need.shape[0], 2), np.int64)
    tree_ids = np.empty(ne + 2 * need.shape[0], np.int64)
    nt = 0
    for i in range(ne):
        if is_bridge[ids[i]]:
            tree_ends[nt, 0], tree_ends[nt, 1], tree_ids[nt] = part[ends[i, 0]], part[ends[i, 1]], ids[i]
            nt += 1
    tree_bridged = np.full(parts + 2, -1, np.int64)
    for k in range(k_flows):
        if head1[k] < 0:
            continue
        h1, h2 = head1[k], head2[k]
        if h2 < 0:
            cells[0] = h1
            return _LOOSE, k, -1
        # the flow's own links: from each head to a passable cell, or to the other head (once)
        nx = nt
        for h in (h1, h2):
            for i in range(at_start[h], at_start[h + 1]):
                e = at_link[i]
                w = links[e, 0] + links[e, 1] - h
                other_head = w == h1 or w == h2
                if state[e] == UNDECIDED and (passable[w] or other_head) and root[h] != root[w] and not (other_head and h > w):
                    a = parts if h == h1 else parts + 1
                    b = (parts if w == h1 else parts + 1) if other_head else part[w]
                    tree_ends[nx, 0], tree_ends[nx, 1], tree_ids[nx] = a, b, e
                    nx += 1
        t_start, t_to, t_eid = _csr(parts + 2, tree_ends, tree_ids, nx)
        up = _bridges(t_start, t_to, t_eid, parts + 2, parts, tree_bridged)
        if up[parts + 1] == -2:
            cells[0], cells[1] = h1, h2
            return _CUT_OFF, k, -1
        nearest = -1  # the real link every way crosses nearest the first head: the last met walking back
        v = parts + 1
        while v != parts:
            if tree_bridged[v] >= 0 and tree_bridged[v] < m:
                nearest = tree_bridged[v]
            v = up[v]
        if nearest >= 0:
            cells[0], cells[1] = h1, h2
            return -1, k, nearest
    return 0, -1, -1
