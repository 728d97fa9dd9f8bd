"""Reading and writing puzzles."""
