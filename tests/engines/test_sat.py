"""The SAT engine, uniqueness for authors, and the cross-check of both engines."""

from __future__ import annotations

import json

import pytest

from flowgraph import Limits, SearchLimitError, UnsolvableError, parse_file, parse_text, verify
from flowgraph.engines import sat, search
from flowgraph.cli import main

from conftest import BUNDLED, PUZZLES, corpus_files

UNIQUE = PUZZLES / "standard" / "regular_5x5.txt"
MULTIPLE = PUZZLES / "standard" / "open_field_8x8.txt"
NONE = PUZZLES / "standard" / "unsolvable_3x3.txt"


def outcome(engine, puzzle):
    try:
        solution = engine.solve(puzzle, Limits(max_nodes=200_000, time_limit_s=60))
    except UnsolvableError:
        return "unsolvable"
    verify(solution)
    return "solved"


def _cross_check_files():
    sample = [f for f in corpus_files("samgoldman/*/*.txt") if f.name != "14x14Template.txt"]
    sample = [f for f in sample if parse_file(f).cells <= 100]
    sample += corpus_files("numberlink/inputs1_00[1-3]_*.txt") + corpus_files("numberlink/inputs5_011_*.txt")
    sample += corpus_files("generated/*/*_[6-9]x*.txt")
    return [pytest.param(f, id=f"{f.parent.name}/{f.name}") for f in BUNDLED + sample]


@pytest.mark.parametrize("path", _cross_check_files())
def test_both_engines_agree(path):
    puzzle = parse_file(path)
    assert outcome(sat, puzzle) == outcome(search, puzzle)


def test_sat_falls_back_to_the_sound_model():
    # The only solution runs A beside itself: the no-self-touch clauses forbid it.
    solution = sat.solve(parse_text("STANDARD\nA-.-.\n| | |\nA-.-.\n"))
    verify(solution)
    assert solution.stats["heuristic"] is False


def test_sat_detached_cycles_are_cut():
    # A 2x2 block beside a path: without cycle cuts the block could be a loop.
    solution = sat.solve(parse_text("STANDARD\nA-.-.\n| | |\n.-.-.\n| | |\nA-.-.\n"), heuristic=False)
    verify(solution)


def test_sat_time_budget():
    with pytest.raises(SearchLimitError) as info:
        sat.solve(parse_file(MULTIPLE), Limits(time_limit_s=1e-9))
    assert info.value.reason == "time"


@pytest.mark.parametrize("path, count", [(UNIQUE, 1), (MULTIPLE, 2), (NONE, 0)])
def test_solutions_counts(path, count):
    found, _ = sat.solutions(parse_file(path), 2)
    assert len(found) == count
    for s in found:
        verify(s)
    if count == 2:
        assert dict(found[0].paths) != dict(found[1].paths)


def test_validate_unique_text(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["validate", "--unique", str(UNIQUE)]) == 0
    assert f"{UNIQUE}: unique solution" in capsys.readouterr().out
    assert main(["validate", "--unique", str(MULTIPLE)]) == 1
    out = capsys.readouterr().out
    assert "multiple solutions; two of them differ in" in out and "x" in out
    assert main(["validate", "--unique", str(NONE)]) == 1
    assert f"{NONE}: no solution" in capsys.readouterr().out


def test_validate_unique_json(capsys):
    assert main(["validate", "--unique", "--json", str(UNIQUE), str(MULTIPLE), str(NONE)]) == 1
    counts = [json.loads(line)["solutions"] for line in capsys.readouterr().out.splitlines()]
    assert counts == [1, 2, 0]


def test_solve_engine_sat_json(capsys):
    assert main(["solve", "--engine", "sat", "--json", str(PUZZLES / "hex" / "hive_8x7.txt")]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["engine"] == "sat" and obj["status"] == "solved"
    assert obj["stats"]["nodes"] >= 1


# -- soundness on random small boards: the two engines must agree -------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


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
    assert outcome(sat, puzzle) == outcome(search, puzzle), text
