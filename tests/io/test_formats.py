"""Every format through the registry: round trips on the bundled puzzles and the whole corpus, level packs, errors."""

from __future__ import annotations

import functools

import pytest

from flowgraph import ConversionError, PuzzleError, verify
from flowgraph.authoring.solved import write_solved as write  # solves where the format carries solutions
from flowgraph.io.files import load
from flowgraph.io.formats import format_names, guess_format, read_entries
from flowgraph.io.json_graph import analyse_json_graph, read_json_graph
from flowgraph.io.level_pack import analyse_level_pack, read_level_pack
from flowgraph.io.numberlink import read_numberlink
from flowgraph.io.plain_grid import read_plain_grid
from flowgraph.io.sketch import same_board
from tests.helpers import BUNDLED, DATA, corpus_params

PACK = DATA / "packs" / "every_kind.txt"


def _puzzles():
    """The bundled puzzles, then the whole corpus (marked slow: about a minute; CI runs it)."""
    bundled = [pytest.param(p, id=f"{p.parent.name}/{p.name}") for p in BUNDLED]
    return bundled + [p for p in corpus_params("*/**/*.txt", marks=[pytest.mark.slow]) if p.values[0] is None or
                      p.values[0].name != "14x14Template.txt"]


@functools.cache
def _load(path):
    return load(path)[0]


def _back(text: str, fmt: str):
    _, entries, problems = read_entries(text, f"x.{fmt}", fmt)
    assert entries, problems
    return entries[0].puzzle


@pytest.mark.parametrize("path", _puzzles())
def test_neighbor_link_to_json_and_back_is_the_same_board(path):
    puzzle = _load(path)
    as_json = _back(write(puzzle, "json-graph"), "json-graph")
    assert same_board(as_json, puzzle)
    again = _back(write(as_json, "neighbor-link"), "neighbor-link")
    assert same_board(again, puzzle)
    assert [f.label for f in again.flows] == [f.label for f in puzzle.flows]


@pytest.mark.parametrize("fmt, reason", [
    ("plain-grid", "a plain grid cannot express this board"),  # walls, partial warps, row-alternating hex
    ("numberlink", "numberlink"),  # holes, walls, warps, bridges, hex
])
@pytest.mark.parametrize("path", _puzzles())
def test_round_trip_or_a_reason(path, fmt, reason):
    puzzle = _load(path)
    try:
        text = write(puzzle, fmt)
    except ConversionError as exc:
        assert reason in str(exc)
        return
    assert same_board(_back(text, fmt), puzzle)
    assert same_board(_back(write(_back(text, fmt), "neighbor-link"), "neighbor-link"), puzzle)


def test_every_level_of_a_pack_converts_and_its_solution_verifies():
    levels = read_level_pack(PACK.read_text(), str(PACK))
    assert [lv.name for lv in levels] == ["every_kind_7", "every_kind_4", "every_kind_3", "every_kind_1",
                                          "every_kind_2"]
    assert [lv.puzzle.family for lv in levels] == ["STANDARD", "STANDARD", "WARPS", "BRIDGES", "HEX"]
    for lv in levels:
        verify(lv.solution)


@pytest.mark.parametrize("line, column, words", [
    ("5,0,1,4,12;1,2", 7, "the header says '4' flows, the line has 1 pipes"),
    ("Q5,0,1,1;1,2", 1, "size 'Q5'"),
    ("3,0,1,1;0,1,9", 9, "pipe 1 must run over at least two cells"),
    ("3,0,1,2;0,1,2;3,4,5", 9, "(6, 1) lies on no path"),  # cells left over: not a solution
    ("3,0,1,1,,,0|x;0,1,2", 11, "wall '0|x'"),
])
def test_bad_pack_lines_are_reported_at_their_field(line, column, words):
    _, problems = analyse_level_pack(line, "p.txt")
    assert problems and problems[0].line == 1, problems
    assert problems[0].column == column and words in problems[0].message, problems


def test_format_names_and_guesses():
    assert format_names() == ["neighbor-link", "plain-grid", "numberlink", "level-pack", "json-graph", "puzzlink"]
    assert format_names(writable=True) == format_names()  # every format is written now
    assert guess_format(PACK.read_text()) == "level-pack"
    assert guess_format('{"nodes": [], "links": []}') == "json-graph"
    assert guess_format("HEX\nA..\n.A.\n") == "plain-grid"
    with pytest.raises(ValueError, match="expected one of neighbor-link, plain-grid"):
        write(_load(BUNDLED[0]), "svg")


