"""Reading speed: milliseconds a board to read a puzzle, per format and board size, and reading's share of a solve.

Usage: python bench/reading.py [--corpus DIR] [--packs DIR] [--repeat N]

Reading is what ``flowgraph solve`` does before the engine starts: bytes to text, the format
guessed, the text parsed and the board built and checked (:func:`flowgraph.io.files.load`). Every
corpus board is read from bytes already in memory (no disk), ``--repeat`` times (default 5), in one
process after a first untimed read; the time per set is the median over the repeats of the mean per
board. Each board is also written in every other format it converts to (plain grid, numberlink,
JSON graph, level pack: :func:`flowgraph.io.formats.write`), and those texts are read the same way.
``--packs DIR`` reads every ``*.txt`` level pack there (the game's, nubango/FlowFree's
``Assets/Levels``), per level. The last column is reading's share of reading, solving (``--engine
search``) and verifying the same boards, as one process in a batch spends them.

The corpus comes from ``--corpus``, else ``$FLOWGRAPH_CORPUS``, else ``../shared/corpus`` beside the
repository; a set that is absent is left out.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = {  # name -> glob under the corpus
    "janko 8x8-14x14": "numberlink/janko_*_1[0-4]x1[0-4].txt numberlink/janko_*_[89]x[89].txt",
    "janko 15x15-36x20": "numberlink/janko_*_1[5-9]x*.txt numberlink/janko_*_[23]?x*.txt",
    "inputs9 40x20": "numberlink/inputs9_*.txt",
    "inputs10 50x50": "numberlink/inputs10_*.txt",
    "samgoldman (every family)": "samgoldman/*/*.txt",
}


def _corpus(given: str | None) -> Path:
    return Path(given or os.environ.get("FLOWGRAPH_CORPUS") or ROOT.parent / "shared" / "corpus")


def _timed(read, items: list, repeat: int) -> float:
    """Median over ``repeat`` rounds of the mean seconds per item of ``read(item)``."""
    for item in items[:3]:
        read(item)
    means = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for item in items:
            read(item)
        means.append((time.perf_counter() - t0) / len(items))
    return statistics.median(means)


def _solve_seconds(puzzles: list) -> float:
    from flowgraph.engines import solve_puzzle
    from flowgraph.verification import check

    t0 = time.perf_counter()
    for puzzle in puzzles:
        check(solve_puzzle(puzzle, engine="search"))
    return (time.perf_counter() - t0) / len(puzzles)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus")
    ap.add_argument("--packs", help="a folder of Flow Free level packs (*.txt)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-solve", action="store_true", help="leave out the share column (no solving)")
    args = ap.parse_args(argv)

    from flowgraph.errors import ConversionError
    from flowgraph.io.files import load
    from flowgraph.io.formats import write

    corpus = _corpus(args.corpus)
    print(f"{'set':27} {'format':14} {'boards':>6} {'cells':>6} {'read ms':>8} {'share':>6}")
    for name, patterns in SETS.items():
        paths = sorted({p for pattern in patterns.split() for p in corpus.glob(pattern)})
        datas = [(str(p), p.read_bytes()) for p in paths]
        if not datas:
            continue
        puzzles = [load(path, data)[0] for path, data in datas]
        kept = [(d, p) for d, p in zip(datas, puzzles) if p is not None]  # (the blank template is invalid)
        datas, puzzles = [d for d, _ in kept], [p for _, p in kept]
        cells = statistics.mean(p.cells for p in puzzles)
        solve = None if args.no_solve else _solve_seconds(puzzles)
        for fmt in ("neighbor-link", "plain-grid", "numberlink", "json-graph", "level-pack"):
            if fmt == "neighbor-link":
                texts = [(path, data, None) for path, data in datas]
            else:
                texts = []
                for (path, _), puzzle in zip(datas, puzzles):
                    try:
                        texts.append((path, write(puzzle, fmt).encode(), fmt))
                    except ConversionError:
                        continue  # a board this format cannot hold
            if not texts:
                continue
            seconds = _timed(lambda t: load(t[0], t[1], t[2]), texts, args.repeat)
            share = f"{seconds / (seconds + solve):6.0%}" if solve else ""
            print(f"{name:27} {fmt:14} {len(texts):6} {cells:6.0f} {seconds * 1e3:8.3f} {share:>6}", flush=True)
    if args.packs:
        from flowgraph.io.level_pack import analyse_level_pack

        packs = [p.read_text() for p in sorted(Path(args.packs).glob("*.txt"))]
        lines = [line for text in packs for line in text.splitlines() if line.strip()]
        seconds = _timed(analyse_level_pack, lines, max(1, args.repeat // 2))
        print(f"{'game packs (per level line)':27} {'level-pack':14} {len(lines):6} {'':6} {seconds * 1e3:8.3f}")


if __name__ == "__main__":
    main()
