"""Level-pack lines written from puzzles: every board the game can hold goes to a line and back, pipes verified."""

from __future__ import annotations

import pytest

from flowgraph import parse_file, verify
from flowgraph.authoring.solved import write_solved as write  # solves where the format carries solutions
from flowgraph.cli import main
from flowgraph.engines import solve_puzzle
from flowgraph.errors import ConversionError
from flowgraph.io.level_pack import analyse_level_pack
from tests.helpers import BUNDLED, PUZZLES, UNSOLVABLE, corpus_files

SOLVABLE = [p for p in BUNDLED if p not in UNSOLVABLE]
CORPUS = [f for f in corpus_files("samgoldman/*/*.txt") + corpus_files("generated/*/*.txt")
          if f.name != "14x14Template.txt"]


def _ids(paths):
    return [f"{p.parent.name}/{p.name}" for p in paths]


@pytest.mark.parametrize("path", SOLVABLE + CORPUS, ids=_ids(SOLVABLE + CORPUS))
def test_a_board_goes_to_a_line_and_back_with_pipes_that_verify(path):
    puzzle = parse_file(path)
    try:
        line = write(puzzle, "level-pack")
    except ConversionError as exc:  # the game's grid cannot hold it: said, never a wrong line
        assert any(word in str(exc) for word in ("rows alternate", "hex boards with warps", "crossed along",
                                                 "first column is odd", "no place"))
        return
    [level], problems = analyse_level_pack(line)
    assert not problems
    verify(level.solution)
    assert len(level.puzzle.flows) == len(puzzle.flows) and level.puzzle.cells == puzzle.cells


def test_what_cannot_be_a_level_says_why(tmp_path, capsys):
    from flowgraph import parse_text

    with pytest.raises(ConversionError, match="no solution"):
        write(parse_text("STANDARD\nA-B\n| |\nB-A\n"), "level-pack")
    with pytest.raises(ConversionError, match="Numberlink rules"):
        write(parse_text("STANDARD\nA-.-A-.\n").with_rules("numberlink"), "level-pack")
    with pytest.raises(ConversionError, match="the bridge at r2c3 is crossed along - only"):  # issue 72: as the rulers
        write(parse_text("BRIDGES\nB-.-.-B\n| |   |\nA-.-*-A\n"), "level-pack")


def test_convert_writes_a_numbered_pack_of_many_puzzles(tmp_path, capsys):
    urls = tmp_path / "two.url"
    urls.write_text("https://puzz.link/p?arukone/4/1/1h1\nhttps://puzz.link/p?arukone/3/1/1g1\n")
    pack = tmp_path / "two.pack"
    assert main(["convert", str(urls), "-o", str(pack)]) == 0
    levels, problems = analyse_level_pack(pack.read_text(), str(pack))
    assert not problems and [lv.name for lv in levels] == ["two_1", "two_2"]


@pytest.mark.parametrize("name, says", [
    ("hex/honeycomb_5x4.txt", ["written upside down: the game's hex columns start the other way up"]),
    ("standard/regular_5x5.txt", []),
])
def test_a_level_pack_round_trip_keeps_the_labels_and_says_what_it_cannot_keep(name, says, tmp_path, capsys):
    from flowgraph.io.sketch import sketch_of
    from tests.helpers import PUZZLES

    puzzle = parse_file(PUZZLES / name)
    pack = tmp_path / "one.pack"
    assert main(["convert", str(PUZZLES / name), "--to", "level-pack", "-o", str(pack)]) == 0
    err = capsys.readouterr().err
    assert [line.split(": note: ")[1] for line in err.splitlines()] == says
    [level], _ = analyse_level_pack(pack.read_text())
    back = level.puzzle
    assert sorted(f.label for f in back.flows) == sorted(f.label for f in puzzle.flows)  # no letter renamed
    # each flow's ends at the same places, upside down where the note says so
    spots, mine = sketch_of(back).spots, sketch_of(puzzle).spots
    top_back = max(s.xy[1] for s in spots.values())
    top_mine = max(s.xy[1] for s in mine.values())

    def ends(flows, sk, top, flip):
        return {f.label: sorted((sk[n].xy[0], top - sk[n].xy[1] if flip else sk[n].xy[1]) for n in f.ends)
                for f in flows}

    assert ends(back.flows, spots, top_back, bool(says)) == ends(puzzle.flows, mine, top_mine, False)


def test_labels_that_are_not_a_b_c_are_renamed_and_said(tmp_path, capsys):
    board = tmp_path / "ac.txt"
    board.write_text("STANDARD\nA-.-A\n| | |\nC-.-C\n")
    assert main(["convert", str(board), "--to", "level-pack"]) == 0
    captured = capsys.readouterr()
    assert captured.err == f"{board}: note: flows renamed C->B: a level pack numbers its flows, it keeps no names\n"
    [level], _ = analyse_level_pack(captured.out)
    assert sorted(f.label for f in level.puzzle.flows) == ["A", "B"]


def test_io_writes_a_level_only_with_the_solution_it_is_given():
    """io never solves: a level pack's pipes come from the caller (flowgraph.authoring.solved finds them)."""
    from flowgraph.io.formats import get_format
    from flowgraph.io.formats import write as io_write

    assert get_format("level-pack").needs_solution and not get_format("puzzlink").needs_solution
    puzzle = parse_file(PUZZLES / "standard" / "regular_5x5.txt")
    with pytest.raises(ConversionError, match="none was given"):
        io_write(puzzle, "level-pack")
    assert io_write(puzzle, "level-pack", solve_puzzle(puzzle)) == write(puzzle, "level-pack")
