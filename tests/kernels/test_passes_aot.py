"""The passes built ahead of time: the declared signatures are the search's calls, the answers are the same."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flowgraph.cli import main
from flowgraph.kernels import aot, cache
from flowgraph.kernels.entry_points import ENTRY_POINTS, NAMES, array_arguments
from tests.helpers import BUNDLED, PUZZLES, UNSOLVABLE

# Solves every bundled board with the search (and asks prune_reason of its start and of a first step);
# prints the answers per board, how the passes ran and (just in time) each entry point's signatures.
SOLVE_ALL = """
import json, sys
from pathlib import Path
from flowgraph.authoring.explain import explain
from flowgraph.authoring.uniqueness import count_all
from flowgraph import kernels
from flowgraph.engines.search import prune_reason, solve
from flowgraph.errors import UnsolvableError
from flowgraph.io import parse_file
states = {}
for name in sys.argv[1:]:
    puzzle = parse_file(Path(name))
    states[name + " count"] = count_all(puzzle, 3).count  # the exhaustive link search's entry point
    try:
        flow = puzzle.flows[0]
        step = {flow.label: ((flow.ends[0], next(iter(puzzle.graph[flow.ends[0]]))), ())}  # a first step
        states[name] = [solve(puzzle).stats["states"], prune_reason(puzzle, {}, False),
                        prune_reason(puzzle, step, False)]
        states[name + " rating"] = explain(puzzle).rating  # explain's trials: sweep_trials
    except UnsolvableError:
        states[name] = "unsolvable"
signatures = {}
if kernels.runtime().kind == "just in time":
    from numba.core import sigutils
    for entry in kernels.ENTRY_POINTS:
        signatures[entry.name] = [[str(t) for t in sig] for sig in getattr(kernels, entry.name).__wrapped__.signatures]
print(json.dumps({"kind": kernels.runtime().kind, "states": states, "signatures": signatures}))
"""


def _solve_all(**env: str) -> dict:
    full = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "FLOWGRAPH_PASSES")}
    full.update(env)
    done = subprocess.run([sys.executable, "-c", SOLVE_ALL, *map(str, BUNDLED)], env=full, capture_output=True,
                          text=True, check=True, timeout=600)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def just_in_time() -> dict:
    return _solve_all(FLOWGRAPH_PASSES="jit")


@pytest.mark.compile
def test_every_call_the_search_makes_has_the_declared_signature(just_in_time):
    from numba.core import sigutils

    assert just_in_time["kind"] == "just in time"
    for entry in ENTRY_POINTS:
        args, _ = sigutils.normalize_signature(entry.signature)
        assert just_in_time["signatures"][entry.name] == [[str(t) for t in args]], entry.name


@pytest.fixture(scope="module")
def built() -> Path:
    """The module built from the current source in the tests' cache (conftest.py): built once, kept between runs."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    path = cache.aot_path()
    if not cache.trusted(path):
        aot.build()
    assert cache.trusted(path)
    return path


