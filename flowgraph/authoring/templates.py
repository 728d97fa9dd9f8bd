"""Templates: an empty board of any family and shape, as neighbor-link text to fill in.

>>> print(template("hex", 3, 2), end="")
HEX
.-.-.
|/|\\|
.-.-.
>>> print(template("standard", 3, 2, wrap="rows"), end="")
WARPS
.-.-.-
| | |
.-.-.-
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import PuzzleError
from ..io.grids import SAMGOLDMAN_HEX, grid_sketch
from ..io.sketch import draw_neighbor_link
from ..model import FAMILIES, LABELS, Family

__all__ = ["MAX_GENERATE_CELLS", "template", "board", "BoardShape", "read_mask", "WRAPS"]

#: The most cells a generated puzzle may have (30x30): past it a board needs more flows to have one solution than
#: the 62 labels there are (a 32x32 cover holds 62 paths or more; docs/benchmarks.md, "Generating large boards").
#: The command line and the Python API (:func:`flowgraph.generate`) both refuse more.
MAX_GENERATE_CELLS = 900

#: ``--wrap`` values: which edges wrap around.
WRAPS = ("rows", "cols", "both")


def read_mask(text: str, path: str | None = None) -> dict[tuple[int, int], str]:
    """The cells of a mask: a plain grid whose ``#`` or space cells are holes.

    ``*`` is a bridge and a label an endpoint; any other character is an
    empty cell. Trailing blank lines are ignored.

    Raises
    ------
    PuzzleError
        The mask has no cells, or a tab (its column is ambiguous).
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    cells = {}
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            if ch == "\t":
                raise PuzzleError("tab character: use spaces (a tab's column is ambiguous)", y + 1, x + 1, path)
            if ch not in "# ":
                cells[x, y] = ch if ch in LABELS or ch == "*" else "."
    if not cells:
        raise PuzzleError("the mask has no cells (# and spaces are holes)", 1, 1, path)
    return cells


@dataclass(frozen=True)
class BoardShape:
    """An empty board: its header word, its cells and which edges wrap (what templates and the generator share)."""

    header: str
    cells: dict  # (x, y) -> "." "*" or a label
    wrap_rows: bool = False
    wrap_cols: bool = False

    def sketch(self, labels: dict[tuple[int, int], str] | None = None):
        """The board's sketch, with endpoint labels placed (:func:`~flowgraph.io.grids.grid_sketch`)."""
        cells = dict(self.cells)
        cells.update(labels or {})
        sketch, _ = grid_sketch(cells, self.header, hex_down=SAMGOLDMAN_HEX if self.header == Family.HEX else None,
                                wrap_rows=self.wrap_rows, wrap_cols=self.wrap_cols)
        return sketch

    def text(self, labels: dict[tuple[int, int], str] | None = None) -> str:
        """The board as neighbor-link text, with endpoint labels placed."""
        return draw_neighbor_link(self.sketch(labels))

    def labelled(self, sketch, labels: dict) -> tuple:
        """Put endpoints on the board and read it back.

        ``(puzzle or None, problems)``: the board read back with endpoint ``labels`` on the nodes of ``sketch``
        (:meth:`sketch`'s), as the generator makes each candidate."""
        from ..io.neighbor_link import analyse

        placed = {}
        for node, label in labels.items():
            x, y = sketch.spots[node].xy or (0, 0)  # a grid board places every node
            placed[int(x), int(y)] = label
        return analyse(self.text(placed))


