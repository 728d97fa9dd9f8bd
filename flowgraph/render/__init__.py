"""Showing puzzles and solutions.

* :mod:`.text` — the solved board as text (rich styles per flow);
* :mod:`.geometry` — where each cell is drawn, read from the links (square,
  hexagons by column or by row);
* :mod:`.scene` — a picture as primitives (cells, walls, outline, tunnels,
  pipes, bridges, dots) in the Flow Free palette;
* :mod:`.svg` — SVG (a string builder); :mod:`.raster` — PNG and the GIF of
  the search (Pillow, imported only there);
* :func:`animate` — solve with the search and keep up to ``frames`` of the
  states it expands;
* :func:`draw` — any of these by name (:meth:`Puzzle.render <flowgraph.model.Puzzle.render>`).

The other modules: :mod:`.draw`, a puzzle or a solution drawn by name; :mod:`.outlined`, the picture of a
board drawn by its cells' own outlines.
"""

from __future__ import annotations

from ..model import Limits, Puzzle, Solution
from .draw import DRAWINGS, draw

__all__ = ["animate", "draw", "spaced", "FrameSampler", "DRAWINGS"]

class FrameSampler:
    """Keeps evenly spaced items of a stream of unknown length in memory proportional to ``count``.

    Every item is offered with :meth:`add`; the sampler keeps every
    ``stride``-th, and when it holds ``2 * count`` it drops every other one
    and doubles the stride. A search of millions of states so keeps at most
    ``2 * count`` frames.

    >>> sampler = FrameSampler(3)
    >>> for i in range(100):
    ...     sampler.add(i)
    >>> sampler.frames()
    [0, 32, 64]
    """

    def __init__(self, count: int):
        self.count = max(count, 1)
        self.stride = 1
        self.seen = 0
        self.kept: list = []

    def add(self, item) -> None:
        """Keep ``item`` if it falls on the stride; halve what is kept when it doubles the count."""
        if self.seen % self.stride == 0:
            self.kept.append(item)
            if len(self.kept) >= 2 * self.count:
                self.kept = self.kept[::2]
                self.stride *= 2
        self.seen += 1

    def frames(self) -> list:
        """At most ``count`` of the items kept, evenly spaced from the first."""
        return spaced(self.kept, self.count)


def spaced(frames: list, count: int) -> list:
    """At most ``count`` items of ``frames``, evenly spaced from the first.

    >>> spaced(list(range(10)), 3)
    [0, 3, 6]
    """
    if len(frames) <= count:
        return list(frames)
    return [frames[i * len(frames) // count] for i in range(count)]


def animate(puzzle: Puzzle, frames: int = 200, limits: Limits | None = None) -> tuple[Solution, list[dict]]:
    """Solve with the search, tracing it; the verified solution and up to ``frames`` frames.

    Each frame is the paths of one expanded state (per flow, its pieces), evenly spaced; the
    frames left over draw the solution flow by flow, each growing from its first endpoint. An
    easy board, which the search solves in a state or two, starts from the empty board instead
    of those states. The last frame is the solution.

    Raises
    ------
    UnsolvableError, SearchLimitError
        From the search.
    ValueError
        ``frames`` below 2.
    """
    from ..engines import get_engine
    from ..verification import verify

    if frames < 2:
        raise ValueError("an animation needs at least 2 frames")
    sampler = FrameSampler(frames - 1)
    solution = verify(get_engine("search").solve(puzzle, limits or Limits(), trace=sampler.add))
    searched = sampler.frames()
    if len(searched) < 3:  # a state or two: deductions alone solved it, and its frame would show the answer first
        searched = [{}]  # the empty board
    drawn = _drawing(solution, frames - 1 - len(searched))
    return solution, searched + drawn + [{k: [list(v)] for k, v in solution.paths.items()}]


def _drawing(solution: Solution, count: int) -> list[dict]:
    """At most ``count`` frames of the solution drawn a flow at a time, each from its first endpoint on."""
    paths = list(solution.paths.items())
    steps = [(i, n) for i, (_, path) in enumerate(paths) for n in range(2, len(path) + 1)][:-1]  # (the last: the
    # solution frame itself)
    out = []
    for i, n in spaced(steps, max(0, count)):
        frame = {label: [list(path)] for label, path in paths[:i]}
        frame[paths[i][0]] = [list(paths[i][1][:n])]
        out.append(frame)
    return out
