"""count_all and validate --count: exact counts, checked against brute force on tiny boards of every family."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from flowgraph import Limits, parse_text, verify
from flowgraph.authoring.uniqueness import count_all
from flowgraph.cli import main
from flowgraph.model import Solution
from tests.helpers import PUZZLES, random_board


def _brute_force(puzzle) -> int:
    """Every choice of one simple path per flow, pairwise disjoint, that the rules accept (verify)."""
    g = puzzle.graph
    options = [list(nx.all_simple_paths(g, *f.ends)) for f in puzzle.flows]
    count = 0

    def place(k: int, used: set, chosen: list) -> None:
        nonlocal count
        if k == len(options):
            try:
                verify(Solution(puzzle, {f.label: tuple(p) for f, p in zip(puzzle.flows, chosen)}))
            except Exception:
                return
            count += 1
            return
        for path in options[k]:
            if used.isdisjoint(path):
                place(k + 1, used | set(path), [*chosen, path])

    place(0, set(), [])
    return count


@pytest.mark.parametrize("rules", ["flow", "numberlink"])
@pytest.mark.parametrize("seed", range(48))
def test_counts_equal_brute_force(seed, rules):
    from flowgraph.io.plain_grid import read_plain_grid

    try:
        puzzle = read_plain_grid(random_board(seed, (3, 4))).with_rules(rules)
    except ValueError:
        pytest.skip("not a board (a lame bridge, or no flow)")
    result = count_all(puzzle)
    assert result.exact and not result.limit
    assert result.count == _brute_force(puzzle)
    assert len(result.solutions) == min(result.count, 2)
    for s in result.solutions:
        verify(s)
    import flowgraph  # the same board as a JSON graph, whose node ids are no drawing of it, counts the same

    again = flowgraph.read(flowgraph.write(puzzle, "json-graph"), "json-graph").with_rules(rules)
    assert count_all(again).count == result.count


OPEN_SQUARE = "STANDARD\nA-.-.-.-B\n| | | | |\n.-.-.-.-.\n| | | | |\n.-.-.-.-.\n| | | | |\nA-.-.-.-B\n"
OPEN_HEX = "HEX\nA-.-.-.-B\n|/|\\|/|\\|\n.-.-.-.-.\n|/|\\|/|\\|\n.-.-.-.-.\n|/|\\|/|\\|\nA-.-.-.-B\n"


@pytest.mark.parametrize("rules", ["flow", "numberlink"])
@pytest.mark.parametrize("board, formats", [(OPEN_SQUARE, ["json-graph", "plain-grid", "numberlink", "level-pack"]),
                                            (OPEN_HEX, ["json-graph"])])
def test_a_board_counts_the_same_in_every_format(board, formats, rules):
    """A JSON graph's node ids are where its objects stand in the text: the link search once took them for a
    drawing of the board (a straight line of nodes, every link "planar") and its nesting check cut real solutions
    (36 of 48 on the square, 182 of 772 on the hex board under Flow Free rules)."""
    import flowgraph

    puzzle = parse_text(board).with_rules(rules)
    expected = count_all(puzzle)
    assert expected.exact and expected.count == {(OPEN_SQUARE, "flow"): 48, (OPEN_SQUARE, "numberlink"): 942,
                                                 (OPEN_HEX, "flow"): 772, (OPEN_HEX, "numberlink"): 62091}[board, rules]
    for fmt in formats:
        if fmt == "level-pack" and rules == "numberlink":
            continue  # (a Flow Free level fills every cell: no Numberlink puzzle is one)
        again = flowgraph.read(flowgraph.write(puzzle, fmt), fmt).with_rules(rules)
        counted = count_all(again)
        assert counted.exact and counted.count == expected.count, fmt


def _rim_board(seed: int) -> str:
    """A full 4x4 or 5x4 rectangle (no holes) with 2-3 flows whose endpoints sit on its border, the
    case where the nesting check also orders the endpoints around the rim."""
    import random

    rng = random.Random(seed)
    width, height = rng.choice([(4, 4), (5, 4), (4, 5)])
    rim = [(x, y) for x in range(width) for y in range(height) if x in (0, width - 1) or y in (0, height - 1)]
    cells = dict.fromkeys(((x, y) for x in range(width) for y in range(height)), ".")
    for label, xy in zip("AABBCC"[: 2 * rng.randint(2, 3)], rng.sample(rim, 6)):
        cells[xy] = label
    return "STANDARD\n" + "\n".join("".join(cells[x, y] for x in range(width)) for y in range(height)) + "\n"


@pytest.mark.parametrize("rules", ["flow", "numberlink"])
@pytest.mark.parametrize("seed", range(24))
def test_counts_with_endpoints_on_the_rim_equal_brute_force(seed, rules):
    from flowgraph.io.plain_grid import read_plain_grid

    puzzle = read_plain_grid(_rim_board(seed)).with_rules(rules)
    result = count_all(puzzle)
    assert result.exact and result.count == _brute_force(puzzle)


def test_flows_that_must_cross_on_the_rim_are_cut_at_once():
    """A and B join opposite corners of a rectangle: they alternate around its rim, so no solution; the
    nesting check says so at once (2 decisions), the search without it needs over a thousand."""
    from flowgraph.engines.exhaustive import enumerate_solutions
    from flowgraph.io.plain_grid import read_plain_grid

    rows = ["A....B", *["......"] * 4, "B....A"]
    puzzle = read_plain_grid("STANDARD\n" + "\n".join(rows) + "\n").with_rules("numberlink")
    off, on = (enumerate_solutions(puzzle, None, keep=0, nested=nested, order="rows") for nested in (False, True))
    assert off.count == on.count == 0
    assert on.stats["decisions"] * 100 < off.stats["decisions"]


@pytest.mark.parametrize("path", sorted(PUZZLES.glob("*/*.txt")), ids=lambda p: p.name)
def test_bundled_boards_count_as_count_solutions_says(path):
    from flowgraph import parse_file
    from flowgraph.authoring.uniqueness import count_solutions

    puzzle = parse_file(path)
    counted = count_all(puzzle, 2, Limits(time_limit_s=60))
    if counted.limit:
        pytest.skip("the exhaustive count ran out of time here")
    assert counted.verdict == count_solutions(puzzle).verdict


def test_a_cap_gives_at_least():
    board = parse_text("STANDARD\nA-.-.-A\n| | | |\n.-.-.-.\n| | | |\n.-.-.-.\n").with_rules("numberlink")
    exact = count_all(board)
    capped = count_all(board, 3)
    assert exact.exact and exact.count > 3
    assert (capped.count, capped.exact, capped.verdict) == (3, False, "multiple")


def test_a_time_limit_is_a_limit_not_a_count():
    from flowgraph.io.plain_grid import read_plain_grid

    board = read_plain_grid("STANDARD\nA" + "." * 9 + "\n" + ("." * 10 + "\n") * 8 + "." * 9 + "A\n")
    result = count_all(board.with_rules("numberlink"), limits=Limits(time_limit_s=0.05))
    assert result.limit and not result.exact and result.verdict in ("limit", "multiple")


def test_validate_count_cli(capsys, tmp_path):
    f = tmp_path / "two.txt"
    f.write_text("STANDARD\nA-.-A\n| | |\n.-.-.\n")
    assert main(["validate", "--count", "--rules", "numberlink", "--json", str(f)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["count"], row["exact"], row["verdict"]) == (4, True, "multiple")
    assert main(["validate", "--count", "--max", "2", "--json", "--rules", "numberlink", str(f)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["count"], row["exact"], row["verdict"]) == (2, False, "multiple")
    assert main(["validate", "--count", str(f)]) == 1  # Flow Free rules: no solution
    assert "no solution" in capsys.readouterr().out
    assert main(["validate", "--count", "--rules", "numberlink", str(f)]) == 0
    assert "4 solutions" in capsys.readouterr().out


def test_validate_unique_json_has_a_verdict(capsys, tmp_path):
    f = tmp_path / "two.txt"
    f.write_text("STANDARD\nA-.-A\n| | |\n.-.-.\n")
    main(["validate", "--unique", "--json", str(f)])
    assert json.loads(capsys.readouterr().out)["verdict"] == "none"
    import flowgraph  # issue 72: the Python API says the JSON's word ("unsolvable" before)

    puzzle = flowgraph.parse_file(f)
    assert flowgraph.count(puzzle).verdict == "none" == count_all(puzzle).verdict
    main(["validate", "--unique", "--json", "--rules", "numberlink", str(f)])
    assert json.loads(capsys.readouterr().out)["verdict"] == "multiple"


@pytest.mark.parametrize("path, rules, verdict, count", [
    (PUZZLES / "standard" / "regular_5x5.txt", "flow", "unique", 1),
    (PUZZLES / "standard" / "unsolvable_3x3.txt", "flow", "none", 0),
    (PUZZLES / "standard" / "open_field_8x8.txt", "flow", "multiple", 56),
])
def test_validate_unique_and_count_together(capsys, path, rules, verdict, count):
    # --unique's answer of none or one is the count too (count_all would ask count_solutions again)
    main(["validate", "--unique", "--count", "--json", "--rules", rules, str(path)])
    row = json.loads(capsys.readouterr().out)
    assert (row["verdict"], row["count"], row["exact"]) == (verdict, count, True)


def _tiny(seed: int, size: tuple[int, int], rules: str):
    """random_board's board under ``rules``, or a skip when the seed gives none."""
    from flowgraph.io.plain_grid import read_plain_grid

    try:
        return read_plain_grid(random_board(seed, size)).with_rules(rules)
    except ValueError:
        pytest.skip("not a board (a lame bridge, or no flow)")


