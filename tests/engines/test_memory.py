"""The memory a call may take (``Limits.memory_bytes``, :mod:`flowgraph.engines.memory`): measured for real, and
every engine and command that a count, an explanation or a rating runs stops at the bound (issue 71)."""

from __future__ import annotations

import itertools
import time

import pytest

import flowgraph
from flowgraph import Limits, SearchLimitError
from flowgraph.cli import main
from flowgraph.engines import get_engine, memory


def _open_board(side: int, flows: int = 1) -> str:
    """A ``side`` x ``side`` board with a flow from each corner pair: very many solutions."""
    ends = {(0, 0): "A", (side - 1, side - 1): "A", (0, side - 1): "B", (1, side - 2): "B"}
    ends = {k: v for k, v in ends.items() if v <= "AB"[flows - 1]}
    lines = ["STANDARD"]
    for y in range(side):
        lines.append("-".join(ends.get((y, x), ".") for x in range(side)))
        if y < side - 1:
            lines.append(" ".join("|" * side))
    return "\n".join(lines) + "\n"


@pytest.fixture
def grown(monkeypatch):
    """The process's resident memory as the watch reads it: a terabyte more at every reading (a call past any
    bound at once, whatever the allocator keeps from earlier tests)."""
    readings = itertools.count()
    monkeypatch.setattr(memory, "resident_bytes", lambda: next(readings) << 40)


def _wait_for(condition, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(memory.SAMPLE_S)
    return condition()


def test_a_watch_sees_real_growth_and_only_its_own_thread_is_stopped():
    import threading

    assert memory.resident_bytes() > 0
    with memory.watch(16 << 20) as w:
        assert w is not None and not memory.exceeded()
        block = bytearray(96 << 20)  # one mapping, given back whole when freed
        block[::4096] = b"x" * len(block[::4096])  # touched, so resident
        assert _wait_for(memory.exceeded)
        assert w.peak > 16 << 20
        other: list[bool] = []
        t = threading.Thread(target=lambda: other.append(memory.exceeded()))
        t.start()
        t.join()
        assert other == [False]  # the studio's other requests go on
        del block
    assert not memory.exceeded()


def test_watches_nest_and_a_bad_bound_is_a_value_error():
    with memory.watch(None) as w:
        assert w is None and not memory.exceeded()
    with memory.watch(1 << 40), memory.watch(1 << 40) as inner:
        assert inner is not None and len(memory._stack()) == 2
    assert memory._stack() == []
    for bad in (0, -5, 1.5, True, "1"):
        with pytest.raises(ValueError, match="memory_bytes must be"):
            with memory.watch(bad):  # type: ignore[arg-type]
                pass


@pytest.mark.parametrize("engine", ["search", "sat"])
def test_every_engine_a_count_runs_stops_at_the_memory_bound(grown, engine):
    puzzle = flowgraph.read(_open_board(30, flows=2))
    with memory.watch(1 << 20), pytest.raises(SearchLimitError) as caught:
        get_engine(engine).solve(puzzle, Limits(time_limit_s=120))
    assert caught.value.reason == "memory"


def test_the_link_search_stops_at_the_memory_bound_between_slices(grown):
    from flowgraph.engines.exhaustive import enumerate_solutions

    puzzle = flowgraph.read(_open_board(8))  # one flow across an open 8x8: millions of ways
    with memory.watch(1 << 20), pytest.raises(SearchLimitError) as caught:
        enumerate_solutions(puzzle, None, keep=2, limits=Limits(time_limit_s=120))
    assert caught.value.reason == "memory"


def test_explain_and_rate_stop_at_the_memory_bound(grown):
    puzzle = flowgraph.read(_open_board(30, flows=2))
    for call in (flowgraph.explain, flowgraph.rate):
        with pytest.raises(SearchLimitError) as caught:
            call(puzzle, Limits(memory_bytes=1 << 20, time_limit_s=120))
        assert caught.value.reason == "memory"
    with pytest.raises(ValueError, match="limits.memory_bytes must be"):
        flowgraph.explain(puzzle, Limits(memory_bytes=0))


def test_a_count_at_the_memory_bound_keeps_what_it_found(grown):
    found = flowgraph.count(flowgraph.read(_open_board(8)), limit=1000, limits=Limits(memory_bytes=1 << 20))
    assert found.verdict == "limit" and found.count is None


@pytest.mark.parametrize("argv, words", [
    (["explain"], "limit: not explained within the memory limit (--memory-limit)"),
    (["rate"], "limit: not rated within the memory limit (--memory-limit)"),
])
def test_the_commands_say_which_bound_ran_out(grown, tmp_path, capsys, argv, words):
    board = tmp_path / "open.txt"
    board.write_text(_open_board(30, flows=2))
    assert main([*argv, "--memory-limit", "64", "--color", "never", str(board)]) == 4
    captured = capsys.readouterr()
    assert words in captured.out + captured.err


def test_validate_counts_within_the_memory_limit(grown, tmp_path, capsys):
    board = tmp_path / "open.txt"
    board.write_text(_open_board(8))
    assert main(["validate", "--count", "--memory-limit", "64", "--color", "never", str(board)]) == 4
