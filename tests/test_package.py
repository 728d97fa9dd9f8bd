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


def _package_trees():
    import ast

    package = Path(__file__).resolve().parents[1] / "flowgraph"
    for path in sorted(package.rglob("*.py")):
        yield path.relative_to(package), ast.parse(path.read_text(encoding="utf-8"))


def test_no_module_outside_io_branches_on_a_boards_format():
    """Issue 69: what a board looks like is data its reader records (``Puzzle.drawing``); no module outside io/
    asks which format a board came from (the engines' nesting check asked whether a format's ids "are a drawing";
    the text output and the studio's drafts asked for neighbor-link by name)."""
    import ast

    asked = []
    for path, tree in _package_trees():
        if path.parts[0] == "io":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(isinstance(part, ast.Attribute) and part.attr == "format"
                                                     for part in (node.left, *node.comparators)):
                asked.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.Name) and node.id == "DRAWN_FORMATS":
                asked.append(f"{path}:{node.lineno}: DRAWN_FORMATS")
    assert asked == []


def test_no_object_assigns_its_own_class():
    """Issue 69: a board's graph is what its type says (it was an object that turned itself into a networkx graph)."""
    import ast

    assigned = [f"{path}:{node.lineno}" for path, tree in _package_trees() for node in ast.walk(tree)
                if isinstance(node, ast.Call) and ast.unparse(node.func) in ("object.__setattr__", "setattr")
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "__class__"
                or isinstance(node, ast.Attribute) and node.attr == "__class__" and isinstance(node.ctx, ast.Store)]
    assert assigned == []


def test_the_core_imports_no_layer_above_it():
    """Issue 69: the models draw themselves through the function the package hands them (``model.use_drawer``),
    so the core (model, errors, parts, caches, budgets) imports nothing of io, render or any other layer, even
    lazily, and the import graph has no circle through io."""
    import ast

    core = {"model.py", "errors.py", "parts.py", "caches.py", "budgets.py"}
    upward = [f"{path}:{node.lineno}: {ast.unparse(node)}" for path, tree in _package_trees() if str(path) in core
              for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level >= 1
              and (node.module or "").split(".")[0] not in {m[:-3] for m in core}]
    assert upward == []



def test_one_name_one_meaning_verify_is_the_function():
    """Issue 69: ``flowgraph.verify`` named both a module and its function (``flowgraph.verify.verify`` failed);
    the module is ``flowgraph.verification``, and importing it rebinds nothing."""
    import importlib

    import flowgraph

    module = importlib.import_module("flowgraph.verification")
    assert flowgraph.verify is module.verify and flowgraph.check is module.check and callable(flowgraph.verify)


def test_a_package_docstring_names_every_module_or_none():
    """Issue 69 (part 5): a package's docstring that names some of its modules names them all (a reader learns
    the package's layout from it, or from the files); one that names none says what the package is for."""
    import ast
    import re

    import flowgraph

    root = Path(flowgraph.__file__).resolve().parent
    partial = {}
    for init in sorted(root.rglob("__init__.py")):
        if "static" in init.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        named = set(re.findall(r":mod:`\.(\w+)", doc))
        modules = {p.stem for p in init.parent.glob("*.py") if p.stem not in ("__init__", "__main__")}
        modules |= {p.parent.name for p in init.parent.glob("*/__init__.py")}
        if named and modules - named:
            partial[str(init.relative_to(root))] = sorted(modules - named)
    assert partial == {}


def test_public_docstrings_open_with_one_plain_sentence():
    """Issue 69, part 7 (python-chess's way): each public function, class and method (a name of its module's
    ``__all__``, and a public class's public methods) has a docstring whose first paragraph is one sentence in
    words (not a signature such as ``{text} -> {svg}``), before the details."""
    import ast
    import re

    package = Path(__file__).resolve().parents[1] / "flowgraph"
    two_sentences = re.compile(r"(?<!e\.g)(?<!i\.e)[.!?] [A-Z`(]")
    wrong = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        public: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
                public = {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
        for node in tree.body:
            if not (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in public):
                continue
            items = [node] + [m for m in getattr(node, "body", []) if isinstance(node, ast.ClassDef)
                              and isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and not m.name.startswith("_")]
            for item in items:
                first = (ast.get_docstring(item) or "").split("\n\n")[0].strip()
                if not (first[:1].isalpha() and first.endswith((".", ":")) and not two_sentences.search(first)):
                    wrong.append(f"{path.relative_to(package.parent)}:{item.lineno} {item.name}: {first[:60]!r}")
    assert not wrong, "\n".join(wrong)


def test_each_module_says_its_one_job_in_its_first_sentence():
    """Issue 69, part 5: a module's docstring opens with one sentence, its job, before the details."""
    import ast
    import re

    package = Path(__file__).resolve().parents[1] / "flowgraph"
    two_sentences = re.compile(r"(?<!e\.g)(?<!i\.e)[.!?] [A-Z`(]")
    wrong = []
    for path in sorted(package.rglob("*.py")):
        first = (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "").split("\n\n")[0].strip()
        if not (first.endswith((".", ":")) and not two_sentences.search(first)):
            wrong.append(f"{path.relative_to(package.parent)}: {first[:60]!r}")
    assert not wrong, "\n".join(wrong)


def test_docstrings_quote_no_measured_figures():
    """Issue 69, part 7: a measurement (seconds, milliseconds, megabytes) lives in docs/benchmarks.md, with its
    command and machine, not in a docstring that outlives it; examples in double backquotes are not figures."""
    import ast
    import re

    package = Path(__file__).resolve().parents[1] / "flowgraph"
    figure = re.compile(r"\b\d+(?:[.,]\d+)?(?:-\d+(?:\.\d+)?)? ?(?:s|ms|µs|seconds|MB|MiB|GB|KB)\b")
    wrong = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef,
                                                                           ast.AsyncFunctionDef)))]:
            text = re.sub(r"``.*?``", "", ast.get_docstring(node) or "", flags=re.S)
            wrong += [f"{path.relative_to(package.parent)}: {m.group()}" for m in figure.finditer(text)]
    assert not wrong, "\n".join(wrong)
