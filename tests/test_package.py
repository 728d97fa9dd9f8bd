"""The package as a whole: ``import flowgraph`` stays light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_import_flowgraph_loads_no_heavy_dependency():
    # numba (the search's compiled passes), rich (the CLI) and python-sat
    # load only when an engine or a command asks for them.
    code = "import sys, flowgraph; print(' '.join(m for m in ('numba', 'rich', 'pysat') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


def test_no_module_imports_another_modules_private_name():
    """Issue 69: the splits a line count forced imported ``_private`` names across modules (explain and
    techniques, generate and covers, the studio's jobs and hints and its API, the kernels' passes); a name another
    module uses is public within its package."""
    import ast

    package = Path(__file__).resolve().parents[1] / "flowgraph"
    crossing = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                crossing += [f"{path.relative_to(package)}: {alias.name}" for alias in node.names
                             if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert crossing == []
