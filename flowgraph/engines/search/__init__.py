"""The heap-ordered search engine (see :mod:`flowgraph.engines.search.heap`)."""

from ...model import Limits
from .board import Board, compile_puzzle
from .heap import solve
from .prune import prune_reason

__all__ = ["solve", "prune_reason", "Limits", "compile_puzzle", "Board"]
