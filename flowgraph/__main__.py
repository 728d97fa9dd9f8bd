"""Run the command line: ``python -m flowgraph``."""

from .cli import run

run()
