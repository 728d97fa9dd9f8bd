"""puzz.link / pzv.jp Numberlink URLs: read offline (pzprjs's encoding), written back the same."""

from __future__ import annotations

import pytest

from flowgraph import solve, verify
from flowgraph.authoring.solved import write_solved as write
from flowgraph.cli import main
from flowgraph.errors import ConversionError
from flowgraph.io.formats import read_entries
from flowgraph.io.puzzlink import analyse_puzzlink, write_puzzlink
from tests.helpers import PUZZLES

# Boards of our own making (not copied from any site): canonical URLs (numbers 1..k, a trailing run written).
CANONICAL = [
    "https://puzz.link/p?numlin/4/4/1h2n1h2",
    "https://puzz.link/p?numlin/5/5/1g2h3m3i2j1h",
    "https://puzz.link/p?numlin/3/1/1g1",
    "https://puzz.link/p?arukone/4/1/1h1",
    "https://puzz.link/p?numlin/23/1/1zg1",  # a run of 20 empty cells is 'z', then one more 'g'
    "https://puzz.link/p?numlin/16/2/123456789abcdef-10-10fedcba987654321",
]


@pytest.mark.parametrize("url", CANONICAL)
def test_a_canonical_url_reads_and_writes_back_unchanged(url):
    [entry], problems = analyse_puzzlink(url)
    assert not problems
    assert write_puzzlink(entry.puzzle) == url
    assert entry.puzzle.rules == ("numberlink" if "numlin" in url else "flow")


@pytest.mark.parametrize("url, rules", [
    ("http://pzv.jp/p.html?numlin/4/4/1h2n1h2", "numberlink"),
    ("https://puzz.link/p?arukone/e/4/4/1h2n1h2", "numberlink"),  # arukone with the flag e: Numberlink rules
    ("https://puzz.link/p?arukone/4/4/1h2n1h2", "flow"),
])
def test_the_puzzle_id_and_flags_choose_the_rules(url, rules):
    [entry], _ = analyse_puzzlink(url)
    assert entry.puzzle.rules == rules and len(entry.puzzle.flows) == 2


def test_number_n_is_the_nth_label_and_decoding_follows_pzprjs():
    [entry], _ = analyse_puzzlink("https://puzz.link/p?numlin/4/2/-11ag-11ai")  # 17, 10, empty, 17 / 10, 3 empty
    assert entry.puzzle.lines[1:4] == ("Q-J-.-Q", "| | | |", "J-.-.-.")  # as in numberlink files


@pytest.mark.parametrize("labels", ["BC", "AZ", "az", "09", "Q1"])
def test_a_board_written_as_a_url_reads_back_with_its_own_labels(labels):
    """Issue 33: labels not starting at A (5 of 800 fuzzed converts) read back renamed: exit 5."""
    from flowgraph import parse_text
    from flowgraph.io.puzzlink import write_puzzlink
    from flowgraph.io.sketch import same_board

    one, two = labels
    board = parse_text(f"STANDARD\n{one}-.-{one}\n| | |\n{two}-.-{two}\n")
    [back], _ = analyse_puzzlink(write_puzzlink(board))
    assert same_board(back.puzzle, board)


@pytest.mark.parametrize("url, column, words", [
    ("https://puzz.link/p?numlin/4/4/1h2n1h.", 38, "'?' clue"),
    ("https://puzz.link/p?lits/4/4/1h2n1h2", 21, "reads numlin, arukone, numberlink"),
    ("https://puzz.link/p?numlin/4/4/1h2n1h3", 32, "number 2 appears once"),
    ("https://puzz.link/p?numlin/4/x/1h2", 28, "width and the height"),
    ("https://puzz.link/p?numlin/999/999/1", 28, "1 to 40,000 cells"),
    ("https://puzz.link/p?numlin/4/4/-1", 32, "followed by 2 hex digits"),
])
def test_a_bad_url_is_reported_at_its_column(url, column, words):
    entries, problems = analyse_puzzlink(url, "u.url")
    assert not entries and problems[0].line == 1 and problems[0].column == column and words in problems[0].message


