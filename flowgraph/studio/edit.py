"""Edits of a board's structure, for the studio: cells in and out, bridges, links (walls), warps.

Each edit works on the board's sketch (:mod:`flowgraph.io.sketch`), read
from its neighbor-link text even while the board still has errors
(:func:`flowgraph.io.neighbor_link.draft`), and writes the text again with
:func:`~flowgraph.io.sketch.draw_neighbor_link`. Which places neighbour
each other comes from the board's own drawing (:mod:`flowgraph.render.geometry`),
so square, hex and warped boards edit alike.

>>> text = edit("STANDARD\\nA-.-A\\n| | |\\n.-.-.\\n", "cycle", xy=(1, 1))
>>> print(text, end="")
STANDARD
A-.-A
|   |
.   .
"""

from __future__ import annotations

import itertools

from ..io.grids import SAMGOLDMAN_HEX
from ..io.neighbor_link import draft
from ..io.sketch import PlacedNode, Sketch, draw_neighbor_link, sketch_of
from ..model import Family
from ..render.geometry import Geometry, geometry_of

__all__ = ["edit", "EditError", "ACTIONS"]

ACTIONS = ("cycle", "link", "warp-row", "warp-col")
_fresh = itertools.count(10**9)  # keys for new nodes (the text is drawn again, so keys only need to differ)


class EditError(ValueError):
    """The edit does not apply to this board (no board, not neighbours, a place off the board...)."""


def edit(text: str, action: str, *, xy: tuple[int, int] | None = None, to: tuple[int, int] | None = None,
         index: int | None = None) -> str:
    """The board's text after one edit.

    Parameters
    ----------
    text : str
        Neighbor-link text (errors allowed, a board must be there).
    action : {"cycle", "link", "warp-row", "warp-col"}
        ``cycle`` the place ``xy``: a cell (empty or an endpoint) becomes a
        hole, a hole a bridge, a bridge a cell; ``link`` adds or removes the
        link between the neighbouring places ``xy`` and ``to`` (no link is a
        wall); ``warp-row`` / ``warp-col`` adds or removes the warp of row
        (column) ``index``.
    xy, to : (int, int)
        Places on the board's grid (as in the sketch).

    Raises
    ------
    EditError
        No board in the text, an unknown action, places that are not
        neighbours, a row without two cells, or a board no text can draw.
    """
    board = draft(text)
    if board is None:
        raise EditError("there is no board to edit: start from a template")
    sketch = sketch_of(board)
    places: dict[tuple[int, int], list] = {}
    for key, spot in sketch.spots.items():
        if spot.xy is not None:  # always, for a sketch of neighbor-link text
            places.setdefault((round(spot.xy[0]), round(spot.xy[1])), []).append(key)
    geo = geometry_of({key: spot.xy for key, spot in sketch.spots.items()}, sketch.links)
    if geo.kind == "square" and sketch.family == Family.HEX:  # no diagonal left to read the layout from
        geo = Geometry("hex-columns", hex_down=SAMGOLDMAN_HEX)
    if action == "cycle":
        _cycle(sketch, places, geo, _place(xy))
    elif action == "link":
        _toggle_link(sketch, places, geo, _place(xy), _place(to))
    elif action in ("warp-row", "warp-col"):
        _toggle_warp(sketch, places, action == "warp-row", index)
    else:
        raise EditError(f"unknown edit {action!r}: expected one of {', '.join(ACTIONS)}")
    if not sketch.spots:
        raise EditError("that would leave no cell at all")
    try:
        return draw_neighbor_link(sketch)
    except ValueError as exc:
        raise EditError(str(exc)) from None


def _place(xy) -> tuple[int, int]:
    if not (isinstance(xy, (list, tuple)) and len(xy) == 2 and all(isinstance(v, int) for v in xy)):
        raise EditError("a place is [x, y], two whole numbers")
    return (xy[0], xy[1])


def _remove(sketch: Sketch, keys: list) -> set:
    """Take nodes out with their links; the places they were linked to."""
    gone = set(keys)
    linked = set()
    for pair in list(sketch.links):
        if pair & gone:
            linked |= {k for k in pair if k not in gone}
            del sketch.links[pair]
    for key in keys:
        del sketch.spots[key]
    return linked


def _cycle(sketch: Sketch, places: dict, geo, xy: tuple[int, int]) -> None:
    keys = places.get(xy, [])
    if keys and not sketch.spots[keys[0]].lane:  # a cell: a hole
        _remove(sketch, keys)
    elif keys:  # a bridge: a plain cell linked where its lanes were
        linked = _remove(sketch, keys)
        cell = (next(_fresh), 0)
        sketch.spots[cell] = PlacedNode(xy)
        for other in linked:
            sketch.link(cell, other)
    else:  # a hole: a bridge if it has cells on both sides along - and |, else a cell
        neighbours = {n: places[n] for n in geo.neighbours(xy) if n in places}
        x, y = xy
        axes = {"-": ((x - 1, y), (x + 1, y)), "|": ((x, y - 1), (x, y + 1))}
        if geo.kind == "square" and all(a in neighbours and b in neighbours for a, b in axes.values()):
            for axis, ends in axes.items():
                lane = (next(_fresh), 0, axis)
                sketch.spots[lane] = PlacedNode(xy, None, axis)
                for end in ends:
                    sketch.link(lane, _node_toward(sketch, neighbours[end], axis))
        else:
            if not neighbours:
                raise EditError(f"the place {xy} has no neighbouring cell to link to")
            cell = (next(_fresh), 0)
            sketch.spots[cell] = PlacedNode(xy)
            for n, keys_there in neighbours.items():
                axis = "-" if n[1] == y else "|" if n[0] == x else ""
                sketch.link(cell, _node_toward(sketch, keys_there, axis))


def _node_toward(sketch: Sketch, keys: list, axis: str):
    """The node at a place that a link along ``axis`` reaches: a bridge's lane on that axis, else the cell."""
    for key in keys:
        if sketch.spots[key].lane in (None, axis):
            return key
    return keys[0]


def _toggle_link(sketch: Sketch, places: dict, geo, a: tuple[int, int], b: tuple[int, int]) -> None:
    if b not in geo.neighbours(a):
        raise EditError(f"{a} and {b} are not neighbours")
    if a not in places or b not in places:
        raise EditError("a link joins two cells: one of these places is a hole")
    axis = "-" if a[1] == b[1] else "|" if a[0] == b[0] else ""
    u, v = _node_toward(sketch, places[a], axis), _node_toward(sketch, places[b], axis)
    pair = frozenset((u, v))
    if pair in sketch.links:
        del sketch.links[pair]
    else:
        sketch.link(u, v)


def _toggle_warp(sketch: Sketch, places: dict, row: bool, index) -> None:
    if not isinstance(index, int):
        raise EditError("a warp edit needs the row's or column's index")
    line = sorted(p for p in places if (p[1] if row else p[0]) == index)
    if len(line) < 3:
        raise EditError(f"{'row' if row else 'column'} {index} needs three cells or more to wrap")
    first, last = line[0], line[-1]
    axis = "-" if row else "|"
    u, v = _node_toward(sketch, places[first], axis), _node_toward(sketch, places[last], axis)
    pair = frozenset((u, v))
    if pair in sketch.links:
        del sketch.links[pair]
    else:
        sketch.link(u, v, warp=True)
