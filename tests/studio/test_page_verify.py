"""Issue 71: a published page says "Solved!" exactly when ``flowgraph.verify`` would.

The page checks a drawing from the graph alone (``static/game.js``, ``Game.verify``, in real Chromium); the
verifier checks it from the puzzle. Both are fed the same random drawings of a board of every family (its
solution, then paths cut short, dropped, swapped, rerouted by random walks along the links, through bridges
either way), and must agree on each.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowgraph import parse_file, solve
from flowgraph.model import Solution
from flowgraph.studio.publish import STATIC, play_board
from flowgraph.verification import check
from tests.helpers import PUZZLES

BOARDS = [PUZZLES / "standard" / "regular_5x5.txt", PUZZLES / "hex" / "honeycomb_5x4.txt",
          PUZZLES / "warps" / sorted(p.name for p in (PUZZLES / "warps").glob("*.txt"))[0],
          PUZZLES / "bridges" / "crossing_5x5.txt", PUZZLES / "bridges" / "warped_bridges_7x7.txt"]


@pytest.fixture(scope="module")
def game_page(browser):
    page = browser.new_page()
    page.set_content("<!doctype html><html><body></body></html>")
    page.add_script_tag(content=(STATIC / "game.js").read_text(encoding="utf-8"))
    yield page
    page.close()


def _walk(puzzle, start, rng: random.Random, steps: int) -> list:
    """A random walk along the board's links from ``start``, never back onto a node it holds."""
    around = puzzle.board.dicts()[1]
    path = [start]
    for _ in range(steps):
        nexts = [v for v in around[path[-1]] if v not in path]
        if not nexts:
            break
        path.append(rng.choice(nexts))
    return path


def _drawing(puzzle, solution, seed: int) -> dict:
    """A random drawing: the solution with a few random changes (or none)."""
    rng = random.Random(seed)
    paths = {label: list(path) for label, path in solution.paths.items()}
    labels = list(paths)
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        label = rng.choice(labels)
        change = rng.randrange(6)
        path = paths.get(label)
        if change == 0:
            paths.pop(label, None)
        elif change == 1 and path and len(path) > 2:
            paths[label] = path[: rng.randrange(1, len(path))]
        elif change == 2 and len(labels) > 1:
            other = rng.choice([lb for lb in labels if lb != label])
            paths[label], paths[other] = paths.get(other, []), paths.get(label, [])
        elif change == 3:
            end = puzzle.flow(label).ends[rng.randrange(2)]
            paths[label] = _walk(puzzle, end, rng, rng.randrange(1, puzzle.cells))
        elif change == 4 and path:
            paths[label] = path[::-1]
        elif change == 5 and path and len(path) > 3:  # a node dropped from the middle: a jump
            del path[rng.randrange(1, len(path) - 1)]
    return {label: path for label, path in paths.items() if path}


@pytest.mark.parametrize("board", BOARDS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_the_page_and_the_verifier_agree_on_every_drawing(game_page, board):
    puzzle = parse_file(board)
    solution = solve(puzzle)
    game_page.evaluate("board => { window.game = new FlowGame.Game(board); }", play_board(puzzle))
    seen: list[bool] = []

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(st.integers(0, 2**32))
    def agree(seed):
        paths = _drawing(puzzle, solution, seed)
        truth = not check(Solution(puzzle, {label: tuple(p) for label, p in paths.items()}, "drawn"))
        cells = {label: [f"{n[0]}:{n[1]}" for n in path] for label, path in paths.items()}
        page_says = game_page.evaluate("paths => { game.paths = paths; return game.verify(); }", cells)
        assert page_says == truth, (paths, truth)
        seen.append(truth)

    agree()
    assert True in seen and seen.count(False) > 50  # solutions and many drawings that are not
    assert game_page.evaluate("paths => { game.paths = paths; return game.verify(); }",
                              {label: [f"{n[0]}:{n[1]}" for n in path] for label, path in solution.paths.items()})


def test_a_json_graph_whose_bridge_lane_links_across_axes_is_refused():
    """The board the page said "Solved! 2 moves" on, with one lane on two flows and a cell empty: a ``-`` lane
    linked to the cell above it (``validate`` called it valid, ``solve`` proved it unsolvable)."""
    import json

    from flowgraph import write
    from flowgraph.io.formats import read_entries

    doc = json.loads(write(parse_file(PUZZLES / "bridges" / "crossing_5x5.txt"), "json-graph"))
    at = {(*n["xy"], n.get("lane")): n["id"] for n in doc["nodes"]}
    lane, left, above = at[(2, 2, "-")], at[(1, 2, None)], at[(2, 1, None)]
    doc["links"] = [link for link in doc["links"] if sorted(link[:2]) != sorted([lane, left])] + [[above, lane]]
    _, entries, problems = read_entries(json.dumps(doc), "b.json")
    assert not entries and any("links only along its axis" in p.message and p.is_error for p in problems), problems
