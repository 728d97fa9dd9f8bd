"""Each pruning rule on small hand-made boards: a state it must prune, one it must keep.

States are given to :func:`flowgraph.engines.search.prune_reason` as the cells grown
from each endpoint. Square, hex and warped graphs all go through the same
rules: the engine sees only the graph.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from flowgraph import parse_file, parse_text
from flowgraph.engines.search import prune_reason
from tests.helpers import corpus_params

SQ = "| | | | |"
WARP_ROW = "| | | | |   | | | | |"

# Two 3x5 blocks joined by a one-cell-wide corridor that flow W fills.
CORRIDOR = ["    |", "    W", "    |", "    .", "    |", "    W", "    |"]
SPLIT_C = ["STANDARD", ".-.-.-.-.", SQ, ".-X-.-X-.", SQ, ".-.-C-.-.", *CORRIDOR,
           ".-.-C-.-.", SQ, ".-Y-.-Y-.", SQ, ".-.-.-.-."]
SAME_SIDE_C = ["STANDARD", ".-.-C-.-.", SQ, ".-X-.-X-.", SQ, ".-.-C-.-.", *CORRIDOR,
               ".-.-.-.-.", SQ, ".-Y-.-Y-.", SQ, ".-.-.-.-."]
W_THROUGH = {"W": (((8, 5), (10, 5), (12, 5)), ((12, 5),))}

# Two 3x5 blocks joined only through (6,5)-(8,5); A and B both need to cross.
NECK = ["STANDARD", ".-.-.-.-.", SQ, ".-A-.-B-.", SQ, ".-.-.-.-.", "    |",
        ".-.-.-.-.", SQ, ".-A-.-B-.", SQ, ".-.-.-.-."]
TWO_NECKS = [line if line != "    |" else "|   |" for line in NECK]

# Rows 2 and 4 each filled by a finished flow leave the rows below to nobody.
ROWS = ["STANDARD", "A-.-.-.-A", SQ, "B-.-.-.-B", SQ, ".-.-.-.-.", SQ, ".-.-.-.-."]
ROW_A = (((2, 1), (2, 3), (2, 5), (2, 7), (2, 9)), ((2, 9),))
ROW_B = (((4, 1), (4, 3), (4, 5), (4, 7), (4, 9)), ((4, 9),))

HEX_NECK = ["HEX", "A-.-.   .-.-A", "|/|\\|   |\\|/|", ".-.-.-.-.-.-.", "|/|\\|   |\\|/|", "B-.-.   .-.-B"]
HEX_OPEN = ["HEX", "A-.-.-.-.-.-A", "|/|\\|/|\\|/|\\|", ".-.-.-.-.-.-.", "|/|\\|/|\\|/|\\|", "B-.-.-.-.-.-B"]

# Two blocks side by side whose only link is the row warp of line 4.
WARP_NECK = ["WARPS", ".-.-A-.-.   .-.-B-.-.", WARP_ROW, ".-.-.-.-.   .-.-.-.-.-", WARP_ROW,
             ".-.-B-.-.   .-.-A-.-."]
WARP_OPEN = ["WARPS", ".-.-A-.-.   .-.-B-.-.-", WARP_ROW, ".-.-.-.-.   .-.-.-.-.-", WARP_ROW,
             ".-.-B-.-.   .-.-A-.-.-"]

# A 2x2 block hanging off a two-cell corridor below a 4x5 area: no head
# touches the block, so a path could enter it but never leave (dead pocket).
R5 = ".-.-.-.-."
# A 3x4 pocket: smaller ones are caught sooner, by the links their cells must make.
POCKET_TAIL = ["    |", "    .", "    |", "    .", "    |", "    .-.-.-.", "    | | | |", "    .-.-.-.", "    | | | |"]
POCKET = ["STANDARD", "A-.-.-.-A", SQ, R5, SQ, R5, SQ, "B-.-.-.-B", *POCKET_TAIL, "    .-.-.-."]
POCKET_C = ["STANDARD", "A-.-.-.-A", SQ, R5, SQ, ".-.-C-.-.", SQ, "B-.-.-.-B", *POCKET_TAIL, "    .-.-.-C"]  # solvable

# 5x5 boards: A's ends side by side leave 11 cells of one colour and 12 of
# the other (a path between them needs as many of each); ends two apart keep.
S5 = [R5, SQ, R5, SQ, R5, SQ, R5, SQ, R5]
W4 = [".-.-.-.-", "| | | |"] * 4 + [".-.-.-.-"]  # 4-wide rows with row warps: bipartite
HEX_ROWS = ["|\\|/|\\|/|", "|/|\\|/|\\|"]


def _ends(rows, header, cols):
    first = rows[0]
    for c in cols:
        first = first[: 2 * c] + "A" + first[2 * c + 1:]
    return [header, first, *rows[1:]]


PARITY_SQ = _ends(S5, "STANDARD", (0, 1))
PARITY_SQ_KEEP = _ends(S5, "STANDARD", (0, 2))
PARITY_WARP = _ends(W4, "WARPS", (0, 2))
PARITY_WARP_KEEP = _ends(W4, "WARPS", (0, 1))
PARITY_HEX_KEEP = _ends([line if line != SQ else HEX_ROWS[i // 2 % 2] for i, line in enumerate(S5)], "HEX", (0, 1))


# A 7x7 board: W has grown along row 3 from the right edge to column 2, so
# only (3,0) and (3,1) lead from the top half to the bottom one. Three
# flows must cross those two cells (chokepoint); with C kept on top only
# two. The diagonal in the last row makes the graph non-bipartite, so the
# parity rule stays out of the way.
def _row(ends):
    return "-".join(ends.get(c, ".") for c in range(7))


def _choke(c_top):
    rows = [_row({0: "A", 2: "B", 4: "C", 6: "W"}), _row({}), _row({}), _row({6: "W"}), _row({}), _row({}),
            _row({0: "A", 2: "B"} if c_top else {0: "A", 2: "B", 4: "C"})]
    if c_top:
        rows[1] = _row({3: "C"})
    links = ["| | | | | | |"] * 5 + ["|\\| | | | | |"]
    return ["STANDARD"] + [x for pair in zip(rows, links + [None]) for x in pair if x is not None]


W_ALONG_ROW_3 = {"W": (((2, 13),), ((8, 13), (8, 11), (8, 9), (8, 7), (8, 5)))}


# 4x5 boards: A runs along the top row and turns down the right edge. The
# inside of its bend must be another flow's bend, and so on down the
# diagonal to an endpoint: D's (keep), or none (a loose bend). The warped
# boards are the same turned two columns round the row warps, so the
# diagonal crosses the warp.
def _board(rows, warp=False):
    out = ["WARPS" if warp else "STANDARD"]
    for i, r in enumerate(rows):
        if i:
            out.append("| " * (len(r) - 1) + "|")
        out.append("-".join(r) + ("-" if warp else ""))
    return out


def _turned(rows, k):
    return [r[-k:] + r[:-k] for r in rows]


def _cells(cells, k=0):
    return tuple((2 + 2 * r, 1 + 2 * ((c + k) % 5)) for r, c in cells)


BEND_KEEP = ["EA...", ".B...", ".CD..", "ECDBA"]
BEND_LOOSE = ["EA...", ".B...", ".C...", "E.CBA"]
A_TURNS = {"A": (_cells(((0, 1), (0, 2), (0, 3), (0, 4), (1, 4))), _cells(((3, 4),)))}
A_TURNS_WARPED = {"A": (_cells(((0, 1), (0, 2), (0, 3), (0, 4), (1, 4)), 2), _cells(((3, 4),), 2))}
# 3x5 boards: the cell between A and B has three possible links; A-B would
# join two flows and either turn down bends around no endpoint, so the
# heuristics prune at once. The sound rules keep it: A and B can run beside
# themselves, and the fallback search solves it. With C inside A's turn, the
# turn is possible.
THREE_LINKS = ["A.BBA", ".....", "....."]
THREE_LINKS_KEEP = ["A.BBA", "C....", "....C"]
# With A along the top row, the middle row can only be filled by paths that
# touch themselves: the heuristics prune it. (No path pair on this board is
# free of self-touches; states on the way to real solutions are kept, see
# test_states_on_the_way_to_a_solution_are_kept.)
A_ALONG_HEX_TOP = {"A": (((2, 1), (2, 3), (2, 5)), ((2, 13),))}


# A's finished path rings a 2x2 block: each of its cells can only link its two
# block neighbours, and those four links would close a loop.
RING = ["STANDARD", "A-.-.-.", "| | | |", "A-.-.-.", "| | | |", ".-.-.-.", "| | | |", ".-.-.-."]
A_RINGS = {"A": (((2, 1), (2, 3), (2, 5), (2, 7), (4, 7), (6, 7), (8, 7), (8, 5), (8, 3), (8, 1), (6, 1), (4, 1)),
                 ((4, 1),))}


def board(lines):
    return parse_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    "lines, partial, heuristic, reason",
    [
        pytest.param(NECK + ["    |", "    ."], {}, False, "dead end", id="square-dead-end"),
        pytest.param(TWO_NECKS, {}, False, None, id="square-dead-end-keep"),
        pytest.param(ROWS, {"A": ROW_A, "B": ROW_B}, False, "stranded region", id="square-stranded-region"),
        pytest.param(ROWS, {"A": ROW_A}, False, None, id="square-stranded-region-keep"),
        pytest.param(SPLIT_C, W_THROUGH, False, "stranded flow", id="square-stranded-flow"),
        pytest.param(SAME_SIDE_C, W_THROUGH, False, None, id="square-stranded-flow-keep"),
        pytest.param(NECK, {}, False, "bottleneck", id="square-bottleneck"),
        pytest.param(TWO_NECKS, {}, False, None, id="square-bottleneck-keep"),
        pytest.param(HEX_NECK, {}, False, "bottleneck", id="hex-bottleneck"),
        pytest.param(HEX_OPEN, {}, False, None, id="hex-bottleneck-keep"),
        # The links the block corners force make the warp a corridor between
        # regions, which strands one before the cut-node test runs (the square
        # and hex cases above still reach it).
        pytest.param(WARP_NECK, {}, False, "stranded region", id="warps-bottleneck"),
        pytest.param(WARP_OPEN, {}, False, None, id="warps-bottleneck-keep"),
        pytest.param(RING, A_RINGS, False, "closed loop", id="square-closed-loop"),
        pytest.param(POCKET, {}, False, "dead pocket", id="square-dead-pocket"),
        pytest.param(POCKET_C, {}, False, None, id="square-dead-pocket-keep"),
        pytest.param(PARITY_SQ, {}, False, "parity", id="square-parity"),
        pytest.param(PARITY_SQ_KEEP, {}, False, None, id="square-parity-keep"),
        pytest.param(PARITY_WARP, {}, False, "parity", id="warps-parity"),
        pytest.param(PARITY_WARP_KEEP, {}, False, None, id="warps-parity-keep"),
        pytest.param(PARITY_HEX_KEEP, {}, False, None, id="hex-parity-not-bipartite-keep"),
        pytest.param(_choke(False), W_ALONG_ROW_3, False, "chokepoint", id="square-chokepoint"),
        pytest.param(_choke(True), W_ALONG_ROW_3, False, None, id="square-chokepoint-keep"),
        pytest.param(_board(BEND_LOOSE), A_TURNS, True, "loose bend", id="square-loose-bend"),
        pytest.param(_board(BEND_KEEP), A_TURNS, True, None, id="square-loose-bend-keep"),
        pytest.param(_board(_turned(BEND_LOOSE, 2), True), A_TURNS_WARPED, True, "loose bend", id="warps-loose-bend"),
        pytest.param(_board(_turned(BEND_KEEP, 2), True), A_TURNS_WARPED, True, None, id="warps-loose-bend-keep"),
        pytest.param(_board(THREE_LINKS), {}, True, "loose bend", id="square-three-links"),
        pytest.param(_board(THREE_LINKS), {}, False, None, id="square-three-links-sound-keeps"),
        pytest.param(_board(THREE_LINKS_KEEP), {}, True, None, id="square-three-links-keep"),
        pytest.param(HEX_OPEN, A_ALONG_HEX_TOP, True, "loose bend", id="hex-loose-bend"),
        pytest.param(HEX_OPEN, A_ALONG_HEX_TOP, False, None, id="hex-loose-bend-sound-keeps"),
        # Self-touch: A must run beside itself; the heuristic joins the heads
        # at once, and the corner cells it leaves are bends around no endpoint
        # (a loose bend); the sound rules keep the state.
        pytest.param(["STANDARD", "A-.-.", "| | |", "A-.-."], {}, True, "loose bend", id="self-touch-prunes"),
        pytest.param(["STANDARD", "A-.-.", "| | |", "A-.-."], {}, False, None, id="self-touch-off-keeps"),
    ],
)
def test_rule(lines, partial, heuristic, reason):
    assert prune_reason(board(lines), partial, heuristic) == reason


BUNDLED = sorted((Path(__file__).resolve().parents[2] / "puzzles").glob("*/*.txt"))
# Real levels of every family and a spread of the numberlink sets.
CORPUS_BOARDS = (corpus_params("samgoldman/*/*.txt") + corpus_params("generated/*/*.txt")
                 + corpus_params("numberlink/janko_*.txt")[::9] + corpus_params("numberlink/inputs9_*.txt")[::20])


@pytest.mark.parametrize("path", [p for p in BUNDLED if "unsolvable" not in p.name], ids=lambda p: p.stem)
def test_states_on_the_way_to_a_solution_are_kept(path):
    # Every rule claims something of every solution (the heuristic ones, of
    # every solution without self-touches): a state made of the first cells
    # of a solution's paths must survive them all, links between free cells
    # included.
    _prefixes_are_kept(parse_file(path))


@pytest.mark.parametrize("path", CORPUS_BOARDS)
def test_states_on_the_way_to_a_corpus_solution_are_kept(path):
    if path.name == "14x14Template.txt":
        pytest.skip("a blank template: no flows")
    _prefixes_are_kept(parse_file(path))


def _prefixes_are_kept(puzzle):
    from flowgraph.engines.search import solve

    solution = solve(puzzle)
    for share in (0.25, 0.5, 0.75):
        partial = {}
        for flow in puzzle.flows:
            cells = solution.paths[flow.label]
            partial[flow.label] = (tuple(cells[: max(1, int(len(cells) * share))]), (cells[-1],))
        assert prune_reason(puzzle, partial, False) is None
        if solution.stats["heuristic"]:
            assert prune_reason(puzzle, partial, True) is None


def test_forced_moves_solve_a_corridor_without_branching():
    # Every move is forced: the search never expands a branching state.
    from flowgraph.engines.search import solve

    p = parse_text("STANDARD\nA-.-.-.\n      |\nB-.-B A\n")
    solution = solve(p)
    assert solution.stats["states"] == 1


def test_two_heads_meeting_other_flows_is_pruned():
    # The free cell between A and B can only be filled by joining the two flows.
    assert prune_reason(parse_text("STANDARD\nA-.-B\n  |\nB-.-A\n"), {}) is not None


def test_a_board_the_heuristics_prune_is_solved_by_the_fallback():
    from flowgraph.engines.search import solve
    from flowgraph.verification import verify

    solution = solve(board(_board(THREE_LINKS)))
    assert solution.stats["heuristic"] is False
    verify(solution)