@pytest.mark.compile
def test_a_fresh_build_leaves_a_module_it_loads_and_nothing_else(tmp_path):
    """Built into a fresh cache folder as ``flowgraph warm-up`` builds it, under a umask that lets the group
    write (Debian's and Ubuntu's default for users): the module and its folder must still be ones
    :func:`aot.load` takes, and no work file is left anywhere."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    root, tmp = tmp_path / "cache", tmp_path / "tmp"
    root.mkdir()
    tmp.mkdir()
    done = subprocess.run([sys.executable, "-c", "from flowgraph.kernels import aot; print(aot.build())"],
                          env={**os.environ, "FLOWGRAPH_CACHE_DIR": str(root), "TMPDIR": str(tmp)},
                          capture_output=True, text=True, check=True, timeout=600, preexec_fn=lambda: os.umask(0o002))
    path = Path(done.stdout.strip())
    assert path.is_file() and path.parent.parent == root and cache.trusted(path)
    assert not list(tmp.iterdir())  # nothing left in the temporary folder either
    assert sorted(p.name for p in root.iterdir()) == sorted([path.parent.name, aot.LOCK_NAME])  # no work files
    assert [p.name for p in path.parent.iterdir()] == [path.name]


@pytest.mark.compile
def test_built_ahead_of_time_the_search_takes_the_same_states(just_in_time, built):
    ahead = _solve_all(FLOWGRAPH_CACHE_DIR=str(built.parent.parent))
    assert ahead["kind"] == "ahead of time"
    assert ahead["states"] == just_in_time["states"]
    assert {name for name, s in ahead["states"].items() if s == "unsolvable"} == {str(p) for p in UNSOLVABLE}


def _plant(tmp_path, monkeypatch, data: bytes = b"not a module", mode: int = 0o644) -> Path:
    monkeypatch.setenv("FLOWGRAPH_CACHE_DIR", str(tmp_path))
    path = cache.aot_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    path.chmod(mode)
    return path


def test_the_built_module_loads(tmp_path, monkeypatch, built):
    _plant(tmp_path, monkeypatch, built.read_bytes())
    module = aot.load()
    assert module is not None and module.log_size(4, 1) == 14


def test_a_damaged_module_is_not_loaded(tmp_path, monkeypatch):
    _plant(tmp_path, monkeypatch)
    assert aot.load() is None


@pytest.mark.parametrize("mode", [0o664, 0o646])
def test_a_module_others_could_write_is_not_loaded(tmp_path, monkeypatch, built, mode):
    _plant(tmp_path, monkeypatch, built.read_bytes(), mode)
    assert aot.load() is None


def test_a_module_in_a_folder_others_could_write_is_not_loaded_and_is_built_again(tmp_path, monkeypatch, built):
    path = _plant(tmp_path, monkeypatch, built.read_bytes())
    path.parent.chmod(0o777)
    assert aot.load() is None
    assert not cache.compiled(ahead=True)  # so the next run builds it again (and build() sets the folder's mode)


def test_a_symlinked_module_is_not_loaded(tmp_path, monkeypatch, built):
    path = _plant(tmp_path, monkeypatch)
    path.unlink()
    path.symlink_to(built)
    assert aot.load() is None


def test_an_unwritable_cache_is_a_build_error(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("FLOWGRAPH_CACHE_DIR", str(tmp_path / "file" / "cache"))
    with pytest.raises(aot.BuildError, match="cannot write"):
        aot.build()


def test_without_a_build_the_first_run_says_so_and_solves(monkeypatch, capsys):
    from flowgraph import kernels

    def no_compiler():
        raise aot.BuildError("error: command 'cc' failed: No such file or directory")

    monkeypatch.setattr(kernels, "_RUNTIME", kernels.runtime())  # the failed build is this test's only
    monkeypatch.setattr(cache, "compiled", lambda ahead=False: False)
    monkeypatch.setattr(aot, "load", lambda: None)
    monkeypatch.setattr(aot, "build", no_compiler)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.delenv("FLOWGRAPH_PASSES", raising=False)
    assert kernels.build_ahead() == "error: command 'cc' failed: No such file or directory"
    assert main(["solve", "--engine", "search", str(PUZZLES / "standard" / "regular_5x5.txt")]) == 0
    err = capsys.readouterr().err
    assert "no ahead-of-time build (error: command 'cc' failed" in err and "just in time" in err


@pytest.mark.parametrize("name", NAMES)
def test_every_entry_point_refuses_arrays_of_another_kind(name):
    """Built ahead of time, straight_ahead read int32 arrays as int64 and crashed; in every mode: a TypeError."""
    import numpy as np

    from flowgraph import kernels

    calls = kernels.sample_calls()
    getattr(kernels, name)(*calls[name])  # the sample call itself is accepted
    arrays = array_arguments(NAMES[name].signature)
    assert arrays or name == "log_size"
    for i, _, ndim in arrays:
        given = calls[name][i]
        swapped = given.astype(given.dtype.newbyteorder(">" if given.dtype.byteorder != ">" else "<"))
        for wrong in (given.astype(np.int32), np.repeat(given, 2, axis=-1)[..., ::2], given.tolist(),
                      *([swapped] if given.dtype.itemsize > 1 else [])):
            args = list(kernels.sample_calls()[name])
            args[i] = wrong
            with pytest.raises(TypeError, match=f"argument {i + 1} must be a C-contiguous {ndim}-D"):
                getattr(kernels, name)(*args)


def test_built_ahead_of_time_a_wrong_dtype_is_a_type_error_not_a_crash(built):
    code = """
import numpy as np
from flowgraph import kernels
args = list(kernels.sample_calls()["straight_ahead"])
args[0] = args[0].astype(np.int32)
try:
    kernels.straight_ahead(*args)
