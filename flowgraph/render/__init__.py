"""Showing puzzles and solutions.

* :mod:`.text` — the solved board as text (rich styles per flow);
* :mod:`.geometry` — where each cell is drawn, read from the links (square,
  hexagons by column or by row);
* :mod:`.scene` — a picture as primitives (cells, walls, outline, tunnels,
  pipes, bridges, dots) in the Flow Free palette;
* :mod:`.svg` — SVG (a string builder); :mod:`.raster` — PNG and the GIF of
  the search (Pillow, imported only there);
* :func:`animate` — solve with the search and keep up to ``frames`` of the
  states it expands.
"""

from __future__ import annotations

from ..model import Limits, Puzzle, Solution

__all__ = ["animate", "spaced"]


def spaced(frames: list, count: int) -> list:
    """At most ``count`` items of ``frames``, evenly spaced from the first.

    >>> spaced(list(range(10)), 3)
    [0, 4, 8]
    """
    step = max(1, -(-len(frames) // max(count, 1)))
    return frames[::step][:count]


def animate(puzzle: Puzzle, frames: int = 200, limits: Limits | None = None) -> tuple[Solution, list[dict]]:
    """Solve with the search, tracing it; the verified solution and up to ``frames`` evenly spaced frames.

    Each frame is the paths of one expanded state (per flow, its pieces);
    the last frame is the solution.

    Raises
    ------
    UnsolvableError, SearchLimitError
        From the search.
    ValueError
        ``frames`` below 2.
    """
    from ..engines import get_engine
    from ..verify import verify

    if frames < 2:
        raise ValueError("an animation needs at least 2 frames")
    seen: list[dict] = []
    solution = verify(get_engine("search").solve(puzzle, limits or Limits(), trace=seen.append))
    return solution, spaced(seen, frames - 1) + [{k: [list(v)] for k, v in solution.paths.items()}]
