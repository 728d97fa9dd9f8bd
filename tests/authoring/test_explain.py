"""explain and rate: every step agrees with the solution, the steps decide every link, the commands print them."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re

import pytest

from flowgraph import parse_file, parse_text
from flowgraph.authoring.explain import TECHNIQUES, TIGHT, Step, explain, guess_note, rating_of, replay, span_of, tier_word
from flowgraph.cli import main
from flowgraph.errors import UnsolvableError
from flowgraph.io.sketch import cell_name
from tests.helpers import BUNDLED, PUZZLES, UNSOLVABLE, corpus_files, corpus_params

SOLVABLE = [p for p in BUNDLED if p not in UNSOLVABLE]


def _replay(puzzle):
    """Explain ``puzzle`` and check each step against its solution; return the explanation."""
    found = explain(puzzle)
    assert replay(found) == []
    places = puzzle.cell_places
    for step in found.steps:  # a guess says what it rests on: uniqueness proved, several solutions, or not settled
        assert step.tier < 6 or guess_note(found.unique, bool(step.lines)) in step.note
        if step.tier == 6 and found.unique:  # and how far a trial of the other choice goes before it stalls
            assert re.search(r", but a trial of it (decides \d+ more links? and )?finds nothing wrong: it fails only "
                             r"after more guesses$", step.note), step.note
        if step.tier == 5 and any(words in step.note for words in ONE_CELL):  # and a contradiction in one cell, where
            assert step.note.endswith(" at " + cell_name(places[step.because[0]], step.because[0])), step.note
    return found


#: The contradictions that one cell shows (tier 5 names it).
ONE_CELL = ("a cell with no way out", "a cell with too many lines", "two flows meet")


@pytest.mark.parametrize("path", SOLVABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_steps_replay_to_the_solution_on_every_bundled_board(path):
    found = _replay(parse_file(path))
    assert found.rating == rating_of(found.steps, found.lengths) and found.tier == tier_word(found.rating)


@pytest.mark.parametrize("path", corpus_params("samgoldman/standard/ExtremePack11x11_7.txt"))
def test_a_guess_says_how_far_a_trial_of_the_other_choice_goes(path):
    """Tier 6 on a unique level (issue 55): not only "found by search" but the size of the leap."""
    found = _replay(parse_file(path))
    guesses = [s for s in found.steps if s.tier == 6]
    assert found.unique and guesses
    assert all("no solution (found by search), but a trial of it" in s.note for s in guesses)


def _corpus_sample():
    """Every corpus board of at most 225 cells (15x15): all families, every janko board up to 14x14."""
    files = corpus_files("samgoldman/*/*.txt") + corpus_files("generated/*/*.txt") + corpus_files("numberlink/*.txt")
    return [pytest.param(f, id=f"{f.parent.name}/{f.name}") for f in files
            if f.name != "14x14Template.txt" and 0 < parse_file(f).cells <= 225 and f.name != "inputs5_011_6x5.txt"]


@pytest.mark.slow
@pytest.mark.parametrize("path", _corpus_sample() or [pytest.param(None, marks=pytest.mark.skip("no corpus"))])
def test_the_steps_replay_to_the_solution_on_corpus_boards(path):
    _replay(parse_file(path))


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in _corpus_sample() if p.values[0].parent.name == "numberlink"]
                         or [pytest.param(None, marks=pytest.mark.skip("no corpus"))])
def test_the_steps_replay_to_the_solution_on_corpus_numberlink_boards_under_their_rules(path):
    _replay(parse_file(path).with_rules("numberlink"))


def test_an_easy_board_needs_only_the_easy_techniques():
    found = explain(parse_file(PUZZLES / "standard" / "regular_5x5.txt"))
    assert {s.technique for s in found.steps} <= {"forced move", "dead end"} and found.tier == "easy"
    assert found.unique is True


def test_a_guess_that_rules_a_link_out_says_the_solution_leaves_it_out():
    """Issue 55: on a puzzle with several solutions a tier-6 step that rules a link out said "the solution
    followed takes it"."""
    found = explain(parse_file(PUZZLES / "standard" / "open_field_8x8.txt"))
    cuts = [s for s in found.steps if s.tier == 6 and s.cuts]
    assert found.unique is False and cuts
    assert all("the solution followed leaves it out" in s.note for s in cuts)


