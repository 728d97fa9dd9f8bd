"""The docs that are written from the code agree with it."""

from __future__ import annotations

import importlib.util

from tests.helpers import ROOT


def test_the_limits_page_is_what_the_code_says():
    """docs/limits.md lists every MAX_* bound with its value and its '#:' comment: run python docs/limits.py."""
    spec = importlib.util.spec_from_file_location("limits_page", ROOT / "docs" / "limits.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "docs" / "limits.md").read_text(encoding="utf-8") == module.page(), "run: python docs/limits.py"


def test_the_readme_names_the_python_that_pyproject_requires():
    # issue 36: the README said 3.10 while a test dependency (httpx2) needs 3.11.
    import re
    import sys

    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    minimum = re.fullmatch(r">=(\d+\.\d+)", project["requires-python"]).group(1)
    assert f"Python {minimum} or newer" in (ROOT / "README.md").read_text()
    assert sys.version_info >= tuple(map(int, minimum.split(".")))
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["python_version"]
    assert mypy == minimum


def test_the_api_reference_has_a_page_for_every_public_name():
    """Issue 57: docs/reference/api.rst lists each name of flowgraph.__all__ (autosummary makes it a page)."""
    import flowgraph

    listed = {line.strip() for line in (ROOT / "docs" / "reference" / "api.rst").read_text().splitlines()}
    assert set(flowgraph.__all__) - {"__version__"} <= listed


def test_the_command_reference_has_a_page_for_every_command():
    from flowgraph.cli.program import COMMANDS

    pages = {p.stem for p in (ROOT / "docs" / "reference" / "cli").glob("*.rst")}
    assert pages == set(COMMANDS), "add docs/reference/cli/COMMAND.rst (and to docs/reference/cli.rst's toctree)"
