"""The search state: what one node of the search holds."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from .board import Board
from .passes.codes import ACTIVE


# A state is a list: [color, heads, done, free, decisions, last, at, discrepancies]
#   color      bytearray, per node: 0 free, k + 1 for flow k, | ACTIVE on heads
#   heads      list of 2 * nflows persistent lists (node, rest): the path
#              grown from each end, head first; flow k owns slots 2k, 2k+1
#   done       bitmask of finished flows
#   free       number of free nodes
#   decisions  branching moves made so far (forced moves are free)
#   last       slot of the head moved by the last branching decision, or -1
#   at         int64 array: the node of every slot's head (for the compiled passes)
#   discrepancies  over the branching decisions, the rank of the move taken
#              among its surviving siblings (0: the preferred move)
COLOR, HEADS, DONE, FREE, DECISIONS, LAST, AT, DISCREPANCIES = range(8)



def _root(board: Board) -> list:
    color = bytearray(len(board.nodes))
    heads = []
    for k, (a, b) in enumerate(board.ends):
        color[a] = color[b] = (k + 1) | ACTIVE
        heads += [(a, None), (b, None)]
    free = sum(1 for c in color if c == 0)
    return [color, heads, 0, free, 0, -1, np.array([cons[0] for cons in heads], np.int64), 0]  # DISCREPANCIES last



def _unwind(cons: tuple | None) -> Iterator[int]:
    while cons is not None:
        yield cons[0]
        cons = cons[1]
