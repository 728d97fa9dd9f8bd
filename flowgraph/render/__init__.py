"""Showing solutions: :mod:`.text` draws a solved board in its own text layout (rich styles per flow)."""
