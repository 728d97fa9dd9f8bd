"""flowgraph convert through main([...]): formats by suffix, level packs to folders with solutions, clear errors."""

from __future__ import annotations

import json

from flowgraph import parse_file, verify
from flowgraph.cli import main
from flowgraph.io.files import load
from flowgraph.io.sketch import same_board
from flowgraph.model import Solution
from tests.helpers import DATA, PUZZLES

HEX = PUZZLES / "hex" / "honeycomb_5x4.txt"
GARDEN = PUZZLES / "standard" / "garden_9x7_holes.txt"


def test_suffix_picks_the_format_and_the_result_solves(tmp_path, capsys):
    out = tmp_path / "board.json"
    assert main(["convert", str(HEX), "-o", str(out)]) == 0
    assert json.loads(out.read_text())["format"] == "flowgraph-graph"
    assert main(["solve", "--json", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "solved"
    assert main(["validate", str(out)]) == 0


def test_to_standard_output_and_back(tmp_path, capsys):
    assert main(["convert", str(HEX), "--to", "plain-grid"]) == 0
    grid = tmp_path / "b.grid"
    grid.write_text(capsys.readouterr().out)
    back = tmp_path / "back.txt"
    assert main(["convert", str(grid), "-o", str(back)]) == 0
    assert same_board(load(back)[0], load(HEX)[0])


def test_a_wall_in_a_plain_grid_is_named(capsys):
    assert main(["convert", str(GARDEN), "--to", "plain-grid"]) == 3
    assert "no link between cells (0, 5) and (0, 6) (a wall)" in capsys.readouterr().err


def test_level_pack_to_a_folder_with_checked_solutions(tmp_path, capsys):
    pack = DATA / "packs" / "every_kind.txt"
    out = tmp_path / "levels"
    assert main(["convert", str(pack), "-o", str(out), "--solutions"]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert len([f for f in files if f.endswith(".txt")]) == 5
    for sol in out.glob("*.solution.json"):
        obj = json.loads(sol.read_text())
        puzzle = parse_file(obj["puzzle"])
        paths = {k: tuple(tuple(p) for p in v) for k, v in obj["paths"].items()}
        verify(Solution(puzzle, {k: _nodes(puzzle, v) for k, v in paths.items()}))


def test_a_level_whose_pipes_are_no_solution_says_its_solution_is_not_written(tmp_path, capsys):
    """Issue 52: such a level's NAME.solution.json was skipped without a word."""
    pack = tmp_path / "two.txt"
    pack.write_text("5,0,1,5;18,17,12;21,16,11,6;3,4,9;0,1,2,7,8,13,14,19,24,23,22;20,15,10,5\n"
                    "5,0,2,5;18,17,12;21,16,11,6;3,4,9;0,1,2,7,8,13,14,19,24;20,15,10,5\n")
    out = tmp_path / "levels"
    assert main(["convert", str(pack), "-o", str(out), "--solutions"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["two_1.solution.json", "two_1.txt", "two_2.txt"]
    err = capsys.readouterr().err
    assert f"{pack}:2:9: warning: the pipes are not a solution" in err
    assert f"{out / 'two_2.txt'}: note: no solution written beside it" in err


def _nodes(puzzle, positions):
    """FORMAT.md lists a bridge by its position: pick the lane the path crosses it on."""
    out = []
    for i, pos in enumerate(positions):
        if pos in puzzle.graph:
            out.append(pos)
        else:
            prev = positions[i - 1] if i else positions[i + 1]
            out.append(pos + ("-" if prev[0] == pos[0] else "|",))
    return tuple(out)


def test_pack_without_a_folder_is_a_usage_error(capsys):
    assert main(["convert", str(DATA / "packs" / "every_kind.txt")]) == 2
    assert "holds 5 puzzles: give -o DIR" in capsys.readouterr().err


def test_bad_input_has_positions_and_exit_3(tmp_path, capsys):
    bad = tmp_path / "bad.grid"
    bad.write_text("A.A\nB+B\n")
    assert main(["convert", str(bad)]) == 3
    assert f"{bad}:2:2: unexpected character '+'" in capsys.readouterr().err


def test_the_input_is_never_the_output(capsys):
    assert main(["convert", str(HEX), "-o", str(HEX)]) == 2
    assert "is the input" in capsys.readouterr().err


def test_pack_to_a_file_name_is_a_usage_error_not_a_folder(tmp_path, capsys):
    target = tmp_path / "back.txt"
    assert main(["convert", str(DATA / "packs" / "every_kind.txt"), "-o", str(target)]) == 2
    assert "names a file" in capsys.readouterr().err and not target.exists()
    assert main(["convert", str(DATA / "packs" / "every_kind.txt"), "--to", "level-pack", "-o", str(target)]) == 0
    assert target.is_file()
