"""Start-up: whole-process time of ``flowgraph solve`` on a small bundled board (median of runs).

Usage: python bench/startup.py [RUNS] [FILE]
Runs the installed ``flowgraph`` command (what a user types; the one beside this Python, as in a
venv) RUNS times (default 5) on FILE (default puzzles/standard/regular_5x5.txt), with ``auto``
and with ``--engine search``, after one untimed run that fills
the caches (lark's parser tables, Python's bytecode), and prints each time
and the median. Also ``python -c "import flowgraph"`` and which of the
heavy modules an import loads.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "rich", "pysat", "numpy", "networkx", "lark")


def timed(argv: list[str], runs: int) -> list[float]:
    # Warm the caches; bytecode too where the environment says not to write it
    # (PYTHONDONTWRITEBYTECODE, set on some CI machines: a user's Python writes it on first import).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, check=True, capture_output=True, env=env)
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    board = sys.argv[2] if len(sys.argv) > 2 else str(ROOT / "puzzles" / "standard" / "regular_5x5.txt")
    beside = Path(sys.executable).parent / "flowgraph"  # this Python's own command (a venv's), else the PATH's
    command = str(beside) if beside.is_file() else shutil.which("flowgraph") or "flowgraph"
    probe = f"import sys, flowgraph; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout.split()
    rows = [
        ("python -c pass", timed([sys.executable, "-c", "pass"], runs)),
        ("import flowgraph", timed([sys.executable, "-c", "import flowgraph"], runs)),
        (f"flowgraph solve {Path(board).name}", timed([command, "solve", board], runs)),
        ("  ... --engine search", timed([command, "solve", "--engine", "search", board], runs)),
    ]
    for name, times in rows:
        print(f"{name:34} median {statistics.median(times):.3f} s  ({', '.join(f'{t:.3f}' for t in times)})")
    print(f"import flowgraph loads: {', '.join(loaded) or 'none of'} ({', '.join(m for m in HEAVY if m not in loaded)} not)")


if __name__ == "__main__":
    main()
