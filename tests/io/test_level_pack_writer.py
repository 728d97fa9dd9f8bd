"""Level-pack lines written from puzzles: every board the game can hold goes to a line and back, pipes verified."""

from __future__ import annotations

import pytest

from flowgraph import parse_file, verify
from flowgraph.cli import main
from flowgraph.errors import ConversionError
from flowgraph.io.formats import write
from flowgraph.io.level_pack import analyse_level_pack
from tests.helpers import BUNDLED, UNSOLVABLE, corpus_files

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


def test_convert_writes_a_numbered_pack_of_many_puzzles(tmp_path, capsys):
    urls = tmp_path / "two.url"
    urls.write_text("https://puzz.link/p?arukone/4/1/1h1\nhttps://puzz.link/p?arukone/3/1/1g1\n")
    pack = tmp_path / "two.pack"
    assert main(["convert", str(urls), "-o", str(pack)]) == 0
    levels, problems = analyse_level_pack(pack.read_text(), str(pack))
    assert not problems and [lv.name for lv in levels] == ["two_1", "two_2"]
