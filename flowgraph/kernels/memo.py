"""The exhaustive link search's failure memo (:mod:`.link_search`): the frontier's Zobrist hash, kept in two 62-bit
halves (registers ``H1``, ``H2``), and a table of the frontiers below which no solution was found.

What the search below a node can still do depends only on the frontier: the decided links that touch a node with a
link still undecided, and the ``mate`` and ``must`` of those nodes. The hash covers exactly that, updated with every
decision (:func:`memo_flip`) and restored on backtracking; a subtree that gave no solution is stored by its hash
(:func:`memo_remember`) and a frontier met again is skipped (:func:`memo_seen`). Four slots are probed; when all four are
taken one is replaced (it is a cache).
"""

from __future__ import annotations

import numpy as np

from .codes import REG_H1 as _H1
from .codes import REG_H2 as _H2
from .codes import REG_TAKEN as _TAKEN
from .jit import njit, njit_borrowed

_SEED0 = np.uint64(0x9E3779B97F4A7C15)
_SEED1 = np.uint64(0x3C6EF372FE94F82B)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S2 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(2)


@njit(cache=True, inline="always")
def _term(x, which):  # pragma: no cover - compiled
    """A 62-bit Zobrist term of the number ``x`` (below 2**31), for hash half ``which`` (0 or 1): SplitMix64's
    finalizer (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014), a
    bijection of 64-bit words, of ``x`` plus a seed per half, its top 62 bits."""
    z = np.uint64(x) + (_SEED0 if which == 0 else _SEED1)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    z ^= z >> _S31
    return np.int64(z >> _S2)


# The small helpers that every decision calls are inlined by numba itself (``inline="always"``): in the
# generic-CPU ahead-of-time build LLVM left them as calls, and a decision took 2.4 us instead of 1.55 us.
@njit(cache=True, inline="always")
def memo_flip(regs, x):  # pragma: no cover - compiled
    regs[_H1] ^= _term(x, 0)
    regs[_H2] ^= _term(x, 1)


# The numbers hashed: a link's state 2e + state - 1 (below 2m); a node's mate, offset past the links; a
# node that must be used, past those; the node the frontier is at, past those. ``base`` = 2m, ``span`` =
# n + flows + 3 (mate values -2 - k .. n - 1).


@njit(cache=True, inline="always")
def memo_at(regs, ends, n, nflows, w):  # pragma: no cover - compiled
    """The memo key of the frontier at node ``w``: the hash with ``w``'s own term."""
    x = 2 * ends.shape[0] + (n + nflows + 3) * n + n + w
    return regs[_H1] ^ _term(x, 0), regs[_H2] ^ _term(x, 1)


@njit_borrowed
def memo_seen(memo, h1, h2):  # pragma: no cover - compiled
    size = memo.shape[0]
    if size < 2:
        return False
    at = h1 & (size - 1)
    for k in range(4):
        j = (at + k) & (size - 1)
        if memo[j, 0] == h1 and memo[j, 1] == h2:
            return True
    return False


@njit_borrowed
def memo_remember(memo, regs, h1, h2):  # pragma: no cover - compiled
    size = memo.shape[0]
    if size < 2:
        return
    at = h1 & (size - 1)
    for k in range(4):
        j = (at + k) & (size - 1)
        if memo[j, 0] == 0 and memo[j, 1] == 0:
            memo[j, 0] = h1
            memo[j, 1] = h2
            regs[_TAKEN] += 1
            return
    j = (at + (h2 & 3)) & (size - 1)  # all four taken: replace one
    memo[j, 0] = h1
    memo[j, 1] = h2
