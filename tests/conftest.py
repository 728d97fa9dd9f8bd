"""pytest set-up: the search's compile cache for tests, the Hypothesis profiles (shared data: :mod:`tests.helpers`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The tests compile the search's passes into a cache of their own, never the developer's ~/.cache: one per
# user under the temporary folder, kept between runs (a warm cache: the quick loop), built at most once a run
# (the first test that uses the search builds it; `-m "not compile"` leaves out the tests that build more).
# Set before any test module is imported: numba picks a function's cache folder when the function is defined.
TEST_CACHE = Path(tempfile.gettempdir()) / f"flowgraph-test-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
if not os.environ.get("FLOWGRAPH_CACHE_DIR"):
    TEST_CACHE.mkdir(mode=0o700, exist_ok=True)
    os.environ["FLOWGRAPH_CACHE_DIR"] = str(TEST_CACHE)

# Hypothesis profiles: CI runs a modest fixed number of examples; run the
# fuzz profile locally for many more: HYPOTHESIS_PROFILE=fuzz pytest tests/test_fuzz.py

settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", 100_000)), deadline=10_000,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))




# The quick loop: plain `pytest` while editing leaves out the slow corpus round trips and the tests that compile
# the search afresh (as networkx's --runslow); `pytest --runslow`, the README's command and CI's, runs them too.
# An explicit -m chooses for itself.
def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true",
                     help="also run the tests marked slow or compile (the README's test command and CI do)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow") or config.getoption("markexpr"):
        return
    skip = pytest.mark.skip(reason="slow or compiles the search afresh: pytest --runslow runs it")
    for item in items:
        if "slow" in item.keywords or "compile" in item.keywords:
            item.add_marker(skip)


def _skip_reason(report) -> str:
    """A skipped test's reason, with the parts that differ test by test (a corpus file's path) taken out."""
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    reason = reason.removeprefix("Skipped: ")
    if "corpus" in reason:
        return "the shared corpus is not here (set FLOWGRAPH_CORPUS=DIR; default ../shared/corpus)"
    return reason


def pytest_terminal_summary(terminalreporter):
    """Say once why tests were skipped, by reason, most first (issue 72: 190 skips went unexplained)."""
    from collections import Counter

    reasons = Counter(_skip_reason(r) for r in terminalreporter.stats.get("skipped", []))
    if not reasons:
        return
    terminalreporter.write_sep("-", f"{sum(reasons.values())} skipped, why")
    for reason, n in reasons.most_common(8):
        terminalreporter.write_line(f"{n:>5}  {reason}")
    if len(reasons) > 8:
        terminalreporter.write_line(f"{sum(n for _, n in reasons.most_common()[8:]):>5}  {len(reasons) - 8} other "
                                    "reasons (pytest -rs lists each)")
