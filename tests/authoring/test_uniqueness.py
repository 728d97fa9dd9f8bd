"""count_solutions and differing_cells: the verdicts validate --unique (and later generate) rely on."""

from __future__ import annotations

import pytest

from flowgraph import Limits, parse_file, parse_text, verify
from flowgraph.authoring.uniqueness import count_solutions, differing_cells
from tests.helpers import PUZZLES, corpus_params, random_board

UNIQUE = PUZZLES / "standard" / "regular_5x5.txt"
MULTIPLE = PUZZLES / "standard" / "open_field_8x8.txt"
NONE = PUZZLES / "standard" / "unsolvable_3x3.txt"


@pytest.mark.parametrize("path, verdict, count", [(UNIQUE, "unique", 1), (MULTIPLE, "multiple", 2), (NONE, "none", 0)])
def test_verdicts(path, verdict, count):
    result = count_solutions(parse_file(path))
    assert (result.verdict, result.count) == (verdict, count)
    for s in result.solutions:
        verify(s)


def test_budget_gives_limit_not_a_guess():
    """Each part gets at least 10 ms: a board whose two solutions come that fast is answered, with both."""
    result = count_solutions(parse_file(MULTIPLE), limits=Limits(time_limit_s=1e-9))
    assert result.verdict in ("limit", "multiple")
    if result.verdict == "limit":
        assert result.count is None and result.solutions == ()
    else:
        first, second = result.solutions
        assert first.paths != second.paths and verify(first) and verify(second)
    hard = parse_file(PUZZLES / "standard" / "open_field_8x8.txt").with_rules("numberlink")
    result = count_solutions(hard, limits=Limits(time_limit_s=1e-9))
    assert result.verdict in ("limit", "multiple") and (result.verdict == "multiple") == bool(result.solutions)


def test_differing_cells_of_two_solutions():
    a, b = count_solutions(parse_file(MULTIPLE)).solutions
    cells = differing_cells(a, b)
    assert cells and all((line, column) in {n[:2] for n in a.puzzle.graph} for line, column in cells)
    assert differing_cells(a, a) == set()
    owner_a, owner_b = a.owner(), b.owner()
    for node in a.puzzle.graph:
        assert (owner_a[node] != owner_b[node]) == (node[:2] in cells) or len(node) == 3


def test_a_path_beside_itself_counts():
    # The sound model is used: the only solution runs A beside itself.
    assert count_solutions(parse_text("STANDARD\nA-.-.\n| | |\nA-.-.\n")).verdict == "unique"


def test_numberlink_uniqueness_counts_cells_left_empty():
    from flowgraph import parse_text

    # Under Numberlink rules A goes straight or detours through the row below (two ways); no path fills
    # all six cells, so under Flow Free rules there is none.
    board = parse_text("STANDARD\nA-.-A\n| | |\n.-.-.\n")
    assert count_solutions(board).verdict == "none"
    assert count_solutions(board.with_rules("numberlink")).verdict == "multiple"
    only = parse_text("STANDARD\nA-.-A-.\n")
    assert count_solutions(only).verdict == "none"
    assert count_solutions(only.with_rules("numberlink")).verdict == "unique"


@pytest.mark.parametrize("seed", range(120))
def test_numberlink_count_agrees_with_the_plain_model(seed):
    # count_solutions under Numberlink rules counts chord-free solutions and checks jumps and detours by
    # hand; the plain Numberlink model enumerates every solution. Both must give the same verdict.
    from flowgraph.engines import sat
    from flowgraph.io.plain_grid import read_plain_grid

    try:
        puzzle = read_plain_grid(random_board(seed)).with_rules("numberlink")
    except ValueError:
        pytest.skip("not a board (a lame bridge, or no flow)")
    found, _ = sat.solutions(puzzle, 2)
    expected = {0: "none", 1: "unique"}.get(len(found), "multiple")
    result = count_solutions(puzzle)
    assert result.verdict == expected
    assert len(result.solutions) == {"none": 0, "unique": 1, "multiple": 2}[expected]
    assert len({frozenset(s.paths.items()) for s in result.solutions}) == len(result.solutions)
    for s in result.solutions:
        verify(s)


@pytest.mark.parametrize("seed", range(0, 120, 4))
@pytest.mark.parametrize("rules", ["flow", "numberlink"])
def test_the_link_search_alone_and_after_a_first_solution_agree(seed, rules, monkeypatch):
    # A small board ends in the link search's first part, its count the answer (under Numberlink rules
    # its one canonical solution checked for moves); with no first part, a first solution T comes first
    # and the windows, the link search and SAT look for a second one. Same verdicts both ways.
    from flowgraph.authoring import uniqueness
    from flowgraph.io.plain_grid import read_plain_grid

    try:
        puzzle = read_plain_grid(random_board(seed)).with_rules(rules)
    except ValueError:
        pytest.skip("not a board (a lame bridge, or no flow)")
    alone = count_solutions(puzzle)
    monkeypatch.setattr(uniqueness, "FIRST_DECISIONS", 0)
    after = count_solutions(puzzle)
    assert alone.verdict == after.verdict
    for s in (*alone.solutions, *after.solutions):
        verify(s)