def test_a_one_step_contradiction_names_its_cell():
    """Issue 55: tier 5 said "a cell with no way out" without saying which."""
    found = explain(parse_file(PUZZLES / "standard" / "regular_10x10.txt"))
    notes = [s.note for s in found.steps if s.tier == 5 and "a cell with no way out" in s.note]
    assert notes and all(re.fullmatch(r"r\d+c\d+", note.rsplit(" at ", 1)[1]) for note in notes)


def test_a_board_with_two_solutions_needs_a_search_step():
    found = _replay(parse_file(PUZZLES / "standard" / "open_field_8x8.txt"))
    assert found.unique is False and found.hardest == 6
    assert any(s.technique == "deeper search" for s in found.steps)


@pytest.mark.parametrize("tiers, in_sight, lengths, rating, word", [
    ([], [], [], 0.0, "easy"),
    # 10 * (0.075 * (1 + 0.1) / 6 + 0.74 * (1 - e^-(4 / sqrt 12)) + 0.15 * (1 - e^-0.2) + 0.035 * 1)
    ([1, 1, 2], [0, 1, 2], [3, 4, 5], 5.83, "medium"),
    ([1, 2], [5, 5], [2] * 8, 3.05, "easy"),  # many filler flows side by side: short paths, nothing tight
    ([1, 3, 3, 4], [3, 1, 3, None], [2, 6], 6.08, "medium"),  # one use, a quarter tight, endpoints side by side
    ([1, 6, 6], [4, 0, 0], [2, 2, 40], 7.47, "extreme"),  # the shortest path counts, and the mean in board sides
    ([5] * 12, [2] * 6 + [3] * 6, [9, 10], 8.46, "extreme"),
    ([6] * 60, [9] * 60, [2], 6.35, "hard"),  # the hardest technique alone does not make a puzzle extreme
    ([6] * 400, [0] * 400, [200, 200], 10.0, "extreme")])  # at most 10
def test_the_rating_weighs_the_span_most_then_the_techniques_and_the_tight_steps(tiers, in_sight, lengths, rating, word):
    steps = [Step(TECHNIQUES[t - 1], t, None, (), (), (), "", k) for t, k in zip(tiers, in_sight)]
    assert rating_of(steps, lengths) == rating and (tier_word(rating) == word or not steps)


def test_the_words_mean_the_same_at_every_size():
    """The mean path counts in board sides: the same share of the board, the same rating at any size."""
    small, large = span_of([5] * 5, 25)[0], span_of([10] * 10, 100)[0]
    assert small == large == pytest.approx(1 - math.exp(-1))
    assert [tier_word(r) for r in (5.49, 5.5, 6.24, 6.25, 6.74, 6.75)] == ["easy", "medium", "medium", "hard", "hard",
                                                                            "extreme"]


def test_the_span_counts_the_mean_and_the_shortest_path():
    assert span_of([]) == (0.0, 0.0)
    long, short = span_of([2, 18], 100)
    assert math.isclose(long, 1 - math.exp(-1)) and short == 0.0  # a mean path of one side; endpoints side by side
    assert span_of([7, 7])[1] == pytest.approx(1 - math.exp(-1))
    found = explain(parse_file(PUZZLES / "standard" / "regular_5x5.txt"))
    assert sorted(found.lengths) == sorted(len(p) for p in found.solution.paths.values())
    assert sum(found.lengths) == 25  # a filled 5x5


