"""Solutions as text (the puzzle's own layout, filled in) and as JSON."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from ..errors import ConversionError
from ..io.neighbor_link import text_drawing
from ..model import LABELS, Node, Puzzle, Solution, position

__all__ = ["solution_grid", "solution_text", "board_text", "board_labels", "as_neighbor_link", "flow_style", "board_rows",
           "PALETTE"]

#: Flow Free's colour order, then more distinct colours for bigger packs.
PALETTE = (
    "red", "green", "blue", "yellow", "dark_orange", "cyan", "magenta", "dark_red",
    "purple", "white", "grey62", "bright_green", "wheat1", "navy_blue", "dark_cyan",
    "hot_pink", "gold3", "spring_green2", "deep_sky_blue1", "orchid", "salmon1",
    "chartreuse3", "slate_blue1", "tan", "light_coral", "aquamarine1",
)


def flow_style(label: str) -> str:
    """Rich style for a flow's label, stable across runs: the label's rank picks the colour."""
    return "bold " + PALETTE[LABELS.find(label) % len(PALETTE)]


def board_rows(puzzle: Puzzle) -> range:
    """Lines (0-based) that may hold board characters: everything after the header."""
    first = min(position(n)[0] for n in puzzle.board.dicts()[1])
    return range(first - 1, len(puzzle.lines))


def solution_grid(solution: Solution) -> list[list[tuple[str, str | None]]]:
    """The solved board as characters with the label of the flow they belong to.

    Returns
    -------
    list of list of (char, label or None)
        One list per source line from the first board line on: every ``.``
        replaced by its flow's label, ``*`` kept, every link no path uses
        replaced by a space. Comment lines are kept as they are.
    """
    return _grid(*_on_text(solution.puzzle, solution.paths.items()))


def _grid(puzzle: Puzzle, paths: Iterable[tuple[str, Sequence[Node]]]) -> list[list[tuple[str, str | None]]]:
    """:func:`solution_grid` of a neighbor-link ``puzzle`` with these (label, path) pieces drawn."""
    around = puzzle.board.dicts()[1]  # the links' places without a networkx graph: `solve` never imports it
    owner: dict[tuple[int, int], str] = {}
    used: dict[tuple[int, int], str] = {}
    for label, path in paths:
        for node in path:
            owner.setdefault(position(node), label)
        for u, v in zip(path, path[1:]):
            used[around[u][v]["links"][0]] = label
    links = {pos for neighbours in around.values() for link in neighbours.values() for pos in link["links"]}
    rows = []
    for i in board_rows(puzzle):
        line = puzzle.lines[i]
        out: list[tuple[str, str | None]] = []
        for j, ch in enumerate(line):
            pos = (i + 1, j + 1)
            if pos in owner:
                out.append((owner[pos] if ch == "." else ch, owner[pos] if ch != "*" else None))
            elif pos in used:
                out.append((ch, used[pos]))
            elif pos in links:
                out.append((" ", None))
            else:
                out.append((ch, None))
        rows.append(out)
    while rows and not "".join(ch for ch, _ in rows[-1]).strip():
        rows.pop()
    return rows


def board_text(solution: Solution, lines: Iterable[tuple[Node, Node]], color: bool = False) -> Text:
    """A board part way through solving, as text: the endpoints and the ``lines`` decided so far.

    Parameters
    ----------
    solution : Solution
        The solution the lines belong to (it names each line's flow, for its label and colour).
    lines : iterable of (Node, Node)
        Links of ``solution``'s paths, in the puzzle's own nodes.
    color : bool
        Style each flow with its colour.

    Raises
    ------
    ConversionError
        The board has no 2-D drawing (a 3-D JSON graph, say).
    """
    flow_of = {frozenset(pair): label for label, path in solution.paths.items() for pair in zip(path, path[1:])}
    pieces: list[tuple[str, Sequence[Node]]] = [(flow_of.get(frozenset(pair), "?"), tuple(pair)) for pair in lines]
    pieces += [(flow.label, (end,)) for flow in solution.puzzle.flows for end in flow.ends]
    puzzle, pieces = _on_text(solution.puzzle, pieces)
    hexes = _hex_layout(puzzle)
    return _styled(_grid(puzzle, pieces) if hexes is None else _hex_grid(puzzle, pieces, hexes), color)


def board_labels(puzzle: Puzzle) -> tuple[dict[int, int], dict[int, int]]:
    """Where :func:`board_text`'s lines and characters meet the board's rows and columns.

    Returns
    -------
    rows : dict of int -> int
        Line of the text (0-based) -> the board row its cells are in (1-based, as
        :attr:`flowgraph.model.Puzzle.cell_places` counts them).
    columns : dict of int -> int
        Character of a line (0-based) -> the board column of the cells there.

    Raises
    ------
    ConversionError
        As :func:`board_text`.
    """
    puzzle = text_drawing(puzzle)[0]
    first = board_rows(puzzle).start + 1
    hexes = _hex_layout(puzzle)
    rows: dict[int, int] = {}
    columns: dict[int, int] = {}
    for node, place in puzzle.cell_places.items():
        if place is None:
            continue
        if hexes is None:
            rows[node[0] - first], columns[node[1] - 1] = place
            continue
        (line, char), row_here, column_here = hexes[node]
        if row_here:  # a zigzag row or column is numbered where its first half is drawn
            rows.setdefault(line, place[0])
        if column_here:
            columns.setdefault(char, place[1])
    return rows, columns


def _hex_layout(puzzle: Puzzle) -> dict[Node, tuple[tuple[int, int], bool, bool]] | None:
    """Where a hexagonal board's cells go in text, as the renderer lays them out (:mod:`.geometry`), or None for
    a board of squares, warps or bridges (drawn as its neighbor-link text).

    Each node: ((line, character), row here, column here), 0-based. Columns of hexagons (``hex-columns``): two
    lines a row, the column parity the renderer draws lower one line down, two characters a column; rows of
    hexagons (``hex-rows``): two lines a row, four characters a column, a row shifted half a cell two characters
    right. "Here": the node's line (character) is where the rulers number its zigzag row (column): the upper
    columns' line, the unshifted rows' characters.
    """
    from .geometry import board_links, geometry_of

    links = board_links(puzzle)
    if any(links.values()) or any(len(node) == 3 for node in puzzle.places):
        return None
    geo = geometry_of(puzzle.places, links)
    if geo.kind == "square":
        return None
    xys = {node: xy for node, xy in puzzle.places.items() if xy is not None and len(xy) == 2}
    x0 = min(x for x, _ in xys.values())
    y0 = min(y for _, y in xys.values())
    out = {}
    for node, (x, y) in xys.items():
        if geo.kind == "hex-columns":
            down = int(x) % 2 == geo.hex_down
            out[node] = ((2 * round(y - y0) + down, 2 * round(x - x0)), not down, True)
        else:
            shift = (geo.row_shift or {}).get(int(y), 0.0)
            out[node] = ((2 * round(y - y0), round(4 * (x - x0 + shift))), True, shift == 0)
    least = min(char for (_, char), _, _ in out.values())
    return {node: ((line, char - least), row_here, column_here)
            for node, ((line, char), row_here, column_here) in out.items()}


def _hex_grid(puzzle: Puzzle, pieces: Iterable[tuple[str, Sequence[Node]]],
              layout: dict[Node, tuple[tuple[int, int], bool, bool]]) -> list[list[tuple[str, str | None]]]:
    """:func:`_grid` for a hexagonal board laid out by :func:`_hex_layout`: cells and the links drawn between them
    (``|`` and ``-`` straight, ``/`` and ``\\`` slanting); links no piece uses are left out."""
    at = {node: spot for node, (spot, _, _) in layout.items()}
    height = max(line for line, _ in at.values()) + 1
    width = max(char for _, char in at.values()) + 2
    rows: list[list[tuple[str, str | None]]] = [[(" ", None)] * width for _ in range(height)]
    for line, char in at.values():
        rows[line][char] = (".", None)
    for label, piece in pieces:
        for node in piece:
            line, char = at[node]
            rows[line][char] = (label, label)
        for u, v in zip(piece, piece[1:]):
            (a, b), (c, d) = sorted((at[u], at[v]), key=lambda p: (p[1], p[0]))  # the left one first
            if b == d:
                rows[min(a, c) + 1][b] = ("|", label)
            elif a == c:
                rows[a][(b + d) // 2] = ("-", label)
            elif (c - a) % 2 and d - b == 2:  # columns of hexagons: one line apart, on the upper one's line
                rows[min(a, c)][b + 1] = ("\\" if a < c else "/", label)
            else:  # rows of hexagons: two lines apart, between them
                rows[(a + c) // 2][(b + d) // 2] = ("\\" if a < c else "/", label)
    return rows


def _styled(rows: list[list[tuple[str, str | None]]], color: bool) -> Text:
    """Grid rows (:func:`solution_grid`'s) as text, each flow in its colour when ``color``."""
    text = Text()
    for row in rows:
        for ch, owner in row:
            text.append(ch, style=flow_style(owner) if color and owner else "")
        text.append("\n")
    return text


def _on_text(puzzle: Puzzle, pieces: Iterable[tuple[str, Sequence[Node]]]) -> tuple[Puzzle, list[tuple[str, Sequence[Node]]]]:
    """The board as neighbor-link text (:func:`flowgraph.io.neighbor_link.text_drawing`), the pieces on it."""
    drawn, node_at = text_drawing(puzzle)
    if node_at is None:
        return drawn, list(pieces)
    return drawn, [(label, tuple(node_at[n] for n in piece)) for label, piece in pieces]


def as_neighbor_link(solution: Solution) -> Solution:
    """The solution on its board drawn as neighbor-link text (for puzzles read from other formats).

    Raises
    ------
    ConversionError
        The board has no 2-D drawing (a 3-D JSON graph, say).
    """
    drawn, node_at = text_drawing(solution.puzzle)
    if node_at is None:
        return solution
    paths = {label: tuple(node_at[n] for n in path) for label, path in solution.paths.items()}
    return Solution(drawn, paths, solution.engine, solution.stats)


def solution_text(solution: Solution, color: bool = False) -> Text:
    """The solved board as docs/format.md's text output (a rich ``Text``).

    A puzzle read from another format is drawn as neighbor-link text; one no
    text can draw (a shape board, a 3-D board) lists each path's cells by the
    names a player reads (``A: ring 1 sector 1, ring 1 sector 2, ...``, or
    ``r3c5``: :func:`flowgraph.io.sketch.cell_namer`).

    Parameters
    ----------
    solution : Solution
    color : bool
        Style each flow with its colour (the console still decides whether
        colour reaches the screen).
    """
    text = Text()
    try:
        rows = solution_grid(solution)
    except ConversionError:  # no text draws this board: list the paths, each cell by its name
        from ..io.sketch import cell_namer

        name = cell_namer(solution.puzzle)
        for label, path in solution.paths.items():
            text.append(label, style=flow_style(label) if color else "")
            text.append(": " + ", ".join(name(n) for n in path) + "\n")
        return text
    return _styled(rows, color)


