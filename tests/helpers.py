"""What tests share: the bundled puzzles and the shared corpus (skipped when absent).

Import it as ``from tests.helpers import ...`` (``tests`` is a package).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DATA = ROOT / "tests" / "data"
CORPUS = Path(os.environ.get("FLOWGRAPH_CORPUS", ROOT.parent / "shared" / "corpus"))

BUNDLED = sorted(PUZZLES.glob("*/*.txt"))
UNSOLVABLE = {p for p in BUNDLED if p.name.startswith("unsolvable")}


def corpus_files(pattern: str) -> list[Path]:
    """Corpus files matching a glob, or [] when the corpus is absent."""
    return sorted(CORPUS.glob(pattern)) if CORPUS.is_dir() else []


def corpus_params(pattern: str, *, marks=()) -> list:
    """pytest params over corpus files (file name as the id), or one skipped param."""
    files = corpus_files(pattern)
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"corpus absent: {CORPUS}"), id="no-corpus")]
    return [pytest.param(f, id=f"{f.parent.name}/{f.name}", marks=marks) for f in files]


def corpus_file(rel: str) -> Path:
    """One corpus file; skips the test when it is absent."""
    path = CORPUS / rel
    if not path.is_file():
        pytest.skip(f"corpus file absent: {path}")
    return path


def random_board(seed: int, size: tuple[int, int] = (3, 5)) -> str:
    """A small plain grid: 2-5 flows, each the two ends of a short random walk (solvable but for the
    walks that got stuck, which leave random ends), some holes and (BRIDGES) a bridge."""
    import random

    rng = random.Random(seed)
    family = ("STANDARD", "HEX", "WARPS", "BRIDGES")[seed % 4]
    width, height = rng.randint(*size), rng.randint(*size)
    cells = {(x, y): "#" if rng.random() < 0.1 else "." for x in range(width) for y in range(height)}
    if family == "BRIDGES":
        cells[rng.randrange(width), rng.randrange(height)] = "*"
    for label in "ABCDE"[: rng.randint(2, 5)]:
        free = [xy for xy, c in cells.items() if c == "."]
        if len(free) < 2:
            break
        walk = [rng.choice(free)]
        for _ in range(rng.randint(1, 6)):
            x, y = walk[-1]
            step = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if cells.get((x + dx, y + dy)) == "." and (x + dx, y + dy) not in walk]
            if not step:
                break
            walk.append(rng.choice(step))
        end = walk[-1] if len(walk) > 1 else rng.choice([xy for xy in free if xy != walk[0]])
        cells[walk[0]] = cells[end] = label
        for xy in walk[1:-1]:
            cells[xy] = "_"  # kept off later walks; an empty cell again below
    rows = ("".join(cells[x, y] for x in range(width)).replace("_", ".") for y in range(height))
    return family + "\n" + "\n".join(rows) + "\n"
