"""The small compiled tests every pass shares (colour bits: :mod:`.codes`)."""

from __future__ import annotations

from .codes import ACTIVE, FLOW
from .jit import njit

__all__ = ["popcount", "linkable", "slot_of", "heads_beside"]


@njit(cache=True)
def popcount(x):  # pragma: no cover - compiled
    """Number of set bits of a flow bitmask."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def linkable(color, w):  # pragma: no cover - compiled
    """Whether a path may still link to ``w``: a free node or a head (or goal)."""
    return color[w] == 0 or color[w] & ACTIVE


@njit(cache=True)
def slot_of(color, heads, d):  # pragma: no cover - compiled
    """The slot whose head is the node ``d`` (a head of an unfinished flow)."""
    slot = 2 * ((color[d] & FLOW) - 1)
    if heads[slot] != d:
        slot += 1
    return slot


@njit(cache=True)
def heads_beside(ptr, nbr, a, b):  # pragma: no cover - compiled
    """Whether the nodes ``a`` and ``b`` are linked: two heads side by side can join at once."""
    for i in range(ptr[a], ptr[a + 1]):
        if nbr[i] == b:
            return True
    return False
