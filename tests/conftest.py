"""pytest set-up: the Hypothesis profiles (shared test data: :mod:`tests.helpers`)."""

from __future__ import annotations

import os

# Hypothesis profiles: CI runs a modest fixed number of examples; run the
# fuzz profile locally for many more: HYPOTHESIS_PROFILE=fuzz pytest tests/test_fuzz.py
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=int(os.environ.get("FUZZ_EXAMPLES", 100_000)), deadline=10_000,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _auto_as_in_a_single_puzzle_run(monkeypatch):
    """``auto`` tries the search first where a batch has loaded it (``auto._search_loaded``); some test loads
    it in this process, so every test sees ``auto`` as one ``flowgraph solve`` of a puzzle does, whatever ran
    before it. The tests of the batch order (tests/engines/test_auto.py) set it back."""
    from flowgraph.engines import auto

    monkeypatch.setattr(auto, "_search_loaded", lambda: False)
