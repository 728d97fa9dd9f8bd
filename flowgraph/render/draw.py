"""Draw a puzzle or a solution in the format named.

A puzzle or a solution drawn by name (:func:`draw`): what :meth:`Puzzle.render <flowgraph.model.Puzzle.render>`
and :meth:`Solution.render <flowgraph.model.Solution.render>` call. Each drawing's module is imported when asked."""

from __future__ import annotations

from typing import Any

from ..model import Puzzle, Solution

__all__ = ["draw", "DRAWINGS"]

#: The names :func:`draw` takes.
DRAWINGS = ("svg", "png", "text")


def draw(board: Puzzle | Solution, fmt: str = "svg", **options: Any) -> str | bytes:
    """A puzzle or a solution drawn as ``svg`` (a str), ``png`` (bytes) or ``text``.

    Parameters
    ----------
    board : Puzzle or Solution
        A puzzle draws its endpoints; a solution its pipes.
    fmt : {"svg", "png", "text"}
        ``text`` is the board in docs/format.md's text: a puzzle's neighbor-link text (as
        ``flowgraph convert --to neighbor-link`` writes it), a solution as ``flowgraph solve`` prints it.
    **options
        For ``svg`` and ``png``: ``theme`` (``dark``, ``light``), ``cell_px``, ``labels`` (as
        :func:`.svg.svg`); ``text`` takes none.

    Returns
    -------
    str or bytes

    Raises
    ------
    ValueError
        Unknown ``fmt``, or options ``text`` does not take.
    ConversionError
        The board has no 2-D drawing (a 3-D JSON graph, say).

    Examples
    --------
    >>> from flowgraph import parse_text, solve
    >>> print(draw(solve(parse_text("STANDARD\\nA-.-A\\n")), "text"), end="")
    A-A-A
    >>> draw(parse_text("STANDARD\\nA-.-A\\n")).startswith("<svg")
    True
    """
    if fmt == "svg":
        from .svg import svg

        return svg(board, **options)
    if fmt == "png":
        from .raster import png

        return png(board, **options)
    if fmt != "text":
        raise ValueError(f"unknown drawing {fmt!r}: expected one of {', '.join(DRAWINGS)}")
    if options:
        raise ValueError(f"a text drawing takes no options (given: {', '.join(options)})")
    if isinstance(board, Solution):
        from .text import solution_text

        return solution_text(board).plain
    if board.drawing.text_rows is not None:
        return "\n".join(board.lines) + "\n"  # its own text is its drawing, comments and all
    from ..io.sketch import draw_neighbor_link, sketch_of

    return draw_neighbor_link(sketch_of(board))
