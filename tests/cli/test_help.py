"""Each command's --help says what a user of that command needs: its own exit statuses, its inputs, its features."""

from __future__ import annotations

import pytest

from flowgraph.cli import main


def _help(capsys, *argv) -> str:
    assert main([*argv, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command, zero", [
    ("solve", "0 every puzzle solved"),
    ("validate", "0 every file valid (with --unique: each has exactly one solution"),
    ("bench", "0 every puzzle solved and verified"),
    ("rate", "0 every puzzle rated"),
])
def test_each_batch_command_says_its_own_exit_statuses_once(command, zero, capsys):
    text = _help(capsys, command)
    assert zero in text and text.count("130") == 1 and "--resume finishes" in text


def test_the_top_level_help_names_every_exit_status(capsys):
    """Issue 72: ``flowgraph --help`` left out status 7 (a batch's lost scheduler)."""
    from flowgraph.cli.batching import EXIT_LOST
    from flowgraph.cli.common import EXIT

    table = _help(capsys).split("exit status:")[1]
    for status in sorted({*EXIT.values(), EXIT_LOST, 130}):
        assert f" {status} " in table, status


def test_the_top_level_help_and_convert_name_every_input(capsys):
    assert "puzz.link URL" in _help(capsys) and "pack.txt#3" in _help(capsys)
    text = _help(capsys, "convert")
    assert "*.pack" in text and "*.url" in text and "PACK#N" in text


def test_studio_help_names_play_packs_and_sharing(capsys):
    text = _help(capsys, "studio")
    assert "play a board" in text and "level pack" in text and "share a board" in text


def test_version_answers_without_loading_the_libraries():
    import subprocess
    import sys

    code = ("import sys; sys.argv = ['flowgraph', '--version']\nfrom flowgraph.cli import run\n"
            "try:\n    run()\nexcept SystemExit as exc:\n    assert exc.code == 0\n"
            "assert 'networkx' not in sys.modules and 'numpy' not in sys.modules, 'loaded'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    from flowgraph import __version__

    assert done.returncode == 0, done.stderr
    assert done.stdout == f"flowgraph {__version__}\n"
    assert main(["--version"]) == 0  # main() keeps argparse's own answer


@pytest.mark.parametrize("preset, seen", [(None, "1"), ("3", "3")])
def test_the_command_asks_numpy_for_one_blas_thread_unless_told(preset, seen):
    """The console script sets OPENBLAS_NUM_THREADS=1 before numpy loads (its thread pool's start is a
    fifth of a small board's run); a value the user set is kept."""
    import os
    import subprocess
    import sys

    code = ("import os, sys; sys.argv = ['flowgraph', 'solve', '--help']\nfrom flowgraph.cli import run\n"
            "try:\n    run()\nexcept SystemExit:\n    pass\n"
            "print('threads', os.environ.get('OPENBLAS_NUM_THREADS'))")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"threads {seen}"


def test_solve_help_says_the_sat_share_the_budgets_set(capsys):
    """Issue 69: the help restated SAT's share of the time; it reads it from flowgraph.budgets."""
    from flowgraph.budgets import SAT_SECONDS, SAT_SHARE

    text = " ".join(_help(capsys, "solve").split())
    assert f"{SAT_SHARE:.0%} of the time limit ({SAT_SECONDS:g} s without one)" in text


def test_rate_help_reads_the_ratings_words_and_bounds(capsys):
    """Issue 69: the help restated the rating's bounds; it reads them (and the tight steps' bound) from the rating."""
    from flowgraph.authoring.rating import TIER_WORDS, TIGHT

    text = _help(capsys, "rate")
    words = sorted(TIER_WORDS.items(), key=lambda item: item[1])
    for (word, _), (_, above) in zip(words, words[1:]):
        assert f"{word} below {above:g}" in text
    assert f"at most {TIGHT} forced moves" in text and f"else {words[-1][0]}" in text