def test_plain_grid_families_link_as_documented():
    hex_board = read_plain_grid("AB\n.A\n..\nB.\n", family="hex")  # odd column 1 links down-left
    assert hex_board.graph.has_edge((2, 1), (1, 2))  # (1, 0) - (0, 1) as (line, column)
    warps = read_plain_grid("WARPS\nA.B\n...\nB.A\n")
    assert sum(1 for *_, w in warps.graph.edges(data="warp") if w) == 6
    bridge = read_plain_grid("BRIDGES\n.A.\nB*B\n.A.\n")
    assert {n for n in bridge.graph if len(n) == 3} == {(3, 2, "-"), (3, 2, "|")}


@pytest.mark.parametrize("reader, text, line, column, words", [
    (read_plain_grid, "A.A\nB+B\n", 2, 2, "unexpected character '+'"),
    (read_plain_grid, "A.A\nB..\n", 2, 1, "label 'B' appears once"),
    (read_numberlink, "3 2\n1 0 1\n2 2\n", 3, 1, "expected 3 tokens"),
    (read_numberlink, "3 x\n1 0 1\n", 1, 1, "expected 'W H'"),
    (read_json_graph, '{"nodes": [{"id": 1, "label": "A"}, {"id": 2, "label": "A"}],\n "links": [[1, 3]]}', 2, 12,
     "link to an unknown node id 3"),
    (read_json_graph, '{"nodes": [{"id": 1}, {"id": 1}], "links": []}', 1, 23, "node id 1 is used twice"),
    (read_json_graph, '{"nodes": [', 1, 12, "not valid JSON"),
])
def test_errors_point_into_the_source(reader, text, line, column, words):
    with pytest.raises(PuzzleError) as info:
        reader(text, "f")
    assert (info.value.line, info.value.column) == (line, column) and words in info.value.message, info.value


def test_json_graph_of_a_3d_board_solves_and_cannot_be_drawn():
    # A 2x2x2 cube of cells: no text layout draws it, the solver does not care.
    ids = [(x, y, z) for z in range(2) for y in range(2) for x in range(2)]
    nodes = ", ".join(f'{{"id": "{x}{y}{z}", "xyz": [{x}, {y}, {z}]' + (', "label": "A"' if (x, y, z) in
                      ((0, 0, 0), (1, 0, 0)) else "") + "}" for x, y, z in ids)
    links = ", ".join(f'["{a[0]}{a[1]}{a[2]}", "{b[0]}{b[1]}{b[2]}"]' for a in ids for b in ids
                      if a < b and sum(abs(i - j) for i, j in zip(a, b)) == 1)
    puzzle, problems = analyse_json_graph(f'{{"nodes": [{nodes}], "links": [{links}]}}', "cube.json")
    assert puzzle is not None, problems
    from flowgraph import solve
    assert len(solve(puzzle).paths["A"]) == 8
    with pytest.raises(ConversionError, match="no place on a 2-D grid"):
        write(puzzle, "neighbor-link")


def _graph(nodes: str) -> str:
    return '{"nodes": [' + nodes + '], "links": [[1, 2]]}'


@pytest.mark.parametrize("text, words", [
    (_graph('{"id": 1, "label": "A", "xy": [1e999, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}'), '"xy" is [x, y]'),
    (_graph('{"id": 1, "label": "A", "xy": [NaN, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}'), '"xy" is [x, y]'),
    (_graph('{"id": 1, "label": "A", "xy": [-Infinity, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}'), '"xy" is [x, y]'),
    (_graph('{"id": 1, "label": "A", "xy": [151000000000000000000, 7]}, {"id": 2, "label": "A", "xy": [0, 0]}'),
     '"xy" is [x, y]'),
    (_graph('{"id": 1, "label": "A", "xy": [90000, 0]}, {"id": 2, "label": "A", "xy": [0, 90000]}'), "places span"),
    (_graph('{"id": ' + "1" * 5000 + ', "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}'),
     "from -2**53 to 2**53"),
])
def test_json_graph_numbers_are_bounded_where_they_are_read(text, words):
    from flowgraph.io.json_graph import analyse_json_graph

    puzzle, problems = analyse_json_graph(text, "g.json")
    assert puzzle is None and any(words in p.message and p.line >= 1 for p in problems)


