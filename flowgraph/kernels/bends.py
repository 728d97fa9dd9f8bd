"""The loose-bend test, compiled."""

from __future__ import annotations

from .codes import ACTIVE, FLOW, LOOSE_BEND
from .common import linkable
from .fragments import link_index
from .jit import njit_borrowed

__all__ = ["bend_pass", "bend_chain", "pair_ok"]


@njit_borrowed
def bend_pass(color, link, ptr, nbr, endpoint, x, must, chain):  # pragma: no cover - compiled
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
    chain : ndarray of int64, shape (1 + 3 * n,) or (1,)
        When longer than 1, receives after ``chain[0]`` (their count) the
        free inside nodes the walk found as ``d, e1, e2`` triples: ``d``
        must link ``e1`` and ``e2`` (recorded as links by the caller,
        :mod:`.fragments`).

    Returns
    -------
    int
        ``LOOSE_BEND`` if the bend cannot be completed, else 0.
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
    return bend_chain(color, link, ptr, nbr, endpoint, x, s1, s2, mine, must, chain)



@njit_borrowed
def bend_chain(color, link, ptr, nbr, endpoint, x, s1, s2, mine, must, chain):  # pragma: no cover - compiled
    """The walk of :func:`bend_pass` from a node ``x`` linked to ``s1`` and ``s2``.

    ``mine`` is ``x``'s flow (colour bits), 0 if not known yet. The first
    free inside node found that must link a head goes to ``must`` as
    ``(head, node)`` if ``must[0]`` is negative; the free inside nodes go
    to ``chain`` as for :func:`bend_pass`.
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
            return LOOSE_BEND if cd == mine else 0
        if cd != 0 and cd == mine:
            return LOOSE_BEND
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
            return LOOSE_BEND  # d cannot be passed through
        c1 = color[e1] & FLOW
        c2 = color[e2] & FLOW
        if cd != 0:
            # already on its flow: linked to nothing else, and e1, e2 free or its own
            for i in range(ptr[d], ptr[d + 1]):
                w = nbr[i]
                if w != e1 and w != e2 and color[w] & FLOW == cd:
                    return LOOSE_BEND
            if (c1 and c1 != cd) or (c2 and c2 != cd):
                return LOOSE_BEND
        else:
            if not (linkable(color, e1) and linkable(color, e2)):
                return LOOSE_BEND
            if link[d] & ~((1 << link_index(ptr, nbr, d, e1)) | (1 << link_index(ptr, nbr, d, e2))):
                return LOOSE_BEND  # d is known to link a third node
            if c1 and c2 and c1 != c2:
                return LOOSE_BEND  # d would join two flows
            if (c1 and c1 == mine) or (c2 and c2 == mine):
                return LOOSE_BEND  # d would be on x's flow after all
            if must[0] < 0 and (color[e1] & ACTIVE or color[e2] & ACTIVE):
                must[0] = e1 if color[e1] & ACTIVE else e2  # its one open link is d
                must[1] = d
            if chain.shape[0] > 1:
                k = chain[0]
                chain[1 + 3 * k] = d
                chain[2 + 3 * k] = e1
                chain[3 + 3 * k] = e2
                chain[0] = k + 1
        mine = cd or c1 or c2  # d's flow, 0 while unknown
        cur, s1, s2 = d, e1, e2
    return 0



@njit_borrowed
def pair_ok(color, link, ptr, nbr, endpoint, c, p, q, scratch):  # pragma: no cover - compiled
    """Whether the free node ``c`` may link both ``p`` and ``q`` (heuristic rules).

    Not if they are heads of two flows, nor if ``p``-``c``-``q`` would be a
    loose bend (:func:`bend_pass`).
    """
    cp = color[p]
    cq = color[q]
    if cp & ACTIVE and cq & ACTIVE and cp & FLOW != cq & FLOW:
        return False
    scratch[0] = 0  # nothing recorded: c's links are not known to be these
    return bend_chain(color, link, ptr, nbr, endpoint, c, p, q, (cp | cq) & FLOW, scratch, scratch[:1]) == 0
