"""Issue 70, the first shape: a ring of sectors, a JSON graph whose cells carry their outlines and names, read,
written, solved, named and drawn as the shape it is."""

from __future__ import annotations

import json

import pytest

from flowgraph import parse_file, read, solve, write
from flowgraph.authoring.shapes import cube, ring
from flowgraph.cli import main
from tests.helpers import PUZZLES

SHAPES = sorted((PUZZLES / "shapes").glob("*.json"))


@pytest.mark.parametrize("rings, sectors, centre", [(1, 3, False), (2, 8, False), (3, 12, True), (5, 40, True)])
def test_a_ring_template_has_its_cells_links_outlines_and_names(rings, sectors, centre):
    doc = json.loads(ring(rings, sectors, centre))
    cells = rings * sectors + centre
    assert len(doc["nodes"]) == cells
    assert len(doc["links"]) == rings * sectors + (rings - 1) * sectors + (sectors if centre else 0)
    names = [node["name"] for node in doc["nodes"]]
    assert len(set(names)) == cells and ("centre" in names) == centre and f"ring {rings} sector {sectors}" in names
    corners = {}
    for node in doc["nodes"]:  # two linked cells share a side: corners the same, to the bit
        corners[node["id"]] = {tuple(p) for p in node["outline"]}
    for a, b in doc["links"]:
        assert len(corners[a] & corners[b]) >= 2, (a, b)


@pytest.mark.parametrize("board", SHAPES, ids=lambda p: p.stem)
def test_a_shape_board_reads_writes_and_reads_back_the_same_with_its_drawing(board):
    puzzle = parse_file(board)
    again = read(write(puzzle, "json-graph"), "json-graph")
    assert again.drawing.outlines == dict(zip(again.cell_index.nodes, (puzzle.drawing.outlines[n] for n in
                                                                       puzzle.cell_index.nodes)))
    assert list(again.drawing.names.values()) == [puzzle.drawing.names[n] for n in puzzle.drawing.names]
    assert [f.label for f in again.flows] == [f.label for f in puzzle.flows] and again.cells == puzzle.cells


@pytest.mark.parametrize("board", SHAPES, ids=lambda p: p.stem)
def test_a_shape_board_solves_uniquely_and_its_answer_names_cells_in_its_terms(board, capsys):
    assert main(["validate", "--unique", str(board)]) == 0
    assert "unique solution" in capsys.readouterr().out
    assert main(["solve", str(board)]) == 0
    out = capsys.readouterr().out
    names = set(parse_file(board).drawing.names.values())
    for line in out.splitlines()[:-1]:  # each flow's cells, by the names the board gives them
        assert line[1:3] == ": " and set(line[3:].split(", ")) <= names, line


@pytest.mark.parametrize("engine", ["auto", "search", "sat", "links"])
@pytest.mark.parametrize("board", SHAPES, ids=lambda p: p.stem)
def test_every_engine_solves_a_shape_board(board, engine):
    assert solve(parse_file(board), engine).paths  # (verified: the engines see only the graph)


@pytest.mark.parametrize("board", SHAPES, ids=lambda p: p.stem)
def test_a_shape_board_is_drawn_by_its_outlines(board):
    puzzle = parse_file(board)
    picture = solve(puzzle).render("svg")
    assert picture.count('class="cell"') == puzzle.cells
    assert picture.count('class="pipe"') >= len(puzzle.flows)
    assert solve(puzzle).render("png", cell_px=20)[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("side", [1, 2, 3, 7])
def test_a_cube_template_links_its_faces_across_the_three_near_edges(side):
    doc = json.loads(cube(side))
    assert len(doc["nodes"]) == 3 * side * side
    assert len(doc["links"]) == 3 * 2 * side * (side - 1) + 3 * side
    names = [node["name"] for node in doc["nodes"]]
    assert len(set(names)) == len(names) and {n.split()[0] for n in names} == {"top", "left", "right"}
    corners = {node["id"]: {tuple(p) for p in node["outline"]} for node in doc["nodes"]}
    assert all(len(corners[a] & corners[b]) == 2 for a, b in doc["links"])  # each link: one shared side


def test_new_writes_a_ring_and_refuses_a_bad_one(tmp_path, capsys):
    out = tmp_path / "ring.json"
    assert main(["new", "--shape", "ring", "--rings", "2", "--sectors", "6", "--centre", "-o", str(out)]) == 0
    assert len(json.loads(out.read_text())["nodes"]) == 13
    assert main(["new", "--shape", "ring", "--sectors", "2"]) == 2
    assert "--sectors must be a whole number from 3 to 360" in capsys.readouterr().err
    assert main(["new", "--shape", "cube", "--side", "4", "-o", str(tmp_path / "cube.json")]) == 0
    assert len(json.loads((tmp_path / "cube.json").read_text())["nodes"]) == 48
