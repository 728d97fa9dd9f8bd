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
    "flowgraph.io.files", "flowgraph.io.budget", "flowgraph.io.neighbor_link", "flowgraph.io.json_graph",
    "flowgraph.io.level_pack", "flowgraph.io.puzzlink", "flowgraph.io.problems", "flowgraph.batch.runner",
    "flowgraph.render.scene", "flowgraph.scan.image", "flowgraph.studio.app", "flowgraph.studio.api",
    "flowgraph.cli.common", "flowgraph.cli.new", "flowgraph.cli.generate", "flowgraph.cli.studio",
)
_NAME = re.compile(r"MAX_\w+|WORKERS|QUEUE|MEMORY_BUDGET|\w+_S|\w+_BYTES_PER_\w+|BASE_BYTES")


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
    rows = [f"| `{module}.{name}` | {_value(value)} | {text} |" for module, name, value, text in bounds()]
    return ("# Limits: every size and time bound, as the code sets it\n\n"
            "Written by `python docs/limits.py` from the constants themselves (their value and the `#:` comment above\n"
            "each); `tests/test_docs.py` fails when this page and the code disagree. Why each bound is there:\n"
            "docs/security.md. A bound the machine sets is shown as its expression.\n\n"
            "| constant | value | what it bounds |\n|---|---|---|\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    text = page()
    if "--check" in sys.argv[1:]:
        sys.exit(0 if PAGE.read_text(encoding="utf-8") == text else 1)
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}: {text.count(chr(10)) - 8} bounds")