def test_tighten_and_detour():
    from flowgraph.authoring.uniqueness import detour, tighten
    from flowgraph.model import Solution

    board = parse_text("STANDARD\nA-.-A\n| | |\n.-.-.\n").with_rules("numberlink")
    straight = Solution(board, {"A": ((2, 1), (2, 3), (2, 5))})
    around = Solution(board, {"A": ((2, 1), (4, 1), (4, 3), (4, 5), (2, 5))})  # no chord: (2, 3) stays empty
    full = Solution(board, {"A": ((2, 1), (4, 1), (4, 3), (2, 3), (2, 5))})  # chord (2, 1)-(2, 3)
    assert tighten(straight) is straight and tighten(around) is around
    assert tighten(full).paths == straight.paths
    longer = detour(straight)  # the first link replaced by a walk through the row below
    assert longer is not None and longer.paths == full.paths
    assert detour(around) is None  # the empty cell touches no link's two ends
    assert detour(full) is None  # no cell left empty
    for s in (straight, around, full, longer):
        verify(s)


def test_corner_move():
    from flowgraph.authoring.uniqueness import corner_move
    from flowgraph.model import Solution

    board = parse_text("STANDARD\nA-.\n| |\n.-A\n")
    assert count_solutions(board).verdict == "none"  # no path fills the four cells
    board = board.with_rules("numberlink")
    top = Solution(board, {"A": ((2, 1), (2, 3), (4, 3))})
    moved = corner_move(top)
    assert moved is not None and moved.paths == {"A": ((2, 1), (4, 1), (4, 3))}
    assert corner_move(moved) is not None  # and back
    verify(moved)
    assert count_solutions(board).verdict == "multiple"
    # the opposite node is an endpoint: no move
    pinned = parse_text("STANDARD\nA-.-.\n| | |\nB-A-.\n| | |\nB-.-.\n").with_rules("numberlink")
    assert corner_move(Solution(pinned, {"A": ((2, 1), (2, 3), (4, 3)), "B": ((4, 1), (6, 1))})) is None


@pytest.mark.parametrize("seed", range(48))
@pytest.mark.parametrize("rules", ["flow", "numberlink"])
def test_looking_near_the_first_solution_first_changes_no_answer(seed, rules):
    # sat.nearby_solution looks inside windows of the board only: whatever it finds is a real solution
    # other than the first, and it finds one only where the whole model does.
    from flowgraph.engines import sat
    from flowgraph.io.plain_grid import read_plain_grid

    try:
        puzzle = read_plain_grid(random_board(seed, (6, 9))).with_rules(rules)
    except ValueError:
        pytest.skip("not a board (a lame bridge, or no flow)")
    tight = rules == "numberlink"
    first, _ = sat.solutions(puzzle, 1, tight=tight)
    if not first:
        pytest.skip("no solution")
    plain, _ = sat.solutions(puzzle, 1, tight=tight, exclude=first[0])
    for corners in (False, True):
        near = sat.nearby_solution(puzzle, first[0], Limits(time_limit_s=5), corners=corners)
        if near is not None:
            assert plain and near.paths != first[0].paths
            verify(near)


def test_a_second_solution_near_the_first_is_found_in_a_window():
    from flowgraph.engines import sat

    board = parse_file(MULTIPLE)  # 8x8, open: windows of 5 lines and columns leave links fixed
    first, _ = sat.solutions(board, 1)
    near = sat.nearby_solution(board, first[0], Limits(time_limit_s=5))
    assert near is not None and near.paths != first[0].paths
    verify(near)
    assert 0 < len(differing_cells(first[0], near)) < 64


@pytest.mark.parametrize("path", corpus_params("numberlink/janko_1[57]0_36x20.txt"))
def test_large_published_boards_with_a_second_solution_nearby_are_answered(path):
    # Under Numberlink rules these 36x20s reached the 60 s limit until the window search (issue 34).
    result = count_solutions(parse_file(path).with_rules("numberlink"), limits=Limits(time_limit_s=60))
    assert result.verdict == "multiple"
    for s in result.solutions:
        verify(s)


def test_a_board_nothing_answers_in_time_gives_limit():
    """noqx's 26x26 Numberlink example under Flow Free rules: neither the link search, the windows nor SAT
    prove it within half a second (nor a minute)."""
    import multiprocessing

    from flowgraph.io.puzzlink import analyse_puzzlink

    url = ("https://puzz.link/p?numlin/26/26/zz-15gdx-12nfs-16j8x4v-11zxes9kfs8zg4lbm6k5ubv2r-14n1q-10z5v7zeq3n3r1v"
           "-13u9k-11mdl6zgas2k-10sczxav-16x7jcs-15n-13x-14g-12zz")
    puzzle = analyse_puzzlink(url)[0][0].puzzle.with_rules("flow")
    result = count_solutions(puzzle, limits=Limits(time_limit_s=0.5))
    assert result.verdict == "limit" and result.count is None
    assert len(result.solutions) <= 1 and all(verify(s) for s in result.solutions)  # the first one, if found in time
    assert not multiprocessing.active_children()


def test_validate_says_a_solution_exists_when_it_gives_up_after_one(capsys):
    from flowgraph.cli import main

    url = ("https://puzz.link/p?numlin/26/26/zz-15gdx-12nfs-16j8x4v-11zxes9kfs8zg4lbm6k5ubv2r-14n1q-10z5v7zeq3n3r1v"
           "-13u9k-11mdl6zgas2k-10sczxav-16x7jcs-15n-13x-14g-12zz")
    assert main(["validate", "--unique", "--time-limit", "1", url]) == 4
    out = capsys.readouterr().out
    assert "gave up: a solution exists, but the time budget ran out" in out