def _canonical(solution, rank) -> bool:
    """No path uses two links of a triangle or three of a 4-cycle (a jump over one or two nodes), and
    no path turns at b of a 4-cycle a-b-c-d whose d, later in board order and no endpoint, is empty."""
    g = solution.puzzle.graph
    owner = solution.owner()
    endpoints = {end for f in solution.puzzle.flows for end in f.ends}
    for path in solution.paths.values():
        at = {v: i for i, v in enumerate(path)}
        if any(1 < abs(at.get(w, i) - i) <= 3 for i, v in enumerate(path) for w in g[v]):
            return False
        for a, b, c in zip(path, path[1:], path[2:]):
            if len(b) == 2 and any(d != b and len(d) == 2 and d not in owner and d not in endpoints
                                   and rank[d] > rank[b] for d in set(g[a]) & set(g[c])):
                return False
    return True


@pytest.mark.parametrize("seed", range(64))
def test_canonical_solutions_are_those_no_short_move_changes(seed):
    # The uniqueness proof counts canonical solutions; here they are picked out of all solutions by hand.
    from flowgraph.engines.exhaustive import enumerate_solutions
    from flowgraph.engines.link_layout import _board_order

    puzzle = _tiny(seed, (3, 4), "numberlink")
    every = enumerate_solutions(puzzle, keep=10**5)
    assert every.complete and every.count <= 10**5
    rank = {v: i for i, v in enumerate(_board_order(puzzle)[0])}
    canonical = enumerate_solutions(puzzle, canonical=True, keep=10**5)
    assert canonical.count == sum(_canonical(s, rank) for s in every.solutions)
    assert (canonical.count > 0) == (every.count > 0)  # every solution reaches a canonical one
    assert {frozenset(s.paths.items()) for s in canonical.solutions} <= {frozenset(s.paths.items())
                                                                         for s in every.solutions}


