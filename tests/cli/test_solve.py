"""The command line through ``main([...])``: output contract and exit codes."""

from __future__ import annotations

import json

import pytest

from flowgraph import parse_file
from flowgraph.cli import main
from flowgraph.engines import engine_names
from flowgraph.model import Solution
from flowgraph.verification import check
from tests.helpers import PUZZLES

HEX = str(PUZZLES / "hex" / "honeycomb_5x4.txt")
UNSOLVABLE = str(PUZZLES / "standard" / "unsolvable_3x3.txt")
BIG = str(PUZZLES / "standard" / "open_field_8x8.txt")


@pytest.fixture
def dangling(tmp_path):
    path = tmp_path / "dangling.txt"
    path.write_text("STANDARD\nA-.-A\n| | |\nB-.-B\n    /\n")
    return path


def test_solve_prints_the_filled_board(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["solve", str(PUZZLES / "standard" / "regular_5x5.txt")]) == 0
    out = capsys.readouterr().out
    board = out.splitlines()
    assert "." not in "".join(board[:9])  # every cell filled
    assert board[0].startswith("A")
    assert "\x1b[" not in out  # no colour in a pipe
    assert "solved by sat in" in out and "1 SAT call" in out


@pytest.mark.parametrize("engine", ["auto", "search", "sat"])
def test_solve_reads_the_file_once_and_verifies_once(engine, capsys, monkeypatch):
    """Issue 69: ``flowgraph solve FILE`` parsed the file twice and verified twice in one process (the answer made
    a JSON row and read back); now once each, whatever the engine."""
    import sys

    import lark

    checks = sys.modules["flowgraph.verification"]
    counts = {"parse": 0, "verify": 0}
    parse, obeys = lark.Lark.parse, checks.obeys

    def counted_parse(self, *args, **kwargs):
        counts["parse"] += 1
        return parse(self, *args, **kwargs)

    def counted_obeys(solution):
        counts["verify"] += 1
        return obeys(solution)

    monkeypatch.setattr(lark.Lark, "parse", counted_parse)
    monkeypatch.setattr(checks, "obeys", counted_obeys)
    assert main(["solve", "--engine", engine, str(PUZZLES / "standard" / "regular_5x5.txt")]) == 0
    assert "solved by" in capsys.readouterr().out
    assert counts == {"parse": 1, "verify": 1}


