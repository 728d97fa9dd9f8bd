"""A square level's board drawn row by row (level_pack._draw_square) is the sketch's drawing, node for node, holes and
walls too."""

from __future__ import annotations

import random

import pytest

from flowgraph.io import level_pack
from flowgraph.io.grids import grid_sketch
from flowgraph.io.sketch import draw_placed
from flowgraph.model import Family


def _boards() -> list[tuple[dict, int, int, frozenset]]:
    rng = random.Random(56)
    out = []
    for width, height in [(1, 1), (1, 3), (3, 1), (2, 2), (5, 5), (7, 4), (9, 12)]:
        for holes in (0.0, 0.15, 0.4):
            cells = {(x, y): rng.choice(".AB") for y in range(height) for x in range(width) if rng.random() >= holes}
            if holes and len(cells) < 2:
                continue
            if holes:  # a row and a column of holes at the top and left too: the drawing leaves them out
                cells = {xy: ch for xy, ch in cells.items() if xy[1] or rng.random() < 0.5}
            if cells:
                out.append((cells, width, height, frozenset()))
                pairs = [frozenset((a, b)) for a in cells for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1)) if b in cells]
                out.append((cells, width, height, frozenset(p for p in pairs if rng.random() < 0.3)))
    return out


@pytest.mark.parametrize("cells, width, height, walls", _boards())
def test_a_square_level_is_drawn_as_the_sketch_draws_it(cells, width, height, walls):
    sketch, _ = grid_sketch(cells, Family.STANDARD, walls=walls)
    text, nodes = draw_placed(sketch)
    assert level_pack._draw_square(cells, width, height, walls) == (
        text, {(*spot.xy, spot.lane): nodes[key] for key, spot in sketch.spots.items()})
