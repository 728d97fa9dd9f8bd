"""The heap-ordered search: bundled boards, budgets, soundness, corpus."""

from __future__ import annotations

import pytest

from flowgraph import Limits, SearchLimitError, UnsolvableError, parse_file, parse_text, verify
from flowgraph.engines.search import solve

from conftest import BUNDLED, UNSOLVABLE, corpus_files

SOLVABLE = [p for p in BUNDLED if p not in UNSOLVABLE]


@pytest.mark.parametrize("path", SOLVABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_puzzles_solve_and_verify(path):
    solution = solve(parse_file(path), Limits(max_nodes=50_000))
    verify(solution)
    assert solution.stats["nodes"] >= 0


@pytest.mark.parametrize("path", sorted(UNSOLVABLE), ids=lambda p: p.name)
def test_unsolvable_bundled_board_is_proved_with_the_fallback(path):
    with pytest.raises(UnsolvableError) as info:
        solve(parse_file(path))
    assert info.value.stats["heuristic"] is False  # the sound pass had the last word


def test_path_beside_itself_is_found_by_the_sound_pass():
    # The only solution runs A beside itself: the self-touch heuristic
    # alone would wrongly call this board unsolvable.
    p = parse_text("STANDARD\nA-.-.\n| | |\nA-.-.\n")
    s = solve(p)
    verify(s)
    assert s.stats["heuristic"] is False


def test_node_budget_ends_the_search_with_stats():
    p = parse_file(next(p for p in SOLVABLE if p.name == "open_field_8x8.txt"))
    with pytest.raises(SearchLimitError) as info:
        solve(p, Limits(max_nodes=1))
    assert info.value.reason == "nodes"
    assert info.value.stats["nodes"] >= 1


def test_memory_budget_ends_the_search():
    p = parse_file(next(p for p in SOLVABLE if p.name == "open_field_8x8.txt"))
    with pytest.raises(SearchLimitError) as info:
        solve(p, Limits(memory_bytes=1))
    assert info.value.reason == "memory"


def _small_corpus():
    out = []
    for f in corpus_files("samgoldman/*/*.txt") + corpus_files("numberlink/inputs1_*.txt") + corpus_files("generated/*/*.txt"):
        if f.name != "14x14Template.txt" and parse_file(f).cells <= 100:
            out.append(pytest.param(f, id=f"{f.parent.name}/{f.name}"))
    return out or [pytest.param(None, marks=pytest.mark.skip(reason="corpus absent"), id="no-corpus")]


@pytest.mark.parametrize("path", _small_corpus())
def test_corpus_up_to_10x10_within_a_node_budget(path):
    verify(solve(parse_file(path), Limits(max_nodes=20_000)))


@pytest.mark.parametrize("path", SOLVABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_restarts_keep_answers_sound(path, monkeypatch):
    # Tiny quotas force many restarts (other ends, both-ended attempts);
    # the answer is still found and verified.
    monkeypatch.setattr("flowgraph.engines.search.heap.RESTART_NODES", 1)
    monkeypatch.setattr("flowgraph.engines.search.heap.FIRST_ATTEMPT_NODES", 1)
    solution = solve(parse_file(path), Limits(max_nodes=50_000))
    verify(solution)
    if path.name == "open_field_8x8.txt":
        assert solution.stats["restarts"] > 0


def test_restarts_still_prove_unsolvable(monkeypatch):
    monkeypatch.setattr("flowgraph.engines.search.heap.RESTART_NODES", 1)
    monkeypatch.setattr("flowgraph.engines.search.heap.FIRST_ATTEMPT_NODES", 1)
    with pytest.raises(UnsolvableError) as info:
        solve(parse_file(sorted(UNSOLVABLE)[0]))
    assert info.value.stats["heuristic"] is False


@pytest.mark.parametrize("cells", [0, 1, 16, 1000])
def test_discrepancy_cost_changes_order_not_answers(cells, monkeypatch):
    # The cost per step away from the preferred move only reorders the
    # heap: every bundled board is still solved and verified, and the
    # unsolvable one still proved.
    monkeypatch.setattr("flowgraph.engines.search.heap.DISCREPANCY_CELLS", cells)
    for path in SOLVABLE:
        verify(solve(parse_file(path), Limits(max_nodes=50_000)))
    with pytest.raises(UnsolvableError):
        solve(parse_file(sorted(UNSOLVABLE)[0]))