@pytest.mark.parametrize("rules", ["flow", "numberlink"])
@pytest.mark.parametrize("seed", range(0, 96, 3))
def test_the_failure_memo_changes_no_count(seed, rules):
    from flowgraph.engines.exhaustive import enumerate_solutions

    puzzle = _tiny(seed, (4, 5), rules)
    for canonical in (False, True) if rules == "numberlink" else (False,):
        counts = [enumerate_solutions(puzzle, 10**6, canonical=canonical, keep=0, memo=memo).count
                  for memo in (False, True)]
        assert counts[0] == counts[1]


@pytest.mark.parametrize("seed", range(0, 64, 2))
def test_the_sat_model_of_canonical_solutions(seed):
    # The SAT side of the Numberlink uniqueness proof: no chord at all, corners towards later nodes in
    # the model's numbering ruled out; its solutions, all of them, picked out of every solution by hand.
    from flowgraph.engines import sat
    from flowgraph.engines.exhaustive import enumerate_solutions

    puzzle = _tiny(seed, (3, 4), "numberlink")
    every = enumerate_solutions(puzzle, keep=10**5)
    rank = puzzle.cell_index.number
    g = puzzle.graph

    def chord_free(s) -> bool:
        return not any(s.owner().get(u) == s.owner().get(v) is not None and abs(
            s.paths[s.owner()[u]].index(u) - s.paths[s.owner()[u]].index(v)) > 1 for u, v in g.edges)

    want = sum(chord_free(s) and _canonical(s, rank) for s in every.solutions)
    found, _ = sat.solutions(puzzle, 10**4, tight=True, corners=True)
    assert len(found) == want
    assert (want > 0) == (every.count > 0)


