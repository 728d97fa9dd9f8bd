"""Write docs/limits.md: every size and time bound of flowgraph, read from the code.

    python docs/limits.py          # writes docs/limits.md
    python docs/limits.py --check  # exit 1 when docs/limits.md is not what the code says

Each bound is a module constant named ``MAX_*`` (or the studio's ``WORKERS``
and ``QUEUE``) with a ``#:`` comment above it: the value is imported, the
comment is the description. ``tests/test_docs.py`` fails when the page and
the code disagree, so the page is never restated by hand.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "limits.md"
#: The modules whose bounds are listed, in the order of the page (what a value crosses first comes first).
MODULES = (
    "flowgraph.io.files", "flowgraph.io.footprint", "flowgraph.io.neighbor_link", "flowgraph.io.json_graph",
    "flowgraph.io.level_pack", "flowgraph.io.puzzlink", "flowgraph.io.numberlink", "flowgraph.io.problems",
    "flowgraph.batch.runner",
    "flowgraph.render.scene", "flowgraph.scan.image", "flowgraph.scan.regions", "flowgraph.studio.app",
    "flowgraph.studio.file", "flowgraph.studio.handlers", "flowgraph.studio.publish",
    "flowgraph.cli.common", "flowgraph.authoring.templates", "flowgraph.cli.new", "flowgraph.cli.generate",
    "flowgraph.cli.studio", "flowgraph.api",
    "flowgraph.budgets", "flowgraph.engines.memory",
)
_NAME = re.compile(r"MAX_\w+|WORKERS|QUEUE|MEMORY_BUDGET|\w+_S|\w+_BYTES_PER_\w+|BASE_BYTES|\w+_SECONDS|\w+_SHARE")


#: The test that holds a bound, by constant (a name the page lists must be a test function in tests/).
HELD_BY = {
    "MAX_PAGE_LEVELS": "test_a_page_is_bounded_by_levels_and_cells",
    "MAX_PAGE_CELLS": "test_a_page_is_bounded_by_levels_and_cells",
    "MAX_BYTES": "test_read_bounded_refuses_other_kinds_and_sizes",
    "READ_BYTES_PER_CELL": "test_a_board_that_takes_more_than_memory_limit_to_read_is_refused_before_it_is_read",
    "SOLVE_BYTES_PER_CELL": "test_small_requests_for_large_work_are_413",
    "PNG_BYTES_PER_PIXEL": "test_a_png_that_takes_more_than_memory_limit_to_draw_is_refused",
    "SCAN_BYTES_PER_PIXEL": "test_a_40_megapixel_picture_is_weighed_by_its_header",
    "BASE_BYTES": "test_a_40_megapixel_picture_is_weighed_by_its_header",
    "MAX_PICTURE_CELLS": "test_a_board_above_the_picture_bound_is_checked_not_drawn",
    "MAX_BODY": "test_file_swapped_for_a_fifo_symlink_or_a_huge_file_is_refused_at_once",
    "WORKERS": "test_the_gate_runs_a_few_heavy_requests_queues_some_and_refuses_the_rest",
    "QUEUE": "test_heavy_requests_beyond_the_queue_are_429_and_light_ones_still_answer",
    "MEMORY_BUDGET": "test_a_board_that_alone_takes_more_than_the_budget_is_413_before_it_is_read",
    "MAX_BODIES_BYTES": "test_a_stalled_body_is_408_and_bodies_together_are_bounded",
    "BODY_STALL_S": "test_a_stalled_body_is_408_and_bodies_together_are_bounded",
    "MAX_REQUESTS": "test_requests_beyond_the_studios_capacity_are_429_at_once",
    "MAX_FOLDER_FILES": "test_a_folder_is_read_within_its_bounds",
    "MAX_FOLDER_BYTES": "test_a_folder_is_read_within_its_bounds",
    "MAX_SECONDS": "test_sizes_counts_and_times_are_bounded_where_they_enter",
    "MAX_MEMORY_MB": "test_bad_options_name_the_option_and_the_choices",
    "MAX_NEW_CELLS": "test_sizes_counts_and_times_are_bounded_where_they_enter",
    "MAX_GENERATE_CELLS": "test_sizes_counts_and_times_are_bounded_where_they_enter",
    "MAX_COUNT": "test_sizes_counts_and_times_are_bounded_where_they_enter",
    "MAX_NUMBERLINK_SIDE": "test_a_number_no_int_reads_is_a_problem_at_its_place",
    "MAX_SEED_CHARS": "test_generate_keeps_the_commands_bounds_and_names_a_bad_argument",
    "MAX_COUNT_LIMIT": "test_a_count_that_runs_out_of_time_keeps_the_solutions_it_found",
}


def _tests() -> set[str]:
    """The names of every test function under tests/."""
    found = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        found |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    return found


def bounds() -> list[tuple[str, str, object, str]]:
    """(module, name, value, description) of every bound, in page order."""
    out = []
    for name in MODULES:
        module = importlib.import_module(name)
        source = Path(module.__file__).read_text(encoding="utf-8").splitlines()
        for node in ast.parse("\n".join(source)).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and _NAME.fullmatch(node.targets[0].id):
                comment = []
                line = node.lineno - 2
                while line >= 0 and source[line].startswith("#:"):
                    comment.insert(0, source[line][2:].strip())
                    line -= 1
                if not comment:
                    raise SystemExit(f"{name}.{node.targets[0].id} has no '#:' comment above it")
                # a bound computed from the machine (the studio's WORKERS) is shown as its expression
                machine = any(isinstance(n, (ast.Call, ast.Name)) for n in ast.walk(node.value))
                value = f"`{ast.unparse(node.value)}`" if machine else getattr(module, node.targets[0].id)
                out.append((name, node.targets[0].id, value, " ".join(comment)))
    return out


def _value(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return repr(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def page() -> str:
    """The Markdown of docs/limits.md."""
    known = _tests()
    missing = sorted(test for test in HELD_BY.values() if test not in known)
    if missing:
        raise SystemExit(f"HELD_BY names tests that do not exist: {', '.join(missing)}")
    rows = [f"| `{module}.{name}` | {_value(value)} | {text} | {f'`{HELD_BY[name]}`' if name in HELD_BY else ''} |"
            for module, name, value, text in bounds()]
    return ("# Limits: every size and time bound, as the code sets it\n\n"
            "Written by `python docs/limits.py` from the constants themselves (their value and the `#:` comment above\n"
            "each); `tests/test_docs.py` fails when this page and the code disagree. Why each bound is there:\n"
            "docs/security.md. A bound the machine sets is shown as its expression; \"held by\" names a test that\n"
            "fails when the bound does not hold (`HELD_BY` in `docs/limits.py`; the page is not written when one\n"
            "is missing).\n\n"
            "| constant | value | what it bounds | held by |\n|---|---|---|---|\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    text = page()
    if "--check" in sys.argv[1:]:
        sys.exit(0 if PAGE.read_text(encoding="utf-8") == text else 1)
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}: {text.count(chr(10)) - 10} bounds")
