"""Level packs given as packs against the same levels as single files: time to the first row, and in all.

    python bench/packs_vs_files.py PACKS_DIR     # e.g. the game's packs, nubango/FlowFree's Assets/Levels

The packs' levels are first written one file each (``flowgraph convert PACK -o DIR``, into a temporary
folder); then ``flowgraph solve --json --jobs 2`` runs on the packs and on the files, each ``--runs`` times, and
prints the seconds to the first row on standard output, the seconds in all, and the rows (their statuses
must agree, level for level).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(paths: list[str], jobs: int) -> tuple[float, float, list[str]]:
    """Seconds to the first row, seconds in all, and each row's status, of one ``flowgraph solve --json``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "flowgraph", "solve", *paths, "--json", "--jobs", str(jobs)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    first = None
    statuses = []
    for line in proc.stdout:
        if first is None:
            first = time.perf_counter() - t0
        statuses.append(json.loads(line)["status"])
    proc.wait()
    return first or 0.0, time.perf_counter() - t0, statuses


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("packs", help="a folder of level packs")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    packs = sorted(str(p) for p in Path(args.packs).glob("*.txt"))
    with tempfile.TemporaryDirectory(prefix="flowgraph-levels-") as scratch:
        for k, pack in enumerate(packs):
            subprocess.run([sys.executable, "-m", "flowgraph", "convert", pack, "-o", str(Path(scratch) / f"{k:03d}")],
                           capture_output=True, check=False)
        files = list(Path(scratch).rglob("*.txt"))
        results = {}
        for name, paths in (("packs", packs), ("files", [scratch])):
            runs = [timed(paths, args.jobs) for _ in range(args.runs)]
            results[name] = runs
            print(f"{name}: {len(paths) if name == 'packs' else len(files)} inputs, {len(runs[0][2]):,} rows; first "
                  f"row {statistics.median(r[0] for r in runs):.2f} s, all {statistics.median(r[1] for r in runs):.2f} s "
                  f"(median of {args.runs}; min {min(r[1] for r in runs):.2f}, max {max(r[1] for r in runs):.2f})")
    packed, single = results["packs"][0][2], results["files"][0][2]
    print(f"statuses: packs {dict(sorted(_count(packed).items()))}, files {dict(sorted(_count(single).items()))}")
    ratio = statistics.median(r[1] for r in results["packs"]) / statistics.median(r[1] for r in results["files"])
    print(f"packs / files: {ratio:.2f}x")
    return 0


def _count(statuses: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in statuses:
        out[s] = out.get(s, 0) + 1
    return out


if __name__ == "__main__":
    sys.exit(main())
