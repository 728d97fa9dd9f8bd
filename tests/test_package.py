"""The package as a whole: ``import flowgraph`` stays light."""

from __future__ import annotations

import subprocess
import sys


def test_import_flowgraph_loads_no_heavy_dependency():
    # numba (the search's compiled passes), rich (the CLI) and python-sat
    # load only when an engine or a command asks for them.
    code = "import sys, flowgraph; print(' '.join(m for m in ('numba', 'rich', 'pysat') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""