def board(
    family: str = "standard",
    width: int | None = None,
    height: int | None = None,
    *,
    mask: dict[tuple[int, int], str] | None = None,
    wrap: str | None = None,
    bridges: Sequence[tuple[int, int]] = (),
    holes: Sequence[tuple[int, int]] = (),
    endpoints: Sequence[tuple[str, tuple[int, int]]] = (),
) -> BoardShape:
    """An empty board of a family, size or mask, wraps, bridges, holes and endpoints (see :func:`template`).

    Raises
    ------
    ValueError
        As :func:`template`.
    """
    header = family.upper()
    if header not in FAMILIES:
        raise ValueError(f"unknown family {family!r}: expected one of {', '.join(f.lower() for f in FAMILIES)}")
    if wrap is not None and wrap not in WRAPS:
        raise ValueError(f"unknown wrap {wrap!r}: expected one of {', '.join(WRAPS)}")
    if mask is None:
        if not width or not height or width < 1 or height < 1:
            raise ValueError("a board needs a size (WxH) or a mask")
        cells = {(x, y): "." for x in range(width) for y in range(height)}
    else:
        cells = dict(mask)
        need_w, need_h = max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1
        if (width and width < need_w) or (height and height < need_h):
            raise ValueError(f"the mask is {need_w}x{need_h}: larger than the size {width}x{height}")
    for xy in holes:
        if xy not in cells:
            raise ValueError(f"hole r{xy[1] + 1}c{xy[0] + 1} is not a cell of the board")
        del cells[xy]
    if not cells:
        raise ValueError("the holes leave no cell")
    for label, xy in endpoints:
        if label not in LABELS or len(label) != 1:
            raise ValueError(f"endpoint label {label!r}: expected one of A-Z, a-z, 0-9")
        if xy not in cells:
            raise ValueError(f"endpoint {label} at r{xy[1] + 1}c{xy[0] + 1} is not a cell of the board")
        if cells[xy] != ".":
            raise ValueError(f"endpoint {label} at r{xy[1] + 1}c{xy[0] + 1}: the cell already holds {cells[xy]!r}")
        cells[xy] = label
    bridges = list(bridges)
    if header == Family.BRIDGES and not bridges and not any(ch == "*" for ch in cells.values()):
        xs = sorted({x for x, _ in cells})
        ys = sorted({y for _, y in cells})
        bridges = [(xs[len(xs) // 2], ys[len(ys) // 2])]
    for xy in bridges:
        if xy not in cells:
            raise ValueError(f"bridge r{xy[1] + 1}c{xy[0] + 1} is not a cell of the board")
        if cells[xy] not in ".*":
            raise ValueError(f"bridge r{xy[1] + 1}c{xy[0] + 1}: the cell holds endpoint {cells[xy]}")
        cells[xy] = "*"
    wrap = wrap or ("both" if header == Family.WARPS else None)
    if header == Family.STANDARD and wrap:
        header = Family.WARPS  # a wrapped square board is a warps board (other families keep their word)
    result = BoardShape(header, cells, wrap in ("rows", "both"), wrap in ("cols", "both"))
    _, lame = grid_sketch(cells, header, hex_down=SAMGOLDMAN_HEX if header == Family.HEX else None,
                          wrap_rows=result.wrap_rows, wrap_cols=result.wrap_cols)
    if lame:
        raise ValueError(f"bridge {lame[0][0]},{lame[0][1]} needs cells on both sides along - or |")
    return result


def template(
    family: str = "standard",
    width: int | None = None,
    height: int | None = None,
    *,
    mask: dict[tuple[int, int], str] | None = None,
    wrap: str | None = None,
    bridges: Sequence[tuple[int, int]] = (),
    holes: Sequence[tuple[int, int]] = (),
    endpoints: Sequence[tuple[str, tuple[int, int]]] = (),
) -> str:
    """An empty board as neighbor-link text, every link of its family drawn.

    Parameters
    ----------
    family : {"standard", "hex", "warps", "bridges"}
        Hex boards alternate by column as in ``corpus/samgoldman/hex``;
        ``warps`` wraps every row and column unless ``wrap`` says otherwise.
    width, height : int
        The size in cells (optional with a mask, which then sets it).
    mask : dict of (x, y) -> str, optional
        The cells that exist (:func:`read_mask`): any shape, with holes.
    wrap : {"rows", "cols", "both"}, optional
        Warps on any family (a wrapped square board is headed WARPS).
    bridges : list of (x, y)
        Cells to make bridges (``bridges`` with none gets one in the middle).
    holes : list of (x, y)
        Cells to leave out (as a mask's ``#``), 0-based column and row.
    endpoints : list of (label, (x, y))
        Endpoints to place (each label twice makes a flow).

    Returns
    -------
    str
        Valid text but for "no flows" when no endpoints are given.

    Raises
    ------
    ValueError
        An unknown family or wrap, no size, a size that does not fit the
        mask, a bridge that is not on the board or has no cells on both
        sides along ``-`` or ``|``, a hole or an endpoint off the board, an
        endpoint on a taken cell or with a label that is not one character
        of A-Z, a-z, 0-9.
    """
    return board(family, width, height, mask=mask, wrap=wrap, bridges=bridges, holes=holes,
                 endpoints=endpoints).text()