def test_each_step_counts_the_easy_deductions_in_sight():
    found = explain(parse_file(PUZZLES / "standard" / "regular_5x5.txt"))
    assert all(isinstance(s.in_sight, int) and s.in_sight >= 0 for s in found.steps)
    assert found.steps[0].in_sight > 0  # a fresh board shows its endpoints' forced moves
    assert all(s.in_sight > 0 for s in found.steps if s.tier <= 2)  # an easy step was itself in sight


#: Under Numberlink's rules the corner pocket has one way in (tier 1 leaves its cell empty) and the rest, once A and B
#: are drawn, a region with at most one way in (tier 3 leaves it empty); under Flow Free's both are contradictions.
POCKET = "STANDARD\nA-.-A-.\n| | | |\n.-.-.-.\n| | | |\n.-.-.-B\n| | | |\n.-.-.-B\n"


@pytest.mark.parametrize("path", SOLVABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_steps_replay_to_the_solution_under_numberlink_rules(path):
    found = _replay(parse_file(path).with_rules("numberlink"))
    assert found.solution.puzzle.rules.name == "NUMBERLINK"


def test_numberlink_rules_leave_a_cell_and_a_region_empty_where_no_path_can_pass():
    found = _replay(parse_text(POCKET).with_rules("numberlink"))
    notes = {s.tier: s.note for s in found.steps if "stays empty" in s.note}
    assert notes[1].endswith("has only one way in: it stays empty")
    assert notes[3] == "the empty region of 9 cells at r2c1 has at most one way in: it stays empty"
    assert found.counts["stranded region"] == 1
    with pytest.raises(UnsolvableError):  # Flow Free's rules fill every cell: no solution
        explain(parse_text(POCKET))


def test_explain_prints_the_steps_and_the_rating(capsys):
    assert main(["explain", "--color", "never", str(PUZZLES / "warps" / "torus_6x6.txt")]) == 0
    out = capsys.readouterr().out
    assert "forced move" in out and "bottleneck (tier 4)" in out
    assert out.strip().splitlines()[-1].startswith(f"{PUZZLES / 'warps' / 'torus_6x6.txt'}: easy, rating 4.85 "
                                                   "(hardest: one-step contradiction, 66 steps")


def test_explain_json_gives_positions_as_solve_does(capsys):
    path = PUZZLES / "standard" / "regular_5x5.txt"
    assert main(["explain", "--json", str(path)]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "explained" and obj["tier"] == "easy" and obj["unique"] is True
    assert obj["tight"] == round(sum(s["in_sight"] <= TIGHT for s in obj["steps"]) / len(obj["steps"]), 4)
    assert sum(obj["paths"]) == 25  # each path's cells
    step = obj["steps"][0]
    assert set(step) == {"technique", "tier", "flow", "links", "cuts", "because", "note", "in_sight"}
    assert all(len(pair) == 2 and len(pair[0]) == 2 for pair in step["links"] + step["cuts"])
    cells = {tuple(n) for p in parse_file(path).graph.nodes for n in [p[:2]]}
    assert all(tuple(c) in cells for c in step["because"])


@pytest.mark.parametrize("name, status, words", [
    ("standard/unsolvable_3x3.txt", 1, "no solution"),
    ("missing.txt", 3, "cannot read file"),
])
def test_explain_says_why_it_cannot(name, status, words, capsys):
    assert main(["explain", str(PUZZLES / name)]) == status
    assert words in capsys.readouterr().err


def test_explain_and_rate_follow_numberlink_rules(tmp_path, capsys):
    board = tmp_path / "pocket.txt"
    board.write_text(POCKET)
    assert main(["explain", "--color", "never", "--rules", "numberlink", str(board)]) == 0
    assert "stays empty" in capsys.readouterr().out
    assert main(["explain", str(board)]) == 1  # Flow Free's rules: no solution
    capsys.readouterr()
    assert main(["rate", "--json", "--rules", "numberlink", str(board)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["status"] == "rated" and row["counts"]["stranded region"] == 1


def test_rate_rates_a_batch_in_input_order(capsys):
    files = [PUZZLES / "standard" / "regular_5x5.txt", PUZZLES / "standard" / "unsolvable_3x3.txt",
             PUZZLES / "standard" / "regular_10x10.txt"]
    assert main(["rate", "--json", "--jobs", "1", *map(str, files)]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["puzzle"] for r in rows] == list(map(str, files))
    assert [r["status"] for r in rows] == ["rated", "unsolvable", "rated"]
    assert rows[0]["tier"] == "easy" and rows[2]["tier"] == "medium" and rows[2]["rating"] > rows[0]["rating"]
    assert all(0.0 <= rows[i]["tight"] <= 1.0 for i in (0, 2))
    assert sum(rows[0]["paths"]) == 25 and min(rows[0]["paths"]) >= 2  # each path's cells, a filled 5x5


def test_rate_prints_one_line_a_puzzle(capsys):
    assert main(["rate", "--color", "never", str(PUZZLES / "standard" / "regular_5x5.txt")]) == 0
    expected = f"{PUZZLES / 'standard' / 'regular_5x5.txt'}: easy, rating 5.23 (hardest: dead end, 36 steps, 19% tight, "
    expected += "mean path 5.0 cells, shortest 3)"
    assert capsys.readouterr().out.strip() == expected


@pytest.mark.parametrize("rules", ["flow", "numberlink"])
@pytest.mark.parametrize("path", SOLVABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_compiled_trial_ends_where_the_rules_taken_step_by_step_end(path, rules):
    """trials.settle_trial (the rules to their end, each trial of sweep_trials) against explain's steps (the same
    rules, one first step at a time, kernels.first_step): the same board, or a contradiction in both, from random
    partly decided boards (every cell a seed) and from boards at rest with one more link decided (its cells the
    seeds, as the trials run). The rules only add decisions, so the order they are taken in changes neither."""
    import random

    import numpy as np

    from flowgraph.authoring.explain_board import Contradiction, ExplainBoard
    from flowgraph.authoring.techniques import apply_step, easy_steps
    from flowgraph.engines import solve_puzzle
    from flowgraph.kernels.codes import CUT, LINE, UNDECIDED
    from flowgraph.kernels.trials import settle_trial

    puzzle = parse_file(path).with_rules(rules)
    solution = solve_puzzle(puzzle)
    number = puzzle.cell_index.number
    used = {frozenset((number[u], number[v])) for p in solution.paths.values() for u, v in itertools.pairwise(p)}
    rng = random.Random(path.name)
    board = ExplainBoard(puzzle)
    k = board.kernel()
    truth = [LINE if frozenset(link) in used else CUT for link in board.links]
    outcomes = set()

    def by_steps(state, up_to):
        """The board at the end of the steps of tiers 1 to ``up_to``, None at a contradiction (with tiers 1-3,
        the end is checked for a flow cut off: a bottleneck step's own check)."""
        b = board.copy()
        b.state[:] = state
        try:
            while (step := easy_steps(b, up_to)) is not None:
                apply_step(b, step[1], step[2])
            if up_to < 4:
                easy_steps(b, 4)
        except Contradiction:
            return None
        return b.state

    def both(state, up_to, seeds):
        expected = by_steps(state, up_to)
        t = np.array(state, np.int8)
        cells = np.zeros(board.n, np.int64)
        code, _, _ = settle_trial(*k, t, up_to, cells,
                                  np.array(seeds, np.int64))
        assert (None if code else t.tolist()) == expected
        outcomes.add(expected is None)
        return expected

    for _ in range(40):
        share = rng.random()
        state = [t if rng.random() < share else UNDECIDED for t in truth]
        for e in rng.sample(range(len(state)), rng.randint(0, 2)):  # now and then a wrong decision
            state[e] = LINE + CUT - truth[e]
        for up_to in (3, 4):
            rest = both(state, up_to, range(board.n))
            open_links = [e for e in range(len(truth)) if rest is not None and rest[e] == UNDECIDED]
            if open_links:  # at rest: one more link either way, seeded by its cells (then 1-4 from the 1-3 end)
                e = rng.choice(open_links)
                trial = list(rest)
                trial[e] = rng.choice((LINE, CUT))
                end = both(trial, 3, board.links[e])
                if end is not None:
                    both(end, 4, ())
    assert outcomes == {True, False}  # both ends met: boards settled and contradictions


def test_explain_boards_draws_a_hexagonal_board_as_its_picture_does(capsys):
    """Columns of hexagons zigzag: a column the picture draws half a cell lower is one line lower, and its links
    to the next columns slant; the rulers number every column and each row where its upper half is."""
    path = PUZZLES / "hex" / "hive_8x7.txt"
    assert main(["explain", "--boards", "--color", "never", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(out) if line.startswith(" " * 10))
    board = list(itertools.takewhile(lambda line: line.startswith(" " * 10), out[start:]))
    assert board[0].split() == [str(c) for c in range(1, 9)]  # every column numbered
    rows = board[1:]
    assert [line[10:12].strip() for line in rows[::2]] == [str(r) for r in range(1, 8)]  # a row every two lines
    assert all(not line[10:12].strip() for line in rows[1::2])
    upper, lower = rows[0][12:], rows[1][12:]
    assert upper[0] == "A" and upper[1::4].strip() == "" and lower[2] == "."  # column 2 sits a line below column 1
    assert any(ch in line for line in rows for ch in "/\\")  # the lines decided so far slant between columns
    places = parse_file(path).cell_places
    assert len(places) == sum(line[12:].count(ch) for line in rows for ch in ".ABCDEFGH")  # one character a cell


def test_replay_names_a_step_that_disagrees_with_the_solution():
    found = explain(parse_file(PUZZLES / "standard" / "regular_5x5.txt"))
    step = found.steps[0]
    wrong = dataclasses.replace(step, lines=step.cuts, cuts=step.lines)
    bad = dataclasses.replace(found, steps=(wrong, *found.steps[1:]))
    problems = replay(bad)
    assert problems and all(p.startswith("step 1: ") for p in problems)
    assert replay(dataclasses.replace(found, steps=found.steps[:-1]))[-1].startswith("the steps leave")


def test_explain_boards_draws_the_board_before_each_harder_step(capsys):
    path = PUZZLES / "warps" / "wrap_5x5.txt"
    assert main(["explain", "--json", str(path)]) == 0
    harder = [s for s in json.loads(capsys.readouterr().out)["steps"] if s["tier"] >= 3]
    assert main(["explain", "--boards", "--color", "never", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    drawn = [line.startswith(" " * 10) for line in out]
    blocks = [i for i, d in enumerate(drawn) if d and not drawn[i - 1]]  # where each board starts
    assert len(blocks) == len(harder) > 0
    after = [out[i + 1 + next(k for k, d in enumerate(drawn[i + 1:]) if not d)] for i in blocks]
    firsts = [tuple((s["links"] + s["cuts"])[0][0]) for s in harder]  # each step's first link's first cell,
    places = parse_file(path).cell_places  # named as the player sees the board: r3c5
    assert all(cell_name(places[cell], cell) in line for cell, line in zip(firsts, after))
    ruler, top = out[blocks[0]], out[blocks[0] + 1]  # the columns numbered above, the rows down the left
    assert ruler.split() == ["1", "2", "3", "4", "5"] and top.split()[0] == "1"
    first, second = (out[b:b + next(k for k, d in enumerate(drawn[b:]) if not d)] for b in blocks[:2])
    assert first != second  # the bottleneck's line is drawn on the next board
    assert main(["explain", "--color", "never", str(path)]) == 0
    assert not any(line.startswith(" " * 10) for line in capsys.readouterr().out.splitlines())