def test_a_json_graph_that_validates_also_solves_wherever_its_places_start(tmp_path, capsys):
    from flowgraph.cli import main

    board = tmp_path / "negative.json"
    board.write_text(_graph('{"id": 1, "label": "A", "xy": [-1, -3]}, {"id": 2, "label": "A", "xy": [0, -3]}'))
    assert main(["validate", str(board)]) == 0
    assert main(["solve", str(board)]) == 0
    assert "A-A" in capsys.readouterr().out


def test_a_board_too_large_to_draw_says_so():
    from flowgraph.errors import ConversionError
    from flowgraph.io.json_graph import analyse_json_graph
    from flowgraph.render.svg import svg

    puzzle, _ = analyse_json_graph(_graph('{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [300000, 0]}')
                                   .replace("300000", "99999").replace('"xy": [0, 0]', '"xy": [0, -9]'))
    assert puzzle is not None
    with pytest.raises(ConversionError, match="too large to draw"):
        svg(puzzle)


def test_a_level_whose_pipes_are_no_solution_is_read_as_the_game_reads_it(tmp_path, capsys):
    """Issue 52: a level whose stored pipes are no solution (here a pipe turns on a bridge) is read as the
    game reads it, the board and its endpoints, with a warning; it is not refused."""
    from flowgraph.cli import main

    line = "3,0,1,2,4;0,1,2,5,8;3,4,7,6"  # pipe 2 turns on the bridge
    levels, problems = analyse_level_pack(line + "\n", "p.txt")
    assert len(levels) == 1 and levels[0].solution is None
    assert [p.severity for p in problems] == ["warning"] and "read without its pipes" in problems[0].message
    pack = tmp_path / "p.pack"
    pack.write_text(line + "\n")
    assert main(["validate", f"{pack}#1"]) == 0


@pytest.mark.parametrize("line", [
    "3:4,0,1,2,,0:1:2;3,4,5;6,7,8,11,10,9",  # a top row of holes
    "5,0,1,2,12,0:1:2:3:4:5:10:15:20;6,7,12,17,16,21,22;11,12,13,8,9,14,19,18,23,24",  # and a left column, a bridge
])
def test_a_level_whose_top_rows_or_left_columns_are_holes_keeps_its_pipes(line):
    """Issue 52: the board is drawn without its rows and columns of holes at the top and left, and the pipes
    were looked up at the drawing's places, not the pack's: 15 of the game's levels (levelpack_28, _33) were
    read "without their pipes", said to cross a bridge other than straight."""
    levels, problems = analyse_level_pack(line + "\n", "p.txt")
    assert problems == [] and levels[0].solution is not None
    verify(levels[0].solution)


def test_a_drawn_level_reads_as_the_grammar_reads_its_text():
    """A level pack's level is built from the layout of the text flowgraph drew (``read_drawn``, no parse):
    it is the layout the grammar reads from that text, row for row."""
    from flowgraph.io.builder import Report, read_drawn, read_layout
    from flowgraph.io.neighbor_link import _parser

    levels = read_level_pack(PACK.read_text(), str(PACK))
    for level in levels:
        lines = tuple(level.text.splitlines())
        drawn, parsed = read_drawn(lines), read_layout(_parser().parse(level.text), Report())
        assert (drawn.family, drawn.header, drawn.row_lines, drawn.rows, drawn.cells, drawn.links) == (
            parsed.family, parsed.header, parsed.row_lines, parsed.rows, parsed.cells, parsed.links), level.name
    for text in [("STANDARD", "  // a comment", "A-.-A"), ("STANDARD", "A-%-A"), ("NOHEADER", "A-.-A")]:
        with pytest.raises(ValueError, match="not neighbor-link text as flowgraph draws it"):
            read_drawn(text)


def test_a_level_whose_every_cell_is_a_hole_is_an_error_at_its_holes():
    import flowgraph

    levels, problems = analyse_level_pack("2,0,1,0,,0:1:2:3")
    assert levels == [] and [(p.column, p.message) for p in problems] == [(10, "every cell of the board is a hole")]
    with pytest.raises(PuzzleError, match="every cell of the board is a hole"):
        flowgraph.read("2,0,1,0,,0:1:2:3\n", "level-pack")
