"""Sphinx configuration of flowgraph's site: ``sphinx-build -W --keep-going -b html docs docs/_build/html``.

Sphinx with numpydoc (the docstrings are numpydoc), MyST for the Markdown pages (myst-nb: the example
notebook runs at each build), the PyData theme (networkx's and numpy's), and two local directives
(``_ext/gallery.py``): the gallery, drawn by flowgraph at build time, and the command reference, written from
the command's own parser (so it cannot drift from ``--help``).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import flowgraph  # noqa: E402  (the installed package: `pip install -e '.[docs]'`)

project = "flowgraph"
author = "the flowgraph developers"
copyright = "2026, the flowgraph developers"  # noqa: A001  (Sphinx's name)
release = version = flowgraph.__version__

extensions = [
    "myst_nb",  # MyST Markdown pages, and the example notebook run at each build
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "numpydoc",
    "gallery",
]
exclude_patterns = ["_build", "_ext", "limits.py", "**/README.md"]
myst_heading_anchors = 3
nb_execution_mode = "force"
nb_execution_raise_on_error = True  # a notebook cell that fails fails the build
nb_execution_timeout = 120
myst_enable_extensions = ["colon_fence", "deflist"]
suppress_warnings = ["myst.header"]  # the dated history (benchmarks.md) keeps the headings it was written with

autosummary_generate = True
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks = {"GL08"}  # every documented public object has a docstring
numpydoc_validation_exclude = {r"\.__init__$"}  # a dataclass's: its class says the fields

html_theme = "pydata_sphinx_theme"
html_title = "flowgraph"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_static_path = ["_static"]
html_css_files = ["custom.css"]
doctest_global_setup = f"import os, flowgraph\nos.chdir({str(HERE.parent)!r})"
# The ``{doctest}`` blocks of the pages run here; the docstrings' own examples run in pytest (--doctest-modules),
# in their modules' namespaces
doctest_test_doctest_blocks = ""
