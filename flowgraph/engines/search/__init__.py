"""The heap-ordered search engine (see :mod:`flowgraph.engines.search.heap`)."""

from .heap import Board, Limits, compile_puzzle, prune_reason, solve

__all__ = ["solve", "prune_reason", "Limits", "compile_puzzle", "Board"]