@pytest.mark.parametrize("board, words", [
    ("hex/honeycomb_5x4.txt", "diagonal"), ("standard/garden_9x7_holes.txt", "holes"),
    ("warps/wrap_5x5.txt", "warps"), ("bridges/crossing_5x5.txt", "bridges"),
])
def test_what_a_url_cannot_express_is_named(board, words):
    from flowgraph import parse_file

    with pytest.raises(ConversionError, match=words):
        write(parse_file(PUZZLES / board), "puzzlink")


def test_a_numberlink_url_solves_under_its_rules_and_round_trips_through_neighbor_link(tmp_path, capsys):
    url = "https://puzz.link/p?numlin/4/4/1h2n1h2"
    assert main(["solve", "--json", url]) == 0
    assert '"rules": "numberlink"' in capsys.readouterr().out
    board = tmp_path / "board.txt"
    assert main(["convert", url, "-o", str(board)]) == 0
    assert main(["convert", str(board), "--to", "puzzlink", "--rules", "numberlink"]) == 0
    assert capsys.readouterr().out == url + "\n"


def test_a_file_of_urls_is_many_puzzles(tmp_path, capsys):
    urls = tmp_path / "week.url"
    urls.write_text("// my puzzles\n" + "\n".join([CANONICAL[0], CANONICAL[2], CANONICAL[3]]) + "\n")
    fmt, entries, problems = read_entries(urls.read_text(), str(urls))
    assert fmt == "puzzlink" and len(entries) == 3 and not problems
    for entry in entries:
        verify(solve(entry.puzzle))
    assert main(["solve", "--json", str(urls)]) == 0
    assert capsys.readouterr().out.count('"status": "solved"') == 3


# Two boards from pzprjs's own test data (robx/pzprjs, test/script/numlin.js and arukone.js, MIT licence): the
# editor's reference for these URLs.
PZPRJS = ["https://puzz.link/p?numlin/5/5/1j2h3m1h2j3", "https://puzz.link/p?arukone/5/5/1m2h3g3h1m2"]


@pytest.mark.parametrize("url", PZPRJS)
def test_the_editors_own_test_boards_read_solve_and_write_back(url):
    from flowgraph.authoring.uniqueness import count_solutions

    [entry], problems = analyse_puzzlink(url)
    assert not problems and len(entry.puzzle.flows) == 3
    verify(solve(entry.puzzle))
    assert write_puzzlink(entry.puzzle) == url
    if "numlin" in url:
        assert count_solutions(entry.puzzle).verdict == "unique"


# Published puzzles: cspuz-rs's Numberlink serializer test (semiexp/cspuz-rs,
# cspuz_rs_puzzles/src/puzzles/numberlink.rs, MIT/Apache) and penpa-edit's Arukone example
# (swaroopg92/penpa-edit, TESTING.md). Each has one solution under its rules.
PUBLISHED = [("https://puzz.link/p?numlin/6/6/j4h14m2n2h133k", "numberlink"),
             ("https://puzz.link/p?arukone/14/9/zh-15h6heh3fe6-15-1354g4ci7g9u2zg3g9g-1351ch2i7g1j8of8n", "flow")]


@pytest.mark.parametrize("url, rules", PUBLISHED)
def test_published_puzzles_are_unique_under_their_rules(url, rules):
    from flowgraph.authoring.uniqueness import count_solutions

    [entry], problems = analyse_puzzlink(url)
    assert not problems and entry.puzzle.rules == rules
    result = count_solutions(entry.puzzle)
    assert result.verdict == "unique"
    verify(result.solutions[0])
    # The Arukone URL numbers its flows out of reading order (up to 21); written back they are 1-N.
    [again], _ = analyse_puzzlink(write_puzzlink(entry.puzzle))
    assert {f.ends for f in again.puzzle.flows} == {f.ends for f in entry.puzzle.flows}


def test_numberlink_is_another_name_of_numlin():
    # pzprjs reads "numberlink" as numlin (src/pzpr/variety.js); the URL is from penpa-edit's TESTING.md.
    from flowgraph.io.files import load

    puzzle, problems = load("https://puzz.link/p?numberlink/11/11/-2bap-2ft-15zrazy-2fg-2bn-15o")
    same, _ = load("https://puzz.link/p?numlin/11/11/-2bap-2ft-15zrazy-2fg-2bn-15o")
    assert not problems and puzzle.rules == "numberlink"
    assert puzzle.flows == same.flows and set(puzzle.graph.edges) == set(same.graph.edges)
