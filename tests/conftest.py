"""Shared fixtures: the bundled puzzles and the shared corpus (skipped when absent)."""

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


# Hypothesis profiles: CI runs a modest fixed number of examples; run the
# fuzz profile locally for many more: HYPOTHESIS_PROFILE=fuzz pytest tests/test_fuzz.py
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", 100_000)), deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
