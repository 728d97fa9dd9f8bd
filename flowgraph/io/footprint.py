"""What reading, solving and drawing a board cost in memory, known from its text before any of it is done.

A short puzz.link URL names a large board and a text of a few megabytes a million cells; reading a
board costs some kilobytes a cell (the parse tree, the cell graph, the checks), solving it more,
and drawing it as PNG some bytes a pixel (the constants below). Each door (a command's input, a
studio request) weighs what it is asked to do with :func:`cells_bound` and these costs
against a memory budget before it starts, so nothing it is given can take more than that
budget (``--memory-limit``; the studio's :data:`flowgraph.studio.app.MEMORY_BUDGET`).

The costs were measured as the peak resident memory one request added in a fresh process
(``python bench/memory_costs.py``; the figures are in docs/benchmarks.md, "Design measurements").
"""

from __future__ import annotations

import re

__all__ = ["cell_characters", "READ_BYTES_PER_CELL", "SOLVE_BYTES_PER_CELL", "PNG_BYTES_PER_PIXEL", "SCAN_BYTES_PER_PIXEL",
           "BASE_BYTES", "cells_bound", "reading_bytes", "solving_bytes", "over_budget"]

#: Memory reading one cell takes (bytes): the parse tree, the cell graph and the checks.
READ_BYTES_PER_CELL = 2_100
#: Memory solving or counting takes per cell (bytes), on top of reading: the SAT model and the search's states.
SOLVE_BYTES_PER_CELL = 32_000
#: Memory one pixel of a PNG takes while it is drawn (bytes): drawn at twice the size, then scaled down.
PNG_BYTES_PER_PIXEL = 30
#: Memory one pixel of a picture takes while it is scanned (bytes): decoded, then scaled down.
SCAN_BYTES_PER_PIXEL = 15
#: Memory any request or input costs before its size counts (bytes): a first read loads the parser's tables.
BASE_BYTES = 48 * 1024 * 1024

# One character per cell at least: a label, '.', a bridge '*', a digit of a numberlink grid. Counted by deleting
# every other byte (bytes.translate: 3 ms for 4 MB, where a regular expression took 60 ms holding the GIL).
_NOT_CELL_BYTES = bytes(b for b in range(256) if not (chr(b) in ".*" or chr(b).isascii() and chr(b).isalnum()))
# A puzz.link URL's board size (its text is far shorter than its board): pid, optional "v:", W, H.
_URL_SIZE = re.compile(r"(?:puzz\.link/p|pzv\.jp/p(?:\.html)?)\?[A-Za-z0-9_]+/(?:v:/)?([0-9]{1,9})/([0-9]{1,9})")


def cells_bound(text: str) -> int:
    """An upper bound on the cells every board in ``text`` has together, in one pass over the text.

    Every format spends one character or more on a cell (a JSON graph one object, ``{``), except a
    puzz.link URL, whose size is read from it.

    Parameters
    ----------
    text : str
        Puzzle text in any format :mod:`flowgraph.io.formats` reads (a file of them, a level pack).

    Returns
    -------
    int
        Cells (0 for text with no board).

    Examples
    --------
    >>> cells_bound("STANDARD\\nA-.-A\\n")
    11
    >>> cells_bound("https://puzz.link/p?numlin/200/200/1zzzz1")
    40000
    """
    urls = sum(int(w) * int(h) for w, h in _URL_SIZE.findall(text))
    if urls:
        return urls
    if text.lstrip()[:1] == "{":
        return text.count("{")
    return cell_characters(text)


def cell_characters(text: str) -> int:
    """How many cell characters (``.``, ``*``, ASCII letters and digits) ``text`` holds, counted in C.

    >>> cell_characters("STANDARD\\nA-.-A  // é\\n")
    11
    """
    return len(text.encode("utf-8", "surrogatepass").translate(None, _NOT_CELL_BYTES))


def reading_bytes(cells: int) -> int:
    """Memory reading and checking a board of ``cells`` cells takes (bytes)."""
    return BASE_BYTES + cells * READ_BYTES_PER_CELL


def solving_bytes(cells: int) -> int:
    """Memory reading and solving (or counting) a board of ``cells`` cells takes (bytes)."""
    return reading_bytes(cells) + cells * SOLVE_BYTES_PER_CELL


def over_budget(needed: int, budget: int | None, cells: int, what: str = "reading", how: str = "--memory-limit"
                ) -> str | None:
    """Why a board of ``cells`` cells that takes ``needed`` bytes is refused under ``budget`` bytes, or None.

    Parameters
    ----------
    needed, budget : int
        Bytes (``budget`` None: no bound).
    cells : int
        The board's cells (for the message).
    what : str
        What the memory is for: "reading", "solving", "drawing".
    how : str
        How the user raises the budget, named in the message.
    """
    if budget is None or needed <= budget:
        return None
    return (f"{what} this board ({cells:,} cells or fewer) takes about {needed / 2**20:,.0f} MB, over the memory "
            f"budget of {budget / 2**20:,.0f} MB ({how})")
