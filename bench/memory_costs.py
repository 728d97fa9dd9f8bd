"""Measure what reading, solving, drawing and scanning cost in memory: the constants of flowgraph/io/footprint.py.

The inputs are written first (templates, a picture); each case then runs in a fresh process
(``python bench/memory_costs.py --case NAME --scratch DIR``), which reads its input, then records its
peak resident memory (``VmHWM``) before and after one call of the studio's API function; the difference
is what that one request added. The table prints the cost and the cost per cell or pixel beside the
constant that budgets it.

    python bench/memory_costs.py             # every case, about a minute on a 2-core machine
    python bench/memory_costs.py --case read-500

Only local work; nothing is written but temporary files.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

# name: (what, size) - size is cells for boards, pixels for pictures
CASES = {
    "read-100": ("check of a 100x100 template", 100),
    "read-300": ("check of a 300x300 template", 300),
    "read-500": ("check of a 500x500 template", 500),
    "read-700": ("check of a 700x700 template", 700),
    "url-200": ("check of a 200x200 puzz.link URL", 200),
    "count-100": ("count of a 100x100 URL, 5 s", 100),
    "png-50": ("PNG of a 50x50 URL at 96 px a cell", 50),
    "png-100": ("PNG of a 100x100 URL at 96 px a cell", 100),
    "scan-40": ("scan of a 40-megapixel PNG", 40_000_000),
}


def _peak_kb() -> int:
    """This process's peak resident memory, kB (``VmHWM``: unlike ``ru_maxrss`` it starts afresh at exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _one(case: str, scratch: Path) -> dict:
    """Run ``case`` here: ``{case, units, base_mb, added_mb}``."""
    import base64
    import gc

    from flowgraph.studio import handlers

    kind, n = case.split("-")[0], CASES[case][1]
    url = f"https://puzz.link/p?numlin/{n}/{n}/1zzzz1"
    if kind == "read":
        body, call, units = {"text": (scratch / f"t{n}.txt").read_text()}, handlers.check, n * n
    elif kind == "url":
        body, call, units = {"text": url}, handlers.check, n * n
    elif kind == "count":
        body, call, units = {"text": url, "time_limit_s": 5}, handlers.count, n * n
    elif kind == "png":
        body, call, units = {"text": url, "png": True, "cell_px": 96}, handlers.render, (n * 96) ** 2
    else:
        body, call, units = {"image": base64.b64encode((scratch / "big.png").read_bytes()).decode()}, handlers.scan_picture, n
    gc.collect()
    base = _peak_kb()
    try:
        call(body)
    except (handlers.Unprocessable, handlers.BadRequest):
        pass  # (a blank picture has no board: the scan's work is done all the same)
    peak = _peak_kb()
    return {"case": case, "units": units, "base_mb": base / 1024, "added_mb": (peak - base) / 1024}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", choices=sorted(CASES), help="run one case in this process and print its JSON")
    parser.add_argument("--scratch", help="with --case: the folder the inputs were written to")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(_one(args.case, Path(args.scratch))))
        return 0
    from PIL import Image

    from flowgraph.authoring.templates import board
    from flowgraph.io import budget

    scratch = tempfile.TemporaryDirectory()
    for case, (_, n) in CASES.items():
        if case.startswith("read"):
            (Path(scratch.name) / f"t{n}.txt").write_text(board("standard", n, n).text())
    Image.new("RGB", (8000, 5000)).save(Path(scratch.name) / "big.png")

    per = {"read": budget.READ_BYTES_PER_CELL, "url": budget.READ_BYTES_PER_CELL,
           "count": budget.READ_BYTES_PER_CELL + budget.SOLVE_BYTES_PER_CELL, "png": budget.PNG_BYTES_PER_PIXEL,
           "scan": budget.SCAN_BYTES_PER_PIXEL}
    print(f"{'case':<40} {'units':>12} {'added MB':>9} {'bytes/unit':>11} {'budgeted':>9}")
    for case, (what, _) in CASES.items():
        done = subprocess.run([sys.executable, __file__, "--case", case, "--scratch", scratch.name],
                              capture_output=True, text=True, check=True)
        row = json.loads(done.stdout)
        each = row["added_mb"] * 2**20 / row["units"]
        print(f"{what:<40} {row['units']:>12,} {row['added_mb']:>9.0f} {each:>11,.0f} {per[case.split('-')[0]]:>9,}")
    scratch.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
