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