def test_the_memo_grows_between_slices(monkeypatch):
    from flowgraph import parse_file
    from flowgraph.engines import exhaustive

    puzzle = parse_file(PUZZLES / "standard" / "open_field_8x8.txt")
    monkeypatch.setattr(exhaustive, "MEMO_START", 2)
    monkeypatch.setattr(exhaustive, "SLICE", 3)
    grown = exhaustive.enumerate_solutions(puzzle, keep=0)
    assert grown.count == 56 and grown.stats["memo_slots"] > 2


# semiexp/numlin_v2's counts (its `numlin URL` binary's "solutions:" line, built from its source, 2026-11-25;
# the URL from `flowgraph convert --rules numberlink --to puzzlink FILE`): on the 207 janko boards where both
# answer in 20 s, the counts agree (docs/benchmarks.md); bench/numlin_side_by_side.py runs the comparison on URLs.
NUMLIN_V2_COUNTS = {"janko_007_9x9": 56, "janko_008_9x9": 1, "janko_009_9x9": 30, "janko_010_9x9": 153,
                    "janko_013_10x10": 572, "janko_014_10x10": 2, "janko_133_10x10": 72, "janko_144_12x12": 19}


@pytest.mark.parametrize("name, expected", sorted(NUMLIN_V2_COUNTS.items()))
def test_canonical_counts_equal_numlin_v2s(name, expected):
    from flowgraph import parse_file
    from tests.helpers import corpus_files

    files = corpus_files(f"numberlink/{name}.txt")
    if not files:
        pytest.skip("the corpus is not here")
    puzzle = parse_file(files[0]).with_rules("numberlink")
    counted = count_all(puzzle, canonical=True)
    assert counted.exact and counted.count == expected
    assert count_all(puzzle, expected + 1).count > expected or expected == 1  # the Nikoli count is larger


OPEN_3X3 = "STANDARD\nA-.-.\n| | |\n.-.-.\n| | |\n.-.-A\n"


def test_canonical_changes_nothing_under_flow_rules():
    puzzle = parse_text(OPEN_3X3)
    assert count_all(puzzle, canonical=True).count == count_all(puzzle).count == 2


def test_validate_counts_canonical_solutions(tmp_path, capsys):
    board = tmp_path / "open_3x3.txt"
    board.write_text(OPEN_3X3)
    for flags, count in ((["--count"], 12), (["--count", "--canonical"], 1)):
        assert main(["validate", "--rules", "numberlink", "--json", *flags, str(board)]) == 0
        row = json.loads(capsys.readouterr().out)
        assert row["count"] == count and row.get("canonical", False) == ("--canonical" in flags)
    assert main(["validate", "--rules", "numberlink", "--count", "--canonical", str(board)]) == 0
    assert "1 canonical solution under Numberlink rules" in capsys.readouterr().out