def test_one_file_is_solved_without_a_batch_and_no_call_climbs_a_layer():
    """Issue 69, part 3: a single file ran as a batch of one, and the batch runner called back up into the command
    line (2 climbs, 40 modules, ``python bench/call_path.py solve FILE``); now it is solved where it is read."""
    import subprocess
    import sys

    from tests.helpers import ROOT

    done = subprocess.run([sys.executable, str(ROOT / "bench" / "call_path.py"), "solve",
                           str(PUZZLES / "standard" / "regular_10x10.txt")], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "exit 0" in done.stdout and ", 0 climbs to a higher layer" in done.stdout
    assert "flowgraph.batch.runner" not in subprocess.run(
        [sys.executable, str(ROOT / "bench" / "call_path.py"), "--list", "solve",
         str(PUZZLES / "standard" / "regular_10x10.txt")], capture_output=True, text=True, timeout=120).stdout


@pytest.mark.parametrize("engine, line", [
    ("auto", "no solution: the SAT model is unsatisfiable"),
    ("sat", "no solution: the SAT model is unsatisfiable"),
    ("search", "no solution: the search space is exhausted"),
])
def test_no_solution_says_which_proof(engine, line, capsys):
    assert main(["solve", "--engine", engine, str(PUZZLES / "standard" / "unsolvable_3x3.txt")]) == 1
    assert capsys.readouterr().out.startswith(line)


def test_json_names_the_engine_that_proved_no_solution(capsys):
    main(["solve", "--json", str(PUZZLES / "standard" / "unsolvable_3x3.txt")])
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "unsolvable" and obj["engine"] == "sat" and obj["stats"]["tried"] == ["sat"]


def test_colour_always_styles_flows(capsys):
    assert main(["solve", "--color", "always", HEX]) == 0
    assert "\x1b[" in capsys.readouterr().out


def test_json_lines_follow_the_contract(capsys):
    assert main(["solve", "--json", HEX, UNSOLVABLE]) == 1
    solved, unsolvable = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert solved["status"] == "solved" and solved["engine"] == "sat"  # auto: the engine that answered
    assert set(solved["stats"]) >= {"seconds", "states", "sat_calls", "nodes"}
    puzzle = parse_file(HEX)
    paths = {k: tuple(tuple(p) for p in v) for k, v in solved["paths"].items()}
    assert check(Solution(puzzle, paths)) == []
    assert unsolvable["status"] == "unsolvable" and "paths" not in unsolvable


def test_unsolvable_exits_1(capsys):
    assert main(["solve", UNSOLVABLE]) == 1
    assert "no solution" in capsys.readouterr().out


def test_dangling_link_reports_position_and_exits_3(capsys, dangling):
    assert main(["solve", str(dangling)]) == 3
    err = capsys.readouterr().err
    assert f"{dangling}:5:5: '/' link has no cell at its upper right or at its lower left" in err
    assert "Traceback" not in err


def test_invalid_json_has_errors(capsys, dangling):
    assert main(["solve", "--json", str(dangling)]) == 3
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "invalid"
    assert {"line": 5, "column": 5, "message": "'/' link has no cell at its upper right or at its lower left"} in obj["errors"]


def test_batch_carries_on_past_a_bad_file(capsys, dangling, tmp_path):
    missing = tmp_path / "missing.txt"
    assert main(["solve", "--json", str(missing), str(dangling), HEX]) == 3
    statuses = [json.loads(line)["status"] for line in capsys.readouterr().out.splitlines()]
    assert statuses == ["invalid", "invalid", "solved"]


def test_budget_exits_4(capsys):
    assert main(["solve", "--engine", "search", "--max-states", "1", BIG]) == 4
    assert "gave up" in capsys.readouterr().out


def test_max_nodes_is_a_deprecated_alias_of_both_budgets(capsys):
    assert main(["solve", "--max-nodes", "1", BIG]) == 4  # auto: SAT's calls and the search's states
    out, err = capsys.readouterr()
    assert "gave up" in out and "--max-nodes is deprecated, use --max-states" in err


@pytest.mark.parametrize("argv", [[], ["solve"], ["solve", "--max-states", "0", HEX], ["frobnicate"]])
def test_usage_errors_exit_2(argv, capsys):
    assert main(argv) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_explains_exit_codes(capsys):
    assert main(["solve", "--help"]) == 0
    out = capsys.readouterr().out
    for code in "012345":
        assert f"  {code}  " in out


def test_input_file_is_never_modified(dangling):
    before = dangling.read_bytes()
    main(["solve", str(dangling)])
    assert dangling.read_bytes() == before


@pytest.mark.parametrize("engine", engine_names())
def test_every_engine_answers_in_json(engine, capsys):
    assert main(["solve", "--engine", engine, "--json", str(PUZZLES / "hex" / "hive_8x7.txt")]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["engine"] == (engine if engine != "auto" else "sat") and obj["status"] == "solved"
    stats = obj["stats"]
    assert stats["states"] + stats["sat_calls"] >= 1 and stats["nodes"] == stats["states"]


@pytest.mark.parametrize("argv, words", [
    (["solve", "--max-states", "abc", HEX], "argument --max-states: not a whole number: 'abc'"),
    (["solve", "--time-limit", "-1", HEX], "argument --time-limit: must be a number above 0 and at most 1,000,000, not -1"),
    # issue 51: no time limit is no budget
    (["solve", "--time-limit", "inf", HEX], "argument --time-limit: must be a number above 0 and at most 1,000,000, not inf"),
    (["solve", "--time-limit", "1e308", HEX], "at most 1,000,000, not 1e308"),
    (["solve", "--time-limit", "nan", HEX], "at most 1,000,000, not nan"),
    (["solve", "--memory-limit", "99999999999", HEX], "argument --memory-limit: must be at most 1,048,576 (MB)"),
    (["solve", "--engine", "dfs", HEX],
     "argument --engine: invalid choice: 'dfs' (choose from 'auto', 'search', 'sat', 'links')"),
])
def test_bad_options_name_the_option_and_the_choices(argv, words, capsys):
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_boards_from_other_formats_print_as_text(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    nl = tmp_path / "b.nl"
    nl.write_text("3 2\n1 0 1\n2 0 2\n")
    assert main(["solve", str(nl)]) == 0
    assert capsys.readouterr().out.startswith("A-A-A\n     \nB-B-B\n")  # unused links blanked, as for text files
    cube = tmp_path / "cube.json"  # a board no text draws: its paths are listed
    cube.write_text('{"nodes": [{"id": 1, "label": "A", "xyz": [0, 0, 0]}, {"id": 2, "xyz": [0, 0, 1]},\n'
                    ' {"id": 3, "label": "A", "xyz": [0, 1, 1]}], "links": [[1, 2], [2, 3]]}')
    assert main(["solve", str(cube)]) == 0
    assert capsys.readouterr().out.startswith("A: line 1 col 12, line 1 col 55, line 2 col 2\n")  # where its { is


def test_rules_choose_what_counts_as_a_solution(tmp_path, capsys):
    board = tmp_path / "only_numberlink.txt"
    board.write_text("STANDARD\nA-.-A-.\n")
    assert main(["solve", str(board)]) == 1
    assert main(["solve", "--rules", "numberlink", "--json", str(board)]) == 0
    row = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert row["rules"] == "numberlink" and row["paths"] == {"A": [[2, 1], [2, 3], [2, 5]]}
    assert main(["solve", "--rules", "numberlink", str(board)]) == 0
    assert "Numberlink rules" in capsys.readouterr().out
    assert main(["solve", "--rules", "numberlink", "--engine", "search", str(board)]) == 3
    assert "the search engine solves under flow rules only" in capsys.readouterr().err
    assert main(["validate", "--unique", "--rules", "numberlink", str(board)]) == 0
    assert "unique solution" in capsys.readouterr().out


@pytest.mark.parametrize("json_rows", [False, True])
def test_each_puzzle_of_a_batch_has_its_own_picture(tmp_path, capsys, json_rows):
    """Issue 71: pictures were named by the file's stem, so a pack's levels and same-named files in two folders
    overwrote each other silently (1 picture for a 1,500-level pack)."""
    from flowgraph import write

    board = PUZZLES / "standard" / "regular_5x5.txt"
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "p.txt").write_text(board.read_text())
    (tmp_path / "pk.pack").write_text(write(parse_file(board), "level-pack") * 3)
    argv = ["solve", *(str(tmp_path / f) for f in ("a/p.txt", "b/p.txt", "pk.pack")), "--svg", str(tmp_path / "out")]
    assert main(argv + (["--json"] if json_rows else [])) == 0
    capsys.readouterr()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["p-2.svg", "p.svg", "pk-1.svg", "pk-2.svg",
                                                                    "pk-3.svg"]
