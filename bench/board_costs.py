"""Where a board's time goes in a search batch: reading, the search's set-up, its first settle, the rest, verifying.

Usage: python bench/board_costs.py [--corpus DIR] [--repeat N] [SET ...]

For each numberlink SET of the corpus (default ``janko inputs9``: ``numberlink/SET_*.txt``), in one
process, the engine loaded first, each step timed alone over every board (the median of ``--repeat``
rounds, default 5, after one untimed round), in ms a board:

- read: :func:`flowgraph.io.files.load` from bytes in memory (format guess, parse, build, checks), timed
  before the set's puzzles are held and each puzzle dropped at once, as a batch drops its rows (Python's
  collector walks every object held: holding the set's answers doubles a 40x20 board's read);
- compile: :func:`flowgraph.engines.search.board.compile_puzzle` (CSR arrays, link distances from every
  endpoint, sides, the node straight ahead);
- root settle: the search's first :func:`~flowgraph.kernels.settle_pass` over every node, with the set-up
  of a search attempt (:class:`~flowgraph.engines.search.heap.HeapSearch`);
- solve: :func:`flowgraph.engines.search.heap.solve` whole (compile, root settle, the search, the paths);
- verify: :func:`flowgraph.verification.verify` of its answer.

The last line is read + solve + verify, what ``flowgraph bench --engine search --jobs 1`` spends a
board beside its own bookkeeping. The corpus comes from ``--corpus``, else ``$FLOWGRAPH_CORPUS``, else
``../shared/corpus`` beside the repository.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _per_board(step, count: int, repeat: int) -> float:
    """Median over ``repeat`` rounds of ``step()``'s seconds, per board, in ms (one untimed round first)."""
    step()
    rounds = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        step()
        rounds.append(time.perf_counter() - t0)
    return statistics.median(rounds) / count * 1e3


def costs(files: list[Path], repeat: int) -> dict[str, float]:
    """The ms a board of each step over ``files`` (see the module's notes)."""
    import numpy as np

    from flowgraph import kernels
    from flowgraph.engines import get_engine
    from flowgraph.engines.search import heap
    from flowgraph.engines.search.board import compile_puzzle
    from flowgraph.engines.search.state import State
    from flowgraph.io.files import load
    from flowgraph.model import Limits
    from flowgraph.verification import verify

    get_engine("search")
    n = len(files)
    datas = [(str(f), f.read_bytes()) for f in files]

    def read() -> None:  # each result dropped at once, as a batch drops its rows (the collector walks what is held)
        for name, data in datas:
            load(name, data)

    read_ms = _per_board(read, n, repeat)  # before the set's puzzles and answers are held
    puzzles = [load(name, data)[0] for name, data in datas]
    boards = [compile_puzzle(p) for p in puzzles]
    solutions = [heap.solve(p) for p in puzzles]

    def each(step, items) -> Callable[[], None]:
        def run() -> None:
            for item in items:
                step(item)
        return run

    def root_settle() -> None:
        for board in boards:
            state = State.root(board)
            search = heap.HeapSearch(board, True, Limits(), time.perf_counter(), 0)
            kernels.settle_pass(state.color, state.link, board.ptr, board.nbr, state.heads, state.done, state.free,
                                np.arange(len(state.color), dtype=np.int64), True, len(board.ends), board.side,
                                board.endpoint, search.log)

    return {
        "read": read_ms,
        "compile": _per_board(each(compile_puzzle, puzzles), n, repeat),
        "root settle": _per_board(root_settle, n, repeat),
        "solve": _per_board(each(heap.solve, puzzles), n, repeat),
        "verify": _per_board(each(verify, solutions), n, repeat),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="*", default=["janko", "inputs9"])
    ap.add_argument("--corpus")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    corpus = Path(args.corpus or os.environ.get("FLOWGRAPH_CORPUS") or ROOT.parent / "shared" / "corpus")
    steps = ["read", "compile", "root settle", "solve", "verify"]
    print(f"{'set':<9} {'boards':>6} " + " ".join(f"{s:>11}" for s in steps) + f" {'read+solve+verify':>18}")
    for name in args.sets:
        files = sorted((corpus / "numberlink").glob(f"{name}_*.txt"))
        if not files:
            print(f"{name:<9} absent from {corpus}")
            continue
        ms = costs(files, args.repeat)
        total = ms["read"] + ms["solve"] + ms["verify"]
        print(f"{name:<9} {len(files):>6} " + " ".join(f"{ms[s]:>11.3f}" for s in steps) + f" {total:>18.3f}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