except TypeError as exc:
    print(kernels.runtime().kind, "|", exc)
"""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "FLOWGRAPH_PASSES")}
    done = subprocess.run([sys.executable, "-c", code], env={**env, "FLOWGRAPH_CACHE_DIR": str(built.parent.parent)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # a segfault was -11
    assert done.stdout.startswith("ahead of time | straight_ahead(): argument 1 must be a C-contiguous 1-D int64")


def test_every_kernel_is_declared_where_it_is_defined_and_the_rest_follows():
    """A kernel's declaration (``@kernel(signature)`` above its definition) is the one place it is named: the
    table read from the source text is what the decorators saw on import, and warm_up's sample calls, the
    facade's ``__all__`` and its type-checking imports cover every one."""
    import ast
    import importlib

    from flowgraph import kernels
    from flowgraph.kernels import entry_points

    for module in {entry.module for entry in ENTRY_POINTS}:
        importlib.import_module(f"flowgraph.kernels.{module}")
    assert {(e.module, e.name): e.signature for e in ENTRY_POINTS} == entry_points.SEEN
    calls = kernels.sample_calls()
    for entry in ENTRY_POINTS:
        assert entry.name in calls, f"add a sample call for {entry.name} to kernels.sample_calls"
    facade = {"ENTRY_POINTS", "Runtime", "runtime", "ready", "bind", "build_ahead", "sample_calls", "trusted", "warm_up"}
    assert set(calls) == set(NAMES) == set(kernels.__all__) - facade
    facade = ast.parse((cache.PASSES_DIR / "__init__.py").read_text())
    typed = {(node.module, alias.name) for node in ast.walk(facade) if isinstance(node, ast.ImportFrom)
             for alias in node.names if node.level == 1}
    for entry in ENTRY_POINTS:
        assert (entry.module, entry.name) in typed, f"add {entry.name} to the facade's TYPE_CHECKING imports"


def test_a_declaration_is_read_from_the_text_over_lines_and_beside_other_decorators(tmp_path):
    from flowgraph.kernels.entry_points import declared

    (tmp_path / "a.py").write_text('@kernel("i8(i8[::1], "\n        "u1[:, ::1])")\n@njit(cache=True)\n'
                                   'def first(x, y):\n    pass\n\n\n@kernel("i8(i8)")\n@njit\ndef second(x):\n'
                                   '    pass\n')
    (tmp_path / "b.py").write_text('def third():\n    pass\n')
    assert [(e.module, e.name, e.signature) for e in declared(tmp_path)] == [
        ("a", "first", "i8(i8[::1], u1[:, ::1])"), ("a", "second", "i8(i8)")]
    assert array_arguments(declared(tmp_path)[0].signature) == ((0, "int64", 1), (1, "uint8", 2))
    (tmp_path / "c.py").write_text('@kernel("i8(i8)")\ndef second(x):\n    pass\n')
    with pytest.raises(RuntimeError, match="two kernels share a name"):
        declared(tmp_path)


@pytest.mark.parametrize("name", ["move_pass", "fewest_moves"])
def test_a_trusted_pass_is_checked_once_and_then_called_bare(name):
    """The search's loop calls its two passes without the per-call check, once its root's arrays pass it."""
    import numpy as np

    from flowgraph import kernels

    calls = kernels.sample_calls()
    bare = kernels.trusted(name, *calls[name])
    assert bare is getattr(kernels, name).__wrapped__
    i = array_arguments(NAMES[name].signature)[0][0]
    args = list(calls[name])
    args[i] = np.asarray(args[i]).astype(np.int32)
    with pytest.raises(TypeError, match=f"argument {i + 1} must be a C-contiguous"):
        kernels.trusted(name, *args)


def test_a_pass_put_in_its_place_is_the_one_the_search_calls(monkeypatch):
    """A wrapper put in a pass's place (a profiler's, a test's) is called as it is: ``trusted`` does not go past it."""
    from flowgraph import kernels, parse_file, solve

    kernels.bind()
    real, calls = kernels.move_pass, []

    def spy(*args):
        calls.append(args[13])
        return real(*args)

    monkeypatch.setattr(kernels, "move_pass", spy)
    assert kernels.trusted("move_pass") is spy
    assert solve(parse_file(PUZZLES / "standard" / "open_field_8x8.txt"), engine="search").paths and calls
