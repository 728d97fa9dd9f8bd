"""The public verbs (flowgraph.read, write, count, generate, explain, rate; Puzzle.render), as a library user calls them."""

from __future__ import annotations

import pytest

import flowgraph
from flowgraph import ConversionError, PuzzleError, parse_file
from tests.helpers import PUZZLES

BOARD = PUZZLES / "standard" / "regular_5x5.txt"


@pytest.mark.parametrize("fmt", ["neighbor-link", "plain-grid", "numberlink", "json-graph", "level-pack", "puzzlink"])
def test_a_board_written_in_each_format_reads_back_with_the_same_solution(fmt):
    puzzle = parse_file(BOARD)
    again = flowgraph.read(flowgraph.write(puzzle, fmt), fmt)
    assert again.cells == puzzle.cells and [f.label for f in again.flows] == [f.label for f in puzzle.flows]
    assert flowgraph.solve(again).paths.keys() == flowgraph.solve(puzzle).paths.keys()


def test_read_says_where_the_error_is_and_refuses_a_text_of_many_puzzles():
    with pytest.raises(PuzzleError, match="2:3"):
        flowgraph.read("STANDARD\nA-?-A\n", path="bad.txt")
    pack = flowgraph.write(parse_file(BOARD), "level-pack")
    with pytest.raises(ValueError, match="2 puzzles"):
        flowgraph.read(pack + pack, "level-pack")
    with pytest.raises(ValueError, match="unknown format"):
        flowgraph.read("A.A\n", "no-such-format")


def test_write_says_what_a_format_cannot_hold():
    with pytest.raises(ConversionError):
        flowgraph.write(parse_file(PUZZLES / "hex" / "hive_8x7.txt"), "numberlink")


def test_count_generate_explain_rate_read_like_the_commands():
    made = flowgraph.generate("standard", 6, 6, seed=3)
    assert flowgraph.count(made.puzzle).verdict == "unique"
    found = flowgraph.explain(made.puzzle)
    rated = flowgraph.rate(made.puzzle)
    assert found.solution.paths == made.solution.paths
    assert (rated.rating, rated.tier, rated.steps) == (found.rating, found.tier, len(found.steps))
    hard = flowgraph.generate("standard", 6, 6, seed=3, difficulty="easy")
    assert flowgraph.rate(hard.puzzle).tier == "easy"
    bridged = flowgraph.generate("bridges", 6, 6, seed=3)
    assert any(len(node) == 3 for node in bridged.puzzle.cell_index.nodes)  # a bridge's lanes


def test_a_puzzle_and_a_solution_draw_themselves():
    puzzle = parse_file(BOARD)
    solution = flowgraph.solve(puzzle)
    assert puzzle.render().startswith("<svg") and puzzle._repr_svg_() == puzzle.render("svg")
    assert solution.render("png", cell_px=10)[:8] == b"\x89PNG\r\n\x1a\n"
    assert puzzle.render("text") == BOARD.read_text()
    assert solution.render("text").splitlines()[0] == "A-A-A B-B"
    with pytest.raises(ValueError, match="unknown drawing"):
        puzzle.render("gif")
    with pytest.raises(ValueError, match="no options"):
        puzzle.render("text", theme="light")


def test_the_deep_paths_keep_working():
    from flowgraph.authoring.explain import explain
    from flowgraph.authoring.uniqueness import count_solutions
    from flowgraph.io.formats import write

    puzzle = parse_file(BOARD)
    assert count_solutions(puzzle).verdict == flowgraph.count(puzzle).verdict
    assert write(puzzle, "plain-grid") == flowgraph.write(puzzle, "plain-grid")
    assert explain(puzzle).rating == flowgraph.rate(puzzle).rating


def test_every_public_name_is_documented():
    for name in flowgraph.__all__:
        if name != "__version__":
            assert getattr(flowgraph, name).__doc__, name


def test_read_bounds_a_text_as_a_file_is_bounded():
    """A library caller's text meets the bounds a file meets: its size, then its boards' memory, before parsing."""
    from flowgraph.io.files import MAX_BYTES

    with pytest.raises(PuzzleError, match="1:1"):
        flowgraph.read("A" * (MAX_BYTES + 10))
    with pytest.raises(PuzzleError, match="memory"):
        flowgraph.read("STANDARD\n" + ".-" * 5000 + ".\n", memory_bytes=10_000)
    with pytest.raises(PuzzleError):
        flowgraph.read("STANDARD\nA-\ud800-A\n")  # a lone surrogate: not UTF-8


LONG_SEED = 10 ** 5000  # (5,001 digits: past the length Python turns into text)


@pytest.mark.parametrize("options, words", [
    ({"width": 3000, "height": 3000}, "width must be a whole number from 1 to 900"),
    ({"width": 40, "height": 40}, "1,600 cells: a generated puzzle has at most 900"),
    ({"width": 0, "height": 5}, "width must be a whole number"),
    ({"width": 5, "height": 5, "flows": (0, 0)}, "flows[0] must be"),
    ({"width": 5, "height": 5, "flows": (-3, 2)}, "flows[0] must be"),
    ({"width": 5, "height": 5, "flows": (4, 2)}, "flows[1] must be"),
    ({"width": 5, "height": 5, "flows": (2, 99)}, "flows[1] must be"),
    ({"width": 5, "height": 5, "bridges": -1}, "bridges must be"),
    ({"width": 5, "height": 5, "time_limit_s": float("nan")}, "time_limit_s must be"),
    ({"width": 5, "height": 5, "time_limit_s": -1}, "time_limit_s must be"),
    ({"width": 5, "height": 5, "seed": LONG_SEED}, "seed must be"),
    ({"width": 5, "height": 5, "seed": "s" * 1000}, "seed must be"),
])
def test_generate_keeps_the_commands_bounds_and_names_a_bad_argument(options, words):
    """Issue 71: 3000x3000 ran 64 s to a MemoryError, (0, 0) flows was a ZeroDivisionError, NaN no limit,
    negative flows "no unique puzzle", a 5,000-digit seed Python's int-limit error."""
    with pytest.raises(ValueError) as caught:
        flowgraph.generate("standard", **options)
    assert words in str(caught.value)


def test_a_count_that_runs_out_of_time_keeps_the_solutions_it_found():
    """Issue 71: count(limit=N) that ran out of time returned ('limit', None, 0), dropping what it had found."""
    from flowgraph.model import Limits

    lines = ["STANDARD"]
    for y in range(8):
        lines.append("-".join("A" if (y, x) == (0, 0) else "A" if (y, x) == (0, 7) else "." for x in range(8)))
        if y < 7:
            lines.append(" ".join("|" * 8))
    board = flowgraph.read("\n".join(lines) + "\n")  # one flow across an open 8x8: many solutions
    found = flowgraph.count(board, limit=100_000, limits=Limits(time_limit_s=0.5))
    assert found.verdict == "limit" and found.count is None and len(found.solutions) > 0
    assert len({s.paths["A"] for s in found.solutions}) == len(found.solutions)  # distinct, each verified
    with pytest.raises(ValueError, match="limit must be"):
        flowgraph.count(board, limit=0)