@pytest.mark.parametrize("flags, words", [(["--canonical"], "--canonical needs --count"),
                                          (["--max", "3"], "--max needs --count"),
                                          (["--max", "3", "--canonical"], "--max and --canonical need --count")])
def test_count_options_need_count(flags, words, capsys):
    assert main(["validate", *flags, str(PUZZLES / "hex" / "hive_8x7.txt")]) == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("name", ["janko_090_10x10", "janko_096_10x10", "janko_103_14x14", "janko_125_12x12",
                                  "janko_133_10x10"])
def test_the_nesting_check_prunes_real_boards_and_changes_no_count(name):
    """janko boards where frontiers with alternating flows do occur: fewer decisions, the same counts."""
    from flowgraph.engines.exhaustive import enumerate_solutions
    from flowgraph.io.files import load
    from tests.helpers import corpus_file

    puzzle = load(corpus_file(f"numberlink/{name}.txt"))[0].with_rules("numberlink")
    off, on = (enumerate_solutions(puzzle, None, canonical=True, keep=0, nested=nested, order="rows")
               for nested in (False, True))
    assert on.count == off.count and on.stats["decisions"] < off.stats["decisions"]


@pytest.mark.parametrize("rules", ["flow", "numberlink"])
def test_both_orders_raced_count_what_each_order_counts(rules):
    """A square board ties the two board orders: they are raced, and an exact count is the same whichever answers."""
    from flowgraph import parse_file
    from flowgraph.engines.exhaustive import enumerate_solutions

    puzzle = parse_file(PUZZLES / "standard" / "open_field_8x8.txt").with_rules(rules)
    raced = enumerate_solutions(puzzle, keep=0)
    assert raced.complete and raced.stats["order"] in ("rows", "columns")
    assert {raced.count} == {enumerate_solutions(puzzle, keep=0, order=o).count for o in ("rows", "columns")}


def test_the_race_answers_in_the_better_order():
    """janko_166: the columns order proves two canonical solutions in a few thousand decisions, rows in millions."""
    from flowgraph import parse_file
    from flowgraph.engines.exhaustive import enumerate_solutions
    from flowgraph.errors import SearchLimitError
    from tests.helpers import corpus_file

    puzzle = parse_file(corpus_file("numberlink/janko_166_17x17.txt")).with_rules("numberlink")
    budget = Limits(max_states=100_000)
    raced = enumerate_solutions(puzzle, 2, canonical=True, limits=budget)
    assert raced.count == 2 and raced.stats["order"] == "columns" and raced.stats["decisions"] < 20_000
    with pytest.raises(SearchLimitError):
        enumerate_solutions(puzzle, 2, canonical=True, limits=budget, order="rows")


def test_a_fork_is_allowed_beside_sats_own_watchdog_only_not_a_thread_that_takes_its_name():
    """Issue 54: fork safety hung on a thread's name: any thread named "flowgraph-sat-watchdog" was trusted."""
    import os
    import sys
    import threading

    from flowgraph import solve
    from flowgraph.engines import exhaustive

    if not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("no fork on this machine")
    solve(parse_text("STANDARD\nA-.-A\n"), engine="sat")  # SAT's watchdog may be running now
    own = {"flowgraph-sat-watchdog", "flowgraph-memory-watch"}  # (the watch of a count's memory: issue 71)
    assert exhaustive._can_fork() == all(t is threading.main_thread() or t.name in own for t in threading.enumerate())
    stop = threading.Event()
    impostor = threading.Thread(target=stop.wait, name="flowgraph-sat-watchdog", daemon=True)
    impostor.start()
    try:
        assert not exhaustive._can_fork()
    finally:
        stop.set()
        impostor.join()


@pytest.fixture
def race_apart(monkeypatch):
    """The race goes on in two processes from its first round (where this machine allows a fork)."""
    from flowgraph.engines import exhaustive

    if not exhaustive._can_fork():
        pytest.skip("no second process here (not Linux, one processor, or other threads running)")
    monkeypatch.setattr(exhaustive, "PARALLEL_AFTER", 0)
    return exhaustive


