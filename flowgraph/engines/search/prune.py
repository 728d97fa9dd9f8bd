"""Why the search would drop a state given by hand: a debugging and teaching aid."""

from __future__ import annotations

import time

import numpy as np

from ...model import Limits, Node, Puzzle
from .board import compile_puzzle
from .heap import DeadState, HeapSearch
from .state import State

__all__ = ["prune_reason"]


def prune_reason(
    puzzle: Puzzle,
    partial: dict[str, tuple[tuple[Node, ...], tuple[Node, ...]]],
    heuristic: bool = True,
) -> str | None:
    """Why the search would drop a partial state, or None if it keeps it.

    A debugging and teaching aid: it runs the same forced moves and
    prunings as :func:`~flowgraph.engines.search.solve` on a state given by hand.

    Parameters
    ----------
    puzzle : Puzzle
    partial : dict
        For some labels, the cells grown so far from each endpoint, as two
        sequences starting at ``flow.ends[0]`` and ``flow.ends[1]``. Flows
        not named start at their endpoints.
    heuristic : bool
        Apply the self-touch rule and the loose-bend test.

    Returns
    -------
    str or None
        ``"no moves"``, ``"dead end"``, ``"two flows meet"``, ``"stranded
        region"``, ``"stranded flow"``, ``"bottleneck"``, ``"dead pocket"``,
        ``"parity"``, ``"chokepoint"`` (walked from every head),
        ``"unfilled cells"``, ``"loose bend"``, ``"closed loop"`` or
        ``"self-touch"``; None when the state survives.

    Raises
    ------
    KeyError
        A label or a cell that is not in the puzzle.
    """
    board = compile_puzzle(puzzle)
    index = {n: i for i, n in enumerate(board.nodes)}
    st = State.root(board)
    search = HeapSearch(board, heuristic, Limits(), time.perf_counter(), 0)
    for k, flow in enumerate(puzzle.flows):
        for end, cells in enumerate(partial.get(flow.label, ((), ()))):
            slot = 2 * k + end
            for node in list(cells)[1:]:
                st.step(slot, index[node])
    try:
        search.settle(st, np.arange(len(st.color), dtype=np.int64))
        for slot in range(2 * len(board.ends)):
            search.chokepoints(st, slot)
    except DeadState as dead:
        return str(dead)
    return None
