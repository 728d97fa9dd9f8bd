"""The grid readers' array path (flowgraph/io/grid_arrays.py) gives exactly what the sketch path gives."""

from __future__ import annotations

import random

import pytest

from flowgraph import parse_file
from flowgraph.io import grid_arrays, numberlink, plain_grid
from flowgraph.io.formats import write
from tests.helpers import BUNDLED, corpus_files

READERS = {"plain-grid": plain_grid.analyse_plain_grid, "numberlink": numberlink.analyse_numberlink}


def _read(fmt: str, text: str, monkeypatch, arrays: bool):
    with monkeypatch.context() as patch:
        if not arrays:
            patch.setattr(plain_grid, "square_grid_puzzle", lambda *args: None)
            patch.setattr(numberlink, "square_grid_puzzle", lambda *args: None)
        puzzle, problems = READERS[fmt](text, "x")
    if puzzle is None:
        return None, problems
    graph, index = puzzle.graph, puzzle.cell_index
    return (list(graph.nodes(data=True)), list(graph.edges(data=True)), index.nodes, index.links.tolist(),
            list(index.order), puzzle.flows, puzzle.family, puzzle.format), problems


def _texts() -> list[tuple[str, str]]:
    """The square bundled boards and some corpus boards in both formats, and mutants of each (a cell made a
    hole or a label, a label dropped, a row cut short): errors too must come out the same."""
    rng = random.Random(56)
    out = []
    for path in [*BUNDLED, *corpus_files("numberlink/janko_*")[:40]]:
        puzzle = parse_file(path)
        for fmt in READERS:
            try:
                text = write(puzzle, fmt)
            except Exception:  # a board the format cannot hold (hex, warps, bridges)
                continue
            out.append((fmt, text))
            lines = text.splitlines()
            for _ in range(3):
                row = rng.randrange(1, len(lines))
                chars = list(lines[row])
                spot = rng.randrange(len(chars))
                if fmt == "plain-grid":
                    chars[spot] = rng.choice("#.AZ")
                else:
                    chars[spot] = rng.choice("0123") if chars[spot] != " " else " "
                mutant = [*lines[:row], "".join(chars), *lines[row + 1:]]
                out.append((fmt, "\n".join(mutant) + "\n"))
    return out


@pytest.mark.parametrize("fmt, text", _texts())
def test_the_array_path_reads_as_the_sketch_does(fmt, text, monkeypatch):
    assert _read(fmt, text, monkeypatch, arrays=True) == _read(fmt, text, monkeypatch, arrays=False)


def test_the_array_path_takes_the_common_case_and_leaves_the_rest():
    cells = {(0, 0): "A", (1, 0): ".", (2, 0): "A"}
    keys = {xy: (2, xy[0] + 1) for xy in cells}
    assert grid_arrays.square_grid_puzzle(cells, keys, ("A.A",), None, "plain-grid", (1, 1)) is not None
    assert grid_arrays.square_grid_puzzle({**cells, (1, 0): "*"}, keys, ("A*A",), None, "plain-grid", (1, 1)) is None
    backwards = dict(reversed(keys.items()))
    assert grid_arrays.square_grid_puzzle(cells, backwards, ("A.A",), None, "plain-grid", (1, 1)) is None


def test_a_sparse_board_takes_the_sketch_so_memory_follows_the_cells():
    """One row of 100,000 cells under 1,000 rows of one: the array path would allocate 10**8 places."""
    cells = {(0, y): "." for y in range(1000)} | {(x, 1000): "." for x in range(100_000)}
    keys = {xy: (xy[1] + 1, xy[0] + 1) for xy in cells}
    assert grid_arrays.square_grid_puzzle(cells, keys, (), None, "plain-grid", (1, 1)) is None