@pytest.mark.parametrize("board, rules", [
    ("open_field_8x8", "numberlink"),  # 6,180 solutions, 22,656 decisions in one order
    ("corner_to_corner_7x7", "flow"),  # one flow through every cell: 111,712 solutions, 443,906 decisions
])
def test_a_race_in_two_processes_counts_what_one_process_counts(race_apart, board, rules):
    import multiprocessing

    from flowgraph import parse_file
    from flowgraph.io.plain_grid import read_plain_grid

    if board == "corner_to_corner_7x7":
        puzzle = read_plain_grid("STANDARD\nA......\n" + ".......\n" * 5 + "......A\n").with_rules(rules)
    else:
        puzzle = parse_file(PUZZLES / "standard" / f"{board}.txt").with_rules(rules)
    apart = race_apart.enumerate_solutions(puzzle, keep=2)
    assert apart.complete and apart.stats["processes"] == 2
    assert apart.count == race_apart.enumerate_solutions(puzzle, keep=0, order=apart.stats["order"]).count
    for s in apart.solutions:
        verify(s)
    assert not multiprocessing.active_children()


def test_the_child_of_a_race_answers_when_its_order_is_the_better(race_apart):
    """numlin_v2's example task 2 (14x14): columns (the child's order) proves it unique in about 105,000
    decisions, rows (this process's) in about 365,000."""
    from flowgraph.io.puzzlink import analyse_puzzlink

    url = "https://puzz.link/p?numlin/14/14/uap6k2p8o7q9lbgam1y6h4j5p5k7h1u3gbg8k2g9u3k4u"
    puzzle = analyse_puzzlink(url)[0][0].puzzle
    raced = race_apart.enumerate_solutions(puzzle, 2, canonical=True, limits=Limits(time_limit_s=60))
    assert raced.complete and raced.count == 1
    assert raced.stats["order"] == "columns" and raced.stats["processes"] == 2
    verify(raced.solutions[0])


@pytest.mark.parametrize("limits, reason", [(Limits(time_limit_s=0.3), "time"), (Limits(max_states=60_000), "states")])
def test_a_race_in_two_processes_keeps_the_limits_and_leaves_no_process(race_apart, limits, reason):
    import multiprocessing

    from flowgraph.errors import SearchLimitError
    from flowgraph.io.plain_grid import read_plain_grid

    rows = ["A........B", *["." * 10] * 8, "A........B"]  # two flows down the sides: far too many solutions
    open_board = read_plain_grid("STANDARD\n" + "\n".join(rows) + "\n").with_rules("numberlink")
    with pytest.raises(SearchLimitError) as caught:
        race_apart.enumerate_solutions(open_board, None, keep=0, limits=limits)
    assert caught.value.reason == reason
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("part", [Limits(max_states=3_000), Limits(time_limit_s=0.005)])
def test_a_link_search_run_in_parts_counts_what_one_run_counts(part):
    """Each part goes on from where the last stopped: no work lost, the same count at the end."""
    from flowgraph import parse_file
    from flowgraph.engines.exhaustive import LinkSearch, enumerate_solutions
    from flowgraph.errors import SearchLimitError

    puzzle = parse_file(PUZZLES / "standard" / "open_field_8x8.txt").with_rules("numberlink")
    whole = enumerate_solutions(puzzle, keep=0)
    search, parts = LinkSearch(puzzle, keep=2), 0
    while True:
        parts += 1
        try:
            found = search.run(part)
            break
        except SearchLimitError as exc:  # (a race gone apart also counts its child's decisions, lost at the limit)
            assert exc.stats["decisions"] >= search.decisions > 0
    # (at least one part stopped at its limit; how many of 5 ms depends on the machine: a slice can outlast one)
    assert parts >= 2 and found.complete and found.count == whole.count == 6_180
    assert search.run() is found  # ended: the same answer again
    for s in found.solutions:
        verify(s)


