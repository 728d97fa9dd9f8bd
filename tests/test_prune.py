"""Each pruning rule on small hand-made boards: a state it must prune, one it must keep.

States are given to :func:`flowgraph.search.prune_reason` as the cells grown
from each endpoint. Square, hex and warped graphs all go through the same
rules: the engine sees only the graph.
"""

from __future__ import annotations

import pytest

from flowgraph import parse_text
from flowgraph.search import prune_reason

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


def board(lines):
    return parse_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    "lines, partial, heuristic, reason",
    [
        pytest.param(NECK + ["    |", "    ."], {}, True, "dead end", id="square-dead-end"),
        pytest.param(TWO_NECKS, {}, True, None, id="square-dead-end-keep"),
        pytest.param(ROWS, {"A": ROW_A, "B": ROW_B}, True, "stranded region", id="square-stranded-region"),
        pytest.param(ROWS, {"A": ROW_A}, True, None, id="square-stranded-region-keep"),
        pytest.param(SPLIT_C, W_THROUGH, True, "stranded flow", id="square-stranded-flow"),
        pytest.param(SAME_SIDE_C, W_THROUGH, True, None, id="square-stranded-flow-keep"),
        pytest.param(NECK, {}, True, "bottleneck", id="square-bottleneck"),
        pytest.param(TWO_NECKS, {}, True, None, id="square-bottleneck-keep"),
        pytest.param(HEX_NECK, {}, True, "bottleneck", id="hex-bottleneck"),
        pytest.param(HEX_OPEN, {}, True, None, id="hex-bottleneck-keep"),
        pytest.param(WARP_NECK, {}, True, "bottleneck", id="warps-bottleneck"),
        pytest.param(WARP_OPEN, {}, True, None, id="warps-bottleneck-keep"),
        # Self-touch: A must run beside itself; the heuristic joins the heads
        # at once and strands the rest, the sound rules keep the state.
        pytest.param(["STANDARD", "A-.-.", "| | |", "A-.-."], {}, True, "stranded region", id="self-touch-prunes"),
        pytest.param(["STANDARD", "A-.-.", "| | |", "A-.-."], {}, False, None, id="self-touch-off-keeps"),
    ],
)
def test_rule(lines, partial, heuristic, reason):
    assert prune_reason(board(lines), partial, heuristic) == reason


def test_forced_moves_solve_a_corridor_without_branching():
    # Every move is forced: the search never expands a branching state.
    from flowgraph.search import solve

    p = parse_text("STANDARD\nA-.-.-.\n      |\nB-.-B A\n")
    solution = solve(p)
    assert solution.stats["nodes"] == 1


def test_two_heads_meeting_other_flows_is_pruned():
    # The free cell between A and B can only be filled by joining the two flows.
    assert prune_reason(parse_text("STANDARD\nA-.-B\n  |\nB-.-A\n"), {}) is not None
