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

from .jit import njit, njit_borrowed

__all__ = ["link_index", "full", "linked_free", "add_link", "chord_near"]


@njit(cache=True)
def link_index(ptr, nbr, a, b):  # pragma: no cover - compiled
    """The position of ``b`` among ``a``'s neighbours, or -1."""
    for i in range(ptr[a], ptr[a + 1]):
        if nbr[i] == b:
            return i - ptr[a]
    return -1


@njit(cache=True)
def full(link, v):  # pragma: no cover - compiled
    """Whether ``v`` has two links known to be used (no link to spare)."""
    x = link[v]
    return (x & (x - 1)) != 0


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


@njit_borrowed
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
    if full(link, a) or full(link, b):
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


@njit_borrowed
def chord_near(color, ptr, nbr, link, a, via, b, depth, chain):  # pragma: no cover - compiled
    """Whether linking ``a`` to ``b`` (through ``via`` if it is not -1) would make a path touch itself.

    The chain is ``depth`` nodes of ``a``'s fragment beyond ``a``, ``a``,
    ``via``, ``b`` and ``depth`` nodes of ``b``'s fragment beyond ``b``;
    two of its nodes that are linked in the graph without being
    consecutive break the self-touch rule (a path is chordless). Only the
    nodes near the new link are looked at: the rest of both fragments was
    looked at when their links were made. ``chain`` is work space of
    ``2 * depth + 3`` entries (allocated by the caller once: this runs
    without numba's reference counting, see :mod:`.settle`).
    """
    m = _follow(color, ptr, nbr, link, a, via if via >= 0 else b, depth, chain, 0)
    for i in range(m // 2):  # a's side, far end first
        chain[i], chain[m - 1 - i] = chain[m - 1 - i], chain[i]
    chain[m] = a
    m += 1
    if via >= 0:
        chain[m] = via
        m += 1
    chain[m] = b
    m += 1
    m = _follow(color, ptr, nbr, link, b, via if via >= 0 else a, depth, chain, m)
    for i in range(m):
        for j in range(i + 2, m):
            if chain[i] == chain[j] or link_index(ptr, nbr, chain[i], chain[j]) >= 0:
                return True
    return False


@njit_borrowed
def _follow(color, ptr, nbr, link, start, prev, depth, out, m):  # pragma: no cover - compiled
    """Up to ``depth`` nodes of ``start``'s fragment, walking away from ``prev``, written to ``out[m:]``; the new ``m``."""
    cur = start
    for _ in range(depth):
        nxt = linked_free(color, ptr, nbr, link, cur, prev)
        if nxt < 0:
            break
        out[m] = nxt
        m += 1
        prev = cur
        cur = nxt
    return m