def test_a_forked_link_search_goes_on_between_its_parts_and_counts_what_one_run_counts(race_apart):
    """LinkSearch.fork: the second order runs on in a child while this process does other work; a part that
    stops at its limit leaves the child running, the end stops it."""
    import multiprocessing

    from flowgraph import parse_file
    from flowgraph.engines.exhaustive import LinkSearch, enumerate_solutions
    from flowgraph.errors import SearchLimitError

    puzzle = parse_file(PUZZLES / "standard" / "open_field_8x8.txt").with_rules("numberlink")
    search = LinkSearch(puzzle, keep=2)
    assert search.fork() and not search.fork()  # one child at a time
    with pytest.raises(SearchLimitError) as caught:
        search.run(Limits(max_states=1_000))
    assert caught.value.stats["processes"] == 2 and multiprocessing.active_children()
    found = search.run()
    assert found.complete and found.count == enumerate_solutions(puzzle, keep=0, order="rows").count == 6_180
    assert found.stats["processes"] == 2 and not multiprocessing.active_children()
    for s in found.solutions:
        verify(s)
    assert not search.fork()  # ended: nothing to race


def test_a_forked_link_search_closed_early_leaves_no_process(race_apart):
    import multiprocessing

    from flowgraph import parse_file
    from flowgraph.engines.exhaustive import LinkSearch

    puzzle = parse_file(PUZZLES / "standard" / "open_field_8x8.txt").with_rules("numberlink")
    assert not LinkSearch(puzzle, order="rows").fork()  # one order: nothing to race
    search = LinkSearch(puzzle, keep=0)
    assert search.fork(Limits(time_limit_s=30))
    search.close()
    search.close()  # twice: nothing more to do
    assert not multiprocessing.active_children()
    assert search.run().count == 6_180  # this process alone, from where it was


def test_validate_unique_leaves_no_process_behind(race_apart):
    """numlin_v2's task 2 goes past the first part: its second order races in a child from then on."""
    import multiprocessing

    from flowgraph.authoring.uniqueness import count_solutions
    from flowgraph.io.puzzlink import analyse_puzzlink

    url = "https://puzz.link/p?numlin/14/14/uap6k2p8o7q9lbgam1y6h4j5p5k7h1u3gbg8k2g9u3k4u"
    answer = count_solutions(analyse_puzzlink(url)[0][0].puzzle, limits=Limits(time_limit_s=60))
    assert answer.verdict == "unique"
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("canonical", [False, True])
def test_a_unique_numberlink_board_with_wide_empty_areas_is_counted_exactly(canonical):
    """numlin_v2's task 3: every way of leaving its cells empty would take many minutes to enumerate; one
    canonical solution that no move changes is the only solution, so the count is exact at once."""
    from flowgraph.io.puzzlink import analyse_puzzlink

    url = "https://puzz.link/p?numlin/15/15/z5g2h9l3o3rck1x9jch1h6kazual4gbi4j8ybi6l7g2m8n5h7z"
    puzzle = analyse_puzzlink(url)[0][0].puzzle
    result = count_all(puzzle, limits=Limits(time_limit_s=60), canonical=canonical)
    assert (result.count, result.exact, result.verdict) == (1, True, "unique")
    verify(result.solutions[0])


def test_a_count_cut_short_keeps_the_two_solutions_already_found(monkeypatch):
    """count_all asks count_solutions first: when the full count then runs out of time, the answer is
    still "at least two", with both."""
    from flowgraph import parse_file
    from flowgraph.engines import exhaustive
    from flowgraph.errors import SearchLimitError

    def out_of_time(*args, **kwargs):
        raise SearchLimitError("time", {"count": 0, "decisions": 1})

    monkeypatch.setattr(exhaustive, "enumerate_solutions", out_of_time)
    result = count_all(parse_file(PUZZLES / "standard" / "open_field_8x8.txt"), limits=Limits(time_limit_s=5))
    assert (result.count, result.exact, result.limit, result.verdict) == (2, False, True, "multiple")
    first, second = result.solutions
    assert first.paths != second.paths and verify(first) and verify(second)
