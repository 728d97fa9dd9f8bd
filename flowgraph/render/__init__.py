"""Showing puzzles and solutions."""
