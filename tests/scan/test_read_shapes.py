"""Shape boards read from the game's own screenshots (issue 70): a ring of sectors, a six-pointed star, a
figure-eight. Before, ``flowgraph scan`` refused each ("no grid found")."""

from __future__ import annotations

import json

import networkx as nx
import pytest

import flowgraph
from flowgraph import count
from flowgraph.cli import main
from flowgraph.scan import read_board
from tests.helpers import CORPUS, PUZZLES, corpus_params

SHAPES = "screenshots/shapes/"
#: What each screenshot shows (its README, and the picture looked at): cells, links, flows, and the bundled
#: shape board (``flowgraph new --shape``'s template, other endpoints) whose graph it is (None: no template).
EXPECTED = {
    "circle_2x8_level61.png": (16, 24, 4, "ring_2x8.json"),
    "star_daily.png": (54, 90, 4, "star_3.json"),
    "figure_eight_1x2_level91.png": (31, 43, 4, None),
}


@pytest.mark.parametrize("shot", corpus_params(SHAPES + "*.png"))
def test_a_shape_screenshot_scans_to_its_board_and_the_level_is_unique(shot):
    cells, links, flows, template = EXPECTED[shot.name]
    found = read_board(shot)
    assert found.board is None and found.regions is not None  # no lattice: the regions its lines enclose
    assert found.puzzle is not None, found.problems
    puzzle = found.puzzle
    assert (len(puzzle.cell_index.nodes), puzzle.graph.number_of_edges(), len(puzzle.flows)) == (cells, links, flows)
    if template is not None:
        assert nx.is_isomorphic(puzzle.graph, flowgraph.parse_file(PUZZLES / "shapes" / template).graph)
    assert count(puzzle).verdict == "unique"  # a level of the game has one solution: a misread seldom does
    doc = json.loads(found.text)
    assert all(3 <= len(node["outline"]) <= 256 for node in doc["nodes"])


#: The ring level as read by eye from the screenshot: each dot's cell (ring 1 inside, sector 1 the first
#: clockwise from the top, sectors of 45 degrees), by colour.
RING_BY_EYE = {"ring 2 sector 8": "yellow", "ring 2 sector 1": "green", "ring 2 sector 7": "blue",
               "ring 2 sector 2": "red", "ring 2 sector 5": "blue", "ring 2 sector 4": "red",
               "ring 1 sector 5": "yellow", "ring 1 sector 4": "green"}


@pytest.mark.parametrize("shot", corpus_params(SHAPES + "circle_2x8_level61.png"))
def test_the_ring_level_scans_to_the_board_read_by_eye(shot):
    from flowgraph.authoring.shapes import ring
    from tests.scan.scan_helpers import same_graph

    doc = json.loads(ring(2, 8))
    letters = {"red": "A", "green": "B", "blue": "C", "yellow": "D"}
    for node in doc["nodes"]:
        if node["name"] in RING_BY_EYE:
            node["label"] = letters[RING_BY_EYE[node["name"]]]
    assert same_graph(read_board(shot).puzzle, flowgraph.read(json.dumps(doc)))  # cells, links and endpoints


@pytest.mark.parametrize("shot", corpus_params(SHAPES + "circle_2x8_level61.png"))
def test_neighbouring_cells_share_their_sides_exactly(shot):
    """The outlines are traced once a boundary, so a picture of the scanned board draws its inner lines
    (render sorts edges by the cells that share them): every link is a shared side."""
    doc = json.loads(read_board(shot).text)
    sides = {}
    for node in doc["nodes"]:
        poly = [tuple(p) for p in node["outline"]]
        for a, b in zip(poly, poly[1:] + poly[:1]):
            sides.setdefault(frozenset((a, b)), set()).add(node["id"])
    shared = {frozenset(ids) for ids in sides.values() if len(ids) == 2}
    assert {frozenset(link) for link in doc["links"]} <= shared


@pytest.mark.parametrize("shot", corpus_params(SHAPES + "circle_2x8_level61.png"))
def test_scan_solve_and_debug_a_shape_screenshot_from_the_command_line(shot, tmp_path, capsys):
    out, debug = tmp_path / "ring.json", tmp_path / "ring-debug.png"
    assert main(["scan", str(shot), "-o", str(out), "--debug", str(debug)]) == 0
    assert "shape board, 16 cells, 24 links, 4 flows" in capsys.readouterr().err
    assert debug.stat().st_size > 0
    assert main(["solve", str(out)]) == 0
    assert "cell 1" in capsys.readouterr().out  # a shape's cells are named, in reading order
    assert main(["render", str(out), "--solve", "-o", str(tmp_path / "ring.svg")]) == 0


def test_the_corpus_holds_the_shape_screenshots_or_the_tests_skip():
    shots = sorted(p.name for p in (CORPUS / SHAPES).glob("*.png")) if (CORPUS / SHAPES).is_dir() else []
    if not shots:
        pytest.skip(f"corpus absent: {CORPUS}")
    assert shots == sorted(EXPECTED)


@pytest.mark.parametrize("shot", corpus_params(SHAPES + "circle_2x8_level61.png"))
def test_a_shape_board_over_the_cell_bound_is_refused_with_why(shot, monkeypatch):
    from flowgraph import ScanError
    from flowgraph.scan import regions

    monkeypatch.setattr(regions, "MAX_REGION_CELLS", 10)
    with pytest.raises(ScanError, match="as a shape board: 16 cells, over the 10 a shape board may have"):
        read_board(shot)
