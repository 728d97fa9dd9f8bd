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
