"""pytest set-up: the search's compile cache for tests, the Hypothesis profiles (shared data: :mod:`tests.helpers`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

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


