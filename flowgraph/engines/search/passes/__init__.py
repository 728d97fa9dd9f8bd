"""The search's per-state passes, compiled with numba."""
