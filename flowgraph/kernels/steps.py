"""Explain's rules of tiers 1-4, compiled, as steps: the first deduction on a board, and what is in sight.

These are the only statement of the rules ``flowgraph explain`` teaches: :func:`first_step` finds the step a
person takes next (the easiest rule that decides something, its first place in node or link order), and
:func:`.trials.settle_trial` applies the same rules to their end for the one-step trials. Python
(:mod:`flowgraph.authoring.techniques`) describes the step found, in words.

1. forced move: a cell with as many lines as it needs has its other links ruled out, one with only
   as many open links as it needs uses them all; under Numberlink's rules (``empty_ok``: a cell may stay
   empty) an empty cell with one way in stays empty, its link ruled out;
2. dead end: a link that would close a loop or join two flows is ruled out;
3. stranded region: a region of empty cells with two links leading in uses both (fewer: a contradiction);
   under Numberlink's rules, a region with at most one way in stays empty, its links ruled out;
4. bottleneck: a link every way between an unfinished flow's heads crosses is a line (none: a contradiction).

A link's state is an int8 of :class:`.codes.LinkState`.
"""

from __future__ import annotations

import numpy as np

from .codes import LINE, UNDECIDED
from .codes import TRIAL_LOOP as _LOOP
from .codes import TRIAL_LOOSE as _LOOSE
from .entry_points import kernel
from .jit import njit
from .trial_bottleneck import bottleneck_trial
from .trials import broken_trial, dead_end_trial, forced_trial, stranded_trial, trial_counts, trial_segments

__all__ = ["first_step", "in_sight"]


@kernel("UniTuple(i8, 6)(i8[:, ::1], i8[::1], i8[::1], i8[::1], i8[::1], b1, i1[::1], i8, i8[::1], i8[::1])")
@njit(cache=True)
def first_step(links, at_start, at_link, need, end_flow, empty_ok, state, up_to, decided, cells):  # pragma: no cover
    """The first deduction of tier at most ``up_to`` on the board ``state``, or the contradiction met first.

    Tier by tier, easiest first; within a tier, the first place in node order (forced moves, regions by
    their first cell), link order (dead ends) or flow order (bottlenecks).

    Parameters
    ----------
    links, at_start, at_link, need, end_flow, empty_ok
        The board's graph and rules, as :func:`.trials.settle_trial` takes them.
    state : int8 array, shape (links,)
        Each link's :class:`.codes.LinkState`; not changed.
    up_to : int
        The hardest tier tried (1 to 4).
    decided : int64 array, shape (links,)
        Out: the step's links, those it makes lines first, then those it rules out.
    cells : int64 array, shape (nodes,)
        Out: the cells that justify the step (the cell, the dead end's first cell, the region, the flow's
        two heads), or those of the contradiction.

    Returns
    -------
    tier : int
        The step's tier; 0 when there is none (or a contradiction).
    code : int
        A contradiction's code (its words: :data:`.codes.TRIAL_WHY`), else 0.
    lines, cuts : int
        How many of ``decided`` the step makes lines, then rules out.
    count : int
        How many of ``cells`` there are.
    flow : int
        The flow of a bottleneck, or of a contradiction about one; else -1.
    """
    n, m = need.shape[0], links.shape[0]
    lines = np.empty(n, np.int64)
    free = np.empty(n, np.int64)
    trial_counts(links, state, lines, free)
    for v in range(n):  # tier 1
        code = broken_trial(lines[v], free[v], need[v], empty_ok)
        if code:
            cells[0] = v
            return 0, code, 0, 0, 1, -1
        value = forced_trial(lines[v], free[v], need[v], empty_ok)
        if value != UNDECIDED:
            count = 0
            for i in range(at_start[v], at_start[v + 1]):
                if state[at_link[i]] == UNDECIDED:
                    decided[count] = at_link[i]
                    count += 1
            cells[0] = v
            return (1, 0, count, 0, 1, -1) if value == LINE else (1, 0, 0, count, 1, -1)
    root = np.empty(n, np.int64)
    rflow = np.empty(n, np.int64)
    code = trial_segments(links, state, end_flow, root, rflow, cells)
    if code:
        return 0, code, 0, 0, 2 if code == _LOOP else 1, -1
    for e in range(m):  # tier 2
        if state[e] == UNDECIDED and dead_end_trial(links, root, rflow, e):
            decided[0] = e
            cells[0] = links[e, 0]
            return 2, 0, 0, 1, 1, -1
    if up_to >= 3:
        exits = np.empty(2, np.int64)
        code, size = stranded_trial(links, at_start, at_link, end_flow, empty_ok, state, lines, cells, exits)
        if code > 0:
            return 0, code, 0, 0, size, -1
        if code == -1:
            decided[0], decided[1] = exits[0], exits[1]
            return 3, 0, 2, 0, size, -1
        if code == -2:  # its links, each once, in the order of the region's cells
            count = 0
            for j in range(size):
                v = cells[j]
                for i in range(at_start[v], at_start[v + 1]):
                    e = at_link[i]
                    w = links[e, 0] + links[e, 1] - v
                    inside = end_flow[w] < 0 and lines[w] == 0  # an empty cell beside it: the region's own
                    if state[e] == UNDECIDED and (not inside or w > v):
                        decided[count] = e
                        count += 1
            return 3, 0, 0, count, size, -1
    if up_to >= 4:
        code, k, e = bottleneck_trial(links, at_start, at_link, need, end_flow, state, lines, root, rflow, cells)
        if code > 0:
            return 0, code, 0, 0, 1 if code == _LOOSE else 2, k
        if code < 0:
            decided[0] = e
            return 4, 0, 1, 0, 2, k
    return 0, 0, 0, 0, 0, -1


@kernel("i8(i8[:, ::1], i8[::1], i8[::1], i8[::1], i8[::1], b1, i1[::1])")
@njit(cache=True)
def in_sight(links, at_start, at_link, need, end_flow, empty_ok, state):  # pragma: no cover - compiled
    """How many easy deductions are in sight on the board ``state``: cells with a forced move (tier 1) plus
    dead-end links (tier 2); 0 on a board with a loop or two flows joined.

    Parameters are :func:`first_step`'s; returns the count.
    """
    n, m = need.shape[0], links.shape[0]
    lines = np.empty(n, np.int64)
    free = np.empty(n, np.int64)
    trial_counts(links, state, lines, free)
    count = 0
    for v in range(n):
        if forced_trial(lines[v], free[v], need[v], empty_ok) != UNDECIDED:
            count += 1
    root = np.empty(n, np.int64)
    rflow = np.empty(n, np.int64)
    if trial_segments(links, state, end_flow, root, rflow, np.empty(2, np.int64)):
        return 0
    for e in range(m):
        if state[e] == UNDECIDED and dead_end_trial(links, root, rflow, e):
            count += 1
    return count
