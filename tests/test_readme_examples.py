"""Every ``console`` example of the README and of the documentation site's pages prints what the page shows.

Each ```` ```console ```` block is run command by command (``$ ...`` lines) with bash in a fresh
folder that holds links to ``puzzles/`` and ``tests/``, and what the command prints (standard
output, then standard error) must match the lines shown under it, in order:

* a line ``...`` stands for any number of lines, ``...`` inside a line for any text;
* a decimal number (a time) matches any decimal number;
* standard-error lines the README leaves out (a batch's summary table) may be skipped.

A block that cannot run here (it needs a screenshot, the corpus, a server, a board of the
reader's own) is preceded by ``<!-- not run: why -->``, so every new example is either
checked or excused.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.helpers import ROOT

README = ROOT / "README.md"
#: The pages with examples: the README and the site's Markdown pages (docs/guide/, getting started, ...).
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"(<!-- not run: [^>]*-->\n)?```console\n(.*?)```", re.S)


def _blocks():
    out = []
    for page in PAGES:
        if "_build" in page.parts:
            continue
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(ROOT)
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start(2))
            if m.group(1):
                out.append(pytest.param(m.group(2), id=f"{name}:{line}", marks=pytest.mark.skip(m.group(1)[15:-4])))
            else:
                out.append(pytest.param(m.group(2), id=f"{name}:{line}"))
    return out


def _commands(block: str) -> list[tuple[str, list[str]]]:
    """(command, lines shown under it) for each ``$ `` line; a trailing ``\\`` joins the next line."""
    out: list[tuple[str, list[str]]] = []
    lines = block.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            cmd = line[2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1] + "\n" + lines[i]
            out.append((cmd, []))
        elif out:
            out[-1][1].append(line)
        i += 1
    return out


def _pattern(shown: str) -> re.Pattern:
    parts = re.split(r"(\.\.\.|\d+\.\d+)", shown)
    regex = "".join(".*" if p == "..." else r"\d+(?:\.\d+)?" if re.fullmatch(r"\d+\.\d+", p) else re.escape(p)
                    for p in parts)
    return re.compile(regex.rstrip() + r"\s*")


def _matches(shown: list[str], out: list[str], err: list[str]) -> str | None:
    """None when ``out + err`` shows ``shown``; else what differs."""
    printed = out + err
    stdout_lines = len(out)
    j = 0
    for k, want in enumerate(shown):
        if want.strip() == "...":
            nxt = next((w for w in shown[k + 1:] if w.strip() != "..."), None)
            if nxt is None:
                return None
            pat = _pattern(nxt)
            while j < len(printed) and not pat.fullmatch(printed[j]):
                j += 1
            continue
        pat = _pattern(want)
        # standard error may hold lines the README leaves out; standard output may not
        while j < len(printed) and j >= stdout_lines and not pat.fullmatch(printed[j]):
            j += 1
        if j >= len(printed) or not pat.fullmatch(printed[j]):
            got = printed[j] if j < len(printed) else "(nothing more)"
            return f"expected {want!r}, printed {got!r}"
        j += 1
    extra = [line for line in out[min(j, stdout_lines):] if line.strip()] if j <= stdout_lines else []
    return f"printed more: {extra[:3]}" if extra else None


@pytest.mark.parametrize("block", _blocks())
def test_the_readme_example_prints_what_it_shows(block, tmp_path):
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    for cmd, shown in _commands(block):
        cmd = cmd.split("  #")[0]
        done = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              env={"PATH": _path(), "HOME": str(tmp_path), "COLUMNS": "200", "NO_COLOR": "1",
                                   "FLOWGRAPH_CACHE_DIR": _cache()})
        why = _matches(shown, done.stdout.splitlines(), done.stderr.splitlines())
        assert why is None, f"$ {cmd}\n{why}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"


def _path() -> str:
    import os
    import sys
    from pathlib import Path

    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def _cache() -> str:
    """The cache the rest of the suite uses (the search's build), so the examples do not build it again."""
    import os

    from flowgraph.kernels.cache import cache_root

    return os.environ.get("FLOWGRAPH_CACHE_DIR", str(cache_root()))


PYTHON = re.compile(r"```python\n(.*?)```", re.S)


@pytest.mark.parametrize("page", [p for p in PAGES if "```python" in p.read_text(encoding="utf-8")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_example_runs(page, monkeypatch, tmp_path):
    """Issue 57: the pages' ```python blocks run as they stand, in a folder that holds ``puzzles/``."""
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    monkeypatch.chdir(tmp_path)
    for block in PYTHON.findall(page.read_text(encoding="utf-8")):
        exec(compile(block, str(page), "exec"), {})  # noqa: S102 - the project's own example
