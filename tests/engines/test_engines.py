"""One suite for every registered engine: what any engine must do (as lark runs one suite over every parser).

Each test runs once per name in :data:`flowgraph.engines.ENGINES`, through
:func:`flowgraph.engines.get_engine`; a new engine is tested by
registering it. Engine-specific behaviour (the search's restarts and
memory budget, the SAT model's cycle cuts) lives in ``test_search.py`` and
``test_sat.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flowgraph import Limits, SearchLimitError, UnsolvableError, parse_file, parse_text, solve, verify
from flowgraph.engines import ENGINES, engine_names, get_engine, solve_puzzle
from tests.helpers import BUNDLED, UNSOLVABLE, corpus_files

SOLVABLE = [p for p in BUNDLED if p not in UNSOLVABLE]
BESIDE_ITSELF = "STANDARD\nA-.-.\n| | |\nA-.-.\n"  # A's only path runs beside itself


@pytest.fixture(params=engine_names())
def engine(request):
    return get_engine(request.param)


def _id(path):
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", SOLVABLE, ids=_id)
def test_bundled_puzzles_solve_and_verify(engine, path):
    solution = engine.solve(parse_file(path), Limits(max_states=50_000))
    verify(solution)
    assert solution.stats.get("states", 0) + solution.stats.get("sat_calls", 0) >= 1  # the engine's work is counted


@pytest.mark.parametrize("path", sorted(UNSOLVABLE), ids=_id)
def test_unsolvable_board_is_proved_by_the_sound_rules(engine, path):
    with pytest.raises(UnsolvableError) as info:
        engine.solve(parse_file(path))
    assert info.value.stats["heuristic"] is False  # the sound pass had the last word


def test_a_path_beside_itself_is_found_by_the_sound_rules(engine):
    # Both engines try a "no self-touch" heuristic first; alone it would
    # wrongly call this board unsolvable.
    solution = engine.solve(parse_text(BESIDE_ITSELF))
    verify(solution)
    assert solution.stats["heuristic"] is False


def test_a_work_budget_ends_the_solve_with_stats(engine):
    p = parse_file(next(p for p in SOLVABLE if p.name == "open_field_8x8.txt"))
    with pytest.raises(SearchLimitError) as info:
        engine.solve(p, Limits(max_states=0, max_sat_calls=0))
    assert info.value.reason in ("states", "sat_calls")  # search states, or SAT calls
    assert info.value.reason in info.value.stats


def test_warm_up_can_be_called_twice(engine):
    engine.warm_up()
    engine.warm_up()


def test_solve_puzzle_verifies_and_names_the_engine(engine):
    name = next(k for k in ENGINES if get_engine(k) is engine)
    solution = solve_puzzle(parse_file(SOLVABLE[0]), name)
    assert solution.engine == (name if name != "auto" else "sat")  # auto names the engine that answered


def test_unknown_engine_lists_the_valid_names():
    with pytest.raises(ValueError, match="unknown engine 'dfs': expected one of auto, search, sat, links"):
        solve(parse_text("STANDARD\nA-A\n"), engine="dfs")


def _small_corpus():
    out = []
    for f in corpus_files("samgoldman/*/*.txt") + corpus_files("numberlink/inputs1_*.txt") + corpus_files("generated/*/*.txt"):
        if f.name != "14x14Template.txt" and parse_file(f).cells <= 100:
            out.append(pytest.param(f, id=_id(f)))
    return out or [pytest.param(None, marks=pytest.mark.skip(reason="corpus absent"), id="no-corpus")]


@pytest.mark.parametrize("path", _small_corpus())
def test_corpus_up_to_10x10(engine, path):
    verify(engine.solve(parse_file(path), Limits(max_states=20_000, time_limit_s=60)))


# -- the engines must agree: solved or proved unsolvable ----------------------

def outcome(engine, puzzle):
    try:
        solution = engine.solve(puzzle, Limits(max_states=200_000, time_limit_s=60))
    except UnsolvableError:
        return "unsolvable"
    verify(solution)
    return "solved"


def _cross_check_files():
    sample = [f for f in corpus_files("samgoldman/*/*.txt") if f.name != "14x14Template.txt"]
    sample = [f for f in sample if parse_file(f).cells <= 100]
    sample += corpus_files("numberlink/inputs1_00[1-3]_*.txt") + corpus_files("numberlink/inputs5_011_*.txt")
    sample += corpus_files("generated/*/*_[6-9]x*.txt")
    return [pytest.param(f, id=_id(f)) for f in BUNDLED + sample]


@pytest.mark.parametrize("path", _cross_check_files())
def test_every_engine_agrees(path):
    puzzle = parse_file(path)
    assert len({outcome(get_engine(name), puzzle) for name in engine_names()}) == 1


@st.composite
def small_boards(draw):
    """Random square, warped or hex boards up to 5x5 with 1-4 random flows."""
    w, h = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    kind = draw(st.sampled_from(["STANDARD", "WARPS", "HEX"]))
    rows = []
    for r in range(h):
        rows.append("-".join("." * w) + ("-" if kind == "WARPS" and draw(st.booleans()) else ""))
        if r + 1 < h:
            if kind == "HEX":
                rows.append("".join("|" + ("/" if c % 2 == 0 else "\\") for c in range(w - 1)) + "|")
            else:
                rows.append(" ".join("|" * w))
    cells = [(i, j) for i, row in enumerate(rows) for j, ch in enumerate(row) if ch == "."]
    k = draw(st.integers(1, min(4, len(cells) // 2)))
    picked = draw(st.permutations(cells))[: 2 * k]
    grid = [list(row) for row in rows]
    for n, (i, j) in enumerate(picked):
        grid[i][j] = "ABCD"[n // 2]
    return kind + "\n" + "\n".join("".join(row) for row in grid) + "\n"


@given(small_boards())
def test_engines_agree_on_random_boards(text):
    puzzle = parse_text(text)
    assert len({outcome(get_engine(name), puzzle) for name in engine_names()}) == 1, text


def test_an_engine_traces_or_says_it_cannot(engine):
    puzzle = parse_file(SOLVABLE[0])
    seen: list = []
    if engine.TRACES:
        verify(engine.solve(puzzle, trace=seen.append))
        assert seen and set(seen[0]) == {f.label for f in puzzle.flows}
    else:
        with pytest.raises(ValueError, match="cannot trace"):
            engine.solve(puzzle, trace=seen.append)


# -- Numberlink rules: a cell may stay empty ------------------------------------

ONLY_NUMBERLINK = "STANDARD\nA-.-A-.\n"  # the last cell can join no path: no Flow Free solution


def test_numberlink_rules_are_solved_or_declined_by_every_engine():
    from flowgraph.errors import RulesError

    puzzle = parse_text(ONLY_NUMBERLINK).with_rules("numberlink")
    for name in ENGINES:
        if "numberlink" in get_engine(name).RULES:
            solution = solve_puzzle(puzzle, name)
            assert solution.paths == {"A": ((2, 1), (2, 3), (2, 5))}
        else:
            with pytest.raises(RulesError, match="use --engine auto, sat or links"):
                solve_puzzle(puzzle, name)


def test_flow_rules_still_prove_no_solution_where_numberlink_has_one():
    with pytest.raises(UnsolvableError):
        solve(parse_text(ONLY_NUMBERLINK), engine="sat")


def test_the_verifier_checks_the_chosen_rules():
    from flowgraph.model import Solution
    from flowgraph.verification import check

    puzzle = parse_text(ONLY_NUMBERLINK)
    paths = {"A": ((2, 1), (2, 3), (2, 5))}
    assert check(Solution(puzzle, paths)) == ["(2, 7) lies on no path"]
    assert check(Solution(puzzle.with_rules("numberlink"), paths)) == []
    with pytest.raises(ValueError, match="expected one of flow, numberlink"):
        puzzle.with_rules("nikoli")


@pytest.mark.parametrize("path", SOLVABLE, ids=_id)
def test_every_flow_solution_is_a_numberlink_solution(path):
    puzzle = parse_file(path).with_rules("numberlink")
    verify(solve_puzzle(puzzle, "sat"))
