"""Links known to be used between free nodes: path fragments whose flow is not known yet; compiled.

The colours say which flow holds a node; they cannot say that two free
nodes are linked by some path, which is what most deductions far from the
heads find: a free node with exactly two possible links uses both, and the
bend walk (:func:`.bends.bend_chain`) finds the inside nodes a bend forces.
``link[v]`` keeps them: bit ``i`` set means that the link from ``v`` to
``nbr[ptr[v] + i]`` is used (a node has at most 8 links in the format).
Linked free nodes form fragments, chains of at most two links per node; a
head that enters a fragment runs along it to its other end
(:func:`.moves.head_moves`).

The passes that do not know about links see fragment nodes as free nodes,
which only weakens them: every rule that holds for free nodes holds for
nodes whose path is partly known.

Cells as links, not colours, is how SAT encodings see the board (and
what issue 15 asked for); the walks here follow the fragments.
"""

from __future__ import annotations

from numba import njit

from .codes import FLOW, popcount

__all__ = ["link_index", "nlinks", "linked", "linked_free", "add_link", "touches_fragment"]


@njit(cache=True)
def link_index(ptr, nbr, a, b):  # pragma: no cover - compiled
    """The position of ``b`` among ``a``'s neighbours, or -1."""
    for i in range(ptr[a], ptr[a + 1]):
        if nbr[i] == b:
            return i - ptr[a]
    return -1


@njit(cache=True)
def nlinks(link, v):  # pragma: no cover - compiled
    """How many of ``v``'s links are known to be used (0, 1 or 2)."""
    return popcount(link[v])


@njit(cache=True)
def linked(ptr, nbr, link, a, b):  # pragma: no cover - compiled
    """Whether the link ``a``-``b`` is known to be used."""
    i = link_index(ptr, nbr, a, b)
    return i >= 0 and (link[a] >> i) & 1 == 1


@njit(cache=True)
def linked_free(color, ptr, nbr, link, v, other):  # pragma: no cover - compiled
    """A free node ``v`` is known to link, other than ``other``; -1 if none."""
    x = link[v]
    i = 0
    while x:
        if x & 1:
            w = nbr[ptr[v] + i]
            if w != other and color[w] == 0:
                return w
        x >>= 1
        i += 1
    return -1


@njit(cache=True)
def add_link(color, ptr, nbr, link, a, b):  # pragma: no cover - compiled
    """Record the link between the free nodes ``a`` and ``b``.

    Returns
    -------
    int
        1 if it was recorded, 0 if it was known, -1 if it cannot be: a node
        would have three links, or the fragment would close into a loop.
    """
    i = link_index(ptr, nbr, a, b)
    if (link[a] >> i) & 1:
        return 0
    if nlinks(link, a) >= 2 or nlinks(link, b) >= 2:
        return -1
    # A loop: b is the far end of a's fragment.
    prev = b
    cur = a
    for _ in range(color.shape[0]):
        nxt = linked_free(color, ptr, nbr, link, cur, prev)
        if nxt < 0:
            break
        if nxt == b:
            return -1
        prev = cur
        cur = nxt
    j = link_index(ptr, nbr, b, a)
    link[a] |= 1 << i
    link[b] |= 1 << j
    return 1


@njit(cache=True)
def touches_fragment(color, ptr, nbr, link, c, u, q, depth):  # pragma: no cover - compiled
    """Whether ``q`` is next to one of the first ``depth`` nodes of ``c``'s fragment beyond ``c``.

    ``u`` is the node ``c`` is linked to. If ``c`` then linked ``q``, the
    path would touch itself there (the self-touch rule): the local part of
    that rule for paths whose flow is not known yet.
    """
    prev = c
    cur = u
    for _ in range(depth):
        if cur < 0 or color[cur] & FLOW:
            return False
        if cur != q and link_index(ptr, nbr, cur, q) >= 0:
            return True
        nxt = linked_free(color, ptr, nbr, link, cur, prev)
        prev = cur
        cur = nxt
    return False
